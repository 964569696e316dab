//! The join painted and the stream that follows it: the page's watchers (installed through
//! WebDriver) and the peer's frames for both.

use std::time::Duration;

use serde_json::{json, Value};
use studio_e2e::play::join;
use studio_e2e::{wait_for, Studio};
use transport::testpeer::TestPeer;

use super::{figure, median, perf};

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
    // Where the time goes: the DOM complete (script done), the next frame's start (the first
    // frame's style, layout and paint between), then the task after it.
    window.__joinSplit = { done: performance.now() };
    requestAnimationFrame(() => {
      window.__joinSplit.raf = performance.now();
      setTimeout(() => { window.__joinPainted = performance.now(); }, 0);
    });
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

/// 30 replayed lines with 200 dice and npc lines among them, the state, the manifest.
pub(super) fn join_frames(capture: &[String]) -> Vec<String> {
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
// Each dropped gap ([its start, its length] in ms from the stream's start) and each line
// finished (an entry added): whether drops come with the lines' ends or with every frame.
w.drops = []; w.added = []; w.gaps = []; w.done = false;
new MutationObserver((rs) => {
  if (w.over) { return; }
  if (w.started !== null && rs.some(r => [...r.addedNodes].some(n => n.classList && n.classList.contains('entry')))) { w.added.push(Math.round(performance.now() - w.started)); }
  if (w.started === null && document.querySelector('.entry.narrative.draft')) { w.started = performance.now(); w.perfAtStart = Object.assign({}, window.__lwPerf); }
  if (w.started !== null && !inTask) { inTask = true; w.cur += 1; w.updates += 1; ends.port2.postMessage(0); }
}).observe(t, { subtree: true, childList: true, characterData: true });
const frame = (now) => {
  if (w.started === null) { w.idleFrames += 1; w.idleMs = now - w.idleFrom; }
  // The same window quiet again after the stream: its idle frame clock, which the stream's
  // frames are judged against. In a window's first seconds WebKit ticks faster here (~11 ms
  // against 12-16 ms later), so the clock measured before the stream made every 17 ms frame a
  // dropped one.
  if (w.over && !w.done) {
    if (w.afterFrom === undefined) { w.afterFrom = now; w.afterFrames = 0; }
    else { w.afterFrames += 1; w.afterMs = now - w.afterFrom; }
    if (now - w.afterFrom > 3000) { w.done = true; }
  }
  if (w.started !== null && !w.over) {
    w.frames += 1;
    if (now - w.started > 10000) { w.perfAtEnd = Object.assign({}, window.__lwPerf); }
    w.maxPerFrame = Math.max(w.maxPerFrame, w.cur);
    // Against this window's own idle frame interval, measured just before (not an assumed
    // 60 Hz: a window drawn on the CPU is not held to the display's rate).
    const every = w.idleFrames > 0 ? w.idleMs / w.idleFrames : 1000 / 60;
    if (w.last !== null) { w.gaps.push(now - w.last); }
    if (w.last !== null && now - w.last > every * 1.5) { w.dropped += Math.round((now - w.last) / every) - 1; w.drops.push([Math.round(w.last - w.started), Math.round(now - w.last)]); }
    if (now - w.started > 10000) { w.over = true; }
  }
  w.cur = 0; w.last = now;
  frameAt = performance.now(); after.port2.postMessage(0);
  if (!w.done) { requestAnimationFrame(frame); }
};
requestAnimationFrame(frame);
return 0;
"#;

/// 10 s of `narrative_delta` at 1,000/s: 20 drafts of 500 deltas, each closed by its line.
pub(super) fn stream_lines() -> Vec<String> {
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

/// The join painted (in ms and in repaints of the same room), then 10 s of the stream the
/// peer paces from the join on: DOM updates per frame and frames dropped.
pub(super) fn join_and_stream(s: &Studio, peer: &TestPeer) {
    s.execute(JOIN_WATCH, json!([])).expect("watching the join");
    join(s, &peer.ticket(), "good-key");
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
    let welcome = perf(s, "welcome").expect("the welcome mark");
    figure("join_paint_ui_ms", painted - welcome);
    // What the room's fonts cost when the window warmed them, idle, before the join.
    if let Some(warm) = perf(s, "warm_fonts_ms") {
        figure("warm_fonts_ms", warm);
    }
    // Where the page's time went by then (its own totals and marks, ms).
    if let Ok(at_join) = s.execute("return window.__lwPerf;", json!([])) {
        eprintln!("join: painted at {painted:.0}, the page's totals and marks: {at_join}");
        let split = s
            .execute("return window.__joinSplit;", json!([]))
            .unwrap_or_default();
        eprintln!("join: the DOM complete, the next frame (ms): {split}");
        // The three parts the join's time falls into: the page's script up to the DOM
        // complete (the welcome is decoded in a frame's flush), the rest of that frame (its
        // style, layout and paint) until the next one starts, and that next frame (the drawn
        // heights measured, the place kept, painted again).
        if let (Some(done), Some(raf)) = (split["done"].as_f64(), split["raf"].as_f64()) {
            figure("join_script_ms", done - welcome);
            figure("join_first_frame_ms", raf - done);
            figure("join_next_frame_ms", painted - raf);
        }
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
    let mut stream = wait_for(Duration::from_secs(40), "10 s of streaming", || {
        let v = s.execute("return window.__stream;", json!([])).ok()?;
        (v["done"] == true).then_some(v)
    });
    let gaps: Vec<f64> = stream["gaps"]
        .as_array()
        .map(|g| g.iter().filter_map(Value::as_f64).collect())
        .unwrap_or_default();
    if let Some(g) = stream.as_object_mut() {
        g.remove("gaps");
    }
    eprintln!("streaming: {stream}");
    if let (Some(drops), Some(added)) = (stream["drops"].as_array(), stream["added"].as_array()) {
        let gaps: Vec<(f64, f64)> = drops
            .iter()
            .filter_map(|d| Some((d[0].as_f64()?, d[1].as_f64()?)))
            .collect();
        let ends: Vec<f64> = added.iter().filter_map(Value::as_f64).collect();
        let near_an_end = gaps
            .iter()
            .filter(|(at, _)| ends.iter().any(|e| (at - e).abs() <= 50.0))
            .count();
        let longest = gaps.iter().map(|g| g.1).fold(0.0, f64::max);
        eprintln!(
            "streaming: {} gaps counted as dropped, the longest {longest:.0} ms, {near_an_end} \
             within 50 ms of a line's end ({} lines ended)",
            gaps.len(),
            ends.len()
        );
    }
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
    // Dropped against the steady frame clock measured after the stream; the early clock the
    // window ticked before it (the first seconds after opening) is printed beside it.
    let per_frame = |frames: &str, ms: &str| {
        let (f, t) = (stream[frames].as_f64()?, stream[ms].as_f64()?);
        (f > 0.0).then_some(t / f)
    };
    let steady = per_frame("afterFrames", "afterMs").unwrap_or(1000.0 / 60.0);
    let early = per_frame("idleFrames", "idleMs").unwrap_or(1000.0 / 60.0);
    let dropped = dropped_frames(&gaps, steady);
    eprintln!(
        "streaming: the idle frame clock {early:.1} ms before the stream, {steady:.1} ms after it; \
         {} frames dropped against the one before, {dropped} against the one after (counted)",
        dropped_frames(&gaps, early)
    );
    figure("stream_dropped_frames", dropped);
    figure("stream_dropped_early_clock", dropped_frames(&gaps, early));
    figure("idle_fps_before", 1000.0 / early);
    figure("stream_frames", frames);
    // The same window's frame rate after, with nothing changing: what a frame costs here.
    figure("idle_fps", 1000.0 / steady);
}

/// Frames a stream dropped: each gap longer than 1.5 frame clocks lost the frames it spans.
fn dropped_frames(gaps: &[f64], every: f64) -> f64 {
    gaps.iter()
        .filter(|g| **g > every * 1.5)
        .map(|g| (g / every).round() - 1.0)
        .sum()
}
