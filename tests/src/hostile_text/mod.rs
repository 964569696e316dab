//! The hostile-text suite's material (`tests/untrusted_text.rs` says what it proves): the payload
//! corpus, the markers that tie each payload to one field, and [`Probe`], which records for each
//! tagged value the element that must show it. [`frames`] builds the frames that carry every
//! payload through every field; [`page`] holds the scripts that check them in the window.

mod frames;
pub mod page;

pub use frames::{expected_counts, frames, snapshot, welcome, SENDERS, SENTINEL};

use serde_json::{json, Value};

/// Each payload, if it ever ran, would set `window.__xss` (or navigate / load a resource).
pub fn corpus() -> Vec<String> {
    let run = "window.__xss=(window.__xss||0)+1";
    let mut p: Vec<String> = vec![
        format!("<script>{run}</script>"),
        format!("<SCRIPT SRC=data:text/javascript,{run}></SCRIPT>"),
        format!("<img src=x onerror=\"{run}\">"),
        format!("<img src=\"lwmedia://localhost/x\" onerror={run}>"),
        format!("<svg onload=\"{run}\"></svg>"),
        format!("<svg><script>{run}</script></svg>"),
        format!("<svg><animate onbegin={run} attributeName=x dur=1s>"),
        format!("<iframe src=\"javascript:{run}\"></iframe>"),
        format!("<iframe srcdoc=\"<script>parent.{run}</script>\"></iframe>"),
        format!("<body onload={run}>"),
        format!("<details open ontoggle={run}>"),
        format!("<video><source onerror=\"{run}\"></video>"),
        format!("<audio src=x onerror={run}>"),
        format!("<input autofocus onfocus={run}>"),
        format!("<marquee onstart={run}>x</marquee>"),
        format!("<a href=\"javascript:{run}\">click me</a>"),
        format!("[click me](javascript:{run})"),
        format!("[data](data:text/html,<script>{run}</script>)"),
        format!("![x](javascript:{run})"),
        format!("<a href=\"jav&#x09;ascript:{run}\">tab</a>"),
        format!("<math><mtext><table><mglyph><style><img src=x onerror={run}>"),
        format!("<object data=\"javascript:{run}\"></object>"),
        format!("<embed src=\"javascript:{run}\">"),
        format!("<form action=\"javascript:{run}\"><button>go</button></form>"),
        format!("<meta http-equiv=\"refresh\" content=\"0;url=javascript:{run}\">"),
        format!("<link rel=stylesheet href=\"javascript:{run}\">"),
        "<style>*{background:url(http://127.0.0.1:9/xss)}</style>".into(),
        "<div style=\"background:url(javascript:alert(1))\">css</div>".into(),
        "red;background-image:url(http://127.0.0.1:9/x)".into(),
        "expression(alert(1))".into(),
        "\"><script>window.__xss=1</script>".into(),
        "'><img src=x onerror=window.__xss=1>".into(),
        "</textarea><script>window.__xss=1</script>".into(),
        "</title><script>window.__xss=1</script>".into(),
        "{{constructor.constructor('window.__xss=1')()}}".into(),
        "${window.__xss=1}".into(),
        "\u{202E}gnp.exe\u{202C} reversed".into(),
        "\u{2066}isolate\u{2069} \u{200F}rtl mark".into(),
        "null\u{0000}byte and \u{0007}bell \u{001B}[31mansi".into(),
        "<!--<script>window.__xss=1</script>-->".into(),
        "<![CDATA[<script>window.__xss=1</script>]]>".into(),
        "&lt;script&gt;window.__xss=1&lt;/script&gt;".into(),
        "&#60;script&#62;window.__xss=1&#60;/script&#62;".into(),
        "<scr<script>ipt>window.__xss=1</scr</script>ipt>".into(),
        "<base href=\"javascript:/\">".into(),
        "<template><script>window.__xss=1</script></template>".into(),
        "<noscript><p title=\"</noscript><img src=x onerror=window.__xss=1>\">".into(),
        "```html\n<script>window.__xss=1</script>\n```".into(),
        "> <img src=x onerror=window.__xss=1>".into(),
        "**<svg/onload=window.__xss=1>**".into(),
        "<x contenteditable onfocus=window.__xss=1 autofocus>".into(),
        "<keygen autofocus onfocus=window.__xss=1>".into(),
    ];
    // A few long ones too, in case lengths change parsing paths.
    p.push(format!(
        "{}<script>window.__xss=1</script>",
        "a".repeat(5000)
    ));
    p
}

/// What the UI's sanitiser leaves of a wire string (protocol::session::sanitize, restated here
/// so the expectation does not come from the code under test): control characters other than
/// `\n` and `\t`, and the bidi embeddings, overrides and isolates, are stripped.
pub fn shown(s: &str) -> String {
    s.chars()
        .filter(|c| {
            !((c.is_control() && *c != '\n' && *c != '\t')
                || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'))
        })
        .collect()
}

/// What the UI shows of a table word it cuts to one line (`ui/src/play/clip.rs`, restated): at
/// most `max` characters, the last of them an ellipsis when the word was longer.
pub fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut cut: String = s.chars().take(max - 1).collect();
    cut.push('\u{2026}');
    cut
}

