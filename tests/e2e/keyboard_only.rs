//! The whole evening with the keyboard alone (#29 item 1): from the connect screen, with key
//! presses only (no element is clicked or typed into by name), join the demo table (with the
//! bench's fixture pack for a tier-2 page), answer the consent question, send a line, go to the
//! newest line, roll and roll again from history, open the sheet, open the gallery and the
//! viewer and close them, answer a panel's intent prompt, open a keeper screen, mint a key,
//! close the reveal and the screen, open and close the Keyboard help — asserting what has focus
//! at each step, and that every dialog gives focus back to where it was.

use std::cell::Cell;
use std::time::Duration;

use local_table::table::demo_config;
use local_table::{LocalTable, Pacing};
use studio_e2e::peers::{free_udp_port, fresh_dir, runtime};
use studio_e2e::play::{transcript, wait_online, wait_turn_end};
use studio_e2e::{open_studio_with, out_dir, wait_for, Studio};
use test_support::repo;

/// The keys pressed, counted as a person presses them (a chord is one press, a typed word one
/// press per character).
struct Keys<'a> {
    s: &'a Studio,
    presses: Cell<usize>,
    /// Of those, the characters typed (the ticket, the key, the lines).
    typed: Cell<usize>,
}

impl Keys<'_> {
    fn press(&self, chord: &[&str]) {
        self.s.press(&[chord]);
        self.presses.set(self.presses.get() + 1);
    }

    fn type_text(&self, text: &str) {
        self.s.press(&[&[text]]);
        self.presses.set(self.presses.get() + text.chars().count());
        self.typed.set(self.typed.get() + text.chars().count());
    }

    /// Tab (or Shift+Tab) until `want` has focus, as a person tabs to a control; at most `max`.
    fn tab_to(&self, want: &str, back: bool, max: usize) {
        let mut seen = Vec::new();
        for _ in 0..max {
            if back {
                self.press(&["Shift", "Tab"]);
            } else {
                self.press(&["Tab"]);
            }
            let f = self.s.focused();
            if f == want {
                return;
            }
            seen.push(f);
        }
        panic!("{want} never got focus in {max} presses; focus went: {seen:?}");
    }

    /// Waits (briefly: focus moves on the next frames) until `want` has focus.
    fn focus_is(&self, want: &str, what: &str) {
        let mut last = String::new();
        wait_for(Duration::from_secs(10), what, || {
            last = self.s.focused();
            (last == want || (want.starts_with("button.") && last.starts_with(want))).then_some(())
        });
        eprintln!("{what}: focus on {last}");
    }
}

/// How a screen reader meets the dialog `css`: its role, its name (from `aria-labelledby`) and
/// its description (from `aria-describedby`), each read from the elements they point to.
fn announced(s: &Studio, css: &str) -> (String, String, String) {
    let v = s
        .execute(
            "const d = document.querySelector(arguments[0]);
             if (!d) return ['', '', ''];
             const text = a => (d.getAttribute(a) || '').split(/\\s+/).filter(Boolean)
               .map(id => (document.getElementById(id) || {}).textContent || '').join(' ')
               .replace(/\\s+/g, ' ').trim();
             return [d.getAttribute('role') || '', text('aria-labelledby'), text('aria-describedby')];",
            serde_json::json!([css]),
        )
        .expect("reading the dialog's name");
    let part = |i: usize| v[i].as_str().unwrap_or_default().to_owned();
    (part(0), part(1), part(2))
}

fn dice_count(s: &Studio) -> usize {
    s.find_all(".transcript .entry.dice").len()
}

