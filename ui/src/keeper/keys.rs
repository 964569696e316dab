//! Rooms & invites: the room's keys, minting one (revealed once), rename, role, delete.

use leptos::prelude::*;
use protocol::frame::{AdminDeleteKey, AdminMintKey, AdminUpdateKey, KeyEntry, Role};
use protocol::keeper::Control;
use protocol::ClientFrame;
use serde_json::Value;

use super::{locale, Outcome};
use crate::i18n::tr;
use crate::store::Table;

fn role_of(s: &str) -> Role {
    Role::from_wire(s)
}

/// Whether changing a key's role from `from` to `to` asks first: only a promotion to keeper
/// (it hands whoever holds the key the whole table).
fn asks_before(from: &Role, to: &Role) -> bool {
    *to == Role::Keeper && *from != Role::Keeper
}

/// A roster value as a cell: `null` expiry reads "never".
fn extra_text(l: crate::i18n::Locale, key: &str, v: &Value) -> String {
    match (key, v) {
        ("expires_at", Value::Null) => tr(l, "keeper.keys.never").to_string(),
        (_, Value::String(s)) => s.clone(),
        (_, Value::Null) => "—".into(),
        (_, other) => other.to_string(),
    }
}

/// A roster field as a column heading: the ones the engine sends in words, any other field's
/// name made into words ("last_used_at" → "Last used at"), never the raw name.
fn column_label(l: crate::i18n::Locale, field: &str) -> String {
    match column_key(field) {
        Some(key) => tr(l, key).into(),
        None => in_words(field),
    }
}

/// The string key of a roster field the engine sends.
fn column_key(field: &str) -> Option<&'static str> {
    match field {
        "expires_at" => Some("keeper.keys.expires"),
        "purpose" => Some("keeper.keys.purpose"),
        _ => None,
    }
}

