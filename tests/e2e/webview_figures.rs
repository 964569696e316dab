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
//! - a long session: 20,000 entries → the WebView process's resident memory, the entries in
//!   the DOM, and a scroll from the bottom to the top.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use studio_e2e::peers::runtime;
use studio_e2e::play::join;
use studio_e2e::{open_studio_with, wait_for, Studio};
use transport::testpeer::{PeerConfig, PeerState, TestPeer};

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

/// Installs, before the join, the observer that notes when the whole join is painted.
const JOIN_WATCH: &str = r#"
window.__joinPainted = null;
const done = () => {
  const all = document.querySelectorAll('.transcript .entry');
  const last = all[all.length - 1];
  return last && last.textContent.includes('JOIN-LAST') && document.querySelector('#character h3');
};
const mo = new MutationObserver(() => {
  if (window.__joinPainted === null && done()) {
    window.__joinPainted = -1;
    mo.disconnect();
    requestAnimationFrame(() => setTimeout(() => { window.__joinPainted = performance.now(); }, 0));
  }
});
mo.observe(document.body, { subtree: true, childList: true, characterData: true });
return 0;
"#;

/// How many repaints of the joined room are timed (their median is the figure).
const REPAINTS: usize = 7;

/// One repaint of the whole room, as the join is timed: a change made (the page's colours,
/// so every box restyles and repaints and nothing lays out anew), then the first task after
/// the frame that painted it. One at a time, each a frame apart from the last.
const REPAINT_WATCH: &str = r#"
window.__repaints = [];
const root = document.documentElement;
const one = () => {
  const t0 = performance.now();
  const odd = window.__repaints.length % 2 === 0;
  root.style.backgroundColor = odd ? 'rgb(1, 2, 3)' : '';
  document.body.style.color = odd ? 'rgb(4, 5, 6)' : '';
  requestAnimationFrame(() => setTimeout(() => {
    window.__repaints.push(performance.now() - t0);
    if (window.__repaints.length < 7) { requestAnimationFrame(one); }
    else { root.style.backgroundColor = ''; document.body.style.color = ''; }
  }, 0));
};
requestAnimationFrame(one);
return 0;
"#;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// 30 replayed lines with 200 dice and npc lines among them, the state, the manifest.
fn join_frames(capture: &[String]) -> Vec<String> {
    let pick_with = |t: &str, holding: &str| {
        capture
            .iter()
            .find(|l| l.contains(&format!("\"type\":\"{t}\"")) && l.contains(holding))
            .cloned()
            .unwrap_or_else(|| panic!("the capture has no {t} frame with {holding}"))
    };
    let pick = |t: &str| pick_with(t, "");
    let dice: Value = serde_json::from_str(&pick("dice")).unwrap();
    let mut lines = Vec::new();
    for i in 0..30 {
        let text = if i == 29 {
            "JOIN-LAST the lamp gutters.".to_string()
        } else {
            format!("Line {i}: the rain keeps on against the shutters, and the clock ticks.")
        };
        lines.push(
            json!({"type":"narrative","id":format!("r{i}"),"speaker":"kp","text":text,"format":"markdown"})
                .to_string(),
        );
        if i == 29 {
            break;
        }
        for k in 0..7 {
            let n = i * 7 + k;
            if n >= 200 {
                break;
            }
            if n % 2 == 0 {
                lines.push(dice.to_string());
            } else {
                lines.push(
                    json!({"type":"narrative","id":format!("n{n}"),"speaker":"npc","name":"Ada",
                    "text":format!("Ada answers ({n})."),"format":"markdown"})
                    .to_string(),
                );
            }
        }
    }
    lines.push(pick_with("state", "\"character\":{"));
    lines.push(pick("ui_manifest"));
    lines
}

