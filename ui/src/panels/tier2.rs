//! Tier-2 panels: the pack's own page in `<iframe sandbox="allow-scripts">`, served by the
//! backend from the verified cache under a per-mount random token. The bridge is
//! postMessage only, checked by source window and nonce on both sides; intents are
//! validated here and then sent as the player (rate-limited, shown as a pending line).

use std::time::Duration;

use leptos::html::Iframe;
use leptos::prelude::*;
use protocol::frame::{PanelFallback, PanelIntentKind, UiManifestPanel};

use serde_json::{json, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::{ctx, host, locale, Code, TemplateBlocks, MAX_INTENT_CHARS};
use crate::i18n::tr;
use crate::store::Table;

/// How long a page has to say `ready`.
const READY_TIMEOUT: Duration = Duration::from_secs(6);
/// Events kept for a page that is not ready yet.
const MAX_QUEUED_EVENTS: usize = 32;

#[derive(Clone, Debug, PartialEq)]
enum Phase {
    Loading,
    Running { url: String, nonce: String },
    Failed,
}

/// The viewer's filtered snapshot a page receives: hidden variable rows removed.
fn snapshot(table: Table) -> Value {
    table.model.with(|m| {
        let Some(state) = m.state.as_ref() else {
            return Value::Null;
        };
        let full = serde_json::to_value(state).unwrap_or(Value::Null);
        let mut out = serde_json::Map::new();
        for key in [
            "variables",
            "character",
            "party",
            "scene",
            "clock",
            "initiative",
            "online",
            "usage",
            "pregens",
        ] {
            let mut v = full.get(key).cloned().unwrap_or(Value::Null);
            if key == "variables" {
                let rows = v.as_array().cloned().unwrap_or_default();
                v = Value::Array(
                    rows.into_iter()
                        .filter(|r| !r.get("hidden").is_some_and(truthy))
                        .collect(),
                );
            }
            out.insert(key.into(), v);
        }
        Value::Object(out)
    })
}

fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Value::String(s) => !s.is_empty(),
        _ => true,
    }
}

/// A page's intent, validated: a known kind, a non-empty value of at most 2,000 characters;
/// a roll's whitespace collapsed. The value is page text like any other: sanitised (controls
/// and bidi overrides out) before anything judges or shows it, so what the prompt shows and
/// the command check reads is exactly what goes to the table; a value nothing visible is left
/// of is dropped.
pub(crate) fn validate_intent(kind: &Value, value: &Value) -> Option<(PanelIntentKind, String)> {
    let kind = match kind.as_str()? {
        "choice" => PanelIntentKind::Choice,
        "input" => PanelIntentKind::Input,
        "roll" => PanelIntentKind::Roll,
        _ => return None,
    };
    let raw = value.as_str()?;
    if raw.chars().count() > MAX_INTENT_CHARS {
        return None;
    }
    let value = protocol::session::sanitize_text(raw);
    if value.chars().all(protocol::intent_gate::is_unseen) {
        return None;
    }
    let value = match kind {
        PanelIntentKind::Roll => value.split_whitespace().collect::<Vec<_>>().join(" "),
        _ => value,
    };
    Some((kind, value))
}

/// The page stopped (no `ready`, a crash before it): the fallback shows and the mount ends.
fn fail(phase: RwSignal<Phase>) {
    if let Some(Phase::Running { url, .. }) = phase.try_get_untracked() {
        unmount(url);
    }
    let _ = phase.try_set(Phase::Failed);
}

/// Tells the backend a page is gone, so its token stops answering.
fn unmount(url: String) {
    leptos::task::spawn_local(async move {
        let _ = crate::bridge::call(&ipc::cmd::UnmountPanel { url }).await;
    });
}

/// A tier-2 panel: its page once the person let this room's code run, else its fallback
/// (not answered yet, blocks only, failed to start).
#[component]
pub fn Tier2Panel(panel: UiManifestPanel) -> impl IntoView {
    let c = ctx();
    let locale = locale();
    let attempt = RwSignal::new(0u32);
    move || {
        let n = attempt.get();
        match c.code.get() {
            Code::Run => view! { <Frame panel=panel.clone() attempt=attempt n=n/> }.into_any(),
            Code::Unknown => {
                view! { <p class="panel-notice loading">{move || tr(locale.get(), "panels.loading")}</p> }
                    .into_any()
            }
            Code::Ask | Code::Blocks => {
                view! { <Fallback panel=panel.clone() retry=None/> }.into_any()
            }
        }
    }
}

