//! Memory of a 128 MiB verified GET: a fresh child process (this binary, `bench-get-child`)
//! dials the bench server in the parent and does nothing but one GET the way Studio does
//! (`MediaCache::get`: hashed while it streams to a temp file on the media cache's filesystem,
//! renamed once verified). It reports its own resident memory once connected and at rest, and its
//! peak (the kernel's high-water mark) after the GET: the absolute peak is what the process
//! needed at most, the growth over its own idle baseline is what the GET cost.

use std::path::Path;
use std::time::Duration;

use transport::bench::BenchClient;

use crate::bench_child::ChildRss;

/// How many fresh children run; the worst growth is reported.
pub const RUNS: usize = 3;

/// Runs one child GETting the `bytes`-long body `hash` from the server behind `ticket` into a
/// fresh cache under `dir`. The server must keep running in this process meanwhile (the child is
/// awaited without blocking the runtime).
pub async fn get_rss(ticket: &str, hash: &str, bytes: u64, dir: &Path) -> Result<ChildRss, String> {
    let size = bytes.to_string();
    let args = [
        ticket.as_ref(),
        hash.as_ref(),
        size.as_ref(),
        dir.as_os_str(),
    ];
    crate::bench_child::run("bench-get-child", &args).await
}

/// The child: dial, settle, one verified GET, report `rss <idle KiB> <peak KiB>`.
pub fn child(args: &[String]) -> Result<(), String> {
    let [ticket, hash, bytes, dir] = args else {
        return Err("bench-get-child <ticket> <hash> <bytes> <dir>".into());
    };
    let bytes: u64 = bytes
        .parse()
        .map_err(|e| format!("bench-get-child: size {bytes}: {e}"))?;
    let runtime = crate::bench_child::runtime()?;
    runtime.block_on(async {
        let client = BenchClient::dial(ticket).await.map_err(|e| e.to_string())?;
        // Let the handshake's aftermath settle, then measure the connected process at rest.
        tokio::time::sleep(Duration::from_millis(500)).await;
        let idle = crate::bench_child::status_kib("VmRSS:");
        let result = client.verified_get(hash, bytes, Path::new(dir)).await;
        let peak = crate::bench_child::status_kib("VmHWM:");
        client.close().await;
        result.map_err(|e| e.to_string())?;
        println!("rss {idle} {peak}");
        Ok(())
    })
}
