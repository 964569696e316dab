//! The media byte channel and verified cache against a loopback test peer.

mod support;

use std::time::Duration;

use protocol::ServerFrame;
use support::*;
use transport::media::IMAGE_MAX_BYTES;
use transport::testpeer::{sha256_hex, PeerConfig, Serve, TestPeer};
use transport::{
    MediaCache, MediaChannel, MediaError, SessionEvent, SessionHandle, UploadOutcome, UploadRequest,
};

fn body(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
        .collect()
}

async fn setup(
    config: PeerConfig,
) -> (
    TestPeer,
    SessionHandle,
    tokio::sync::mpsc::Receiver<SessionEvent>,
    MediaChannel,
) {
    let peer = peer(config).await;
    let (handle, events) = dial(&peer.ticket(), "good-key").await.unwrap();
    let channel = handle.media().expect("online");
    (peer, handle, events, channel)
}

/// Every entry in the cache dir, temp files included.
fn entries(cache: &MediaCache) -> Vec<String> {
    std::fs::read_dir(cache.dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

#[tokio::test]
async fn get_verifies_caches_and_serves_the_second_request_from_disk() {
    let (peer, _h, _e, channel) = setup(PeerConfig::default()).await;
    let bytes = body(300 * 1024 + 7, 1);
    let hash = peer.add_blob(bytes.clone(), "image/png", "map.png", Serve::Honest);
    let dir = tempfile::tempdir().unwrap();
    let cache = MediaCache::open(dir.path(), u64::MAX).unwrap();
    let got = cache
        .get(&channel, &hash, Some(bytes.len() as u64))
        .await
        .unwrap();
    assert_eq!(got.mime.as_deref(), Some("image/png"));
    assert_eq!(got.name.as_deref(), Some("map.png"));
    assert_eq!(std::fs::read(&got.path).unwrap(), bytes);
    assert_eq!(entries(&cache), vec![hash.clone()]);
    let again = cache.get(&channel, &hash, None).await.unwrap();
    assert_eq!(again.path, got.path);
    assert_eq!(peer.state.get_count(), 1);
    // Fetched files are the user's alone (a mode on Unix; on Windows the profile folder's
    // inherited ACL, which grants only the user and the system).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&got.path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
}

#[tokio::test]
async fn a_declared_size_the_reply_contradicts_is_an_error_not_a_download() {
    let (peer, _h, _e, channel) = setup(PeerConfig::default()).await;
    let bytes = body(200_000, 9);
    let hash = peer.add_blob(bytes.clone(), "text/html", "page.html", Serve::Honest);
    let dir = tempfile::tempdir().unwrap();
    let cache = MediaCache::open(dir.path(), u64::MAX).unwrap();
    // A manifest that says 1 KiB for a 200 KB file.
    let err = cache.get(&channel, &hash, Some(1024)).await.unwrap_err();
    assert!(
        matches!(
            err,
            MediaError::SizeMismatch {
                expected: 1024,
                announced: 200_000,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(entries(&cache).is_empty(), "{:?}", entries(&cache));
    // The right size fetches it.
    cache.get(&channel, &hash, Some(200_000)).await.unwrap();
}

#[tokio::test]
async fn tampered_truncated_oversize_and_unknown_gets_cache_nothing() {
    let (peer, _h, _e, channel) = setup(PeerConfig::default()).await;
    let dir = tempfile::tempdir().unwrap();
    let cache = MediaCache::open(dir.path(), u64::MAX).unwrap();

    let tampered = peer.add_blob(body(100_000, 2), "image/png", "t.png", Serve::Tampered);
    let err = cache.get(&channel, &tampered, None).await.unwrap_err();
    assert!(matches!(err, MediaError::HashMismatch { .. }), "{err:?}");

    let truncated = peer.add_blob(
        body(100_000, 3),
        "audio/ogg",
        "t.ogg",
        Serve::Truncated(40_000),
    );
    let err = cache.get(&channel, &truncated, None).await.unwrap_err();
    assert!(
        matches!(
            err,
            MediaError::Truncated {
                received: 40_000,
                expected: 100_000,
                ..
            }
        ),
        "{err:?}"
    );

    let oversize = peer.add_blob(
        body(1000, 4),
        "image/png",
        "big.png",
        Serve::AnnounceSize(IMAGE_MAX_BYTES + 1),
    );
    let err = cache.get(&channel, &oversize, None).await.unwrap_err();
    assert!(
        err.to_string().contains("limited to 8 MiB per file"),
        "{err}"
    );

    let err = cache
        .get(&channel, &sha256_hex(b"nobody has this"), None)
        .await
        .unwrap_err();
    assert!(matches!(err, MediaError::NotFound { .. }), "{err:?}");
    assert!(err.to_string().contains("media_not_found"), "{err}");

    let err = cache
        .get(&channel, "../../etc/passwd", None)
        .await
        .unwrap_err();
    assert!(matches!(err, MediaError::InvalidHash(_)), "{err:?}");
    assert!(
        entries(&cache).is_empty(),
        "left behind: {:?}",
        entries(&cache)
    );
}

#[tokio::test]
async fn concurrent_gets_of_one_hash_share_one_transfer() {
    let config = PeerConfig {
        get_delay: Duration::from_millis(300),
        ..Default::default()
    };
    let (peer, _h, _e, channel) = setup(config).await;
    let bytes = body(2 << 20, 5);
    let hash = peer.add_blob(bytes.clone(), "audio/mpeg", "theme.mp3", Serve::Honest);
    let dir = tempfile::tempdir().unwrap();
    let cache = MediaCache::open(dir.path(), u64::MAX).unwrap();
    let gets = (0..8).map(|_| {
        let (cache, channel, hash) = (cache.clone(), channel.clone(), hash.clone());
        tokio::spawn(async move { cache.get(&channel, &hash, None).await })
    });
    for get in gets.collect::<Vec<_>>() {
        let got = get.await.unwrap().unwrap();
        assert_eq!(got.size, bytes.len() as u64);
    }
    assert_eq!(peer.state.get_count(), 1);
}

#[tokio::test]
async fn put_stores_then_existing_skips_the_put() {
    let (peer, handle, mut events, channel) = setup(PeerConfig::default()).await;
    let dir = tempfile::tempdir().unwrap();
    let bytes = body(200 * 1024 + 3, 6);
    let path = dir.path().join("portrait.png");
    std::fs::write(&path, &bytes).unwrap();
    let request = UploadRequest {
        path,
        name: "portrait.png".into(),
        mime: "image/png".into(),
    };
    let mut last = (0, 0);
    let outcome = handle
        .upload(&request, |sent, total| last = (sent, total))
        .await
        .unwrap();
    let hash = sha256_hex(&bytes);
    assert_eq!(outcome, UploadOutcome::Stored { hash: hash.clone() });
    assert_eq!(last, (bytes.len() as u64, bytes.len() as u64));
    wait_for(
        &mut events,
        "media broadcast",
        |e| matches!(e, SessionEvent::Frame(ServerFrame::Media(m), _) if m.hash == hash),
    )
    .await;

    let cache = MediaCache::open(dir.path().join("cache"), u64::MAX).unwrap();
    let got = cache.get(&channel, &hash, None).await.unwrap();
    assert_eq!(std::fs::read(got.path).unwrap(), bytes);

    let outcome = handle.upload(&request, |_, _| {}).await.unwrap();
    assert_eq!(outcome, UploadOutcome::Existing { hash });
    assert_eq!(peer.state.puts.load(std::sync::atomic::Ordering::SeqCst), 1);
}

#[tokio::test]
async fn put_reports_the_tables_hash_mismatch_and_checks_before_offering() {
    let (peer, handle, _events, _channel) = setup(PeerConfig {
        mangle_puts: true,
        ..Default::default()
    })
    .await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.ogg");
    std::fs::write(&path, body(70_000, 7)).unwrap();
    let request = UploadRequest {
        path: path.clone(),
        name: "a.ogg".into(),
        mime: "audio/ogg".into(),
    };
    let err = handle.upload(&request, |_, _| {}).await.unwrap_err();
    assert!(
        matches!(&err, MediaError::Refused { code, .. } if code == "media_hash_mismatch"),
        "{err:?}"
    );

    let text = UploadRequest {
        path,
        name: "a.txt".into(),
        mime: "text/plain".into(),
    };
    let err = handle.upload(&text, |_, _| {}).await.unwrap_err();
    assert!(
        err.to_string().contains("supported upload MIME types are"),
        "{err}"
    );
    assert_eq!(peer.state.puts.load(std::sync::atomic::Ordering::SeqCst), 1);
}

#[tokio::test]
async fn bench_smoke_runs_all_three_paths() {
    let dir = tempfile::tempdir().unwrap();
    let times = transport::bench::copy_vs_verified_get(4 << 20, dir.path())
        .await
        .unwrap();
    assert_eq!(times.bytes, 4 << 20);
    assert!(times.ratio() > 0.0);
    assert!(times.ratio_in_memory() > 0.0);
    // Each path's CPU is read (a GET of 4 MiB hashes for a millisecond or more), and the ceiling
    // it sets is a ratio above the one measured: no GET runs faster than its CPU spread over
    // every core of the machine.
    #[cfg(unix)]
    {
        for (i, cpu) in times.cpu.iter().enumerate() {
            assert!(cpu.is_some_and(|c| c.as_micros() > 0), "path {i}: {cpu:?}");
        }
        let cores = std::thread::available_parallelism().unwrap().get();
        let ceiling = times.ratio_ceiling(cores).unwrap();
        assert!(
            ceiling >= times.ratio() * 0.9,
            "{ceiling} < {}",
            times.ratio()
        );
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// `cargo test --release -p transport --test media -- --ignored --nocapture` prints the ratio
/// and the peak RSS growth of a 128 MiB verified GET.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement, not a check: run in release"]
async fn bench_64_and_128_mib() {
    let dir = tempfile::tempdir().unwrap();
    for bytes in [64u64 << 20, 64 << 20, 128 << 20] {
        let before = peak_rss_kib();
        let t = transport::bench::copy_vs_verified_get(bytes, dir.path())
            .await
            .unwrap();
        println!(
            "{} MiB: raw {:.0} MB/s, verified {:.0} MB/s, in-memory read then hash {:.0} MB/s, ratio {:.2}, / in-memory {:.2}, peak RSS +{} KiB",
            bytes >> 20,
            t.raw_mb_per_s(),
            t.verified_mb_per_s(),
            t.in_memory_mb_per_s(),
            t.ratio(),
            t.ratio_in_memory(),
            peak_rss_kib().saturating_sub(before)
        );
    }
}

fn peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}