fn in_words(field: &str) -> String {
    let words = field.replace(['_', '-'], " ");
    let mut chars = words.trim().chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

#[component]
pub fn KeysPage(table: Table) -> impl IntoView {
    let locale = locale();
    table.admin(ClientFrame::AdminListKeys);
    let name = RwSignal::new(String::new());
    let role = RwSignal::new("player".to_string());
    // Asked from the hosting strip: a player key, copied with the ticket once minted.
    let invite = use_context::<crate::store::InviteAsked>().expect("invite context");
    let copy_next = RwSignal::new(false);
    let name_input = NodeRef::<leptos::html::Input>::new();
    Effect::new(move |_| {
        if invite.0.get() {
            role.set("player".into());
            if let Some(input) = name_input.get() {
                let _ = input.focus();
            }
        }
    });
    let mint = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if invite.0.get_untracked() && role.get_untracked() == "player" {
            copy_next.set(true);
            invite.0.set(false);
        }
        let n = name.get_untracked();
        table.admin(ClientFrame::AdminMintKey(AdminMintKey {
            room: None,
            name: (!n.trim().is_empty()).then(|| n.trim().to_string()),
            role: Some(role_of(&role.get_untracked())),
        }));
        name.set(String::new());
    };
    let keys = Memo::new(move |_| table.keeper.with(|k| k.keys.clone()));
    // Every extra field any entry carries becomes a column, in first-seen order.
    let extra_columns = Memo::new(move |_| {
        let mut cols: Vec<String> = Vec::new();
        for k in keys.get().unwrap_or_default() {
            for c in k.extra.keys() {
                if !cols.contains(c) {
                    cols.push(c.clone());
                }
            }
        }
        cols
    });
    view! {
        <h2>{move || tr(locale.get(), "keeper.page.keys")}</h2>
        <p class="lede">{move || tr(locale.get(), "keeper.keys.lede")}</p>
        {move || invite.0.get().then(|| view! {
            <p id="invite-hint" class="card hint">{move || tr(locale.get(), "keeper.keys.invite_hint")}</p>
        })}
        <Reveal table=table copy_next=copy_next/>
        <form class="card keeper-form mint" on:submit=mint>
            <h3>{move || tr(locale.get(), "keeper.keys.mint")}</h3>
            <div class="row">
                <label>{move || tr(locale.get(), "keeper.keys.name")}
                    <input id="mint-name" type="text" maxlength="40" prop:value=name node_ref=name_input
                        on:input=move |ev| name.set(event_target_value(&ev))/>
                </label>
                <label>{move || tr(locale.get(), "keeper.keys.role")}
                    <select id="mint-role" prop:value=role on:change=move |ev| role.set(event_target_value(&ev))>
                        <option value="player">{move || tr(locale.get(), "keeper.role.player")}</option>
                        <option value="keeper">{move || tr(locale.get(), "keeper.role.keeper")}</option>
                    </select>
                </label>
                <button id="mint" type="submit" class="primary"
                    disabled=move || table.keeper.with(|k| k.is_pending(&Control::Mint))>
                    {move || if invite.0.get() && role.get() == "player" {
                        tr(locale.get(), "keeper.keys.mint_invite")
                    } else {
                        tr(locale.get(), "keeper.keys.mint_button")
                    }}
                </button>
                <Outcome table=table control=Control::Mint/>
            </div>
        </form>
        <section class="card">
            <div class="card-head">
                <h3>{move || tr(locale.get(), "keeper.keys.roster")}</h3>
                <button class="link" id="keys-refresh" on:click=move |_| table.admin(ClientFrame::AdminListKeys)>
                    {move || tr(locale.get(), "keeper.refresh")}
                </button>
                <Outcome table=table control=Control::Keys/>
            </div>
            // A data table may scroll sideways in its own box when the window is narrow or
            // zoomed (reflow exempts tables); the page itself never does.
            <div class="table-scroll">
                <table class="keeper-table" id="keys">
                    <thead><tr>
                        <th>{move || tr(locale.get(), "keeper.keys.name")}</th>
                        <th>{move || tr(locale.get(), "keeper.keys.role")}</th>
                        <th>{move || tr(locale.get(), "keeper.keys.key")}</th>
                        {move || extra_columns.get().into_iter().map(|c| view! { <th data-field=c.clone()>{column_label(locale.get(), &c)}</th> }).collect_view()}
                        <th><span class="visually-hidden">{move || tr(locale.get(), "keeper.keys.actions")}</span></th>
                    </tr></thead>
                    <tbody>
                        {move || {
                            let cols = extra_columns.get();
                            keys.get().unwrap_or_default().into_iter()
                                .map(|k| view! { <KeyRow table=table entry=k cols=cols.clone()/> })
                                .collect_view()
                        }}
                    </tbody>
                </table>
            </div>
        </section>
    }
}

