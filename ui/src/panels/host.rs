//! The host half of the panel bridge, in JS: a `message` listener that accepts only messages
//! whose `event.source` is THIS iframe's window and that carry the mount's nonce, and a
//! poster that stamps `{lw:"1", nonce}` on everything sent into the frame.
//!
//! Whether an intent follows the person's gesture in THIS panel is judged here, by the host,
//! from evidence the page cannot make up. A click in a frame takes focus from the host window
//! (a trusted `blur` here) and the frame's bootstrap reports its trusted `pointerdown`/`keydown`
//! (a `gesture` message) at the same moment: the one frame that reports right after the blur
//! is the focused frame; two reporting at once make it ambiguous (nobody). An intent counts as
//! the person's only from the focused frame, while the window has transient activation (only
//! a real click or key gives it), within a few seconds of that frame's report, once per
//! report, and when no key or click of the person reached the host itself within an
//! activation's lifespan before the blur (else the activation may be the host's: a page that
//! took focus mid-typing).
//! Focus back in the host clears it. Anything less asks the person (the safe side: a click
//! moving straight from one panel to another, or within seconds of typing, asks once).

use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = "
// The frame that took focus from the host window (null: none or ambiguous) and when.
let focusedFrame = null;
let blurAt = -1e9;
let ambiguous = false;
window.addEventListener('blur', (e) => { if (e.isTrusted) { blurAt = performance.now(); focusedFrame = null; ambiguous = false; } });
window.addEventListener('focus', () => { focusedFrame = null; });
// The person's own keys and clicks in the host. The window's activation is shared with its
// frames, so a page that takes focus while the person types here (and posts a gesture of its
// own making: it knows its nonce) would find the activation of that typing: host input within
// an activation's lifespan (5 s in WebKit and Chromium) before the blur, or any after it, means
// the activation may be the host's, not the page's.
let hostInputAt = -1e9;
const hostInput = (e) => { if (e.isTrusted) { hostInputAt = performance.now(); } };
window.addEventListener('keydown', hostInput, true);
window.addEventListener('pointerdown', hostInput, true);
const HOST_QUIET_MS = 5000;
// A frame's report this long after the blur still names the frame that took focus.
const CLAIM_MS = 500;
// How long one report stays good for one intent.
const GESTURE_MS = 5000;

// What a frame may send, and the only fields read from each (strings, size-checked first).
const FIELDS = { ready: ['panel'], intent: ['kind', 'value'], panel_error: ['message'], gesture: [] };
// Longest string field a message may carry: checked before anything is built from it.
const MAX_FIELD = 8192;

export function host_attach(iframe, nonce, deliver) {
  let frameGestureAt = -1e9;
  // Counted on the frame element, never processed: messages of a type the bridge does not
  // know, and messages whose fields are not strings of a sane size.
  const count = (what) => {
    const key = what === 'unknown' ? 'bridgeUnknown' : 'bridgeRefused';
    iframe.dataset[key] = String((Number(iframe.dataset[key]) || 0) + 1);
  };
  const listener = (ev) => {
    const w = iframe.contentWindow;
    if (!w || ev.source !== w) { return; }
    const d = ev.data;
    if (!d || typeof d !== 'object' || d.lw !== '1' || d.nonce !== nonce || typeof d.type !== 'string') { return; }
    if (!Object.prototype.hasOwnProperty.call(FIELDS, d.type)) { count('unknown'); return; }
    const msg = { type: d.type };
    for (const f of FIELDS[d.type]) {
      const v = d[f];
      if (v === undefined) { continue; }
      if (typeof v !== 'string' || v.length > MAX_FIELD) { count('refused'); return; }
      msg[f] = v;
    }
    const text = JSON.stringify(msg);
    if (d.type === 'gesture') {
      const now = performance.now();
      // Focus still inside this window (a frame), not gone to another app.
      if (now - blurAt < CLAIM_MS && document.hasFocus()) {
        if (focusedFrame === null && !ambiguous) { focusedFrame = iframe; }
        else if (focusedFrame !== iframe) { focusedFrame = null; ambiguous = true; }
      }
      if (focusedFrame === iframe) { frameGestureAt = now; }
      return;
    }
    let gesture = false;
    if (d.type === 'intent') {
      const ua = navigator.userActivation;
      gesture = !!(ua && ua.isActive)
        && document.hasFocus()
        && focusedFrame === iframe
        && performance.now() - frameGestureAt < GESTURE_MS
        && hostInputAt < blurAt - HOST_QUIET_MS;
      // One gesture, one intent.
      if (gesture) { frameGestureAt = -1e9; }
    }
    deliver(text, gesture);
  };
  window.addEventListener('message', listener);
  return { iframe, nonce, listener };
}
export function host_post(handle, json) {
  const w = handle && handle.iframe.contentWindow;
  if (!w) { return; }
  const m = JSON.parse(json);
  m.lw = '1';
  m.nonce = handle.nonce;
  // An opaque (sandboxed) origin cannot be named: the target is this frame's window only.
  w.postMessage(m, '*');
}
export function host_detach(handle) {
  if (handle) { window.removeEventListener('message', handle.listener); }
}
const THEME_VARS = ['--lw-bg', '--lw-bg-raised', '--lw-bg-inset', '--lw-border', '--lw-border-soft',
  '--lw-ink', '--lw-ink-dim', '--lw-ink-faint', '--lw-accent', '--lw-accent-strong', '--lw-accent-ink',
  '--lw-danger', '--lw-warn', '--lw-ok', '--lw-font-ui', '--lw-font-story', '--lw-font-mono'];
export function theme_json() {
  const root = document.documentElement;
  const style = getComputedStyle(root);
  const vars = {};
  for (const name of THEME_VARS) { vars[name] = style.getPropertyValue(name).trim(); }
  return JSON.stringify({ name: root.dataset.theme || 'dark', vars });
}
")]
extern "C" {
    pub fn host_attach(
        iframe: &web_sys::HtmlElement,
        nonce: &str,
        deliver: &Closure<dyn FnMut(String, bool)>,
    ) -> JsValue;
    pub fn host_post(handle: &JsValue, json: &str);
    pub fn host_detach(handle: &JsValue);
    pub fn theme_json() -> String;
}
