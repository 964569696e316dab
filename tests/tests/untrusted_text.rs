//! Every string from the wire is text: a corpus of hostile payloads, sent by a peer through every
//! text-bearing field Studio renders, must show as text in the real window and run nothing.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use studio_e2e::peers::runtime;
use studio_e2e::play::join;
use studio_e2e::{open_studio_with, out_dir, wait_for};
use transport::testpeer::{PeerConfig, PeerState, TestPeer};

/// Each payload, if it ever ran, would set `window.__xss` (or navigate / load a resource).
fn corpus() -> Vec<String> {
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

/// Frames that carry payload `x` in every text field Studio renders.
fn frames(i: usize, x: &str) -> Vec<Value> {
    vec![
        json!({"type":"narrative","id":format!("kp{i}"),"speaker":"kp","text":x,"format":"markdown"}),
        json!({"type":"narrative","id":format!("npc{i}"),"speaker":"npc","name":x,"text":x,"format":"markdown"}),
        json!({"type":"narrative","id":format!("pl{i}"),"speaker":"player","name":x,"text":x,"format":"plain"}),
        json!({"type":"narrative_delta","id":format!("d{i}"),"speaker":"kp","text":x}),
        json!({"type":"dice","actor":x,"kind":"check","expr":x,"rolls":[1],"total":1,"target":50,
            "outcome":{"id":x,"label":x,"success":true,"critical":false,"fumble":false,"tier":1},
            "detail":{x: x}}),
        json!({"type":"system","level":"info","text":x}),
        json!({"type":"ui","panel":"inline","blocks":[
            {"kind":"meter","label":x,"value":1,"min":0,"max":2},
            {"kind":"stat","label":x,"value":x},
            {"kind":"badge","label":x,"tone":"warn"},
            {"kind":"text","text":x,"style":"quote"},
            {"kind":"choices","prompt":x,"options":[{"id":"o","label":x,"input":x}]},
            {"kind":"letter","body":x,"from":x,"to":x,"date":x},
            {"kind":"clipping","headline":x,"body":x,"source":x,"date":x},
            {"kind":"title_card","title":x,"subtitle":x,"act":x}
        ]}),
    ]
}

#[test]
fn hostile_text_shows_as_text_and_runs_nothing() {
    let corpus = corpus();
    assert!(
        corpus.len() >= 50,
        "the corpus has {} payloads",
        corpus.len()
    );
    let mut lines = Vec::new();
    for (i, x) in corpus.iter().enumerate() {
        for f in frames(i, x) {
            lines.push(f.to_string());
        }
    }
    // Nesting past any sane depth: shown as text in a few quotes, never 100,000 levels of
    // recursion in wasm (which would overflow the stack and kill the window).
    lines.push(
        json!({"type":"narrative","id":"deep","speaker":"kp","format":"markdown",
            "text":format!("{} DEEP-END", ">".repeat(100_000))})
        .to_string(),
    );
    let first = corpus[0].clone();
    lines.push(json!({"type":"state","party":[{"name":first,"online":true,"active":true}],
        "initiative":[{"name":first,"value":3,"current":true}],"online":1,
        "character":{"name":first,"system":first,"resources":[{"id":"hp","label":first,"value":3,"max":9}],
            "attributes":{first.clone(): first.clone()},"status_effects":[first.clone()]},
        "scene":{"name":first,"focus":first},
        "variables":[{"id":"v","label":first,"kind":"text","value":first}],
        "pregens":[{"name":first,"claimed_by":""}]}).to_string());
    lines.push(
        json!({"type":"presence","players":[{"id":"a","name":first,"online":true}],"online":1})
            .to_string(),
    );
    lines.push(
        json!({"type":"ui","panel":"sidebar","id":"side","blocks":[{"kind":"text","text":first}]})
            .to_string(),
    );

    let rt = runtime();
    let config = PeerConfig {
        after_welcome: lines,
        ..PeerConfig::default()
    };
    let peer = rt
        .block_on(TestPeer::start(config, Arc::new(PeerState::default())))
        .expect("the hostile peer starts");
    let s = open_studio_with(&[("STUDIO_NETWORK", "local")]);
    join(&s, &peer.ticket(), "good-key");
    let last_system = corpus.last().expect("a corpus").clone();
    wait_for(Duration::from_secs(30), "the hostile transcript", || {
        s.find_all(".entry.system")
            .last()
            .is_some_and(|e| s.text(e).ends_with("window.__xss=1</script>"))
            .then_some(())
    });
    drop(last_system);
    let deep = wait_for(Duration::from_secs(20), "the deep quote", || {
        let v = s
            .execute(
                "const e = [...document.querySelectorAll('.entry')].find(e => e.textContent.includes('DEEP-END'));
                 if (!e) { return null; }
                 let depth = 0;
                 e.querySelectorAll('blockquote').forEach(b => {
                   let n = 0; for (let x = b; x && x !== e; x = x.parentElement) { if (x.tagName === 'BLOCKQUOTE') { n++; } }
                   depth = Math.max(depth, n);
                 });
                 return { depth, crash: !!document.getElementById('crash') };",
                json!([]),
            )
            .ok()?;
        (!v.is_null()).then_some(v)
    });
    let depth = deep["depth"].as_u64().unwrap_or(0);
    assert!((1..=16).contains(&depth), "quotes nested {depth} deep");
    assert_eq!(deep["crash"], false, "the window crashed");
    // Scroll to the top until the first payload is in the DOM: the transcript widens its window
    // as the reader scrolls up, so every payload gets rendered at least once.
    wait_for(
        Duration::from_secs(30),
        "the whole transcript rendered",
        || {
            let _ = s.execute(
            "const t = document.querySelector('.transcript'); t.scrollTop = 0; t.dispatchEvent(new Event('scroll')); return 0;",
            json!([]),
        );
            std::thread::sleep(Duration::from_millis(150));
            let first = s.find_all(".entry.system").first().map(|e| s.text(e))?;
            (first == corpus[0]).then_some(())
        },
    );
    // Give anything that might run (onerror, onload, timers) a moment.
    std::thread::sleep(Duration::from_secs(2));
    s.screenshot(&out_dir().join("untrusted-text.png"));
    // Hostile lengths stay inside their boxes: the 5,000-character payload ran through every
    // template and card above; nothing may reach past the window's right edge.
    let overflowing = s
        .execute(
            "const vw = document.documentElement.clientWidth;
             return [...document.querySelectorAll('main *, aside *')]
               .filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.right > vw + 1; })
               .map(e => e.tagName + '.' + e.className).slice(0, 8);",
            json!([]),
        )
        .expect("measuring the boxes");
    s.screenshot(&out_dir().join("untrusted-lengths.png"));
    assert_eq!(overflowing, json!([]), "boxes run past the window");

    let verdict = s
        .execute(
            "const main = document.querySelector('main');
             return {
               xss: window.__xss === undefined ? 0 : window.__xss,
               scripts: main.querySelectorAll('script').length,
               handlers: [...main.querySelectorAll('*')].filter(e => [...e.attributes].some(a => a.name.startsWith('on'))).length,
               iframes: main.querySelectorAll('iframe, object, embed, form, meta, base, style, link').length,
               jsLinks: main.querySelectorAll('[href^=\"javascript\"], [src^=\"javascript\"]').length,
               text: main.innerText,
             };",
            json!([]),
        )
        .expect("reading the verdict");
    assert_eq!(verdict["xss"], 0, "a payload ran");
    assert_eq!(verdict["scripts"], 0, "a <script> reached the DOM");
    assert_eq!(
        verdict["handlers"], 0,
        "an event-handler attribute reached the DOM"
    );
    assert_eq!(verdict["iframes"], 0, "an active element reached the DOM");
    assert_eq!(verdict["jsLinks"], 0, "a javascript: URL reached the DOM");
    let text = verdict["text"].as_str().unwrap_or_default();
    for payload in [
        "<script>window.__xss=(window.__xss||0)+1</script>",
        "<img src=x onerror=\"window.__xss=(window.__xss||0)+1\">",
        "<svg onload=\"window.__xss=(window.__xss||0)+1\"></svg>",
    ] {
        assert!(
            text.contains(payload),
            "payload not shown as text: {payload}"
        );
    }
    // Bidi overrides and control characters are stripped before rendering.
    assert!(
        !text.contains('\u{202E}') && !text.contains('\u{0007}'),
        "a control character reached the DOM"
    );
    drop(s);
    rt.block_on(peer.shutdown());
}