#[component]
fn KeyRow(table: Table, entry: KeyEntry, cols: Vec<String>) -> impl IntoView {
    let locale = locale();
    let id = StoredValue::new(entry.id.clone());
    let renaming = RwSignal::new(false);
    let new_name = RwSignal::new(entry.name.clone());
    let confirming = RwSignal::new(false);
    let update = move |name: Option<String>, role: Option<Role>| {
        table.admin(ClientFrame::AdminUpdateKey(AdminUpdateKey {
            id: id.get_value(),
            room: None,
            name,
            role,
        }));
    };
    let rename = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        update(Some(new_name.get_untracked().trim().to_string()), None);
        renaming.set(false);
    };
    let cells = cols
        .iter()
        .map(|c| {
            let v = entry.extra.get(c).cloned().unwrap_or(Value::Null);
            let col = c.clone();
            let c = c.clone();
            view! { <td data-col=col>{move || extra_text(locale.get(), &c, &v)}</td> }
        })
        .collect_view();
    // The role the select shows, and a promotion waiting for its confirmation.
    let role = RwSignal::new(entry.role.as_str().to_string());
    let promoting = RwSignal::new(false);
    let current = StoredValue::new(entry.role.clone());
    let who = if entry.name.trim().is_empty() {
        entry.key_masked.clone()
    } else {
        protocol::session::sanitize_text(&entry.name)
    };
    let change_role = move |ev: leptos::ev::Event| {
        let picked = event_target_value(&ev);
        role.set(picked.clone());
        let to = role_of(&picked);
        if asks_before(&current.get_value(), &to) {
            promoting.set(true);
        } else {
            promoting.set(false);
            update(None, Some(to));
        }
    };
    let cancel_promotion = move |_| {
        promoting.set(false);
        role.set(current.with_value(|r| r.as_str().to_string()));
    };
    view! {
        <tr class="key-row" data-id=entry.id.clone() data-name=entry.name.clone()>
            <td class="key-name">
                {move || if renaming.get() {
                    view! {
                        <form class="inline" on:submit=rename>
                            <input class="rename-input" type="text" maxlength="40" prop:value=new_name
                                on:input=move |ev| new_name.set(event_target_value(&ev))/>
                            <button type="submit" class="primary small rename-save">{tr(locale.get(), "keeper.save")}</button>
                            <button type="button" class="link small" on:click=move |_| renaming.set(false)>{tr(locale.get(), "keeper.cancel")}</button>
                        </form>
                    }.into_any()
                } else {
                    view! {
                        <span>{new_name.get_untracked()}</span>
                        <button class="link small rename" title=tr(locale.get(), "keeper.keys.rename")
                            on:click=move |_| renaming.set(true)>"✎"</button>
                    }.into_any()
                }}
            </td>
            <td>
                <select class="role-select" prop:value=role on:change=change_role
                    aria-label=move || tr(locale.get(), "keeper.keys.role")>
                    <option value="player">{move || tr(locale.get(), "keeper.role.player")}</option>
                    <option value="keeper">{move || tr(locale.get(), "keeper.role.keeper")}</option>
                </select>
                {move || promoting.get().then(|| {
                    let who = who.clone();
                    view! {
                        <span class="confirm promote-confirm">
                            {tr(locale.get(), "keeper.keys.promote_confirm").replace("{name}", &who)}" "
                            <button class="primary small promote-yes" on:click=move |_| {
                                promoting.set(false);
                                update(None, Some(Role::Keeper));
                            }>{tr(locale.get(), "keeper.confirm")}</button>
                            <button class="link small promote-no" on:click=cancel_promotion>{tr(locale.get(), "keeper.cancel")}</button>
                        </span>
                    }
                })}
            </td>
            <td><code class="masked">{entry.key_masked.clone()}</code></td>
            {cells}
            <td class="key-actions">
                {move || if confirming.get() {
                    view! {
                        <span class="confirm">
                            {tr(locale.get(), "keeper.keys.delete_confirm")}" "
                            <button class="danger small delete-yes" on:click=move |_| {
                                confirming.set(false);
                                table.admin(ClientFrame::AdminDeleteKey(AdminDeleteKey { id: id.get_value() }));
                            }>{tr(locale.get(), "keeper.delete")}</button>
                            <button class="link small" on:click=move |_| confirming.set(false)>{tr(locale.get(), "keeper.cancel")}</button>
                        </span>
                    }.into_any()
                } else {
                    view! {
                        <button class="link small delete" on:click=move |_| confirming.set(true)>{tr(locale.get(), "keeper.delete")}</button>
                    }.into_any()
                }}
                <Outcome table=table control=Control::KeyEdit(entry.id.clone())/>
                <Outcome table=table control=Control::KeyDelete(entry.id.clone())/>
            </td>
        </tr>
    }
}

/// What a Copy button puts on the clipboard.
#[derive(Clone, Copy)]
enum Copy {
    Key,
    Invite,
}

