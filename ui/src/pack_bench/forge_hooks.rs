//! A card's hook scripts in the forge: each a code editor (monospace, no spelling or
//! capitals fixed, no wrapping) checked as the author types, as the engine's QuickJS will load
//! it (`forge_check_hook`). A problem names its line and column, and clicking it puts the
//! caret there. Tab keeps moving focus (a text box that swallows Tab traps keyboard users).

use ipc::HookProblem;
use leptos::prelude::*;
use serde_json::{json, Value};
use wasm_bindgen::JsCast;

use super::forge_form::{list_mut, Form};
use crate::i18n::{tr, Locale};

/// What a new script starts as: one handler, and the effects it may ask for.
const NEW_SCRIPT: &str =
    "on(\"turn_start\", (event) => {\n  // inject(text), narrate(text), setvar(name, value)\n});\n";

/// The hook scripts of the open card, then the button that adds one.
pub(super) fn hooks(form: Form) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let count = form.doc.with_untracked(|d| {
        d.as_ref()
            .and_then(|d| d.card["hooks"].as_array().map(Vec::len))
            .unwrap_or(0)
    });
    view! {
        {(0..count).map(|i| script(form, i)).collect_view()}
        <button type="button" class="secondary small" id="forge-add-hook"
            on:click=move |_| form.reshape(|c| list_mut(c, "hooks").push(json!(NEW_SCRIPT)))>
            {tr(locale.get_untracked(), "forge.add_hook")}
        </button>
    }
}

/// A hook is a code string or an object with `code` (both are what the engine reads).
fn code_of(hook: &Value) -> String {
    match hook {
        Value::String(s) => s.clone(),
        Value::Object(o) => o
            .get("code")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        _ => String::new(),
    }
}

fn script(form: Form, i: usize) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let l = move |k: &'static str| tr(locale.get_untracked(), k);
    let problems = RwSignal::new(None::<Vec<HookProblem>>);
    // Answers can arrive out of order while typing: only the latest one is shown.
    let asked = StoredValue::new(0u64);
    let check = move |code: String| {
        asked.update_value(|n| *n += 1);
        let mine = asked.get_value();
        leptos::task::spawn_local(async move {
            let answer = crate::bridge::call(&ipc::cmd::ForgeCheckHook { code }).await;
            if asked.try_get_value() == Some(mine) {
                let _ = problems.try_set(Some(answer.unwrap_or_else(|e| {
                    vec![HookProblem {
                        message: e,
                        ..HookProblem::default()
                    }]
                })));
            }
        });
    };
    let code = form.read(|c| code_of(&c["hooks"][i]));
    check(code.clone());
    let set = move |text: String| {
        form.edit(&format!("hooks.{i}"), |c| match &mut c["hooks"][i] {
            Value::Object(o) => {
                o.insert("code".into(), text.clone().into());
            }
            other => *other = text.clone().into(),
        });
        check(text);
    };
    let editor = NodeRef::<leptos::html::Textarea>::new();
    let check_id = format!("forge-hook-{i}-check");
    let bad = move || problems.with(|p| p.as_ref().is_some_and(|p| p.iter().any(|p| p.skipped)));
    view! {
        <div class="forge-hook" data-hook=i.to_string()>
            <label class="forge-field">
                <span>{format!("{} {}", l("forge.hook"), i + 1)}</span>
                <textarea node_ref=editor class="code" data-field="code" rows="8" spellcheck="false"
                    autocomplete="off" autocapitalize="off" wrap="off"
                    aria-describedby=check_id.clone() aria-invalid=move || bad().to_string()
                    prop:value=code on:input=move |ev| set(event_target_value(&ev))></textarea>
            </label>
            <div id=check_id class="forge-hook-check" class:forge-error=bad role="status" data-hook-check=i.to_string()>
                {move || problems.get().map(|list| if list.is_empty() {
                    view! { <span data-hook-ok="">{l("forge.hook_ok")}</span> }.into_any()
                } else {
                    view! { <ul>{list.into_iter().map(|p| {
                        let (line, column) = (p.line, p.column);
                        view! { <li data-hook-problem=format!("{line}:{column}")>
                            <button type="button" class="link" on:click=move |_| caret_at(editor, line, column)>
                                {l("forge.line_column").replace("{l}", &line.to_string()).replace("{c}", &column.to_string())}
                            </button>": "{p.message}
                        </li> }
                    }).collect_view()}</ul> }.into_any()
                })}
            </div>
            <button type="button" class="link" data-field="remove"
                on:click=move |_| form.reshape(|c| { list_mut(c, "hooks").remove(i); })>{l("forge.remove")}</button>
        </div>
    }
}

/// Focus the editor with the caret at `line`, `column` (1-based, in characters).
fn caret_at(editor: NodeRef<leptos::html::Textarea>, line: u32, column: u32) {
    let Some(area) = editor.get_untracked() else {
        return;
    };
    let area: &web_sys::HtmlTextAreaElement = area.unchecked_ref();
    let text = area.value();
    // The textarea counts UTF-16 units.
    let mut at = 0u32;
    for (n, row) in text.split('\n').enumerate() {
        if n + 1 == line as usize {
            at += row
                .chars()
                .take(column.saturating_sub(1) as usize)
                .map(|c| c.len_utf16() as u32)
                .sum::<u32>();
            break;
        }
        at += row.encode_utf16().count() as u32 + 1;
    }
    let _ = area.focus();
    let _ = area.set_selection_range(at, at);
}
