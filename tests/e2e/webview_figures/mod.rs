//! The performance figures only the real window can give, for `cargo xtask bench` (which runs
//! this with `--ignored` against a release Studio and reads the `FIGURE <name> <value>` lines;
//! the goals and the verdicts live there). Not part of `cargo xtask test`: figures are measured
//! in the bench, never asserted in a timed test.
//!
//! - cold start: the kernel's start of the process → the connect screen painted (`connect_ready`
//!   in the UI's `perf` marks); the first launch warms the disk cache, the median of the rest
//!   counts;
//! - the reducer in wasm inside the WebView, on the engine capture's frames;
//! - join paint: the `welcome` leaving the table → the replay (30 lines, 200 dice and npc lines),
//!   the state and the manifest painted;
//! - streaming: 1,000 `narrative_delta`/s for 10 s → DOM updates per animation frame and
//!   frames dropped;
//! - hosting: Host → the keeper online at the real engine (loopback), split by the backend's
//!   log line (probe, engine start → ticket, ticket → joined), and Stop → the process gone;
//!   twice: a first host (the engine's keystore made) and a host again;
//! - idle: joined, nothing happening for 30 s (after the stream; and at the demo table with its
//!   track playing) → the share of a core Studio's processes use and their wakeups per second;
//! - a long session: 20,000 entries → the WebView process's memory, the entries in
//!   the DOM and wasm memory, after reading it to the top and back to the end, twice.

use std::time::Duration;

use serde_json::{json, Value};
use studio_e2e::peers::{runtime, test_peer};
use studio_e2e::{open_studio_with, wait_for, Studio};
use transport::testpeer::PeerConfig;

mod idle;
mod join_stream;
mod long_session;

use idle::{hosting_figures, idle_cost, idle_figures};
use join_stream::{join_frames, stream_lines};
use long_session::long_session;

/// Frames per channel message in the hop's figures (a replay burst sends more, a stream fewer).
pub const HOP_BATCH: usize = 10;

fn figure(name: &str, value: f64) {
    println!("FIGURE {name} {value:.3}");
}

/// The server frames of the engine's player-session capture, as wire lines.
fn capture_lines() -> Vec<String> {
    let text = test_support::read_shared("conformance/engine-session-2.3.jsonl");
    text.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|r| r.get("frame").map(Value::to_string))
        .collect()
}

fn perf(s: &Studio, name: &str) -> Option<f64> {
    s.execute(
        "return (window.__lwPerf || {})[arguments[0]] ?? null;",
        json!([name]),
    )
    .ok()?
    .as_f64()
}

/// The middle value (the upper one of an even count).
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Process start → connect screen painted, in ms.
fn cold_start() -> f64 {
    let s = open_studio_with(&[]);
    let ready = wait_for(
        Duration::from_secs(30),
        "the connect screen painted",
        || perf(&s, "connect_ready"),
    );
    s.execute(
        "window.__TAURI_INTERNALS__.invoke('studio_info', { args: {} }).then(i => { window.__info = i; }); return 0;",
        json!([]),
    )
    .expect("asking for studio_info");
    let info = wait_for(Duration::from_secs(10), "studio_info", || {
        let v = s.execute("return window.__info || null;", json!([])).ok()?;
        (!v.is_null()).then_some(v)
    });
    let origin = s
        .execute("return performance.timeOrigin;", json!([]))
        .expect("the page's time origin")
        .as_f64()
        .expect("a number");
    let started = info["started_at_ms"]
        .as_f64()
        .expect("the process's start time (Linux)");
    origin + ready - started
}

