//! `cargo xtask bench`: the transport and codec figures issue #3 sets targets for and the pack
//! bench's reload latency (issue #10), in one run,
//! on loopback with Local-only endpoints (nothing leaves 127.0.0.1).
//!
//! `cargo xtask` runs a dev build, and a debug build of iroh and sha2 measures the compiler, not
//! Studio. So the dev build only re-runs this same command from a release build of xtask
//! (`cargo run --release`), which does the measuring. The verified GET is
//! `transport::bench`, i.e. the app's own `MediaCache::get` over the app's own endpoint.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use transport::bench::{copy_vs_verified_get, copy_vs_verified_get_probed, CopyTimes};

use crate::cmd;

/// Set in the release child so it never re-launches itself.
const CHILD_ENV: &str = "LOREWEAVER_XTASK_BENCH_CHILD";
const RATIO_TARGET: f64 = 0.9;
const RSS_TARGET_MIB: f64 = 16.0;
const DECODE_TARGET: f64 = 100_000.0;
/// `audio_control` → first sound, for a blob already in the cache (issue #11).
const AUDIO_LATENCY_TARGET_MS: f64 = 50.0;
/// A fade may stray this far (share of full level) from its straight line.
const FADE_ERROR_TARGET: f64 = 0.02;
/// Each size runs this often; the median ratio damps scheduler noise on a 2-core machine.
const RUNS: usize = 5;
/// How long the decode loop replays the capture.
const DECODE_TIME: Duration = Duration::from_secs(2);