/// Counts, per animation frame, the tasks that changed the transcript's DOM (one task's many
/// mutations are one update: a message posted to itself marks where the task ends), and the
/// frames dropped.
const STREAM_WATCH: &str = r#"
const w = window.__stream = { started: null, frames: 0, updates: 0, maxPerFrame: 0, dropped: 0, cur: 0, last: null, over: false, idleFrames: 0, idleFrom: performance.now(), idleMs: 0, workMs: 0, workMax: 0 };
// Where a frame's time goes: from this callback (the frame's first) to a task posted from it,
// which runs after the frame's callbacks, style, layout and the page's paint request.
const after = new MessageChannel();
let frameAt = null;
after.port1.onmessage = () => {
  if (frameAt === null) { return; }
  const work = performance.now() - frameAt;
  frameAt = null;
  if (w.started !== null && !w.over) { w.workMs += work; w.workMax = Math.max(w.workMax, work); }
};
const t = document.querySelector('.transcript');
const ends = new MessageChannel();
let inTask = false;
ends.port1.onmessage = () => { inTask = false; };
new MutationObserver(() => {
  if (w.over) { return; }
  if (w.started === null && document.querySelector('.entry.narrative.draft')) { w.started = performance.now(); w.perfAtStart = Object.assign({}, window.__lwPerf); }
  if (w.started !== null && !inTask) { inTask = true; w.cur += 1; w.updates += 1; ends.port2.postMessage(0); }
}).observe(t, { subtree: true, childList: true, characterData: true });
const frame = (now) => {
  if (w.started === null) { w.idleFrames += 1; w.idleMs = now - w.idleFrom; }
  if (w.started !== null && !w.over) {
    w.frames += 1;
    if (now - w.started > 10000) { w.perfAtEnd = Object.assign({}, window.__lwPerf); }
    w.maxPerFrame = Math.max(w.maxPerFrame, w.cur);
    // Against this window's own idle frame interval, measured just before (not an assumed
    // 60 Hz: a window drawn on the CPU is not held to the display's rate).
    const every = w.idleFrames > 0 ? w.idleMs / w.idleFrames : 1000 / 60;
    if (w.last !== null && now - w.last > every * 1.5) { w.dropped += Math.round((now - w.last) / every) - 1; }
    if (now - w.started > 10000) { w.over = true; }
  }
  w.cur = 0; w.last = now;
  frameAt = performance.now(); after.port2.postMessage(0);
  if (!w.over) { requestAnimationFrame(frame); }
};
requestAnimationFrame(frame);
return 0;
"#;

