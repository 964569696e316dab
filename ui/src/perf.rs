//! Moments `cargo xtask bench` measures in the real window, and the reducer run in wasm.
//!
//! Marks go to `window.__lwPerf[name]` as `performance.now()` (the first time only, so a return
//! to the connect screen does not move "connect_ready"). The bench dispatches an
//! `lw-bench-reducer` event whose `detail` is `{lines, millis}`: the page folds those server
//! lines into a fresh session model, exactly as [`crate::store`] does with a batch, for `millis`,
//! and writes frames per second to `__lwPerf.reducer_fps`; `lw-bench-memory` writes the size of
//! the page's wasm memory to `__lwPerf.wasm_memory_bytes`; `lw-bench-hop` (`{typed, raw, millis}`:
//! channel messages as [`ipc::hop`] makes them) times the page's share of the window's hop both
//! ways, JavaScript's part included, to `__lwPerf.hop_typed_fps` and `hop_raw_fps`. Nothing here reaches the network or
//! the backend, and a tier-2 panel page (another origin) cannot dispatch events on this window.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

fn perf_object() -> Option<js_sys::Object> {
    let window = web_sys::window()?;
    let key = JsValue::from_str("__lwPerf");
    let existing = js_sys::Reflect::get(&window, &key).ok()?;
    if existing.is_object() {
        return existing.dyn_into().ok();
    }
    let fresh = js_sys::Object::new();
    js_sys::Reflect::set(&window, &key, &fresh).ok()?;
    Some(fresh)
}

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

fn set(name: &str, value: f64, overwrite: bool) {
    let Some(perf) = perf_object() else {
        return;
    };
    let key = JsValue::from_str(name);
    if !overwrite && js_sys::Reflect::has(&perf, &key).unwrap_or(false) {
        return;
    }
    let _ = js_sys::Reflect::set(&perf, &key, &JsValue::from_f64(value));
}

/// Adds `ms` to the running total `name` (where a streaming frame's time goes: the bench reads
/// the totals beside the frame count).
pub fn add(name: &str, ms: f64) {
    let Some(perf) = perf_object() else {
        return;
    };
    let key = JsValue::from_str(name);
    let before = js_sys::Reflect::get(&perf, &key)
        .ok()
        .and_then(|v| v.as_f64())
        .unwrap_or(0.0);
    let _ = js_sys::Reflect::set(&perf, &key, &JsValue::from_f64(before + ms));
}

/// Now, in the page's clock (ms).
pub fn now_ms() -> f64 {
    now()
}

/// Notes `name` now, unless it was noted before.
pub fn mark_once(name: &str) {
    set(name, now(), false);
}

/// Notes `name` now, replacing an earlier note (a moment of every join).
pub fn mark(name: &str) {
    set(name, now(), true);
}

/// Notes `name` once the next frame has been painted (a frame callback, then a task after it).
pub fn mark_after_paint(name: &'static str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let after = Closure::once_into_js(move || {
        let task = Closure::once_into_js(move || mark_once(name));
        if let Some(w) = web_sys::window() {
            let _ =
                w.set_timeout_with_callback_and_timeout_and_arguments_0(task.unchecked_ref(), 0);
        }
    });
    let _ = window.request_animation_frame(after.unchecked_ref());
}

/// Listens for the bench's `lw-bench-reducer` event (see the module docs).
pub fn listen_for_bench() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let handler = Closure::<dyn FnMut(web_sys::CustomEvent)>::new(|e: web_sys::CustomEvent| {
        let detail = e.detail();
        let lines: Vec<String> = js_sys::Reflect::get(&detail, &"lines".into())
            .ok()
            .map(|v| js_sys::Array::from(&v))
            .map(|a| a.iter().filter_map(|l| l.as_string()).collect())
            .unwrap_or_default();
        let millis = js_sys::Reflect::get(&detail, &"millis".into())
            .ok()
            .and_then(|v| v.as_f64())
            .unwrap_or(1000.0);
        set("reducer_fps", reducer_fps(&lines, millis), true);
    });
    let _ = window
        .add_event_listener_with_callback("lw-bench-reducer", handler.as_ref().unchecked_ref());
    handler.forget();
    let hop = Closure::<dyn FnMut(web_sys::CustomEvent)>::new(|e: web_sys::CustomEvent| {
        let detail = e.detail();
        let list = |key: &str| -> Vec<String> {
            js_sys::Reflect::get(&detail, &key.into())
                .ok()
                .map(|v| js_sys::Array::from(&v))
                .map(|a| a.iter().filter_map(|l| l.as_string()).collect())
                .unwrap_or_default()
        };
        let millis = js_sys::Reflect::get(&detail, &"millis".into())
            .ok()
            .and_then(|v| v.as_f64())
            .unwrap_or(1000.0);
        let (typed, raw) = (list("typed"), list("raw"));
        set("hop_typed_fps", hop_fps(&typed, millis, true), true);
        set("hop_raw_fps", hop_fps(&raw, millis, false), true);
    });
    let _ = window.add_event_listener_with_callback("lw-bench-hop", hop.as_ref().unchecked_ref());
    hop.forget();
    // `lw-bench-memory`: the size of this page's wasm memory, to `__lwPerf.wasm_memory_bytes`.
    let memory = Closure::<dyn FnMut()>::new(|| {
        let bytes = wasm_bindgen::memory()
            .dyn_into::<js_sys::WebAssembly::Memory>()
            .map_or(0.0, |m| {
                f64::from(
                    m.buffer()
                        .unchecked_into::<js_sys::ArrayBuffer>()
                        .byte_length(),
                )
            });
        set("wasm_memory_bytes", bytes, true);
        // The JS objects the Rust side still holds (DOM nodes, closures): one per entry drawn
        // and never let go would show here, not in the DOM's count.
        set(
            "externrefs_live",
            f64::from(wasm_bindgen::externref_heap_live_count()),
            true,
        );
    });
    let _ =
        window.add_event_listener_with_callback("lw-bench-memory", memory.as_ref().unchecked_ref());
    memory.forget();
}

/// [`protocol::session::fold_lines`] over and over until `millis` have passed: frames per second.
fn reducer_fps(lines: &[String], millis: f64) -> f64 {
    if lines.is_empty() {
        return 0.0;
    }
    let start = now();
    let mut frames = 0usize;
    while now() - start < millis {
        frames += protocol::session::fold_lines(lines).1;
    }
    frames as f64 / ((now() - start) / 1000.0)
}

/// The page's share of the window's hop, for `millis`: frames per second. Each message goes
/// through what the page does with it: Tauri hands the channel message over as a JavaScript
/// value (a parse of its JSON), the bridge turns an object back into text (the typed way; a
/// string is passed as it is), and Rust folds it into a fresh model.
fn hop_fps(messages: &[String], millis: f64, typed: bool) -> f64 {
    if messages.is_empty() {
        return 0.0;
    }
    let start = now();
    let mut frames = 0usize;
    while now() - start < millis {
        let texts: Vec<String> = messages
            .iter()
            .filter_map(|m| {
                let value = js_sys::JSON::parse(m).ok()?;
                if typed {
                    js_sys::JSON::stringify(&value).ok().map(String::from)
                } else {
                    value.as_string()
                }
            })
            .collect();
        frames += if typed {
            ipc::hop::fold_typed(&texts)
        } else {
            ipc::hop::fold_raw(&texts)
        };
    }
    frames as f64 / ((now() - start) / 1000.0)
}
