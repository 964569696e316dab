//! Declarative module UI: the `ui` frame's block vocabulary and the `ui_manifest`
//! panel list (whose tier-1 blocks are TEMPLATES, kept as raw JSON for the resolver).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::common::{present, Localized, PanelFallback, Scalar};

/// One block kind of the `ui` vocabulary and its fields as the engine checks them
/// (`core/panels.py`, `_validate_block`); `visible_when` goes on any block. The one list the
/// pack reader, the template resolver and [`UiBlock`] share.
#[derive(Debug, PartialEq, Eq)]
pub struct BlockKind {
    pub kind: &'static str,
    pub required: &'static [&'static str],
    pub optional: &'static [&'static str],
}

macro_rules! kinds {
    ($($kind:literal: [$($req:literal),*] [$($opt:literal),*]),* $(,)?) => {
        &[$(BlockKind { kind: $kind, required: &[$($req),*], optional: &[$($opt),*] }),*]
    };
}

/// Every block kind, in the spec's order.
pub const BLOCK_KINDS: &[BlockKind] = kinds![
    "meter": ["label", "value", "min", "max"] [],
    "stat": ["label", "value"] [],
    "badge": ["label"] ["tone"],
    "text": ["text"] ["style"],
    "divider": [] [],
    "choices": ["options"] ["prompt"],
    "image": ["src"] ["caption", "alt"],
    "letter": ["body"] ["from", "to", "date"],
    "clipping": ["headline", "body"] ["source", "date"],
    "map_pin": ["src", "label", "x", "y"] ["note"],
    "title_card": ["title"] ["subtitle", "act"],
];

/// The kind named `kind`, if the vocabulary has it.
pub fn block_kind(kind: &str) -> Option<&'static BlockKind> {
    BLOCK_KINDS.iter().find(|k| k.kind == kind)
}

tagged_union! {
    /// One resolved `ui` block, tagged by `kind`. A kind this client does not know —
    /// or a known kind whose fields do not fit — decodes to `Unknown`, which
    /// renderers skip: one odd block never costs the whole frame.
    pub enum UiBlock (tag = "kind", unknown = kind) {
        Divider = "divider",
        ;
        Meter(Meter) = "meter",
        Stat(Stat) = "stat",
        Badge(Badge) = "badge",
        Text(TextBlock) = "text",
        Choices(Choices) = "choices",
        Image(Image) = "image",
        Letter(Letter) = "letter",
        Clipping(Clipping) = "clipping",
        MapPin(MapPin) = "map_pin",
        TitleCard(TitleCard) = "title_card",
    }
}

impl<'de> Deserialize<'de> for UiBlock {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = Value::deserialize(d)?;
        let Value::Object(obj) = &raw else {
            return Ok(Self::Unknown {
                kind: String::new(),
                raw,
            });
        };
        let kind = obj
            .get("kind")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        Ok(Self::from_object(obj.clone()).unwrap_or(Self::Unknown { kind, raw }))
    }
}

/// `{kind:"meter"}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Meter {
    pub label: String,
    #[serde(with = "super::num")]
    pub value: f64,
    #[serde(with = "super::num")]
    pub min: f64,
    #[serde(with = "super::num")]
    pub max: f64,
}

/// `{kind:"stat"}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stat {
    pub label: String,
    pub value: Scalar,
}

wire_enum! {
    /// `badge.tone`.
    pub enum BadgeTone { Info = "info", Warn = "warn", Danger = "danger" }
}

/// `{kind:"badge"}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Badge {
    pub label: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tone: Option<BadgeTone>,
}

wire_enum! {
    /// `text.style`.
    pub enum TextStyle { Quote = "quote", Warning = "warning" }
}

/// `{kind:"text"}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TextBlock {
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub style: Option<TextStyle>,
}

/// A `choices` option. Picking it sends `input` back verbatim as a NORMAL input
/// frame (in a tier-1 panel: `panel_intent{kind:"choice", value: input}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChoiceOption {
    pub id: String,
    pub label: String,
    pub input: String,
}