/// 10 s of `narrative_delta` at 1,000/s: 20 drafts of 500 deltas, each closed by its line.
fn stream_lines() -> Vec<String> {
    let mut lines = Vec::new();
    for d in 0..20 {
        let id = format!("s{d}");
        let mut full = String::new();
        for k in 0..500 {
            let chunk = if k % 12 == 11 {
                " and then".to_string()
            } else {
                format!(" w{k}")
            };
            full.push_str(&chunk);
            lines.push(
                json!({"type":"narrative_delta","id":id,"speaker":"kp","text":chunk}).to_string(),
            );
        }
        lines.push(
            json!({"type":"narrative","id":id,"speaker":"kp","text":full,"format":"markdown"})
                .to_string(),
        );
    }
    lines
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
    // `stream`: the join and the stream alone.
    let stream_only = only == "stream";
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
    let peer = rt
        .block_on(TestPeer::start(config, Arc::new(PeerState::default())))
        .expect("the peer starts");
    let s = open_studio_with(&[]);
    wait_for(
        Duration::from_secs(30),
        "the connect screen painted",
        || perf(&s, "connect_ready"),
    );

    if !stream_only {
        page_figures(&s, &capture);
    }

    s.execute(JOIN_WATCH, json!([])).expect("watching the join");
    join(&s, &peer.ticket(), "good-key");
    let painted = wait_for(Duration::from_secs(30), "the join painted", || {
        let v = s.execute("return window.__joinPainted;", json!([])).ok()?;
        v.as_f64().filter(|t| *t > 0.0)
    });
    // From where the welcome left the table (the peer's clock) to the painted page (the
    // page's, on the same machine's wall clock); the UI's own share beside it.
    let sent = peer
        .state
        .welcome_sent_ms
        .lock()
        .expect("peer state")
        .expect("the peer sent a welcome");
    let origin = s
        .execute("return performance.timeOrigin;", json!([]))
        .expect("the page's time origin")
        .as_f64()
        .expect("a time origin");
    figure("join_paint_ms", origin + painted - sent);
    let welcome = perf(&s, "welcome").expect("the welcome mark");
    figure("join_paint_ui_ms", painted - welcome);
    // Where the page's time went by then (its own totals and marks, ms).
    if let Ok(at_join) = s.execute("return window.__lwPerf;", json!([])) {
        eprintln!("join: painted at {painted:.0}, the page's totals and marks: {at_join}");
    }
    // What one repaint of this same room costs on this machine, timed the join's way: the
    // join in repaints is what a faster or slower machine does not change.
    s.execute(REPAINT_WATCH, json!([]))
        .expect("timing repaints");
    let repaints = wait_for(Duration::from_secs(20), "7 repaints", || {
        let v = s.execute("return window.__repaints;", json!([])).ok()?;
        let all: Vec<f64> = v.as_array()?.iter().filter_map(Value::as_f64).collect();
        (all.len() >= REPAINTS).then_some(all)
    });
    eprintln!("repaints (ms): {repaints:?}");
    figure("idle_repaint_ms", median(repaints));

    // The paced deltas began with the join; watch them from the first draft on.
    s.execute(STREAM_WATCH, json!([]))
        .expect("watching the stream");
    let stream = wait_for(Duration::from_secs(40), "10 s of streaming", || {
        let v = s.execute("return window.__stream;", json!([])).ok()?;
        (v["over"] == true).then_some(v)
    });
    eprintln!("streaming: {stream}");
    // Where the page's time went while streaming (ms), from the page's own totals.
    if let (Some(a), Some(b)) = (
        stream["perfAtStart"].as_object(),
        stream["perfAtEnd"].as_object(),
    ) {
        for (k, v) in b {
            let spent =
                v.as_f64().unwrap_or(0.0) - a.get(k).and_then(|x| x.as_f64()).unwrap_or(0.0);
            if k.ends_with("_ms") {
                eprintln!("streaming: {k} {spent:.0}");
            }
        }
    }
    let frames = stream["frames"].as_f64().unwrap_or(0.0).max(1.0);
    figure(
        "stream_updates_per_frame_max",
        stream["maxPerFrame"].as_f64().unwrap_or(0.0),
    );
    figure(
        "stream_updates_per_frame_mean",
        stream["updates"].as_f64().unwrap_or(0.0) / frames,
    );
    figure(
        "stream_dropped_frames",
        stream["dropped"].as_f64().unwrap_or(0.0),
    );
    figure("stream_frames", frames);
    // The same window's frame rate just before, with nothing changing: what a frame costs here.
    let idle_s = stream["idleMs"].as_f64().unwrap_or(0.0) / 1000.0;
    if idle_s > 0.0 {
        figure(
            "idle_fps",
            stream["idleFrames"].as_f64().unwrap_or(0.0) / idle_s,
        );
    }
    if stream_only {
        return;
    }
    // The stream over, the table quiet: what the joined window costs doing nothing.
    idle_cost(&s, "quiet");
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

/// The web process of the newest Studio: WebKit runs each page in a child process.
fn web_process_rss_kib() -> Option<u64> {
    web_process_kib("VmRSS:")
}

/// A field of the web process's `/proc/<pid>/status` (`VmRSS:`, `RssAnon:`, `RssFile:`), in KiB.
fn web_process_kib(field: &str) -> Option<u64> {
    let procs: Vec<(u32, u32, String, u64)> = std::fs::read_dir("/proc")
        .ok()?
        .flatten()
        .filter_map(|e| {
            let pid: u32 = e.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            let comm = stat[stat.find('(')? + 1..stat.rfind(')')?].to_string();
            let rest: Vec<&str> = stat[stat.rfind(')')? + 2..].split_whitespace().collect();
            Some((
                pid,
                rest.get(1)?.parse().ok()?,
                comm,
                rest.get(19)?.parse().ok()?,
            ))
        })
        .collect();
    let app = procs
        .iter()
        .filter(|p| p.2.starts_with("loreweaver-stu"))
        .max_by_key(|p| p.3)?;
    // The page's process: the largest one when WebKit keeps a spare beside it.
    let status = |pid: u32| std::fs::read_to_string(format!("/proc/{pid}/status")).ok();
    let kib = |status: &str, field: &str| -> Option<u64> {
        status
            .lines()
            .find_map(|l| l.strip_prefix(field))?
            .split_whitespace()
            .next()?
            .parse()
            .ok()
    };
    procs
        .iter()
        .filter(|p| p.1 == app.0 && p.2.starts_with("WebKitWebProc"))
        .filter_map(|p| status(p.0))
        .max_by_key(|st| kib(st, "VmRSS:").unwrap_or(0))
        .and_then(|st| kib(&st, field))
}

/// The long session's entries found in a saved story: each story line `Line i:` once (and
/// the last, marked one), and the dice lines.
fn arrived_in(story: &str) -> usize {
    let mut lines = std::collections::BTreeSet::new();
    for part in story.split("Line ").skip(1) {
        if let Some(Ok(i)) = part.split(':').next().map(str::parse::<u32>) {
            lines.insert(i);
        }
    }
    let last = usize::from(story.contains("LONG-LAST the end."));
    lines.len() + last + story.matches("Ada rolls 1d100 → ").count()
}

/// 20,000 entries: story lines with a dice line after every fourth, the last one marked.
fn long_lines() -> Vec<String> {
    // A state first, as an engine sends right after its replay: the lines below come live.
    let mut lines = vec![json!({"type":"state","party":[],"online":1}).to_string()];
    for i in 0..20_000 {
        // The last line is a story line, so its mark is the end.
        if i % 5 == 3 {
            let success = i % 100 <= 50;
            lines.push(json!({"type":"dice","actor":"Ada","kind":"check","expr":"1d100","rolls":[i % 100],
                "total": i % 100,"target":50,"outcome":{"id":if success {"success"} else {"failure"},
                "label":if success {"Success"} else {"Failure"},"success":success,"critical":false,"fumble":false,"tier":u8::from(success)}}).to_string());
        } else {
            let text = if i == 19_999 {
                "LONG-LAST the end.".to_string()
            } else {
                format!("Line {i}: the tide turns under the pier and the lamps gutter, one by one, along the front.")
            };
            lines.push(json!({"type":"narrative","id":format!("l{i}"),"speaker":"kp","text":text,"format":"markdown"}).to_string());
        }
    }
    lines
}

/// Scrolls a screen and a half at a time, up (`-1`) to the top or down (`1`) to the end, a
/// frame per step.
const SCROLL: &str = r#"
const dir = arguments[0];
const t = document.querySelector('.transcript');
const w = window.__scroll = { steps: 0, ms: 0, maxEntries: 0, done: false };
const t0 = performance.now();
const step = () => {
  w.maxEntries = Math.max(w.maxEntries, t.querySelectorAll('.entry').length);
  const end = dir < 0 ? t.scrollTop <= 0 : t.scrollTop + t.clientHeight >= t.scrollHeight - 1;
  if (end) { w.ms = performance.now() - t0; w.done = true; return; }
  t.scrollTop = dir < 0 ? Math.max(0, t.scrollTop - t.clientHeight * 1.5) : t.scrollTop + t.clientHeight * 1.5;
  t.dispatchEvent(new Event('scroll'));
  w.steps += 1;
  requestAnimationFrame(() => requestAnimationFrame(step));
};
step();
return 0;
"#;

/// Reads to the top (`-1`) or the end (`1`) with [`SCROLL`]; what it counted on the way.
fn scroll(s: &Studio, dir: i32) -> Value {
    s.execute(SCROLL, json!([dir])).expect("scrolling");
    wait_for(Duration::from_secs(300), "the scroll's end", || {
        let v = s.execute("return window.__scroll;", json!([])).ok()?;
        (v["done"] == true).then_some(v)
    })
}

/// The page's wasm memory (it only grows: the most the Rust side ever held).
fn wasm_memory_mib(s: &Studio) -> Option<f64> {
    s.execute(
        "window.dispatchEvent(new Event('lw-bench-memory')); return window.__lwPerf.wasm_memory_bytes;",
        json!([]),
    )
    .ok()
    .and_then(|v| v.as_f64())
    .map(|b| b / 1024.0 / 1024.0)
}

fn long_session(rt: &tokio::runtime::Runtime) {
    let config = PeerConfig {
        after_welcome: long_lines(),
        ..PeerConfig::default()
    };
    let peer = rt
        .block_on(TestPeer::start(config, Arc::new(PeerState::default())))
        .expect("the peer starts");
    let saves = studio_e2e::peers::fresh_dir("long-session-saves");
    let s = open_studio_with(&[("STUDIO_SAVE_DIR", saves.to_str().expect("a UTF-8 path"))]);
    // The window alone, before any table: what the entries are measured against.
    wait_for(Duration::from_secs(30), "the connect screen", || {
        perf(&s, "connect_ready")
    });
    if let Some(kib) = web_process_rss_kib() {
        figure("long_webview_rss_idle_mib", kib as f64 / 1024.0);
    }
    if let Some(kib) = web_process_kib("RssAnon:") {
        figure("long_webview_rss_anon_idle_mib", kib as f64 / 1024.0);
    }
    join(&s, &peer.ticket(), "good-key");
    // Up to two minutes for all of them; what arrived by then is measured either way.
    let started = std::time::Instant::now();
    let deadline = started + Duration::from_secs(120);
    let mut said = started;
    loop {
        let last = s
            .execute(
                "const all = document.querySelectorAll('.transcript .entry.narrative'); const last = all[all.length - 1]; return last ? last.textContent : '';",
                json!([]),
            )
            .expect("reading the last line drawn");
        let last = last.as_str().expect("the last line's text");
        if last.contains("LONG-LAST") {
            eprintln!("long session: the last line after {:?}", started.elapsed());
            break;
        }
        if said.elapsed() > Duration::from_secs(5) {
            said = std::time::Instant::now();
            eprintln!("long session: at {last:?} after {:?}", started.elapsed());
        }
        if std::time::Instant::now() > deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    // What arrived is counted in the model's whole story as Studio saves it, line by line
    // against what the peer sent (not by a number the app writes about itself).
    let arrived = arrived_in(&studio_e2e::play::saved_story(&s, &saves));
    figure("long_entries_arrived", arrived as f64);
    let in_dom = s
        .execute(
            "return document.querySelectorAll('.transcript .entry').length;",
            json!([]),
        )
        .expect("counting")
        .as_f64()
        .unwrap_or(0.0);
    figure("long_entries_in_dom", in_dom);
    if let Some(kib) = web_process_rss_kib() {
        figure("long_webview_rss_mib", kib as f64 / 1024.0);
    }
    for (field, name) in [
        ("RssAnon:", "anon"),
        ("RssFile:", "file"),
        ("RssShmem:", "shmem"),
    ] {
        if let Some(kib) = web_process_kib(field) {
            figure(&format!("long_webview_rss_{name}_mib"), kib as f64 / 1024.0);
        }
    }
    let wasm = wasm_memory_mib(&s);
    if let Some(mib) = wasm {
        figure("long_wasm_memory_mib", mib);
    }
    // Read to the top and back to the end, twice: memory that a pass does not give back
    // grows with every pass (#30 item 1).
    for pass in 1..=2 {
        let up = scroll(&s, -1);
        eprintln!("pass {pass}, up: {up}");
        if pass == 1 {
            let top_ok = s
                .execute(
                    "const e = document.querySelector('.transcript .entry'); return !!e && e.textContent.includes('Line 0:');",
                    json!([]),
                )
                .ok()
                .and_then(|v| v.as_bool())
                .unwrap_or(false);
            figure("long_scroll_reached_top", if top_ok { 1.0 } else { 0.0 });
            figure("long_scroll_steps", up["steps"].as_f64().unwrap_or(0.0));
            figure("long_scroll_ms", up["ms"].as_f64().unwrap_or(0.0));
            figure(
                "long_scroll_max_entries",
                up["maxEntries"].as_f64().unwrap_or(0.0),
            );
            if let Some(kib) = web_process_rss_kib() {
                figure("long_webview_rss_after_scroll_mib", kib as f64 / 1024.0);
            }
            if let Some(kib) = web_process_kib("RssAnon:") {
                figure(
                    "long_webview_rss_anon_after_scroll_mib",
                    kib as f64 / 1024.0,
                );
            }
            if let Some(mib) = wasm_memory_mib(&s) {
                figure("long_wasm_memory_after_scroll_mib", mib);
            }
        }
        let down = scroll(&s, 1);
        eprintln!("pass {pass}, down: {down}");
        let end_ok = s
            .execute(
                "const all = document.querySelectorAll('.transcript .entry.narrative'); const l = all[all.length - 1]; return !!l && l.textContent.includes('LONG-LAST');",
                json!([]),
            )
            .ok()
            .and_then(|v| v.as_bool())
            .unwrap_or(false);
        figure(
            &format!("long_pass{pass}_reached_end"),
            f64::from(u8::from(end_ok)),
        );
        figure(
            &format!("long_pass{pass}_nodes"),
            s.execute(
                "return document.getElementsByTagName('*').length;",
                json!([]),
            )
            .ok()
            .and_then(|v| v.as_f64())
            .unwrap_or(f64::NAN),
        );
        for (field, name) in [("VmRSS:", "rss"), ("RssAnon:", "anon")] {
            if let Some(kib) = web_process_kib(field) {
                figure(&format!("long_pass{pass}_{name}_mib"), kib as f64 / 1024.0);
            }
        }
        if let Some(mib) = wasm_memory_mib(&s) {
            figure(&format!("long_pass{pass}_wasm_mib"), mib);
        }
        // `LONG_GC_PROBE=1`: how much of it is garbage the page's collector has not taken yet
        // (JavaScript garbage allocated until it collects, then the memory read again).
        if std::env::var_os("LONG_GC_PROBE").is_some() {
            for round in 0..3 {
                let _ = s.execute(
                    "let a = []; for (let i = 0; i < 3e6; i++) { a.push({ i, s: 'x' + i }); } a = null; return 0;",
                    json!([]),
                );
                std::thread::sleep(Duration::from_secs(4));
                eprintln!(
                    "gc probe, pass {pass}, round {round}: {:?} KiB anonymous, {:?} KiB resident",
                    web_process_kib("RssAnon:"),
                    web_process_kib("VmRSS:")
                );
            }
        }
    }
    drop(s);
    rt.block_on(peer.shutdown());
}

/// `name=<number>` in a log line.
fn field(line: &str, name: &str) -> Option<f64> {
    let at = line.find(&format!("{name}="))? + name.len() + 1;
    line[at..]
        .split(|c: char| !c.is_ascii_digit() && c != '.')
        .next()?
        .parse()
        .ok()
}

/// Hosts the real engine (this machine only) twice from a fresh profile: click → keeper
/// online, the backend's split, and Stop → process gone, each the slower of the two.
fn hosting_figures() {
    use studio_e2e::hosting::{host_from_panel, pid, table_dir, wait_gone};
    let dir = studio_e2e::peers::fresh_dir("bench-hosting");
    let data = dir.join("studio");
    let s = open_studio_with(&[("STUDIO_DATA_DIR", data.to_str().expect("a UTF-8 path"))]);
    let table = table_dir(&data, "bench-table");
    let mut worst = [0.0f64; 5];
    for round in 1..=2 {
        // Choosing the engine (once per profile, its `--version` probe) comes before Host:
        // the figure starts at the Host button, as issue 25 defines it.
        studio_e2e::hosting::open_host_panel(&s);
        let clicked = std::time::Instant::now();
        host_from_panel(&s, "Bench Table");
        studio_e2e::play::wait_online(&s, Duration::from_secs(30));
        let joined = clicked.elapsed().as_secs_f64() * 1000.0;
        let needle = "hosting: joined the hosted table as keeper";
        let line = wait_for(
            Duration::from_secs(10),
            "the backend's hosting line",
            || {
                let lines: Vec<String> = studio_e2e::logs::files(&data)
                    .into_iter()
                    .flat_map(|(_, t)| {
                        t.lines()
                            .filter(|l| l.contains(needle))
                            .map(String::from)
                            .collect::<Vec<_>>()
                    })
                    .collect();
                (lines.len() >= round).then(|| lines[round - 1].clone())
            },
        );
        let split = ["probe_ms", "start_to_ticket_ms", "ticket_to_joined_ms"]
            .map(|n| field(&line, n).unwrap_or_else(|| panic!("no {n} in {line}")));
        let engine = pid(&table);
        s.click(&s.find("#hosting-stop").expect("Stop hosting"));
        let stopped = wait_gone(
            engine,
            Duration::from_secs(15),
            "the engine to end after Stop",
        );
        eprintln!("hosting round {round}: joined {joined:.0} ms {split:?}, stop {stopped:?}");
        let now = [
            joined,
            split[0],
            split[1],
            split[2],
            stopped.as_secs_f64() * 1000.0,
        ];
        for (w, v) in worst.iter_mut().zip(now) {
            *w = w.max(v);
        }
        wait_for(Duration::from_secs(10), "the connect screen", || {
            s.find("#join")
        });
    }
    for (name, v) in [
        "hosting_joined_ms",
        "hosting_probe_ms",
        "hosting_start_to_ticket_ms",
        "hosting_ticket_to_joined_ms",
        "hosting_stop_ms",
    ]
    .into_iter()
    .zip(worst)
    {
        figure(name, v);
    }
}

/// The app and every process under it (the web and network processes WebKit starts).
fn family(app: i32) -> Vec<i32> {
    let all: Vec<(i32, i32)> = std::fs::read_dir("/proc")
        .expect("/proc")
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|pid| Some((pid, studio_e2e::proc_stat(pid)?.2)))
        .collect();
    let mut out = vec![app];
    let mut i = 0;
    while i < out.len() {
        let parent = out[i];
        out.extend(all.iter().filter(|(_, pp)| *pp == parent).map(|(p, _)| *p));
        i += 1;
    }
    out
}

/// `(cpu ticks, context switches)` of `pids`, every thread counted: a context switch is the
/// thread going to sleep or being put off the core, so one per wakeup.
fn cost(pids: &[i32]) -> (u64, u64) {
    let (mut ticks, mut switches) = (0, 0);
    for pid in pids {
        if let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            // utime and stime: fields 14 and 15, after the `(comm)` that may hold spaces.
            let rest: Vec<&str> = stat[stat.rfind(')').unwrap_or(0) + 1..]
                .split_whitespace()
                .collect();
            ticks += rest
                .get(11)
                .and_then(|v| v.parse::<u64>().ok())
                .unwrap_or(0)
                + rest
                    .get(12)
                    .and_then(|v| v.parse::<u64>().ok())
                    .unwrap_or(0);
        }
        for task in std::fs::read_dir(format!("/proc/{pid}/task"))
            .into_iter()
            .flatten()
            .flatten()
        {
            let status = std::fs::read_to_string(task.path().join("status")).unwrap_or_default();
            switches += status
                .lines()
                .filter(|l| l.contains("ctxt_switches:"))
                .filter_map(|l| l.split_whitespace().last()?.parse::<u64>().ok())
                .sum::<u64>();
        }
    }
    (ticks, switches)
}

