//! The transcript as a file a person keeps: Markdown, or one self-contained HTML page with the
//! performances (letters, clippings, title cards) styled. Pure: the caller passes the entries,
//! the room and the date. Every wire string is escaped for the format it lands in; nothing from
//! the table ever becomes markup in the HTML.

use super::transcript::{Entry, EntryBody, NarrativeLine};
use crate::frame::{Dice, Speaker, UiBlock};

/// Whether a transcript line matches a search (case-insensitive, on what the line shows).
pub fn entry_matches(entry: &Entry, query: &str) -> bool {
    let q = query.trim().to_lowercase();
    q.is_empty() || entry_text(entry).to_lowercase().contains(&q)
}

/// The words an entry shows, flattened (for search).
pub fn entry_text(entry: &Entry) -> String {
    match &entry.body {
        EntryBody::Narrative(n) => format!("{} {}", n.name.as_deref().unwrap_or(""), n.text),
        EntryBody::Dice(d) => dice_line(d),
        EntryBody::System { text, .. } => text.clone(),
        EntryBody::Error { message, .. } => message.clone(),
        EntryBody::TitleCard(t) => present(
            &[t.act.as_deref(), Some(&t.title), t.subtitle.as_deref()],
            " ",
        ),
        EntryBody::Ui(ui) => ui
            .blocks
            .iter()
            .map(block_text)
            .collect::<Vec<_>>()
            .join(" "),
        EntryBody::PendingInput(p) => p.text.clone(),
    }
}

/// The parts that are there, joined (a letter's to/body/from, a clipping's source and date).
fn present(parts: &[Option<&str>], sep: &str) -> String {
    parts
        .iter()
        .flatten()
        .copied()
        .collect::<Vec<_>>()
        .join(sep)
}

fn speaker(n: &NarrativeLine) -> String {
    match (&n.speaker, n.name.as_deref()) {
        (Speaker::Kp, _) => "Keeper".into(),
        (_, Some(name)) if !name.trim().is_empty() => name.to_string(),
        (Speaker::Player, _) => "Player".into(),
        (Speaker::Npc, _) => "NPC".into(),
        (other, _) => other.as_str().to_string(),
    }
}

/// A number as a dice line shows it: integral values without `.0`, others as they are.
pub fn number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

fn dice_line(d: &Dice) -> String {
    let rolls: Vec<String> = d.rolls.iter().map(|r| number(*r)).collect();
    let mut line = format!(
        "{} rolls {} → [{}] = {}",
        d.actor,
        d.expr,
        rolls.join(" "),
        number(d.total)
    );
    if let Some(t) = d.effective_target.or(d.target) {
        line.push_str(&format!(" (≤ {})", number(t)));
    }
    if let Some(o) = &d.outcome {
        line.push_str(&format!(" — {}", o.label));
    }
    line
}

fn scalar(v: &crate::frame::Scalar) -> String {
    use crate::frame::Scalar;
    match v {
        Scalar::Null => String::new(),
        Scalar::Bool(b) => b.to_string(),
        Scalar::Number(n) => number(*n),
        Scalar::Text(t) => t.clone(),
    }
}

fn block_text(b: &UiBlock) -> String {
    match b {
        UiBlock::Text(t) => t.text.clone(),
        UiBlock::Letter(l) => present(
            &[
                l.to.as_deref(),
                Some(&l.body),
                l.from.as_deref(),
                l.date.as_deref(),
            ],
            " ",
        ),
        UiBlock::Clipping(c) => present(
            &[Some(&c.headline), Some(&c.body), c.source.as_deref()],
            " ",
        ),
        UiBlock::Choices(c) => {
            let options: Vec<&str> = c.options.iter().map(|o| o.label.as_str()).collect();
            format!(
                "{} {}",
                c.prompt.as_deref().unwrap_or(""),
                options.join(" ")
            )
        }
        UiBlock::MapPin(m) => m.label.clone(),
        UiBlock::Image(i) => i.caption.clone().or(i.alt.clone()).unwrap_or_default(),
        UiBlock::Stat(s) => format!("{} {}", s.label, scalar(&s.value)),
        UiBlock::Meter(m) => format!("{} {}", m.label, number(m.value)),
        UiBlock::Badge(b) => b.label.clone(),
        UiBlock::TitleCard(t) => t.title.clone(),
        _ => String::new(),
    }
}

