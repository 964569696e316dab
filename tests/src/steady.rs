//! Reading a transcript upward step by step, as a reader with a wheel does, and counting each
//! step where the line at the top of the view did not move by the step (#30 item 2). The script
//! runs in the page (one WebDriver call to start, one read a poll): per step it waits until the
//! list has settled (the scroll offset, the content's height and the drawn entries the same
//! over two animation frames), notes the first entry on screen and where it is, marks a gesture
//! (a wheel event, as the reader's own), moves the view up by the step, lets it settle again,
//! and reads where that entry went. It moved by the step (± 2 px, or by what was left above at
//! the top) or the step is a jump; an entry gone from the page is a jump too. A view pulled
//! back to the end while the reader went up is counted apart.

use std::time::Duration;

use serde_json::{json, Value};

use crate::{wait_for, Session};

/// Starts the reading; the outcome lands in `window.__steady`.
const READ_UP: &str = r##"
const step = arguments[0], maxSteps = arguments[1];
window.__steady = null;
const t = document.querySelector('#transcript');
const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
const sign = () => {
  const all = t.querySelectorAll('.transcript-inner > .entry');
  return [t.scrollTop, t.scrollHeight, all.length,
          all.length ? all[0].textContent.length : 0].join('|');
};
const settle = async () => {
  let last = null, same = 0;
  for (let i = 0; i < 120 && same < 2; i++) {
    await frame();
    const s = sign();
    same = s === last ? same + 1 : 0;
    last = s;
  }
};
const onScreen = () => {
  const top = t.getBoundingClientRect().top;
  return [...t.querySelectorAll('.transcript-inner > .entry')]
    .find((e) => e.getBoundingClientRect().bottom > top + 1);
};
const fromEnd = () => t.scrollHeight - t.scrollTop - t.clientHeight;
(async () => {
  const out = { steps: 0, jumps: 0, pulled: 0, lost: 0, worst: 0, first: [], top: false };
  const started = performance.now();
  await settle();
  while (out.steps < maxSteps) {
    const entry = onScreen();
    if (!entry) { out.first.push('no entry on screen at step ' + out.steps); break; }
    const before = entry.getBoundingClientRect().top;
    const drawnBefore = t.querySelectorAll('.transcript-inner > .entry').length;
    const indexBefore = [...t.querySelectorAll('.transcript-inner > .entry')].indexOf(entry);
    const spacerBefore = t.querySelector('.transcript-spacer').style.height;
    const olds = [...t.querySelectorAll('.transcript-inner > .entry')];
    const scrolled = t.scrollTop;
    if (scrolled <= 0) { out.top = true; break; }
    t.dispatchEvent(new WheelEvent('wheel', { deltaY: -step, bubbles: true }));
    t.scrollTop = scrolled - step;
    const wanted = scrolled - t.scrollTop;
    out.steps += 1;
    await settle();
    if (!entry.isConnected) {
      out.jumps += 1; out.lost += 1;
      if (out.first.length < 8) {
        const text = entry.textContent;
        out.first.push('step ' + out.steps + ': the top line left the page (' + text.slice(0, 40) + ')'
          + ' drawn ' + drawnBefore + ' #' + indexBefore + ' spacer ' + spacerBefore + ' -> drawn '
          + t.querySelectorAll('.transcript-inner > .entry').length + ' spacer ' + t.querySelector('.transcript-spacer').style.height + ', ' + olds.filter((e) => e.isConnected).length + ' of the drawn kept');
      }
      continue;
    }
    const moved = entry.getBoundingClientRect().top - before;
    const off = Math.abs(moved - wanted);
    out.worst = Math.max(out.worst, off);
    if (off > 2) {
      out.jumps += 1;
      if (out.first.length < 8) {
        out.first.push('step ' + out.steps + ': moved ' + moved.toFixed(1) + ' px for ' + wanted.toFixed(1)
          + ' (scrollTop ' + scrolled + ' -> ' + t.scrollTop + ', ' + entry.textContent.slice(0, 40) + ')');
      }
    }
    if (fromEnd() < 40) { out.pulled += 1; }
  }
  out.ms = performance.now() - started;
  window.__steady = out;
})().catch((e) => { window.__steady = { error: String(e) }; });
return 0;
"##;

/// What a reading up found.
#[derive(Debug)]
pub struct Reading {
    pub steps: u64,
    /// Steps where the top line did not move by the step.
    pub jumps: u64,
    /// Steps after which the view was at the end again.
    pub pulled: u64,
    /// The largest miss of any step, px.
    pub worst: f64,
    /// Whether the reading reached the top.
    pub top: bool,
    pub ms: f64,
    /// The first few jumps, described.
    pub first: Vec<String>,
}

/// Reads the transcript from where it is up to its top, `step` px at a time (at most
/// `max_steps`), within `limit`. A script error panics.
pub fn read_up(s: &Session, step: f64, max_steps: u64, limit: Duration) -> Reading {
    s.execute(READ_UP, json!([step, max_steps]))
        .unwrap_or_else(|e| panic!("starting the reading up: {e}"));
    let v: Value = wait_for(limit, "the reading up to the top", || {
        let v = s
            .execute("return window.__steady;", json!([]))
            .unwrap_or_else(|e| panic!("reading the reading up: {e}"));
        (!v.is_null()).then_some(v)
    });
    if let Some(e) = v.get("error") {
        panic!("the reading up failed in the page: {e}");
    }
    let n = |k: &str| {
        v[k].as_f64()
            .unwrap_or_else(|| panic!("the reading up has no {k}: {v}"))
    };
    Reading {
        steps: n("steps") as u64,
        jumps: n("jumps") as u64,
        pulled: n("pulled") as u64,
        worst: n("worst"),
        top: v["top"] == true,
        ms: n("ms"),
        first: v["first"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default(),
    }
}