#[component]
fn Fallback(panel: UiManifestPanel, retry: Option<RwSignal<u32>>) -> impl IntoView {
    let locale = locale();
    let body = match &panel.fallback {
        Some(PanelFallback::Blocks(blocks)) => {
            view! { <TemplateBlocks panel=panel.id.clone() blocks=blocks.clone()/> }.into_any()
        }
        _ => view! { <p class="panel-notice">{move || tr(locale.get(), "panels.no_start")}</p> }
            .into_any(),
    };
    view! {
        <div class="panel-fallback">
            {body}
            {retry.map(|a| view! {
                <button class="link panel-retry" on:click=move |_| a.update(|n| *n += 1)>
                    {move || tr(locale.get(), "panels.retry")}
                </button>
            })}
        </div>
    }
}

#[component]
fn Frame(panel: UiManifestPanel, attempt: RwSignal<u32>, n: u32) -> impl IntoView {
    let c = ctx();
    let table = c.table;
    let locale = locale();
    let phase = RwSignal::new(Phase::Loading);
    let ready = RwSignal::new(false);
    let ready_timer = StoredValue::new(None::<leptos::prelude::TimeoutHandle>);
    // Why a page did not start (for diagnosis; never shown as page content).
    let why = RwSignal::new(String::new());
    let id = panel.id.clone();
    let _ = n;

    // Ask the backend for a fresh mount (assets fetched and verified first).
    {
        let id = id.clone();
        leptos::task::spawn_local(async move {
            let theme: Value = serde_json::from_str(&host::theme_json()).unwrap_or(Value::Null);
            let args = ipc::cmd::MountPanel {
                panel: id,
                theme: theme.get("vars").cloned(),
            };
            let next = match crate::bridge::call(&args).await {
                Ok(m) => Phase::Running {
                    url: m.url,
                    nonce: m.nonce,
                },
                Err(e) => {
                    let _ = why.try_set(e);
                    Phase::Failed
                }
            };
            let running = matches!(next, Phase::Running { .. });
            let _ = phase.try_update(|p| {
                if *p == Phase::Loading {
                    *p = next;
                }
            });
            // The page gets its full time to say `ready` once it is actually loading, not
            // while its assets are still being fetched and verified.
            if running {
                let handle = set_timeout_with_handle(
                    move || {
                        if ready.try_get_untracked() == Some(false) {
                            fail(phase);
                        }
                    },
                    READY_TIMEOUT,
                )
                .ok();
                let _ = ready_timer.try_set_value(handle);
            }
        });
    }
    on_cleanup(move || {
        if let Some(Some(t)) = ready_timer.try_get_value() {
            t.clear();
        }
        // The page goes: so does its token (it answers 404 from now on).
        if let Some(Phase::Running { url, .. }) = phase.try_get_untracked() {
            unmount(url);
        }
    });

    let frame_ref = NodeRef::<Iframe>::new();
    let handle = StoredValue::new_local(None::<(JsValue, Closure<dyn FnMut(String, bool)>)>);
    let queued = StoredValue::new(Vec::<Value>::new());
    let state_json = Memo::new(move |_| snapshot(table).to_string());

    let post = move |msg: Value| {
        handle.with_value(|h| {
            if let Some((h, _)) = h {
                host::host_post(h, &msg.to_string());
            }
        });
    };

    // Attach the listener once the iframe exists (before its scripts can run).
    let panel_for_msgs = id.clone();
    Effect::new(move |_| {
        let Some(el) = frame_ref.get() else {
            return;
        };
        let Phase::Running { nonce, .. } = phase.get_untracked() else {
            return;
        };
        if handle.with_value(Option::is_some) {
            return;
        }
        let panel_id = panel_for_msgs.clone();
        // `gesture` is the host's own judgement (see `host_attach`), never the page's word.
        let on_msg = Closure::<dyn FnMut(String, bool)>::new(move |text: String, gesture: bool| {
            let Ok(msg) = serde_json::from_str::<Value>(&text) else {
                return;
            };
            match msg.get("type").and_then(Value::as_str) {
                Some("ready") => {
                    if ready.get_untracked() {
                        return;
                    }
                    ready.set(true);
                    let theme: Value =
                        serde_json::from_str(&host::theme_json()).unwrap_or(Value::Null);
                    post(
                        json!({"type": "ready_ack", "panel": panel_id, "locale": locale.get_untracked().code(), "theme": theme}),
                    );
                    let state: Value =
                        serde_json::from_str(&state_json.get_untracked()).unwrap_or(Value::Null);
                    post(json!({"type": "state", "state": state}));
                    for payload in queued.try_update_value(std::mem::take).unwrap_or_default() {
                        post(json!({"type": "event", "payload": payload}));
                    }
                }
                Some("intent") => {
                    let kind = msg.get("kind").cloned().unwrap_or(Value::Null);
                    let value = msg.get("value").cloned().unwrap_or(Value::Null);
                    if let Some((kind, value)) = validate_intent(&kind, &value) {
                        c.intent(&panel_id, kind, value, gesture);
                    }
                }
                // A crash, before or after ready: the fallback, with Retry.
                Some("panel_error") => {
                    if ready.get_untracked() {
                        let _ =
                            why.try_set(tr(locale.get_untracked(), "panels.crashed").to_string());
                    }
                    fail(phase)
                }
                _ => {}
            }
        });
        let el: &web_sys::HtmlElement = el.unchecked_ref();
        let h = host::host_attach(el, &nonce, &on_msg);
        handle.set_value(Some((h, on_msg)));
    });
    on_cleanup(move || {
        handle.try_update_value(|h| {
            if let Some((h, _)) = h.take() {
                host::host_detach(&h);
            }
        });
    });

    // Every state change → `state`, once the page is ready.
    Effect::new(move |_| {
        let s = state_json.get();
        if ready.get() {
            let state: Value = serde_json::from_str(&s).unwrap_or(Value::Null);
            post(json!({"type": "state", "state": state}));
        }
    });
    // A theme change reaches a running page live: its `--lw-*` variables follow the app's.
    if let Some(prefs) = use_context::<crate::prefs::Prefs>() {
        Effect::new(move |first: Option<()>| {
            prefs.theme.track();
            if first.is_some() && ready.get_untracked() {
                // After the root's theme attribute has changed, so computed values are new.
                request_animation_frame(move || {
                    let theme: Value =
                        serde_json::from_str(&host::theme_json()).unwrap_or(Value::Null);
                    post(json!({"type": "theme", "theme": theme}));
                });
            }
        });
    }
    // Panel events: delivered when ready, queued (≤ 32) before.
    let panel_for_events = id.clone();
    Effect::new(move |_| {
        table.model.track();
        let events = table
            .model
            .try_update_untracked(|m| m.take_panel_events(&panel_for_events))
            .unwrap_or_default();
        if events.is_empty() {
            return;
        }
        if ready.get_untracked() {
            for payload in events {
                post(json!({"type": "event", "payload": payload}));
            }
        } else {
            queued.update_value(|q| {
                q.extend(events);
                let excess = q.len().saturating_sub(MAX_QUEUED_EVENTS);
                q.drain(..excess);
            });
        }
    });

    move || {
        match phase.get() {
        Phase::Loading => view! { <p class="panel-notice loading">{tr(locale.get(), "panels.loading")}</p> }.into_any(),
        Phase::Running { url, .. } => view! {
            <iframe class="lw-panel-frame" node_ref=frame_ref sandbox="allow-scripts"
                referrerpolicy="no-referrer" src=url title=panel.title.pick(locale.get_untracked().code()).to_owned()></iframe>
        }
        .into_any(),
        Phase::Failed => view! {
            <div class="panel-failed" data-why=move || why.get()>
                // Why it did not start, when the host knows (a cap, a file that failed its
                // check): the host's own sentence, shown as text.
                {move || (!why.get().is_empty()).then(|| view! {
                    <p class="panel-notice panel-why">{why.get()}</p>
                })}
                <Fallback panel=panel.clone() retry=Some(attempt)/>
            </div>
        }
        .into_any(),
    }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::intent_gate::is_command;

    /// Issue #28 item 3: a page's intent value is sanitised before the gate judges it, so a
    /// control the engine would strip cannot hide a command, and what the prompt shows is what
    /// is sent.
    #[test]
    fn an_intent_value_is_sanitised_and_a_hidden_command_is_seen() {
        let (kind, value) =
            validate_intent(&json!("input"), &json!("\u{1f}.panels enable evil")).unwrap();
        assert_eq!(kind, PanelIntentKind::Input);
        assert_eq!(value, ".panels enable evil");
        assert!(is_command(&value));
        let (_, value) = validate_intent(&json!("choice"), &json!("I \u{202e}wave\u{7}")).unwrap();
        assert_eq!(value, "I wave");
        // Nothing visible left: not an intent at all.
        for empty in ["\u{1f}\u{1e}", "\u{200b}\u{feff}", " \u{3000}"] {
            assert_eq!(
                validate_intent(&json!("input"), &json!(empty)),
                None,
                "{empty:?}"
            );
        }
        let (_, roll) = validate_intent(&json!("roll"), &json!(" 1d20 \u{1f}+ 2 ")).unwrap();
        assert_eq!(roll, "1d20 + 2");
    }
}