pub fn run() -> Result<(), String> {
    if cfg!(debug_assertions) && std::env::var_os(CHILD_ENV).is_none() {
        eprintln!("bench: measuring a release build (the dev build would measure debug iroh)");
        return cmd::cargo(&["run", "--quiet", "--release", "-p", "xtask", "--", "bench"])
            .env(CHILD_ENV, "1")
            .run();
    }
    let dir = std::env::temp_dir().join(format!("xtask-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let result = measure(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn measure(dir: &std::path::Path) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("tokio runtime: {e}"))?;
    // Server and client share this machine's cores: a busy machine lowers the ratio, so say so.
    // (The load average lags by a minute; a half-second CPU sample does not.)
    let busy = busy_percent(Duration::from_millis(500))
        .map_or("unknown".to_string(), |p| format!("{p:.0}%"));
    println!(
        "bench: loopback, Local-only iroh endpoints, release build, median of {RUNS} runs \
         (CPU busy before starting: {busy})"
    );
    let mut missed = 0;
    let mut verdict = |pass: bool| {
        missed += usize::from(!pass);
        if pass {
            "PASS"
        } else {
            "MISS"
        }
    };
    let (t64, t128, rss_kib) = runtime.block_on(async {
        // The first connection in a process pays for endpoint setup and allocator growth.
        copy_vs_verified_get(16 << 20, dir)
            .await
            .map_err(|e| e.to_string())?;
        let mut t64 = Vec::new();
        for _ in 0..RUNS {
            t64.push(
                copy_vs_verified_get(64 << 20, dir)
                    .await
                    .map_err(|e| e.to_string())?,
            );
        }
        let (mut t128, mut rss_kib) = (Vec::new(), Some(0u64));
        for _ in 0..RUNS {
            let mut probe = None;
            let t = copy_vs_verified_get_probed(128 << 20, dir, || probe = Some(RssProbe::start()))
                .await
                .map_err(|e| e.to_string())?;
            // None without /proc (not Linux): the figure is then reported as unavailable.
            rss_kib = match (rss_kib, probe.and_then(RssProbe::growth_kib)) {
                (Some(a), Some(b)) => Some(a.max(b)),
                _ => None,
            };
            t128.push(t);
        }
        Ok::<_, String>((median(t64), median(t128), rss_kib))
    })?;
    for (label, t) in [("(a)  64 MiB", t64), ("(b) 128 MiB", t128)] {
        println!(
            "{label}: raw copy {:.0} MB/s, verified GET {:.0} MB/s, ratio {:.3} (target >= {RATIO_TARGET}) {}",
            t.raw_mb_per_s(),
            t.verified_mb_per_s(),
            t.ratio(),
            verdict(t.ratio() >= RATIO_TARGET)
        );
    }
    match rss_kib {
        Some(kib) => {
            let mib = kib as f64 / 1024.0;
            println!(
                "(b) 128 MiB: peak RSS growth during the verified GET {mib:.1} MiB, worst of {RUNS} (target < {RSS_TARGET_MIB} MiB) {}",
                verdict(mib < RSS_TARGET_MIB)
            );
        }
        None => println!(
            "(b) 128 MiB: peak RSS growth unavailable (no /proc/self/status) (target < {RSS_TARGET_MIB} MiB) {}",
            verdict(false)
        ),
    }
    let (frames, replays, per_s) = decode_throughput()?;
    println!(
        "(c) decode: engine capture ({frames} frames) replayed {replays} times, {:.0}k frames/s (target >= {:.0}k) {}",
        per_s / 1e3,
        DECODE_TARGET / 1e3,
        verdict(per_s >= DECODE_TARGET)
    );
    let reload_ms = runtime.block_on(crate::bench_pack::save_to_manifest_ms(dir))?;
    println!(
        "(d) pack bench: save → fresh ui_manifest at the viewer {reload_ms:.0} ms, median of 7 saves (target < {:.0} ms) {}",
        crate::bench_pack::RELOAD_TARGET_MS,
        verdict(reload_ms < crate::bench_pack::RELOAD_TARGET_MS)
    );
    let mut latency = mixer::bench::play_latency(dir, 15)?;
    latency.sort();
    let median_ms = latency[latency.len() / 2].as_secs_f64() * 1000.0;
    let worst_ms = latency[latency.len() - 1].as_secs_f64() * 1000.0;
    println!(
        "(e) audio: play of a cached sound → first sound at the headless output {median_ms:.1} ms median, {worst_ms:.1} ms worst of {} (target <= {AUDIO_LATENCY_TARGET_MS:.0} ms) {}",
        latency.len(),
        verdict(median_ms <= AUDIO_LATENCY_TARGET_MS)
    );
    let fade = f64::from(mixer::bench::fade_error(dir, 1000)?);
    println!(
        "(f) audio: a 1 s fade-in read from the mixer strays at most {:.2}% from its line (target <= {:.0}%) {}",
        fade * 100.0,
        FADE_ERROR_TARGET * 100.0,
        verdict(fade <= FADE_ERROR_TARGET)
    );
    let (idle_kib, peak_kib) = runtime.block_on(crate::bench_upload::upload_rss(dir))?;
    let growth = peak_kib.saturating_sub(idle_kib) as f64 / 1024.0;
    println!(
        "(g) upload: sharing a 128 MiB sound from a fresh process: {:.1} MiB resident when connected, peak {:.1} MiB, growth {growth:.1} MiB (target < {:.0} MiB) {}",
        idle_kib as f64 / 1024.0,
        peak_kib as f64 / 1024.0,
        crate::bench_upload::GROWTH_TARGET_MIB,
        verdict(growth < crate::bench_upload::GROWTH_TARGET_MIB)
    );
    if missed == 0 {
        println!("bench: all 8 targets met");
        Ok(())
    } else {
        Err(format!("bench: {missed} of 8 targets missed"))
    }
}

/// The run with the median ratio (not a mix of runs, so its MB/s figures belong together).
fn median(mut runs: Vec<CopyTimes>) -> CopyTimes {
    runs.sort_by(|a, b| a.ratio().total_cmp(&b.ratio()));
    runs[runs.len() / 2]
}

/// `$LOREWEAVER_SHARED`, else `shared/` beside the checkout (as the protocol tests find it).
fn shared_dir() -> PathBuf {
    std::env::var_os("LOREWEAVER_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| cmd::root().join("../shared"))
}

/// Replays the engine capture's server frames through `decode_server` for [`DECODE_TIME`]:
/// (frames in the capture, replays, frames/s).
fn decode_throughput() -> Result<(usize, u64, f64), String> {
    let path = shared_dir().join("conformance/engine-session-2.3.jsonl");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    // Records are `{"conn", "frame"}` (server → client) or client sends; keep the frames, as
    // the compact lines the engine puts on the wire.
    let mut lines = Vec::new();
    for (i, record) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        let record: serde_json::Value =
            serde_json::from_str(record).map_err(|e| format!("capture record {i}: {e}"))?;
        if let Some(frame) = record.get("frame") {
            let line = frame.to_string();
            protocol::codec::decode_server(&line)
                .map_err(|e| format!("capture record {i} does not decode: {e}"))?;
            lines.push(line);
        }
    }
    if lines.is_empty() {
        return Err(format!("{} holds no server frames", path.display()));
    }
    let (start, mut replays) = (Instant::now(), 0u64);
    while start.elapsed() < DECODE_TIME {
        for line in &lines {
            let _ =
                std::hint::black_box(protocol::codec::decode_server(std::hint::black_box(line)));
        }
        replays += 1;
    }
    let per_s = (replays * lines.len() as u64) as f64 / start.elapsed().as_secs_f64();
    Ok((lines.len(), replays, per_s))
}

/// Peak RSS growth from the moment it starts. Exact when the kernel lets us reset the high-water
/// mark (`clear_refs` 5); otherwise a 1 ms sampler, which can miss a spike shorter than that.
struct RssProbe {
    baseline_kib: u64,
    hwm_reset: bool,
    stop: Arc<AtomicBool>,
    sampled_kib: Arc<AtomicU64>,
    sampler: Option<std::thread::JoinHandle<()>>,
}

impl RssProbe {
    fn start() -> Self {
        let hwm_reset = std::fs::write("/proc/self/clear_refs", "5").is_ok();
        let baseline_kib = status_kib("VmRSS:");
        let (stop, sampled_kib) = (
            Arc::new(AtomicBool::new(false)),
            Arc::new(AtomicU64::new(0)),
        );
        let sampler = (!hwm_reset).then(|| {
            let (stop, sampled) = (stop.clone(), sampled_kib.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    sampled.fetch_max(status_kib("VmRSS:"), Ordering::Relaxed);
                    std::thread::sleep(Duration::from_millis(1));
                }
            })
        });
        Self {
            baseline_kib,
            hwm_reset,
            stop,
            sampled_kib,
            sampler,
        }
    }

    fn growth_kib(mut self) -> Option<u64> {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(sampler) = self.sampler.take() {
            let _ = sampler.join();
        }
        let peak = if self.hwm_reset {
            status_kib("VmHWM:")
        } else {
            self.sampled_kib.load(Ordering::Relaxed)
        };
        (self.baseline_kib > 0).then(|| peak.saturating_sub(self.baseline_kib))
    }
}

/// One `kB` field of `/proc/self/status` (0 where there is none, e.g. not Linux).
pub fn status_kib(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// Share of all CPUs busy over `window`, from `/proc/stat` (None where there is none).
fn busy_percent(window: Duration) -> Option<f64> {
    let sample = || -> Option<(u64, u64)> {
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        let fields: Vec<u64> = stat
            .lines()
            .next()?
            .split_whitespace()
            .skip(1)
            .filter_map(|v| v.parse().ok())
            .collect();
        // idle + iowait count as idle.
        let idle = fields.get(3)? + fields.get(4).copied().unwrap_or(0);
        Some((fields.iter().sum(), idle))
    };
    let (total0, idle0) = sample()?;
    std::thread::sleep(window);
    let (total1, idle1) = sample()?;
    let total = total1.saturating_sub(total0).max(1);
    Some(100.0 * total.saturating_sub(idle1.saturating_sub(idle0)) as f64 / total as f64)
}
