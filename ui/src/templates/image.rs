//! `image`: a picture from the verified media cache, a shimmering placeholder of a
//! sensible size until it has loaded, the caption below and `alt` as its alternative text.

use leptos::prelude::*;
use protocol::frame::Image;

use super::media_url;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Load {
    Pending,
    Ready,
    Failed,
}

#[component]
pub fn ImageView(image: Image) -> impl IntoView {
    let Image {
        hash,
        mime,
        size,
        caption,
        alt,
    } = image;
    let src = media_url(&hash, mime.as_deref(), size);
    let state = RwSignal::new(Load::Pending);
    let alt = alt.or_else(|| caption.clone()).unwrap_or_default();
    let failed_alt = alt.clone();
    let caption = caption.map(|c| view! { <figcaption class="lw-image-caption">{c}</figcaption> });
    view! {
        <figure class="lw-image">
            <div
                class="lw-image-frame"
                class:loaded=move || state.get() == Load::Ready
                class:failed=move || state.get() == Load::Failed
                aria-busy=move || (state.get() == Load::Pending).to_string()
            >
                <div class="lw-image-placeholder" aria-hidden="true">
                    <span class="lw-image-glyph">
                        {move || if state.get() == Load::Failed { "⊘" } else { "" }}
                    </span>
                    <span class="lw-image-missing">
                        {move || (state.get() == Load::Failed).then(|| failed_alt.clone())}
                    </span>
                </div>
                <img
                    src=src
                    alt=alt
                    decoding="async"
                    draggable="false"
                    on:load=move |_| state.set(Load::Ready)
                    on:error=move |_| state.set(Load::Failed)
                />
            </div>
            {caption}
        </figure>
    }
}