#[test]
fn an_evening_with_the_keyboard_alone() {
    let _scenario = studio_e2e::scenario();
    let dir = fresh_dir("keyboard");
    let (mut config, keys) = demo_config(dir.join("table")).expect("demo config");
    config.port = free_udp_port();
    config.pacing = Pacing::fast();
    config.packs.push(repo().join("tests/fixtures/bench-pack"));
    let rt = runtime();
    let table = rt.block_on(LocalTable::start(config)).expect("local table");
    let images = repo().join("assets/demo/images");
    let pictures = std::env::join_paths([images.join("lighthouse.svg"), images.join("martha.png")])
        .expect("two paths");
    let s = open_studio_with(&[
        ("STUDIO_DATA_DIR", dir.join("studio").to_str().unwrap()),
        ("STUDIO_PICK_FILES", pictures.to_str().unwrap()),
    ]);
    let k = Keys {
        s: &s,
        presses: Cell::new(0),
        typed: Cell::new(0),
    };

    // Join: Tab to the ticket, type it, Tab to the key, type it, Enter.
    wait_for(Duration::from_secs(30), "the connect screen", || {
        s.find("#ticket")
    });
    k.tab_to("#ticket", false, 20);
    k.type_text(&table.ticket());
    k.tab_to("#key", false, 5);
    k.type_text(&keys.keeper);
    k.press(&["Enter"]);
    wait_online(&s, Duration::from_secs(30));

    // The input is a shortcut away; a dot command turns the pack's panels on.
    k.press(&["Alt", "i"]);
    k.focus_is("#input", "Alt+I");
    k.type_text(".panels enable bench-pack");
    k.press(&["Enter"]);
    // The room now brings a page: the question takes focus on itself (not on an answer, so a
    // key meant for the input answers nothing), Tab reaches its answers, and it gives focus back.
    k.focus_is("#panel-code-notice", "the consent question");
    // Announced as a dialog that asks, with its question as its name.
    let (role, name, _) = announced(&s, "#panel-code-notice");
    assert_eq!(
        role, "alertdialog",
        "the consent question is not announced as a dialog"
    );
    assert!(
        name.contains("Run them?"),
        "the consent question's announced name lacks the question: {name:?}"
    );
    k.press(&["Tab"]);
    k.focus_is("#panel-code-run", "Tab in the question");
    k.press(&["Enter"]);
    wait_for(Duration::from_secs(10), "the question answered", || {
        s.find("#panel-code-notice.ask").is_none().then_some(())
    });
    k.focus_is("#input", "focus back after the question");

    // A line, and the Keeper's answer.
    k.type_text("I knock on the cottage door.");
    k.press(&["Enter"]);
    wait_for(Duration::from_secs(30), "a keeper narrative", || {
        s.find(".entry.narrative[data-speaker='kp']:not(.draft)")
    });
    wait_turn_end(&s, Duration::from_secs(60));
    // The newest line, with focus on it (what a screen reader then reads).
    k.press(&["Alt", "n"]);
    wait_for(
        Duration::from_secs(10),
        "Alt+N to put focus on a line",
        || s.focused().contains(".entry").then_some(()),
    );
    let newest = transcript(&s).last().expect("a line").text.clone();
    let focused_text = s
        .execute(
            "return document.activeElement.textContent",
            serde_json::json!([]),
        )
        .expect("the focused line's text");
    let f = s.focused();
    assert!(f.contains(".entry"), "Alt+N put focus on {f}, not a line");
    let words = |t: &str| t.split_whitespace().collect::<String>();
    assert_eq!(
        words(focused_text.as_str().unwrap_or_default()),
        words(&newest),
        "Alt+N's line is not the newest"
    );

    // Roll, then roll again from history with Alt+R.
    k.press(&["Alt", "i"]);
    k.focus_is("#input", "Alt+I again");
    k.type_text(".r 1d20");
    k.press(&["Enter"]);
    wait_for(Duration::from_secs(20), "the roll", || {
        (dice_count(&s) >= 1).then_some(())
    });
    let rolled = dice_count(&s);
    k.press(&["Tab"]);
    k.press(&["Alt", "r"]);
    k.focus_is("#input", "Alt+R");
    let again = s
        .execute(
            "return document.getElementById('input').value",
            serde_json::json!([]),
        )
        .expect("the input's value");
    assert_eq!(
        again.as_str(),
        Some(".r 1d20"),
        "Alt+R did not bring the last roll back"
    );
    k.press(&["Enter"]);
    wait_for(Duration::from_secs(20), "the second roll", || {
        (dice_count(&s) > rolled).then_some(())
    });

    // The sheet.
    k.press(&["Alt", "s"]);
    let sheet = wait_for(Duration::from_secs(10), "Alt+S", || {
        let f = s.focused();
        (f == "#character" || f == "#new-character").then_some(f)
    });
    eprintln!("Alt+S: focus on {sheet}");

    // Two pictures shared from the input's + (the file picker answered by the test).
    k.press(&["Alt", "i"]);
    k.press(&["Shift", "Tab"]);
    k.focus_is("#share-button", "Shift+Tab from the input");
    k.press(&["Enter"]);
    wait_for(Duration::from_secs(30), "the shared pictures", || {
        let t = s.text(&s.find("#open-gallery")?);
        t.contains("(2 ").then_some(())
    });

    // The gallery and the viewer, and back.
    k.press(&["Alt", "s"]);
    k.tab_to("#open-gallery", false, 80);
    k.press(&["Enter"]);
    k.focus_is("#gallery-close", "the gallery takes focus");
    k.press(&["Shift", "Tab"]);
    let f = s.focused();
    assert!(
        f.starts_with("button.gallery-item") || f.starts_with("button.secondary.listen"),
        "Shift+Tab from the gallery's first control left it: {f} (dialogs: {:?})",
        s.execute(
            "return document.documentElement.getAttribute('data-dialogs')",
            serde_json::json!([])
        )
    );
    k.tab_to("button.gallery-item", false, 10);
    k.press(&["Enter"]);
    k.focus_is("#viewer-prev", "the viewer takes focus");
    let index = |s: &Studio| s.attr(&s.find("#viewer").expect("the viewer"), "data-index");
    let before = index(&s);
    k.press(&["ArrowRight"]);
    wait_for(Duration::from_secs(5), "the next picture", || {
        (index(&s) != before).then_some(())
    });
    k.press(&["Escape"]);
    k.focus_is("#gallery-close", "Escape: back to the grid");
    k.press(&["Escape"]);
    wait_for(Duration::from_secs(5), "the gallery closed", || {
        s.find("#gallery").is_none().then_some(())
    });
    k.focus_is("#open-gallery", "focus back where the gallery was opened");

    // A panel asks to send something in my name: the prompt takes focus, Tab reaches Send.
    let frame = wait_for(Duration::from_secs(20), "the echo page", || {
        s.find("[data-panel='bench-pack/echo'] iframe.lw-panel-frame")
    });
    s.switch_to_frame(&frame).expect("into the page");
    s.execute(
        "window.loreweaver.send('choice', 'I ask the tide'); return 0;",
        serde_json::json!([]),
    )
    .expect("the page sends");
    s.switch_to_top();
    k.focus_is("#intent-prompt", "the intent prompt");
    // Announced as a dialog: who asks (its name) and the very words it would send (its
    // description).
    let (role, name, description) = announced(&s, "#intent-prompt");
    assert_eq!(
        role, "alertdialog",
        "the intent prompt is not announced as a dialog"
    );
    assert!(
        name.contains("wants to send"),
        "the intent prompt's announced name lacks the question: {name:?}"
    );
    assert_eq!(
        description, "I ask the tide",
        "the intent prompt's announced description is not the words it would send"
    );
    k.press(&["Enter"]);
    assert!(
        s.find("#intent-prompt").is_some(),
        "Enter on the prompt itself answered it"
    );
    k.press(&["Tab"]);
    k.focus_is("#intent-send", "Tab in the prompt");
    k.press(&["Enter"]);
    wait_for(Duration::from_secs(20), "the intent sent", || {
        transcript(&s)
            .iter()
            .any(|l| l.text.contains("I ask the tide"))
            .then_some(())
    });
    k.focus_is("#open-gallery", "focus back after the prompt");

    // A keeper screen: the Keeper menu, Keys, mint one, close the reveal and the screen.
    k.tab_to("#keeper-menu", true, 80);
    k.press(&["Enter"]);
    k.focus_is("button.keeper-menu-item", "the Keeper menu");
    k.press(&["Enter"]);
    k.focus_is("#keeper-back", "the keys screen takes focus");
    k.tab_to("#mint-name", false, 20);
    k.type_text("Kb Player");
    k.press(&["Enter"]);
    wait_for(Duration::from_secs(20), "the reveal", || s.find("#reveal"));
    k.focus_is("#copy-key", "the reveal takes focus");
    s.screenshot(&out_dir().join("keyboard-reveal.png"));
    k.press(&["Escape"]);
    wait_for(Duration::from_secs(5), "the reveal closed", || {
        s.find("#reveal").is_none().then_some(())
    });
    k.focus_is("#mint-name", "focus back after the reveal");
    k.press(&["Escape"]);
    wait_for(Duration::from_secs(5), "the screen closed", || {
        s.find("#keeper-screen").is_none().then_some(())
    });
    k.focus_is("#keeper-menu", "focus back on the Keeper menu");

    // The Keyboard help: ? outside a field, Tab stays in it, Escape gives focus back.
    k.press(&["?"]);
    k.focus_is("#keys-help-close", "the Keyboard help");
    s.screenshot(&out_dir().join("keyboard-help.png"));
    k.press(&["Tab"]);
    k.focus_is("#keys-help-close", "Tab stays in the help");
    k.press(&["Escape"]);
    k.focus_is("#keeper-menu", "focus back after the help");

    eprintln!(
        "keyboard only: the whole scenario took {} key presses ({} of them characters typed, {} \
         keys and chords to move, open, answer and close)",
        k.presses.get(),
        k.typed.get(),
        k.presses.get() - k.typed.get()
    );
    drop(s);
    rt.block_on(table.shutdown());
}
