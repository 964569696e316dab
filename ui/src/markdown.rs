//! Markdown to Leptos views without ever producing HTML: raw HTML in the source shows as
//! text, links are inert (their address shows on hover), images show their alt text.

use leptos::prelude::*;
use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag};

#[derive(Debug, Clone, PartialEq)]
enum Kind {
    Root,
    Paragraph,
    Heading(HeadingLevel),
    Quote,
    CodeBlock,
    List(bool),
    Item,
    Emphasis,
    Strong,
    Strike,
    Link(String),
    Image,
    Other,
}

#[derive(Debug, Clone)]
enum Node {
    Text(String),
    Code(String),
    Break,
    Rule,
    Element(Kind, Vec<Node>),
}

fn kind_of(tag: Tag<'_>) -> Kind {
    match tag {
        Tag::Paragraph => Kind::Paragraph,
        Tag::Heading { level, .. } => Kind::Heading(level),
        Tag::BlockQuote(_) => Kind::Quote,
        Tag::CodeBlock(_) => Kind::CodeBlock,
        Tag::List(start) => Kind::List(start.is_some()),
        Tag::Item => Kind::Item,
        Tag::Emphasis => Kind::Emphasis,
        Tag::Strong => Kind::Strong,
        Tag::Strikethrough => Kind::Strike,
        Tag::Link { dest_url, .. } => Kind::Link(dest_url.to_string()),
        Tag::Image { .. } => Kind::Image,
        _ => Kind::Other,
    }
}

/// Deepest nesting rendered as elements: below it, text joins the element above (a line of
/// 100,000 `>` is text in a few quotes, not 100,000 frames of recursion).
pub const MAX_DEPTH: usize = 16;

fn parse(source: &str) -> Vec<Node> {
    let mut stack: Vec<(Kind, Vec<Node>)> = vec![(Kind::Root, Vec::new())];
    // Elements opened past MAX_DEPTH and not yet closed: flattened into the one above.
    let mut flattened = 0usize;
    let push = |stack: &mut Vec<(Kind, Vec<Node>)>, node: Node| {
        stack.last_mut().expect("root stays").1.push(node)
    };
    for event in Parser::new_ext(source, Options::ENABLE_STRIKETHROUGH) {
        match event {
            Event::Start(_) if stack.len() > MAX_DEPTH => flattened += 1,
            Event::Start(tag) => stack.push((kind_of(tag), Vec::new())),
            Event::End(_) if flattened > 0 => flattened -= 1,
            Event::End(_) if stack.len() > 1 => {
                let (kind, children) = stack.pop().expect("checked");
                push(&mut stack, Node::Element(kind, children));
            }
            Event::End(_) => {}
            // Raw HTML is shown, never interpreted.
            Event::Text(t) | Event::Html(t) | Event::InlineHtml(t) => {
                push(&mut stack, Node::Text(t.to_string()))
            }
            Event::Code(t) => push(&mut stack, Node::Code(t.to_string())),
            Event::SoftBreak => push(&mut stack, Node::Text(" ".into())),
            Event::HardBreak => push(&mut stack, Node::Break),
            Event::Rule => push(&mut stack, Node::Rule),
            _ => {}
        }
    }
    while stack.len() > 1 {
        let (kind, children) = stack.pop().expect("checked");
        stack
            .last_mut()
            .expect("root")
            .1
            .push(Node::Element(kind, children));
    }
    stack.pop().map(|(_, c)| c).unwrap_or_default()
}

fn render(nodes: Vec<Node>) -> Vec<AnyView> {
    nodes.into_iter().map(render_one).collect()
}

fn render_one(node: Node) -> AnyView {
    match node {
        Node::Text(t) => t.into_any(),
        Node::Code(t) => view! { <code>{t}</code> }.into_any(),
        Node::Break => view! { <br/> }.into_any(),
        Node::Rule => view! { <hr/> }.into_any(),
        Node::Element(kind, children) => {
            let inner = render(children);
            match kind {
                Kind::Paragraph => view! { <p>{inner}</p> }.into_any(),
                Kind::Heading(HeadingLevel::H1 | HeadingLevel::H2) => {
                    view! { <h3>{inner}</h3> }.into_any()
                }
                Kind::Heading(_) => view! { <h4>{inner}</h4> }.into_any(),
                Kind::Quote => view! { <blockquote>{inner}</blockquote> }.into_any(),
                Kind::CodeBlock => view! { <pre><code>{inner}</code></pre> }.into_any(),
                Kind::List(true) => view! { <ol>{inner}</ol> }.into_any(),
                Kind::List(false) => view! { <ul>{inner}</ul> }.into_any(),
                Kind::Item => view! { <li>{inner}</li> }.into_any(),
                Kind::Emphasis => view! { <em>{inner}</em> }.into_any(),
                Kind::Strong => view! { <strong>{inner}</strong> }.into_any(),
                Kind::Strike => view! { <s>{inner}</s> }.into_any(),
                // Inert: the address is visible, nothing navigates.
                Kind::Link(url) => {
                    view! { <span class="md-link" title=url>{inner}</span> }.into_any()
                }
                Kind::Image => view! { <span class="md-image-alt">{inner}</span> }.into_any(),
                Kind::Root | Kind::Other => view! { <span>{inner}</span> }.into_any(),
            }
        }
    }
}