/// The text a reader sees of markdown `source` (already through the sanitiser): every piece of
/// text CommonMark finds in it, in order: text, raw HTML (shown, never interpreted), code, a
/// link's words, an image's alt text. Link and image addresses are not text (a link's shows on
/// hover). Parsed by pulldown-cmark, the parser the UI uses: what the UI's renderer
/// (`ui/src/markdown.rs`, the code under test) makes of the parse is not consulted. Line breaks
/// are kept as they are: the page compares with whitespace removed, since where blocks meet it
/// puts line breaks of its own.
pub fn markdown_shown(source: &str) -> String {
    use pulldown_cmark::{Event, Options, Parser};
    let mut out = String::new();
    for event in Parser::new_ext(source, Options::ENABLE_STRIKETHROUGH) {
        match event {
            Event::Text(t) | Event::Html(t) | Event::InlineHtml(t) | Event::Code(t) => {
                out.push_str(&t)
            }
            Event::SoftBreak | Event::HardBreak => out.push('\n'),
            _ => {}
        }
    }
    out
}

/// The marker of payload `i` in `field`. Field names use no `_`/`-`/`*` (a dice detail key is
/// shown in words, `_` and `-` becoming spaces; markdown would read `*`/`_` as emphasis).
pub fn marker(i: usize, field: &str) -> String {
    format!("Q{i:02}·{field}·")
}

/// How a tagged value is checked in the page (the `mode` of a check, read by [`INSTALL`]).
pub const PLAIN: u8 = 0;
/// Markdown: no active element in the field's element, and its visible text (`innerText`) holds
/// the marker, then what the payload reads as markdown ([`markdown_shown`]), whitespace aside.
pub const MARKDOWN: u8 = 1;
/// A dice `detail` key: shown "in words" (`_`/`-` → space, first letter capitalised).
pub const DETAIL_KEY: u8 = 2;

/// The checks recorded while the frames are built: which element must show which tagged value.
#[derive(Default)]
pub struct Probe {
    pub selectors: Vec<String>,
    /// `[selector index, attribute or null, payload index, field, mode]`.
    pub checks: Vec<Value>,
    /// Where the UI shows a single-valued field cut to one line (the status bar, the sound
    /// button): `[selector index, the text that must show, field]`.
    pub clipped: Vec<Value>,
}

impl Probe {
    fn selector(&mut self, sel: &str) -> usize {
        match self.selectors.iter().position(|s| s == sel) {
            Some(at) => at,
            None => {
                self.selectors.push(sel.to_string());
                self.selectors.len() - 1
            }
        }
    }

    pub fn check(&mut self, i: usize, field: &str, sel: &str, attr: Option<&str>, mode: u8) {
        let at = self.selector(sel);
        self.checks.push(json!([at, attr, i, field, mode]));
    }

    /// Every one of `n` payloads of a [`Probe::joined`] field, checked in one more place too.
    pub fn also(&mut self, n: usize, field: &str, sel: &str, attr: Option<&str>) {
        for i in 0..n {
            self.check(i, field, sel, attr, PLAIN);
        }
    }

    /// `value` (a [`Probe::joined`] field) cut to `max` characters must show as the text of an
    /// element under `sel`: the one line the UI shows of it, the whole being its tooltip.
    pub fn clipped(&mut self, field: &str, sel: &str, value: &str, max: usize) {
        let at = self.selector(sel);
        self.clipped
            .push(json!([at, clip(&shown(value), max), field]));
    }

    /// `x` tagged for `field`; the text of an element under `sel` must read marker + payload.
    pub fn text(&mut self, i: usize, field: &str, sel: &str, x: &str) -> String {
        self.check(i, field, sel, None, PLAIN);
        format!("{}{x}", marker(i, field))
    }

    /// Like [`Probe::text`], for a value shown only as attribute `attr` of an element under `sel`.
    pub fn attr(&mut self, i: usize, field: &str, sel: &str, attr: &str, x: &str) -> String {
        self.check(i, field, sel, Some(attr), PLAIN);
        format!("{}{x}", marker(i, field))
    }

    /// `x` for a markdown field: the marker as a paragraph of its own, then the payload.
    pub fn markdown(&mut self, i: usize, field: &str, sel: &str, x: &str) -> String {
        self.check(i, field, sel, None, MARKDOWN);
        format!("{}\n\n{x}", marker(i, field))
    }

    /// `x` as a dice `detail` key (shown in words).
    pub fn detail_key(&mut self, i: usize, field: &str, sel: &str, x: &str) -> String {
        self.check(i, field, sel, None, DETAIL_KEY);
        format!("{}{x}", marker(i, field))
    }

    /// Every payload, each tagged, in one single-valued field; each checked on its own.
    pub fn joined(
        &mut self,
        corpus: &[String],
        field: &str,
        sel: &str,
        attr: Option<&str>,
    ) -> String {
        corpus
            .iter()
            .enumerate()
            .map(|(i, x)| {
                self.check(i, field, sel, attr, PLAIN);
                format!("{}{x}", marker(i, field))
            })
            .collect::<Vec<_>>()
            .join(" ¦ ")
    }
}
