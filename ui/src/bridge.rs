//! The one door to the backend: Tauri's invoke, with JSON in and out.

use serde::{de::DeserializeOwned, Serialize};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = "
export function invoke_json(cmd, args) {
  const ipc = window.__TAURI_INTERNALS__;
  if (!ipc) { return Promise.reject('Studio backend is not reachable (not running inside the app)'); }
  return ipc.invoke(cmd, JSON.parse(args)).then((r) => JSON.stringify(r === undefined ? null : r));
}
")]
extern "C" {
    #[wasm_bindgen(catch)]
    async fn invoke_json(cmd: &str, args: &str) -> Result<JsValue, JsValue>;
}

/// Calls a backend command; the error is the backend's human sentence.
pub async fn invoke<A: Serialize, R: DeserializeOwned>(cmd: &str, args: &A) -> Result<R, String> {
    let args = serde_json::to_string(args).map_err(|e| e.to_string())?;
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

/// Arguments for commands that take none.
#[derive(Serialize)]
pub struct NoArgs {}