/// Renders markdown as views; the source is untrusted.
pub fn markdown(source: &str) -> Vec<AnyView> {
    render(parse(source))
}

/// A growing draft, cut where its last top-level block begins: what is before the cut is
/// settled (a new delta cannot change how it renders), so it is rendered once, and each delta
/// re-renders only the last block.
#[derive(Debug, Clone, PartialEq)]
pub struct DraftCut {
    /// Byte offset where the last top-level block begins (0 when there is at most one).
    pub cut: usize,
    /// The last block's text when it is one paragraph of plain text (what a growing block
    /// nearly always is): shown as that text in one `<p>` it renders as [`markdown`] would,
    /// and a delta changes only the text node, not the element.
    pub plain: Option<String>,
}

/// One parse of the whole draft gives both the cut and the last block's plain text, so a
/// delta costs one pass over the draft, not one per question.
pub fn draft_cut(source: &str) -> DraftCut {
    let mut depth = 0usize;
    let mut cut = 0;
    let mut plain: Option<String> = None;
    for (event, range) in Parser::new_ext(source, Options::ENABLE_STRIKETHROUGH).into_offset_iter()
    {
        match event {
            Event::Start(tag) => {
                if depth == 0 {
                    cut = range.start;
                    plain = matches!(tag, Tag::Paragraph).then(String::new);
                } else {
                    // Emphasis, a link, a nested block: an element, not plain text.
                    plain = None;
                }
                depth += 1;
            }
            Event::End(_) => depth = depth.saturating_sub(1),
            // A rule, or raw HTML, is a block of its own at the top.
            _ if depth == 0 => {
                cut = range.start;
                plain = None;
            }
            // As `parse` makes them: each of these is a text node of the paragraph.
            Event::Text(t) | Event::Html(t) | Event::InlineHtml(t) => {
                if let Some(p) = plain.as_mut() {
                    p.push_str(&t);
                }
            }
            Event::SoftBreak => {
                if let Some(p) = plain.as_mut() {
                    p.push(' ');
                }
            }
            _ => plain = None,
        }
    }
    // An empty paragraph is not a paragraph of text.
    DraftCut {
        cut,
        plain: plain.filter(|p| !p.is_empty()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The last block's text when it is one plain paragraph, checked against the full parse.
    fn plain(s: &str) -> Option<String> {
        let d = draft_cut(s);
        let tail = parse(&s[d.cut..]);
        let oracle = match tail.as_slice() {
            [Node::Element(Kind::Paragraph, children)] => {
                children
                    .iter()
                    .try_fold(String::new(), |mut all, c| match c {
                        Node::Text(t) => {
                            all.push_str(t);
                            Some(all)
                        }
                        _ => None,
                    })
            }
            _ => None,
        };
        assert_eq!(d.plain, oracle, "{s:?}");
        d.plain
    }

    #[test]
    fn a_plain_paragraph_is_its_text() {
        assert_eq!(plain("the rain, 3 < 4").as_deref(), Some("the rain, 3 < 4"));
        assert_eq!(plain("one\ntwo").as_deref(), Some("one two"));
        assert_eq!(
            plain("a <b>bold</b> claim").as_deref(),
            Some("a <b>bold</b> claim")
        );
        assert_eq!(plain("*lean* in"), None);
        assert_eq!(plain("a `code` word"), None);
        assert_eq!(plain("hard  \nbreak"), None);
        assert_eq!(plain("- item"), None);
        assert_eq!(plain("# title"), None);
        assert_eq!(plain("> quoted"), None);
        assert_eq!(plain(""), None);
        // Only the last block counts.
        assert_eq!(
            plain("*first*\n\nthen plain").as_deref(),
            Some("then plain")
        );
        assert_eq!(plain("plain first\n\n*then not*"), None);
        assert_eq!(plain("before\n\n---"), None);
    }

    #[test]
    fn a_draft_settles_all_but_its_last_block() {
        let settled = |s: &str| draft_cut(s).cut;
        assert_eq!(settled(""), 0);
        assert_eq!(settled("one paragraph, still *grow"), 0);
        let two = "First.\n\nSecond, still";
        assert_eq!(&two[settled(two)..], "Second, still");
        // A list growing is one block; a fence not closed keeps its blank lines inside it.
        let list = "Before.\n\n- a\n- b\n\n- c";
        assert_eq!(&list[settled(list)..], "- a\n- b\n\n- c");
        let fence = "Before.\n\n```\ncode\n\nmore";
        assert_eq!(&fence[settled(fence)..], "```\ncode\n\nmore");
        let rule = "Before.\n\n---\n\nAfter";
        assert_eq!(&rule[settled(rule)..], "After");
        // What is settled renders as the whole would.
        for s in [two, list, fence, rule] {
            let cut = settled(s);
            let mut parts = parse(&s[..cut]);
            parts.extend(parse(&s[cut..]));
            assert_eq!(format!("{parts:?}"), format!("{:?}", parse(s)), "{s:?}");
        }
    }

    #[test]
    fn html_stays_text() {
        let nodes = parse("hi <script>alert(1)</script>");
        let text = format!("{nodes:?}");
        assert!(text.contains("<script>"), "{text}");
    }
}