/// Every thread of `pids`: `(pid, tid)` → (process and thread name, context switches).
fn per_thread(pids: &[i32]) -> std::collections::HashMap<(i32, String), (String, u64)> {
    let mut out = std::collections::HashMap::new();
    for pid in pids {
        let comm = studio_e2e::proc_stat(*pid).map(|p| p.0).unwrap_or_default();
        for task in std::fs::read_dir(format!("/proc/{pid}/task"))
            .into_iter()
            .flatten()
            .flatten()
        {
            let status = std::fs::read_to_string(task.path().join("status")).unwrap_or_default();
            let name = status
                .lines()
                .find_map(|l| l.strip_prefix("Name:"))
                .unwrap_or("?")
                .trim()
                .to_string();
            let switches = status
                .lines()
                .filter(|l| l.contains("ctxt_switches:"))
                .filter_map(|l| l.split_whitespace().last()?.parse::<u64>().ok())
                .sum::<u64>();
            let tid = task.file_name().to_string_lossy().into_owned();
            out.insert((*pid, tid), (format!("{comm}/{name}"), switches));
        }
    }
    out
}

/// How long an idle window is watched.
const IDLE_SECS: u64 = 30;

/// The window joined and nothing happening for [`IDLE_SECS`]: the share of one core Studio
/// (backend and web processes together) uses, and how often its threads wake, per second.
fn idle_cost(s: &Studio, label: &str) {
    let pids = family(s.app_pid());
    // What still moves on the page: every running animation repaints each frame.
    let moving = s
        .execute(
            "return document.getAnimations().filter(a => a.playState === 'running').map(a => \
             (a.animationName || a.transitionProperty || 'script') + ' on ' + \
             (a.effect && a.effect.target ? a.effect.target.className || a.effect.target.tagName : '?'));",
            json!([]),
        )
        .unwrap_or_else(|e| json!([format!("(could not list: {e})")]));
    eprintln!("idle {label}: animations running: {moving}");
    // What the page's own script asks for while idle: frame callbacks and timers, counted by
    // wrapping them for 5 s (the bindings look them up on each call).
    s.execute(
        "const c = window.__idleCalls = { raf: 0, timeout: 0, interval: 0, ipc: 0 }; \
         const raf = window.requestAnimationFrame.bind(window); \
         window.requestAnimationFrame = f => { c.raf++; return raf(f); }; \
         const st = window.setTimeout.bind(window); \
         window.setTimeout = (f, t, ...a) => { c.timeout++; return st(f, t, ...a); }; \
         const si = window.setInterval.bind(window); \
         window.setInterval = (f, t, ...a) => { c.interval++; return si(f, t, ...a); }; \
         c.mutated = []; new MutationObserver(rs => rs.forEach(r => c.mutated.length < 12 && \
         c.mutated.push(r.type + ' ' + (r.target.id || r.target.className || r.target.nodeName) \
         + (r.attributeName ? ' @' + r.attributeName : '')))).observe(document.body, \
         { subtree: true, childList: true, attributes: true, characterData: true }); \
         c.frames = document.querySelectorAll('iframe').length; \
         c.images = [...document.images].map(i => i.src.slice(0, 40)); \
         return 0;",
        json!([]),
    )
    .expect("counting the page's calls");
    std::thread::sleep(Duration::from_secs(5));
    let calls = s
        .execute("return window.__idleCalls;", json!([]))
        .unwrap_or_default();
    eprintln!("idle {label}: the page's calls in 5 s: {calls}");
    let hz = 100.0; // USER_HZ: the kernel reports process times in hundredths of a second.
    let (t0, w0) = cost(&pids);
    let threads0 = per_thread(&pids);
    let started = std::time::Instant::now();
    // `STUDIO_IDLE_SECS` shortens the watch when looking into one figure.
    let watch = std::env::var("STUDIO_IDLE_SECS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(IDLE_SECS);
    std::thread::sleep(Duration::from_secs(watch));
    let (t1, w1) = cost(&pids);
    let threads1 = per_thread(&pids);
    let secs = started.elapsed().as_secs_f64();
    let cpu = (t1 - t0) as f64 / hz / secs * 100.0;
    // The audio output's own pull is a sound card's period (the headless output stands in for
    // one at 5 ms): counted apart, so the figure is what Studio adds to it.
    let output: u64 = threads1
        .iter()
        .filter(|(_, (name, _))| name.ends_with("/audio-headless"))
        .map(|(k, (_, w))| w - threads0.get(k).map_or(0, |t| t.1))
        .sum();
    let wakeups = (w1 - w0 - output) as f64 / secs;
    let output = output as f64 / secs;
    eprintln!(
        "idle {label}: {} processes, {cpu:.2}% of a core, {wakeups:.1} wakeups/s \
         (and the audio output's {output:.1}/s)",
        pids.len()
    );
    // Who wakes: the busiest threads over the same time (a thread name per purpose, mostly).
    let mut busiest: Vec<(u64, String)> = threads1
        .iter()
        .map(|(k, (name, w))| {
            let before = threads0.get(k).map_or(0, |t| t.1);
            (w - before, name.clone())
        })
        .collect();
    busiest.sort_by(|a, b| b.cmp(a));
    for (w, name) in busiest.iter().take(8) {
        eprintln!("  {:.1}/s {name}", *w as f64 / secs);
    }
    figure(&format!("idle_cpu_pct_{label}"), cpu);
    figure(&format!("idle_wakeups_per_s_{label}"), wakeups);
    figure(&format!("idle_output_wakeups_per_s_{label}"), output);
}

/// Idle cost alone (`FIGURES_ONLY=idle`), and in the whole run: joined to the demo table with
/// its track playing through the headless mixer, then left on the connect screen.
fn idle_figures() {
    let s = open_studio_with(&[("STUDIO_DEMO_PACING", "fast")]);
    studio_e2e::play::join_demo(&s);
    // A first turn starts the story's music; its narration done, the table waits for the
    // player.
    studio_e2e::play::play_turn(&s, "I knock on the cottage door.");
    wait_for(Duration::from_secs(60), "the demo's turn", || {
        s.find("#input:not([disabled])")
    });
    // The demo's music heard in the output (the sound popover reads the mixer), then closed:
    // its meters poll while it is open.
    s.click(&s.find("#sound-button").expect("the sound button"));
    wait_for(
        Duration::from_secs(30),
        "the demo's music in the output",
        || {
            let p = s.find("#sound-popover")?;
            let peak: f32 = s.attr(&p, "data-output-peak")?.parse().ok()?;
            (peak > 0.01).then_some(())
        },
    );
    s.click(&s.find("#sound-button").expect("the sound button"));
    wait_for(Duration::from_secs(5), "the sound popover closed", || {
        s.find("#sound-popover").is_none().then_some(())
    });
    idle_cost(&s, "playing");
}