/// `{kind:"choices"}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Choices {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    pub options: Vec<ChoiceOption>,
}

/// `{kind:"image"}` (2.1) — a picture by CONTENT HASH, fetched over the media channel.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Image {
    pub hash: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caption: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alt: Option<String>,
}

/// `{kind:"letter"}` (2.1 performance template) — styled as stationery.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Letter {
    pub body: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
}

/// `{kind:"clipping"}` (2.1 performance template) — a newspaper clipping.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Clipping {
    pub headline: String,
    pub body: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
}

/// `{kind:"map_pin"}` (2.1) — `x`/`y` are FRACTIONS (0..1) of the map image's box.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MapPin {
    pub hash: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    pub label: String,
    #[serde(with = "super::num")]
    pub x: f64,
    #[serde(with = "super::num")]
    pub y: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// `{kind:"title_card"}` (2.1) — a full-bleed act card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TitleCard {
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subtitle: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub act: Option<String>,
}

wire_enum! {
    /// `ui.panel`: where a `ui` frame renders.
    pub enum UiPlacement { Inline = "inline", Sidebar = "sidebar" }
}

/// `ui` — hook-emitted declarative UI (not replayed on join).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UiFrame {
    pub blocks: Vec<UiBlock>,
    pub panel: UiPlacement,
    /// Names a region: a later sidebar frame with the same id replaces it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Inline only: MAY update the prior inline frame with the same id in place.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replace: Option<bool>,
}

wire_enum! {
    /// `UiManifestPanel.slot`.
    pub enum PanelSlot { Sidebar = "sidebar", Tray = "tray", Modal = "modal" }
}

/// A tier-2 panel's entry document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PanelEntry {
    pub hash: String,
    pub size: u64,
}

/// A tier-2 panel asset; `path` is relative to the entry document's directory.
/// Fetch by hash over the media channel and verify the sha256 before caching.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PanelAsset {
    pub path: String,
    pub hash: String,
    pub size: u64,
    pub mime: String,
}

/// One panel of this viewer's manifest (audience was resolved server-side).
/// Tier 1 carries `blocks`; tier 2 carries `entry`/`assets`/`fallback`. Template
/// blocks stay raw JSON: they hold `{"$var"}` bindings, `repeat` and `visible_when`,
/// which the template resolver interprets (fail-closed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UiManifestPanel {
    /// `<packId>/<panelId>`.
    pub id: String,
    pub title: Localized,
    pub slot: PanelSlot,
    pub tier: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocks: Option<Vec<Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry: Option<PanelEntry>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assets: Option<Vec<PanelAsset>>,
    /// `None` = absent; `Some(RichClientOnly)` = explicit `null`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub fallback: Option<PanelFallback>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl UiManifestPanel {
    /// The template blocks a text-first rendering of this panel uses: tier 1's
    /// `blocks`, or tier 2's fallback blocks. `None` for an explicit `fallback: null`
    /// (show the localized "available in the rich client" line) or when absent.
    pub fn text_first_blocks(&self) -> Option<&[Value]> {
        if self.tier == 1 {
            return self.blocks.as_deref();
        }
        match &self.fallback {
            Some(PanelFallback::Blocks(blocks)) => Some(blocks),
            _ => None,
        }
    }
}

/// `ui_manifest` — FULL-REPLACE: the viewer's complete panel list (empty clears).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UiManifest {
    pub panels: Vec<UiManifestPanel>,
}

#[cfg(test)]
mod kinds_tests {
    use super::*;

    #[test]
    fn the_decoder_and_the_vocabulary_name_the_same_kinds() {
        let mut listed: Vec<&str> = BLOCK_KINDS.iter().map(|k| k.kind).collect();
        let mut decoded: Vec<&str> = UiBlock::TAGS.to_vec();
        listed.sort_unstable();
        decoded.sort_unstable();
        assert_eq!(listed, decoded);
        assert_eq!(block_kind("map_pin").map(|k| k.required.len()), Some(4));
        assert!(block_kind("video").is_none());
    }
}
