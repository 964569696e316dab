//! The one door to the backend: Tauri's invoke, with JSON in and out.

use ipc::{Command, Streams};
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = "
export function invoke_json(cmd, args) {
  const ipc = window.__TAURI_INTERNALS__;
  if (!ipc) { return Promise.reject('Studio backend is not reachable (not running inside the app)'); }
  return ipc.invoke(cmd, JSON.parse(args)).then((r) => JSON.stringify(r === undefined ? null : r));
}
// Shares the file chosen in `input` with the table: raw bytes, name and kind in headers.
// A Tauri channel: messages carry an index and may arrive out of order; deliver in order,
// each as a JSON string (large ones arrive as ArrayBuffers fetched by Tauri itself).
export function open_channel(deliver) {
  const ipc = window.__TAURI_INTERNALS__;
  let next = 0;
  const pending = new Map();
  const text = (m) => typeof m === 'string' ? m
    : (m instanceof ArrayBuffer ? new TextDecoder().decode(m) : JSON.stringify(m));
  const id = ipc.transformCallback((raw) => {
    if ('end' in raw) { return; }
    pending.set(raw.index, raw.message);
    while (pending.has(next)) {
      const m = pending.get(next);
      pending.delete(next);
      next += 1;
      deliver(text(m));
    }
  });
  return '__CHANNEL__:' + id;
}
")]
extern "C" {
    #[wasm_bindgen(catch)]
    async fn invoke_json(cmd: &str, args: &str) -> Result<JsValue, JsValue>;
    fn open_channel(deliver: &Closure<dyn FnMut(String)>) -> String;
}

/// Opens a Tauri channel whose messages (JSON text) go to `deliver`, in order.
/// Returns the value to pass as the command's channel argument. The closure lives as long
/// as the page: a channel is opened once per join.
pub fn channel(deliver: impl FnMut(String) + 'static) -> String {
    let closure = Closure::<dyn FnMut(String)>::new(deliver);
    let id = open_channel(&closure);
    closure.forget();
    id
}

/// Calls backend command `C` (declared in the `ipc` crate, with its reply type); the error is
/// the backend's human sentence.
pub async fn call<C: Command>(command: &C) -> Result<C::Reply, String> {
    let payload = ipc::payload(command, None)?;
    invoke(C::NAME, &payload).await
}

/// Calls streaming command `C` with `channel` (from [`channel`]) for its messages.
pub async fn call_streaming<C: Streams>(command: &C, channel: &str) -> Result<C::Reply, String> {
    let payload = ipc::payload(command, Some((C::CHANNEL, channel)))?;
    invoke(C::NAME, &payload).await
}

async fn invoke<R: DeserializeOwned>(cmd: &str, payload: &serde_json::Value) -> Result<R, String> {
    let args = serde_json::to_string(payload).map_err(|e| e.to_string())?;
    match invoke_json(cmd, &args).await {
        Ok(v) => {
            let text = v.as_string().unwrap_or_default();
            serde_json::from_str(&text).map_err(|e| format!("unexpected answer from {cmd}: {e}"))
        }
        Err(e) => Err(e
            .as_string()
            .unwrap_or_else(|| format!("{cmd} failed: {e:?}"))),
    }
}