/// The freshly minted key, shown once: copy it, or copy a whole invite; closing forgets it.
/// `copy_next`: the mint was asked as an invite, so the next key revealed is copied as one.
#[component]
fn Reveal(table: Table, copy_next: RwSignal<bool>) -> impl IntoView {
    let locale = locale();
    let copied = RwSignal::new(None::<Result<&'static str, String>>);
    let copy = move |command: Copy, done: &'static str| {
        let Some(key) = table
            .keeper
            .with_untracked(|k| k.reveal().map(|r| r.key.expose().to_string()))
        else {
            return;
        };
        let room = super::own_room(table);
        leptos::task::spawn_local(async move {
            let r = match command {
                Copy::Invite => crate::bridge::call(&ipc::cmd::CopyInvite { room, key }).await,
                Copy::Key => {
                    crate::bridge::call(&ipc::cmd::CopyText {
                        text: key,
                        secret: true,
                    })
                    .await
                }
            };
            let _ = copied.try_set(Some(r.map(|_| done)));
        });
    };
    Effect::new(move |_| {
        if table.keeper.with(|k| k.reveal().is_some()) && copy_next.get_untracked() {
            copy_next.set(false);
            copy(Copy::Invite, "keeper.reveal.invite_copied");
        }
    });
    let close_now = move || {
        copied.set(None);
        table.keeper.update(|k| k.close_reveal());
    };
    let close = move |_| close_now();
    // Drawn once per reveal (not at every keeper frame): it holds focus while it is there.
    let shown = Memo::new(move |_| {
        table.keeper.with(|k| {
            k.reveal().map(|r| {
                (
                    r.key.expose().to_string(),
                    r.name.clone(),
                    r.role.as_str().to_string(),
                )
            })
        })
    });
    view! {
        {move || shown.get()
            .map(|(key, name, role)| view! {
                <crate::focus::Scope on_escape=Callback::new(move |_| close_now())>
                <section class="card reveal" id="reveal" role="dialog" aria-labelledby="reveal-title">
                    <h3 id="reveal-title">{tr(locale.get(), "keeper.reveal.title")}" — "{name}" · "{role}</h3>
                    <p class="warning">{tr(locale.get(), "keeper.reveal.once")}</p>
                    <code id="minted-key" class="secret">{key}</code>
                    <div class="row">
                        <button id="copy-key" class="secondary" on:click=move |_| copy(Copy::Key, "keeper.reveal.copied")>
                            {tr(locale.get(), "keeper.reveal.copy")}
                        </button>
                        <button id="copy-invite" class="secondary" on:click=move |_| copy(Copy::Invite, "keeper.reveal.invite_copied")>
                            {tr(locale.get(), "keeper.reveal.copy_invite")}
                        </button>
                        <button id="reveal-done" class="primary" on:click=close>
                            {tr(locale.get(), "keeper.reveal.done")}
                        </button>
                        <span class="copied" aria-live="polite">{move || match copied.get() {
                            Some(Ok(k)) => tr(locale.get(), k)
                                .replace("{s}", &ipc::CLIPBOARD_CLEAR_SECS.to_string()),
                            Some(Err(e)) => e,
                            None => String::new(),
                        }}</span>
                    </div>
                </section>
                </crate::focus::Scope>
            })}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue #28 item 9: only a promotion to keeper asks before it is sent.
    #[test]
    fn only_a_promotion_to_keeper_asks() {
        assert!(asks_before(&Role::Player, &Role::Keeper));
        assert!(!asks_before(&Role::Keeper, &Role::Player));
        assert!(!asks_before(&Role::Keeper, &Role::Keeper));
        assert!(!asks_before(&Role::Player, &Role::Player));
    }

    /// Issue #29 item 7: a column heading is words, never a field name.
    #[test]
    fn roster_columns_are_headed_in_words() {
        use crate::i18n::{lookup, Locale};
        let tables: &[crate::i18n::Strings] = &[super::super::text::strings];
        let words = |l, f| {
            column_key(f)
                .map(|k| lookup(tables, l, k).to_string())
                .unwrap_or_else(|| in_words(f))
        };
        assert_eq!(words(Locale::En, "expires_at"), "Expires");
        assert_eq!(words(Locale::Zh, "expires_at"), "到期");
        assert_eq!(words(Locale::En, "purpose"), "Purpose");
        assert_eq!(words(Locale::En, "last_used_at"), "Last used at");
    }
}