/// Markdown: a quote marker on every line of `text`.
fn quoted(text: &str) -> String {
    text.lines()
        .map(|l| format!("> {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The transcript as Markdown. Narrative keeps its own Markdown; everything else is written
/// as Markdown of its own.
pub fn to_markdown(entries: &[Entry], room: &str, date: &str) -> String {
    let mut out = format!("# {room}\n\n*Loreweaver transcript, {date}*\n\n");
    for e in entries {
        let part = match &e.body {
            EntryBody::Narrative(n) if !n.draft => format!("**{}:** {}", speaker(n), n.text),
            EntryBody::Dice(d) => format!("🎲 *{}*", dice_line(d)),
            EntryBody::System { text, .. } => format!("*{text}*"),
            EntryBody::Error { message, .. } => format!("**Error:** {message}"),
            EntryBody::TitleCard(t) => {
                let act = t
                    .act
                    .as_deref()
                    .map(|a| format!("{a} — "))
                    .unwrap_or_default();
                let sub = t
                    .subtitle
                    .as_deref()
                    .map(|s| format!("\n\n*{s}*"))
                    .unwrap_or_default();
                format!("---\n\n## {act}{}{sub}\n\n---", t.title)
            }
            EntryBody::Ui(ui) => ui
                .blocks
                .iter()
                .filter_map(block_markdown)
                .collect::<Vec<_>>()
                .join("\n\n"),
            _ => continue,
        };
        if !part.trim().is_empty() {
            out.push_str(&part);
            out.push_str("\n\n");
        }
    }
    out
}

fn block_markdown(b: &UiBlock) -> Option<String> {
    Some(match b {
        UiBlock::Letter(l) => {
            let mut s = String::new();
            if let Some(date) = &l.date {
                s.push_str(&format!("*{date}*\n\n"));
            }
            if let Some(to) = &l.to {
                s.push_str(&format!("{to},\n\n"));
            }
            s.push_str(&l.body);
            if let Some(from) = &l.from {
                s.push_str(&format!("\n\n— {from}"));
            }
            quoted(&s)
        }
        UiBlock::Clipping(c) => {
            let by = present(&[c.source.as_deref(), c.date.as_deref()], ", ");
            let by = if by.is_empty() {
                by
            } else {
                format!("\n\n*{by}*")
            };
            quoted(&format!("### {}\n\n{}{by}", c.headline, c.body))
        }
        UiBlock::TitleCard(t) => format!("## {}", t.title),
        UiBlock::Text(t) => t.text.clone(),
        UiBlock::Image(_) | UiBlock::MapPin(_) => format!("*[{}]*", block_text(b)),
        UiBlock::Choices(c) => {
            let mut s = c.prompt.clone().unwrap_or_default();
            for o in &c.options {
                s.push_str(&format!("\n- {}", o.label));
            }
            s
        }
        _ => return None,
    })
}

/// Text for HTML: every markup character escaped.
pub fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font:17px/1.55 Georgia,'DejaVu Serif',serif;background:#f4efe3;color:#2a2419;max-width:46rem;margin:2rem auto;padding:0 1.2rem}
h1{font:600 1.6rem system-ui,sans-serif}.meta{color:#7a705c;font-style:italic}
.line{margin:.7rem 0;white-space:pre-wrap;overflow-wrap:anywhere}.who{font-weight:700}
.kp .who{color:#7d550c}.dice{font:.9rem system-ui,sans-serif;color:#4d4535;border-left:3px solid #9a6a12;padding-left:.6rem}
.system{color:#7a705c;font-style:italic}.error{color:#a3302a}
.letter{background:#fffaf0;border:1px solid #d9ccab;box-shadow:0 6px 18px rgba(0,0,0,.12);padding:1.4rem 1.6rem;margin:1.4rem auto;max-width:34rem;white-space:pre-wrap;font-style:italic}
.letter .to{font-size:1.3rem;font-style:normal}.letter .from{text-align:right}.letter .date{text-align:right;color:#7a705c}
.clipping{background:#efe6cf;border:1px solid #cbbf9f;padding:1.2rem 1.4rem;margin:1.4rem auto;max-width:32rem;transform:rotate(-.6deg);font-family:'Times New Roman',serif}
.clipping h3{font-size:1.5rem;margin:.2rem 0 .6rem;border-bottom:1px solid #8d846f}.clipping .by{font-size:.8rem;text-transform:uppercase;letter-spacing:.1em}
.title-card{text-align:center;margin:2.4rem 0;padding:1.6rem;border-top:1px solid #9a6a12;border-bottom:1px solid #9a6a12}
.title-card .act{font-variant:small-caps;letter-spacing:.3em;color:#9a6a12}.title-card h2{font-size:2rem;margin:.3rem 0}
.choices li{margin:.2rem 0}";

/// The transcript as one HTML page, styled, with no script, no remote anything, and every wire
/// string escaped (narrative shows as text; its Markdown is not interpreted).
pub fn to_html(entries: &[Entry], room: &str, date: &str) -> String {
    let e = escape_html;
    let mut out = format!(
        "<!doctype html>\n<html><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\
         <title>{room}</title><style>{STYLE}</style></head><body>\n<h1>{room}</h1><p class=\"meta\">Loreweaver transcript, {date}</p>\n",
        room = e(room),
        date = e(date)
    );
    for entry in entries {
        let part = match &entry.body {
            EntryBody::Narrative(n) if !n.draft => {
                let class = if n.speaker == Speaker::Kp { "kp" } else { "pc" };
                format!(
                    "<p class=\"line {class}\"><span class=\"who\">{}:</span> {}</p>",
                    e(&speaker(n)),
                    e(&n.text)
                )
            }
            EntryBody::Dice(d) => format!("<p class=\"line dice\">🎲 {}</p>", e(&dice_line(d))),
            EntryBody::System { text, .. } => format!("<p class=\"line system\">{}</p>", e(text)),
            EntryBody::Error { message, .. } => {
                format!("<p class=\"line error\">{}</p>", e(message))
            }
            EntryBody::TitleCard(t) => {
                title_card_html(&t.title, t.act.as_deref(), t.subtitle.as_deref())
            }
            EntryBody::Ui(ui) => ui
                .blocks
                .iter()
                .filter_map(block_html)
                .collect::<Vec<_>>()
                .join("\n"),
            _ => continue,
        };
        out.push_str(&part);
        out.push('\n');
    }
    out.push_str("</body></html>\n");
    out
}

fn title_card_html(title: &str, act: Option<&str>, subtitle: Option<&str>) -> String {
    let e = escape_html;
    format!(
        "<section class=\"title-card\">{}<h2>{}</h2>{}</section>",
        act.map(|a| format!("<div class=\"act\">{}</div>", e(a)))
            .unwrap_or_default(),
        e(title),
        subtitle
            .map(|s| format!("<p>{}</p>", e(s)))
            .unwrap_or_default()
    )
}

fn block_html(b: &UiBlock) -> Option<String> {
    let e = escape_html;
    let opt = |class: &str, v: &Option<String>| {
        v.as_deref()
            .map(|v| format!("<p class=\"{class}\">{}</p>", e(v)))
            .unwrap_or_default()
    };
    Some(match b {
        UiBlock::Letter(l) => format!(
            "<article class=\"letter\">{}{}<p>{}</p>{}</article>",
            opt("date", &l.date),
            opt("to", &l.to),
            e(&l.body),
            opt("from", &l.from.as_ref().map(|f| format!("— {f}")))
        ),
        UiBlock::Clipping(c) => {
            let by = present(&[c.source.as_deref(), c.date.as_deref()], ", ");
            format!(
                "<article class=\"clipping\"><p class=\"by\">{}</p><h3>{}</h3><p>{}</p></article>",
                e(&by),
                e(&c.headline),
                e(&c.body)
            )
        }
        UiBlock::TitleCard(t) => title_card_html(&t.title, t.act.as_deref(), t.subtitle.as_deref()),
        UiBlock::Text(t) => format!("<p class=\"line\">{}</p>", e(&t.text)),
        UiBlock::Image(_) | UiBlock::MapPin(_) => {
            format!("<p class=\"line system\">[{}]</p>", e(&block_text(b)))
        }
        UiBlock::Choices(c) => format!(
            "<div class=\"choices\"><p>{}</p><ul>{}</ul></div>",
            e(c.prompt.as_deref().unwrap_or("")),
            c.options
                .iter()
                .map(|o| format!("<li>{}</li>", e(&o.label)))
                .collect::<String>()
        ),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::ServerFrame;
    use crate::session::SessionModel;

    fn model(frames: &[serde_json::Value]) -> SessionModel {
        let mut m = SessionModel::default();
        for f in frames {
            let frame: ServerFrame = crate::codec::decode_server_value(f.clone()).unwrap();
            m.apply(&frame, 0.0);
        }
        m
    }

    fn frames() -> Vec<serde_json::Value> {
        use serde_json::json;
        vec![
            json!({"type":"narrative","id":"1","speaker":"kp","text":"The fog *rolls* in.","format":"markdown"}),
            json!({"type":"narrative","id":"2","speaker":"player","name":"Ann <b>","text":"I light the lamp.","format":"plain"}),
            json!({"type":"dice","actor":"Ann","kind":"check","expr":"1d100","rolls":[42],"total":42,"target":50,
                   "outcome":{"id":"s","label":"Success","success":true,"critical":false,"fumble":false,"tier":2}}),
            json!({"type":"ui","panel":"inline","blocks":[
                {"kind":"letter","body":"Come at once.","from":"M.","to":"Dear Ann","date":"1923"},
                {"kind":"clipping","headline":"<script>alert(1)</script>","body":"Boat lost.","source":"Gazette"},
                {"kind":"title_card","title":"The Lighthouse","act":"Act II"}]}),
        ]
    }

    #[test]
    fn markdown_keeps_every_line_in_order() {
        let m = model(&frames());
        let md = to_markdown(m.transcript().entries(), "Gull Point", "2026-12-01");
        assert!(md.starts_with("# Gull Point\n"));
        let order = [
            "**Keeper:** The fog *rolls* in.",
            "**Ann <b>:** I light the lamp.",
            "Ann rolls 1d100 → [42] = 42 (≤ 50) — Success",
            // The reducer gives a title card its own line, before the rest of its frame.
            "## Act II — The Lighthouse",
            "> Dear Ann,",
            "> — M.",
            "> ### <script>alert(1)</script>",
        ];
        let mut at = 0;
        for line in order {
            let found = md[at..]
                .find(line)
                .unwrap_or_else(|| panic!("{line} missing in\n{md}"));
            at += found;
        }
    }

    #[test]
    fn html_is_styled_and_never_markup_from_the_wire() {
        let m = model(&frames());
        let html = to_html(m.transcript().entries(), "<i>room</i>", "2026-12-01");
        assert!(!html.contains("<script") && !html.contains("<b>") && !html.contains("<i>"));
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(html.contains("Ann &lt;b&gt;:"));
        assert!(
            html.contains("<article class=\"letter\">")
                && html.contains("<article class=\"clipping\">")
        );
        assert!(html.contains(
            "<section class=\"title-card\"><div class=\"act\">Act II</div><h2>The Lighthouse</h2>"
        ));
        assert!(html.contains("default-src 'none'"));
    }

    #[test]
    fn search_matches_what_a_line_shows() {
        let m = model(&frames());
        let hits: Vec<_> = m
            .transcript()
            .entries()
            .iter()
            .filter(|e| entry_matches(e, "LAMP"))
            .collect();
        assert_eq!(hits.len(), 1);
        assert_eq!(
            m.transcript()
                .entries()
                .iter()
                .filter(|e| entry_matches(e, ""))
                .count(),
            m.transcript().entries().len()
        );
        assert!(m
            .transcript()
            .entries()
            .iter()
            .any(|e| entry_matches(e, "gazette")));
    }
}
