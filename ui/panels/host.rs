//! The host half of the panel bridge, in JS: a `message` listener that accepts only messages
//! whose `event.source` is THIS iframe's window and that carry the mount's nonce, and a
//! poster that stamps `{lw:"1", nonce}` on everything sent into the frame.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = "
export function host_attach(iframe, nonce, deliver) {
  const listener = (ev) => {
    const w = iframe.contentWindow;
    if (!w || ev.source !== w) { return; }
    const d = ev.data;
    if (!d || typeof d !== 'object' || d.lw !== '1' || d.nonce !== nonce || typeof d.type !== 'string') { return; }
    let text;
    try { text = JSON.stringify(d); } catch (e) { return; }
    if (typeof text !== 'string' || text.length > 65536) { return; }
    deliver(text);
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
        deliver: &Closure<dyn FnMut(String)>,
    ) -> JsValue;
    pub fn host_post(handle: &JsValue, json: &str);
    pub fn host_detach(handle: &JsValue);
    pub fn theme_json() -> String;
}
