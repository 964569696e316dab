//! The long session (#30 item 1): 20,000 entries, then read to the top and back twice; the
//! web process's memory (resident, anonymous), wasm memory and the DOM after each pass.

use std::time::Duration;

use serde_json::{json, Value};
use studio_e2e::peers::test_peer;
use studio_e2e::play::join;
use studio_e2e::{open_studio_with, wait_for, Studio};
use transport::testpeer::PeerConfig;

use super::{figure, perf};

/// The web process of the newest Studio: WebKit runs each page in a child process.
fn web_process_rss_kib() -> Option<u64> {
    web_process_kib("VmRSS:")
}

/// A field of the web process's `/proc/<pid>/status` (`VmRSS:`, `RssAnon:`, `RssFile:`), in KiB.
pub(super) fn web_process_kib(field: &str) -> Option<u64> {
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

pub(super) fn long_session(rt: &tokio::runtime::Runtime) {
    let config = PeerConfig {
        after_welcome: long_lines(),
        ..PeerConfig::default()
    };
    let peer = test_peer(rt, config);
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
    if let Some(live) = perf(&s, "externrefs_live") {
        figure("long_externrefs", live);
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
        // Read after `wasm_memory_mib`, which asks the page to write it.
        if let Some(live) = perf(&s, "externrefs_live") {
            figure(&format!("long_pass{pass}_externrefs"), live);
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