#[test]
#[ignore = "a bench figure: run by `cargo xtask bench`"]
fn webview_figures() {
    let _scenario = studio_e2e::scenario();
    // `FIGURES_ONLY=long` measures the long session alone, `short` everything but it (for
    // looking into one figure).
    let only = std::env::var("FIGURES_ONLY").unwrap_or_default();
    if only == "long" {
        long_session(&runtime());
        return;
    }
    if only == "idle" {
        idle_figures();
        return;
    }
    if only == "steady" {
        steady_figures();
        return;
    }
    // `stream`: the join and the stream alone; `quiet`: those, then the quiet table's cost.
    let stream_only = only == "stream" || only == "quiet";
    if !stream_only {
        cold_start_figure();
    }

    let capture = capture_lines();
    let rt = runtime();
    let config = PeerConfig {
        after_welcome: join_frames(&capture),
        paced: stream_lines(),
        // After the join's figure is taken, so the two do not mix.
        paced_from: Duration::from_secs(4),
        ..PeerConfig::default()
    };
    let peer = test_peer(&rt, config);
    let s = open_studio_with(&[]);
    wait_for(
        Duration::from_secs(30),
        "the connect screen painted",
        || perf(&s, "connect_ready"),
    );

    if !stream_only {
        page_figures(&s, &capture);
    }

    join_stream::join_and_stream(&s, &peer);
    if only == "stream" {
        return;
    }
    // The stream over, the table quiet: what the joined window costs doing nothing.
    idle_cost(&s, "quiet");
    if stream_only {
        return;
    }
    drop(s);
    rt.block_on(peer.shutdown());
    hosting_figures();
    idle_figures();
    steady_figures();
    if only != "short" {
        long_session(&rt);
    }
}

/// Cold start, three launches: the first warms the disk cache.
fn cold_start_figure() {
    let mut starts: Vec<f64> = (0..3).map(|_| cold_start()).collect();
    eprintln!("cold starts (ms): {starts:?}");
    starts.remove(0);
    starts.sort_by(f64::total_cmp);
    figure("cold_start_ms", starts[starts.len() / 2]);
}

/// The page's own figures, before joining: the reducer and the window's hop, in wasm.
fn page_figures(s: &Studio, capture: &[String]) {
    // The reducer in wasm, in this window, on the capture's frames: 1 s to let the engine's
    // optimising tiers compile it (as they have in a window that has been open a while), then
    // 2 s measured.
    let mut fps = 0.0;
    for millis in [1000, 2000] {
        s.execute(
            "delete window.__lwPerf.reducer_fps; window.dispatchEvent(new CustomEvent('lw-bench-reducer', { detail: { lines: arguments[0], millis: arguments[1] } })); return 0;",
            json!([capture, millis]),
        )
        .expect("running the reducer");
        fps = wait_for(Duration::from_secs(10), "the wasm reducer figure", || {
            perf(s, "reducer_fps")
        });
    }
    figure("reducer_wasm_fps", fps);
    // The window's hop both ways (raw lines as shipped, typed frames as the alternative), the
    // page's share, on the capture in batches of 10: after the reducer's warm-up.
    let (typed, raw) = (
        ipc::hop::typed_batches(capture, HOP_BATCH),
        ipc::hop::raw_batches(capture, HOP_BATCH),
    );
    s.execute(
        "delete window.__lwPerf.hop_raw_fps; window.dispatchEvent(new CustomEvent('lw-bench-hop', { detail: { typed: arguments[0], raw: arguments[1], millis: 2000 } })); return 0;",
        json!([typed, raw]),
    )
    .expect("running the hop");
    wait_for(Duration::from_secs(15), "the hop figures", || {
        perf(s, "hop_raw_fps")
    });
    for name in ["hop_typed_fps", "hop_raw_fps"] {
        let fps = perf(s, name).unwrap_or_else(|| panic!("the page wrote no {name}"));
        figure(&format!("{name}_wasm"), fps);
    }
}

/// A steady view (#30 item 2): the story of very different heights read from its end to the
/// top a wheel's step at a time, each step where the line at the top did not move by the step
/// counted.
fn steady_figures() {
    let reading = studio_e2e::steady_story::read_the_story("bench-steady-view.png");
    eprintln!("steady view: {reading:?}");
    figure("steady_jumps", reading.jumps as f64);
    figure("steady_pulled", reading.pulled as f64);
    figure("steady_worst_px", reading.worst);
    figure("steady_steps", reading.steps as f64);
    figure("steady_reached_top", if reading.top { 1.0 } else { 0.0 });
}
