//! Memory while sharing a 128 MiB sound: a fresh child process (this binary, `bench-upload-child`)
//! connects to a local table in the parent and uploads the file the way Studio does (hashed
//! and PUT from disk by the transport). It reports its own resident memory once connected and
//! its peak after the upload: the growth is what the upload cost. Loopback, Local-only.

use std::path::{Path, PathBuf};
use std::time::Duration;

use local_table::keystore::{KeyEntry, KeySource};
use protocol::ServerFrame;
use transport::endpoint::{bind, NetworkMode};
use transport::session::{JoinParams, Session, SessionEvent, UploadRequest};

pub const GROWTH_TARGET_MIB: f64 = 32.0;
const SIZE: u64 = 128 << 20;

/// (resident when connected, peak after the upload), in KiB, from the child.
pub async fn upload_rss(work: &Path) -> Result<(u64, u64), String> {
    let key = "bench-upload-key".to_string();
    let keys = KeySource::Memory(vec![(
        key.clone(),
        KeyEntry {
            room: "bench".into(),
            name: "Keeper".into(),
            role: "keeper".into(),
        },
    )]);
    let config = local_table::TableConfig::new(keys, work.join("upload-table"));
    let table = local_table::LocalTable::start(config)
        .await
        .map_err(|e| e.to_string())?;
    let file = work.join("long night.wav");
    {
        let f = std::fs::File::create(&file).map_err(|e| e.to_string())?;
        f.set_len(SIZE).map_err(|e| e.to_string())?;
    }
    let rss = crate::bench_child::run(
        "bench-upload-child",
        &[
            table.endpoint_ticket().to_string().as_ref(),
            key.as_ref(),
            file.as_os_str(),
        ],
    )
    .await?;
    Ok((rss.idle_kib, rss.peak_kib))
}

/// The child: connect, settle, upload, report `rss <idle KiB> <peak KiB>`.
pub fn child(args: &[String]) -> Result<(), String> {
    let [ticket, key, path] = args else {
        return Err("bench-upload-child <ticket> <key> <file>".into());
    };
    let runtime = crate::bench_child::runtime()?;
    runtime.block_on(async {
        let ticket = transport::ticket::parse_ticket(ticket).map_err(|e| e.to_string())?;
        let endpoint = bind(NetworkMode::LocalOnly)
            .await
            .map_err(|e| e.to_string())?;
        let params = JoinParams {
            key: key.clone(),
            name: None,
            client_version: "bench".into(),
        };
        let (session, mut events) = Session::connect(endpoint, ticket, params)
            .await
            .map_err(|e| e.to_string())?;
        loop {
            let e = tokio::time::timeout(Duration::from_secs(10), events.recv())
                .await
                .map_err(|_| "no welcome within 10 s")?
                .ok_or("the session ended")?;
            if let SessionEvent::Frame(ServerFrame::Welcome(_), _) = e {
                break;
            }
        }
        // Drain what the join brings, then measure the connected process at rest.
        tokio::time::sleep(Duration::from_millis(500)).await;
        while events.try_recv().is_ok() {}
        let idle = crate::bench_child::status_kib("VmRSS:");
        let request = UploadRequest {
            path: PathBuf::from(path),
            name: "long night.wav".into(),
            mime: "audio/wav".into(),
        };
        session
            .upload(&request, |_, _| {})
            .await
            .map_err(|e| e.to_string())?;
        let peak = crate::bench_child::status_kib("VmHWM:");
        println!("rss {idle} {peak}");
        session.close();
        Ok(())
    })
}
