//! Hosting a table from Studio with the real engine (`../shared/engine`, installed by setup):
//! the window's own host panel, always "for this machine only" (the engine bound to 127.0.0.1
//! with no relays), and what a test reads beside the window (the table's folder, its pid file,
//! the engine's process).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::{wait_for, Session};

/// The engine's source folder (its venv beside it), as setup installed it.
pub fn engine_dir() -> PathBuf {
    test_support::engine_install().0
}

/// The hosted table's folder in a window's profile (`STUDIO_DATA_DIR` = `data`).
pub fn table_dir(data: &Path, slug: &str) -> PathBuf {
    data.join("hosted").join(slug)
}

/// Opens the host panel and, when no engine is known yet, gives it the engine's folder.
pub fn open_host_panel(s: &Session) {
    let host = wait_for(Duration::from_secs(30), "the Host a table button", || {
        s.find("#host")
    });
    s.click(&host);
    let found = wait_for(Duration::from_secs(20), "the host panel", || {
        if s.find("#engine-found").is_some() {
            Some(true)
        } else {
            s.find("#engine-path").map(|_| false)
        }
    });
    if !found {
        choose_engine(s, &engine_dir().display().to_string());
        // The engine's `--version` must answer within 3 s (a hanging one gets its sentence within
        // 5); on a loaded 2-core runner a cold Python start can miss that. Studio then says "did
        // not answer within 3 s" and remembers nothing, and a person clicks Use again: so does
        // the test, twice at most (a real refusal says something else, and fails here).
        let mut tries = 1;
        let mut last = std::time::Instant::now();
        wait_for(Duration::from_secs(40), "the engine found", || {
            if let Some(found) = s.find("#engine-found") {
                return Some(found);
            }
            let slow = s
                .find("#engine-problem")
                .is_some_and(|p| s.text(&p).contains("did not answer --version"));
            // (A fresh answer is awaited before asking again: each try is one probe.)
            if slow && tries < 3 && last.elapsed() > Duration::from_secs(4) {
                tries += 1;
                last = std::time::Instant::now();
                eprintln!("the engine's --version was slow; Use this engine again (try {tries})");
                choose_engine(s, &engine_dir().display().to_string());
            }
            None
        });
    }
}

/// Types `path` into the engine page and presses Use this engine.
pub fn choose_engine(s: &Session, path: &str) {
    let field = s.find("#engine-path").expect("the engine path field");
    s.clear(&field);
    s.type_text(&field, path);
    s.click(&s.find("#engine-use").expect("the Use this engine button"));
}

/// Hosts table `name` for this machine only; returns when the strip shows its ticket.
pub fn host(s: &Session, name: &str) -> String {
    open_host_panel(s);
    let field = s.find("#host-name").expect("the table name field");
    s.clear(&field);
    s.type_text(&field, name);
    let local = s.find("#host-local").expect("the this-machine-only box");
    let checked = || {
        s.execute(
            "return document.getElementById('host-local').checked;",
            serde_json::json!([]),
        )
        .expect("reading the box")
        .as_bool()
        .unwrap_or(false)
    };
    if !checked() {
        s.click(&local);
    }
    // Never the Internet mode in a test: it would try the public relays.
    assert!(checked(), "the this-machine-only box did not check");
    s.click(&s.find("#host-start").expect("the Host button"));
    wait_ticket(s)
}

/// Waits for the strip's ticket (serving).
pub fn wait_ticket(s: &Session) -> String {
    wait_for(
        Duration::from_secs(90),
        "the hosting strip's ticket",
        || {
            let t = s.attr(&s.find("#hosting-ticket")?, "title")?;
            (!t.is_empty()).then_some(t)
        },
    )
}

/// The strip's state word. A strip without one panics (an empty word would pass a "not …").
pub fn state(s: &Session) -> String {
    let word = s
        .find("#hosting-state")
        .expect("the hosting strip's state word (#hosting-state)");
    s.text(&word)
}

/// The engine's pid, from the pid file Studio keeps in the table's folder.
pub fn pid(table: &Path) -> u32 {
    wait_for(Duration::from_secs(10), "the engine's pid file", || {
        std::fs::read_to_string(table.join("engine.pid"))
            .ok()?
            .trim()
            .parse()
            .ok()
    })
}

/// Whether process `pid` exists (a zombie does not count: it runs nothing).
pub fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            stat.rsplit(')')
                .next()
                .and_then(|r| r.split_whitespace().next())
                .map(|st| st != "Z" && st != "X")
        })
        .unwrap_or(false)
}

/// Waits until `pid` is gone; how long that took.
pub fn wait_gone(pid: u32, timeout: Duration, what: &str) -> Duration {
    let from = Instant::now();
    wait_for(timeout, what, || (!alive(pid)).then_some(()));
    from.elapsed()
}

/// The keeper key the engine wrote next to its keys (`key=` in `keeper-key.txt`).
pub fn keeper_key(table: &Path) -> String {
    let text = std::fs::read_to_string(table.join("keeper-key.txt")).expect("keeper-key.txt");
    let key = text
        .lines()
        .find_map(|l| l.strip_prefix("key="))
        .expect("a key= line")
        .trim()
        .to_string();
    assert!(key.len() >= 16, "a keeper key that short is no key");
    key
}

/// Whether `haystack` holds `secret` (the one scan both the positive control and the checks use).
pub fn holds(haystack: &str, secret: &str) -> bool {
    !secret.is_empty() && haystack.contains(secret)
}

/// The whole document as markup, and every attribute value and input value in it.
pub fn dom(s: &Session) -> String {
    s.execute(
        "const vals = [...document.querySelectorAll('input,textarea')].map(e => e.value).join('\\n');\
         return document.documentElement.outerHTML + '\\n' + vals;",
        serde_json::json!([]),
    )
    .expect("reading the document")
    .as_str()
    .expect("the document read as text")
    .to_string()
}
