//! A profile is one folder: the WebView keeps its storage (language, theme) under
//! `STUDIO_DATA_DIR`, so a window switched to Chinese leaves another profile in English, and its
//! own next start in Chinese.

use std::time::Duration;

use studio_e2e::peers::fresh_dir;
use studio_e2e::{open_studio_with, wait_for};

fn heading(s: &studio_e2e::Studio) -> String {
    wait_for(Duration::from_secs(30), "the connect heading", || {
        s.find(".connect-card h2").map(|h| s.text(&h))
    })
}

#[test]
fn two_profiles_keep_their_own_language() {
    let _scenario = studio_e2e::scenario();
    let dir = fresh_dir("profiles");
    let (a, b) = (dir.join("a"), dir.join("b"));
    let open =
        |data: &std::path::Path| open_studio_with(&[("STUDIO_DATA_DIR", data.to_str().unwrap())]);
    let s = open(&a);
    assert_eq!(heading(&s), "Join a table");
    // The document's language follows the choice (#29 item 6): a screen reader picks its voice
    // by it, so Chinese lines are not spelled out by an English voice.
    let lang = |s: &studio_e2e::Studio| {
        s.execute(
            "return document.documentElement.lang;",
            serde_json::json!([]),
        )
        .unwrap()
    };
    assert_eq!(lang(&s), "en");
    s.click(&s.find("#locale-switch").expect("the language switch"));
    wait_for(Duration::from_secs(5), "Chinese", || {
        (heading(&s) == "加入牌桌").then_some(())
    });
    assert_eq!(
        lang(&s),
        "zh",
        "the document's language did not follow the switch"
    );
    // Three themes: lamplit dark → parchment light → high contrast.
    let theme = |s: &studio_e2e::Studio| {
        s.execute(
            "return document.documentElement.dataset.theme;",
            serde_json::json!([]),
        )
        .unwrap()
    };
    assert_eq!(theme(&s), "dark");
    s.click(&s.find("#theme-switch").unwrap());
    assert_eq!(theme(&s), "light");
    s.click(&s.find("#theme-switch").unwrap());
    assert_eq!(theme(&s), "contrast");
    s.screenshot(&studio_e2e::out_dir().join("theme-contrast.png"));
    drop(s);
    // Another profile: untouched.
    let s = open(&b);
    assert_eq!(
        heading(&s),
        "Join a table",
        "a language leaked across profiles"
    );
    drop(s);
    // The first profile again: still Chinese.
    let s = open(&a);
    assert_eq!(heading(&s), "加入牌桌", "a profile forgot its language");
    assert_eq!(theme(&s), "contrast", "a profile forgot its theme");
    assert!(
        a.join("webview").is_dir(),
        "the WebView's data is not in the profile"
    );
}
