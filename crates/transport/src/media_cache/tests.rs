//! The media cache's own tests: privacy, symlinks, verify-once, sweeps, the LRU.

use super::*;
#[cfg(unix)]
use std::os::unix::fs::PermissionsExt;

fn put(cache: &MediaCache, body: &[u8]) -> String {
    let hash = hex(Sha256::digest(body));
    std::fs::write(cache.dir().join(&hash), body).unwrap();
    hash
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    std::fs::symlink_metadata(path)
        .unwrap()
        .permissions()
        .mode()
        & 0o777
}

#[tokio::test]
async fn lru_evicts_oldest() {
    let dir = tempfile::tempdir().unwrap();
    let cache = MediaCache::open(dir.path(), 25).unwrap();
    let a = put(&cache, &[1u8; 10]);
    let old = SystemTime::now() - Duration::from_secs(100);
    std::fs::File::options()
        .append(true)
        .open(cache.dir().join(&a))
        .unwrap()
        .set_modified(old)
        .unwrap();
    let b = put(&cache, &[2u8; 10]);
    put(&cache, &[3u8; 10]);
    assert_eq!(cache.evict_to_cap().await.unwrap(), 10);
    assert!(cache.cached(&a, None).await.is_none());
    assert!(cache.cached(&b, None).await.is_some());
    assert!(cache.path_for("../x").is_err());
}

#[cfg(unix)]
#[tokio::test]
async fn the_cache_is_private() {
    let dir = tempfile::tempdir().unwrap();
    let media = dir.path().join("media");
    std::fs::create_dir(&media).unwrap();
    std::fs::set_permissions(&media, std::fs::Permissions::from_mode(0o755)).unwrap();
    let cache = MediaCache::open(&media, u64::MAX).unwrap();
    assert_eq!(mode(&media), 0o700, "an existing cache dir is tightened");
    // A file another client left world-readable is made private when Studio trusts it.
    let shared = put(&cache, b"left by the terminal client");
    std::fs::set_permissions(media.join(&shared), std::fs::Permissions::from_mode(0o644)).unwrap();
    assert!(cache.cached(&shared, None).await.is_some());
    assert_eq!(mode(&media.join(&shared)), 0o600);
    // Studio's own copies are 0600 from the first byte.
    let src = dir.path().join("upload.png");
    std::fs::write(&src, b"my picture").unwrap();
    std::fs::set_permissions(&src, std::fs::Permissions::from_mode(0o644)).unwrap();
    let hash = hex(Sha256::digest(b"my picture"));
    let hit = cache.insert_file(&src, &hash).await.unwrap();
    assert_eq!(mode(&hit.path), 0o600);
    // Staging: 0700 directory, 0600 file, a name nobody can guess.
    let (one, _f1) = cache.staging_file().unwrap();
    let (two, _f2) = cache.staging_file().unwrap();
    assert_ne!(one, two);
    assert_eq!(mode(one.parent().unwrap()), 0o700);
    assert_eq!(mode(&one), 0o600);
    let name = one.file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.len() > 32, "{name}");
}

#[tokio::test]
async fn abandoned_staging_files_are_swept_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let staging = dir.path().join(cache_files::STAGING_DIR);
    std::fs::create_dir_all(&staging).unwrap();
    // pid 0 never runs a Studio: abandoned. Ours is alive: kept.
    let dead = staging.join(format!("0-{:032x}", 7));
    let live = staging.join(format!("{}-{:032x}", std::process::id(), 8));
    std::fs::write(&dead, b"x").unwrap();
    std::fs::write(&live, b"y").unwrap();
    MediaCache::open(dir.path(), u64::MAX).unwrap();
    assert!(
        !dead.exists(),
        "an abandoned staged upload survived a start"
    );
    assert!(live.exists(), "a running upload was swept");
}

#[cfg(unix)]
#[tokio::test]
async fn a_symlink_is_never_followed() {
    let dir = tempfile::tempdir().unwrap();
    let cache = MediaCache::open(dir.path().join("media"), u64::MAX).unwrap();
    // The link's target holds exactly the right bytes: still refused, and left alone.
    let body = b"the right bytes, somewhere else";
    let hash = hex(Sha256::digest(body));
    let target = dir.path().join("outside");
    std::fs::write(&target, body).unwrap();
    std::os::unix::fs::symlink(&target, cache.dir().join(&hash)).unwrap();
    assert!(cache.cached(&hash, None).await.is_none());
    assert!(cache.read(&hash, None, u64::MAX).await.is_err());
    assert!(
        std::fs::symlink_metadata(cache.dir().join(&hash)).is_err(),
        "the link stays"
    );
    assert_eq!(
        std::fs::read(&target).unwrap(),
        body,
        "the target was touched"
    );
    assert_eq!(cache.verifications(), 0, "a link's target was hashed");
}

#[tokio::test]
async fn verified_once_then_trusted_until_the_file_changes() {
    let dir = tempfile::tempdir().unwrap();
    let cache = MediaCache::open(dir.path(), u64::MAX).unwrap();
    let body = vec![5u8; 100_000];
    let hash = put(&cache, &body);
    for _ in 0..5 {
        assert_eq!(
            cache.read(&hash, Some(100_000), u64::MAX).await.unwrap(),
            body
        );
    }
    assert_eq!(cache.verifications(), 1, "hashed more than once");
    // A caller with the wrong size is refused without re-hashing (and the file stays).
    assert!(cache.cached(&hash, Some(99)).await.is_none());
    assert_eq!(cache.verifications(), 1);
    assert!(cache.dir().join(&hash).exists());
    // Rewritten in place, same size: the stamp changed, the hash is checked, the lie goes.
    std::fs::write(cache.dir().join(&hash), vec![6u8; 100_000]).unwrap();
    assert!(cache.read(&hash, Some(100_000), u64::MAX).await.is_err());
    assert_eq!(cache.verifications(), 2);
    assert!(!cache.dir().join(&hash).exists(), "a lying file stayed");
    // A read is bounded: a file larger than the use allows is an error, not a big read.
    let big = put(&cache, &[1u8; 4096]);
    assert!(matches!(
        cache.read(&big, None, 1024).await,
        Err(MediaError::TooLarge { .. })
    ));
}

#[tokio::test]
async fn an_unverified_file_of_the_wrong_size_is_removed() {
    let dir = tempfile::tempdir().unwrap();
    let cache = MediaCache::open(dir.path(), u64::MAX).unwrap();
    let hash = put(&cache, &[9u8; 10]);
    assert!(cache.cached(&hash, Some(11)).await.is_none());
    assert!(!cache.dir().join(&hash).exists());
    assert_eq!(cache.verifications(), 0, "hashed a file of the wrong size");
}

/// #31: a cache file's name is the hash alone, lowercase: no name that Windows reads another
/// way (a drive, a device, a stream, a backslash) and no two names that differ only in case.
#[test]
fn only_a_lowercase_hash_names_a_cache_file_on_any_platform() {
    let dir = tempfile::tempdir().unwrap();
    let cache = MediaCache::open(dir.path(), u64::MAX).unwrap();
    let hash = hex(Sha256::digest(b"x"));
    assert_eq!(cache.path_for(&hash).unwrap(), cache.dir().join(&hash));
    let upper = hash.to_ascii_uppercase();
    for bad in [
        upper.as_str(),
        "CON",
        "nul",
        "C:\\Windows\\win.ini",
        "c:x",
        &format!("{}:stream", &hash[..57]),
        &format!("..\\{}", &hash[..61]),
    ] {
        assert!(cache.path_for(bad).is_err(), "{bad:?} names a file");
    }
}
