//! Performance templates and block renderers: every `ui` block kind as a Leptos view.
//!
//! Every string here came off the wire and is untrusted TEXT: it is only ever placed in
//! text nodes and attribute values, never parsed as markup. Positions are clamped.

mod blocks;
mod clipping;
mod image;
mod letter;
mod map_pin;
mod title_card;

use leptos::prelude::*;
use protocol::frame::UiBlock;

pub use title_card::TitleCardOverlay;

/// Renders any `ui` block; a kind this client does not know renders nothing.
/// `on_choice` receives a picked `choices` option's `input`, verbatim.
#[component]
pub fn UiBlockView(block: UiBlock, #[prop(into)] on_choice: Callback<String>) -> impl IntoView {
    match block {
        UiBlock::Divider => view! { <blocks::DividerView/> }.into_any(),
        UiBlock::Meter(m) => view! { <blocks::MeterView meter=m/> }.into_any(),
        UiBlock::Stat(s) => view! { <blocks::StatView stat=s/> }.into_any(),
        UiBlock::Badge(b) => view! { <blocks::BadgeView badge=b/> }.into_any(),
        UiBlock::Text(t) => view! { <blocks::TextView text=t/> }.into_any(),
        UiBlock::Choices(c) => {
            view! { <blocks::ChoicesView choices=c on_choice=on_choice/> }.into_any()
        }
        UiBlock::Image(i) => view! { <image::ImageView image=i/> }.into_any(),
        UiBlock::Letter(l) => view! { <letter::LetterView letter=l/> }.into_any(),
        UiBlock::Clipping(c) => view! { <clipping::ClippingView clipping=c/> }.into_any(),
        UiBlock::MapPin(p) => view! { <map_pin::MapPinView pin=p/> }.into_any(),
        UiBlock::TitleCard(t) => view! { <title_card::TitleCardLine card=t/> }.into_any(),
        UiBlock::Unknown { .. } => ().into_any(),
    }
}

/// A vertical stack of blocks, in wire order.
#[component]
pub fn UiBlocksView(
    blocks: Vec<UiBlock>,
    #[prop(into)] on_choice: Callback<String>,
) -> impl IntoView {
    view! {
        <div class="lw-blocks">
            {blocks
                .into_iter()
                .map(|block| view! { <UiBlockView block=block on_choice=on_choice/> })
                .collect_view()}
        </div>
    }
}

/// `lwmedia://localhost/<hash>?mime=<mime>&size=<n>`: a picture served by the backend from
/// the verified media cache. Never a network URL; absent parameters are omitted.
pub fn media_url(hash: &str, mime: Option<&str>, size: Option<u64>) -> String {
    let mut url = format!("lwmedia://localhost/{}", encode(hash));
    let mut sep = '?';
    if let Some(mime) = mime {
        url.push(sep);
        url.push_str("mime=");
        url.push_str(&encode(mime));
        sep = '&';
    }
    if let Some(size) = size {
        url.push(sep);
        url.push_str(&format!("size={size}"));
    }
    url
}

/// Percent-encodes everything but RFC 3986 unreserved characters ('/' → %2F, '+' → %2B),
/// so a hostile hash or mime can never add path segments, parameters or a fragment.
fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A wire number as a fraction for positioning: finite and within 0..=1 (NaN → centre).
pub(crate) fn unit(v: f64) -> f64 {
    if v.is_finite() {
        v.clamp(0.0, 1.0)
    } else {
        0.5
    }
}

/// A number as people read it: integral values without `.0`, others to two places.
pub(crate) fn number(v: f64) -> String {
    if !v.is_finite() {
        return "—".into();
    }
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        let s = format!("{v:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    }
}

/// Splits prose into paragraphs on blank lines (single newlines stay as line breaks).
pub(crate) fn paragraphs(body: &str) -> Vec<String> {
    body.replace("\r\n", "\n")
        .split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn media_urls() {
        assert_eq!(
            media_url("ab12", Some("image/svg+xml"), Some(42)),
            "lwmedia://localhost/ab12?mime=image%2Fsvg%2Bxml&size=42"
        );
        assert_eq!(
            media_url("ab12", None, Some(7)),
            "lwmedia://localhost/ab12?size=7"
        );
        assert_eq!(media_url("ab12", None, None), "lwmedia://localhost/ab12");
        assert_eq!(
            media_url("../x?y#z", None, None),
            "lwmedia://localhost/..%2Fx%3Fy%23z"
        );
    }

    #[test]
    fn units_are_clamped() {
        assert_eq!(unit(f64::NAN), 0.5);
        assert_eq!(unit(f64::INFINITY), 0.5);
        assert_eq!(unit(-3.0), 0.0);
        assert_eq!(unit(1.5), 1.0);
        assert_eq!(unit(0.25), 0.25);
    }
}
