//! Work that waits for the window to be idle: after the frame being drawn and the tasks
//! already queued, where WebKit can say so (`requestIdleCallback`); else a moment later.

use std::time::Duration;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Runs `task` once the window is idle, or after `timeout` at the latest.
pub fn when_idle(task: impl FnOnce() + 'static, timeout: Duration) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let request = js_sys::Reflect::get(&window, &JsValue::from_str("requestIdleCallback"))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    match request {
        Some(request) => {
            let options = js_sys::Object::new();
            let _ = js_sys::Reflect::set(
                &options,
                &"timeout".into(),
                &JsValue::from_f64(timeout.as_secs_f64() * 1000.0),
            );
            let _ = request.call2(&window, &Closure::once_into_js(task), &options);
        }
        None => leptos::prelude::set_timeout(task, timeout / 5),
    }
}
