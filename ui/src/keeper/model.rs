//! Model and image generation: provider, model, endpoint, and write-only keys.
//!
//! Key fields are never pre-filled: they show only whether a key is set (the server's masked
//! form), and after a save the form resets to the `admin_config` that answers it.

use leptos::prelude::*;
use protocol::frame::{AdminListModels, AdminSetImagegen, AdminSetModel, SubscriptionStatus};
use protocol::keeper::Control;
use protocol::ClientFrame;

use super::{locale, Outcome};
use crate::i18n::tr;
use crate::store::Table;

fn opt(s: String) -> Option<String> {
    (!s.trim().is_empty()).then(|| s.trim().to_string())
}

#[component]
pub fn ModelPage(table: Table) -> impl IntoView {
    let locale = locale();
    table.admin(ClientFrame::AdminGetConfig);
    table.admin(ClientFrame::AdminListModels(AdminListModels::default()));
    let config = Memo::new(move |_| table.keeper.with(|k| k.config.clone()));
    let generation = Memo::new(move |_| table.keeper.with(|k| k.config_generation));

    let provider = RwSignal::new(String::new());
    let chat_model = RwSignal::new(String::new());
    let base_url = RwSignal::new(String::new());
    let api_key = RwSignal::new(String::new());
    let img_provider = RwSignal::new(String::new());
    let img_model = RwSignal::new(String::new());
    let img_base = RwSignal::new(String::new());
    let img_size = RwSignal::new(String::new());
    let img_key = RwSignal::new(String::new());
    // Every fresh `admin_config` resets both forms to what the server now holds.
    Effect::new(move |_| {
        // `get`, not `track`: a memo nobody has read yet must compute to notify anyone.
        let _ = generation.get();
        let Some(c) = config.get_untracked() else {
            return;
        };
        provider.set(c.provider.clone());
        chat_model.set(c.chat_model.clone());
        base_url.set(c.base_url.clone());
        api_key.set(String::new());
        let img = c.imagegen.clone();
        img_provider.set(
            img.as_ref()
                .map(|i| i.provider.clone())
                .filter(|p| !p.is_empty())
                .unwrap_or_else(|| "openai".into()),
        );
        img_model.set(img.as_ref().map(|i| i.model.clone()).unwrap_or_default());
        img_base.set(img.as_ref().map(|i| i.base_url.clone()).unwrap_or_default());
        img_size.set(
            img.as_ref()
                .map(|i| i.size.clone())
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| "1024x1024".into()),
        );
        img_key.set(String::new());
    });
    let catalog = Memo::new(move |_| {
        table.keeper.with(|k| {
            k.models
                .as_ref()
                .filter(|m| m.provider == provider.get())
                .map(|m| m.models.clone())
                .unwrap_or_default()
        })
    });
    let preview = move |p: String| {
        provider.set(p.clone());
        table.admin(ClientFrame::AdminListModels(AdminListModels {
            provider: Some(p),
            api_key: None,
            base_url: None,
        }));
    };
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        table.admin(ClientFrame::AdminSetModel(AdminSetModel {
            provider: provider.get_untracked(),
            chat_model: opt(chat_model.get_untracked()),
            // Sent as shown: an emptied field clears the endpoint, as the spec says.
            base_url: Some(base_url.get_untracked().trim().to_string()),
            api_key: opt(api_key.get_untracked()),
        }));
        api_key.set(String::new());
    };
    let save_img = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        table.admin(ClientFrame::AdminSetImagegen(AdminSetImagegen {
            provider: img_provider.get_untracked(),
            base_url: opt(img_base.get_untracked()),
            model: img_model.get_untracked().trim().to_string(),
            api_key: opt(img_key.get_untracked()),
            size: opt(img_size.get_untracked()),
        }));
        img_key.set(String::new());
    };
    let key_state = move |masked: &str| {
        if masked.is_empty() {
            tr(locale.get(), "keeper.model.key_unset").to_string()
        } else {
            format!("{} ({masked})", tr(locale.get(), "keeper.model.key_set"))
        }
    };
    view! {
        <h2>{move || tr(locale.get(), "keeper.page.model")}</h2>
        {move || config.get().filter(|c| c.using_demo == Some(true)).map(|_| view! {
            <p class="notice demo-notice" id="using-demo">{tr(locale.get(), "keeper.model.using_demo")}</p>
        })}
        <form class="card keeper-form" id="model-form" on:submit=save>
            <div class="card-head">
                <h3>{move || tr(locale.get(), "keeper.model.chat")}</h3>
                <Outcome table=table control=Control::Config/>
            </div>
            <label>{move || tr(locale.get(), "keeper.model.provider")}
                <select id="model-provider" prop:value=provider on:change=move |ev| preview(event_target_value(&ev))>
                    {move || config.get().map(|c| c.providers.iter().map(|p| {
                        let saved = c.saved_providers.contains(p);
                        let label = if saved { format!("{p}  ✓ {}", tr(locale.get(), "keeper.model.ready")) } else { p.clone() };
                        view! { <option value=p.clone() data-ready=saved.to_string()>{label}</option> }
                    }).collect_view())}
                </select>
            </label>
            <label>{move || tr(locale.get(), "keeper.model.model")}
                <input id="model-name" type="text" list="model-catalog" autocomplete="off" prop:value=chat_model
                    on:input=move |ev| chat_model.set(event_target_value(&ev))/>
                <datalist id="model-catalog">
                    {move || catalog.get().into_iter().map(|m| view! { <option value=m.clone()></option> }).collect_view()}
                </datalist>
                <span class="hint">
                    {move || if catalog.with(Vec::is_empty) { tr(locale.get(), "keeper.model.free_text") } else { "" }}
                    <Outcome table=table control=Control::Models/>
                </span>
            </label>
            <label>{move || tr(locale.get(), "keeper.model.base_url")}
                <input id="model-base-url" type="url" autocomplete="off" spellcheck="false" prop:value=base_url
                    placeholder=move || tr(locale.get(), "keeper.model.base_url_hint")
                    on:input=move |ev| base_url.set(event_target_value(&ev))/>
            </label>
            <label>{move || tr(locale.get(), "keeper.model.api_key")}
                <input id="model-api-key" type="password" autocomplete="new-password" spellcheck="false"
                    prop:value=api_key placeholder=move || tr(locale.get(), "keeper.model.key_hint")
                    on:input=move |ev| api_key.set(event_target_value(&ev))/>
                <span class="hint" id="model-key-state">{move || config.get().map(|c| key_state(&c.api_key_masked))}</span>
            </label>
            {move || config.get().and_then(|c| c.subscription_status).filter(|s| *s != SubscriptionStatus::ApiKeyPath).map(|s| view! {
                <p class="hint">{tr(locale.get(), "keeper.model.subscription")}" "{s.as_str().to_string()}</p>
            })}
            <div class="row">
                <button id="model-save" type="submit" class="primary"
                    disabled=move || table.keeper.with(|k| k.is_pending(&Control::ModelSave)) || provider.with(String::is_empty)>
                    {move || tr(locale.get(), "keeper.save")}
                </button>
                <Outcome table=table control=Control::ModelSave/>
            </div>
        </form>
        <form class="card keeper-form" id="imagegen-form" on:submit=save_img>
            <h3>{move || tr(locale.get(), "keeper.model.imagegen")}</h3>
            <p class="hint" id="imagegen-state">{move || config.get().map(|c| match c.imagegen {
                Some(i) if i.configured => format!("{} · {} · {}", tr(locale.get(), "keeper.model.img_on"), i.model, key_state(&i.api_key_masked)),
                _ => tr(locale.get(), "keeper.model.img_off").to_string(),
            })}</p>
            <label>{move || tr(locale.get(), "keeper.model.provider")}
                <input id="img-provider" type="text" prop:value=img_provider on:input=move |ev| img_provider.set(event_target_value(&ev))/>
            </label>
            <label>{move || tr(locale.get(), "keeper.model.model")}
                <input id="img-model" type="text" prop:value=img_model on:input=move |ev| img_model.set(event_target_value(&ev))/>
            </label>
            <label>{move || tr(locale.get(), "keeper.model.base_url")}
                <input id="img-base-url" type="url" spellcheck="false" prop:value=img_base on:input=move |ev| img_base.set(event_target_value(&ev))/>
            </label>
            <label>{move || tr(locale.get(), "keeper.model.size")}
                <input id="img-size" type="text" prop:value=img_size on:input=move |ev| img_size.set(event_target_value(&ev))/>
            </label>
            <label>{move || tr(locale.get(), "keeper.model.api_key")}
                <input id="img-api-key" type="password" autocomplete="new-password" prop:value=img_key
                    placeholder=move || tr(locale.get(), "keeper.model.key_hint")
                    on:input=move |ev| img_key.set(event_target_value(&ev))/>
            </label>
            <div class="row">
                <button id="img-save" type="submit" class="primary"
                    disabled=move || table.keeper.with(|k| k.is_pending(&Control::ImagegenSave)) || img_model.with(|m| m.trim().is_empty())>
                    {move || tr(locale.get(), "keeper.save")}
                </button>
                <Outcome table=table control=Control::ImagegenSave/>
            </div>
        </form>
    }
}
