//! Steps a player takes in the window, and what the play view shows, read in one script call.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::{wait_for, Session};

/// One transcript entry as the reader sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The entry's classes (`entry narrative draft`, `entry dice`, …).
    pub class: String,
    /// `data-speaker` for narrative lines, else empty.
    pub speaker: String,
    pub text: String,
}

impl Line {
    pub fn is_narrative(&self) -> bool {
        self.class.split(' ').any(|c| c == "narrative")
    }
    pub fn is_pending(&self) -> bool {
        self.class.split(' ').any(|c| c == "pending")
    }
    pub fn is_draft(&self) -> bool {
        self.class.split(' ').any(|c| c == "draft")
    }
}

/// The lines the transcript has drawn (it draws only what is near the view): for what is on
/// screen. Whether a line is anywhere in the story is [`saved_story`]'s to say.
pub fn transcript(s: &Session) -> Vec<Line> {
    let v = s
        .execute(
            "return [...document.querySelectorAll('.transcript .entry')].map(e => \
             [e.className, e.dataset.speaker || '', e.innerText]);",
            json!([]),
        )
        // Read as an empty transcript, an error would pass every "no duplicates" check.
        .unwrap_or_else(|e| panic!("reading the transcript: {e}"));
    let rows = v
        .as_array()
        .unwrap_or_else(|| panic!("the transcript is not a list: {v}"));
    rows.iter()
        .map(|r| {
            let field = |i: usize| {
                r[i].as_str()
                    .unwrap_or_else(|| panic!("a transcript row's field {i} is not text: {r}"))
                    .to_string()
            };
            Line {
                class: field(0),
                speaker: field(1),
                text: field(2),
            }
        })
        .collect()
}

/// Final narrative lines (no drafts, no pending echoes).
pub fn narrative(s: &Session) -> Vec<Line> {
    transcript(s)
        .into_iter()
        .filter(|l| l.is_narrative() && !l.is_draft() && !l.is_pending())
        .collect()
}

/// Types `text` into the input and presses Enter.
pub fn say(s: &Session, text: &str) {
    let input = wait_for(Duration::from_secs(10), "an enabled input box", || {
        let el = s.find("#input:not([disabled])")?;
        Some(el)
    });
    s.type_text(&input, &format!("{text}\u{E007}"));
}

/// Waits until the status bar says Online.
pub fn wait_online(s: &Session, timeout: Duration) {
    wait_for(timeout, "the status bar to say Online", || {
        s.text(&s.find("#conn-state")?)
            .starts_with("Online")
            .then_some(())
    });
}

/// Waits for the Keeper's turn to end (the busy indicator gone, no draft left).
pub fn wait_turn_end(s: &Session, timeout: Duration) {
    // The indicator may not have appeared yet: give it a moment, then wait for calm.
    std::thread::sleep(Duration::from_millis(300));
    wait_for(timeout, "the turn to end", || {
        (s.find("#turn").is_none() && s.find(".transcript .entry.draft").is_none()).then_some(())
    });
}

/// Sends a free-text action and waits for its echo and the Keeper's whole turn.
pub fn play_turn(s: &Session, text: &str) {
    // The turn is over only once a new closing Keeper line exists (not merely "no indicator
    // yet").
    let keeper_lines = || {
        narrative(s)
            .iter()
            .filter(|l| l.speaker == "kp" && !l.is_draft())
            .count()
    };
    say(s, text);
    wait_for(Duration::from_secs(15), "my echoed line", || {
        narrative(s)
            .iter()
            .any(|l| l.speaker == "player" && l.text.contains(text))
            .then_some(())
    });
    // The transcript keeps only what is near the view: the answer is a Keeper line after my
    // echo (or my echo was released because a long answer came after it).
    wait_for(Duration::from_secs(60), "the Keeper's answer", || {
        let lines = narrative(s);
        let answered = match lines
            .iter()
            .rposition(|l| l.speaker == "player" && l.text.contains(text))
        {
            Some(mine) => lines[mine + 1..]
                .iter()
                .any(|l| l.speaker == "kp" && !l.is_draft()),
            None => keeper_lines() > 0,
        };
        answered.then_some(())
    });
    wait_turn_end(s, Duration::from_secs(60));
}

/// Fills the connect screen and presses Join.
pub fn join(s: &Session, ticket: &str, key: &str) {
    let field = wait_for(Duration::from_secs(30), "the ticket field", || {
        s.find("#ticket")
    });
    s.clear(&field);
    s.type_text(&field, ticket);
    let key_field = s.find("#key").expect("key field");
    s.clear(&key_field);
    s.type_text(&key_field, key);
    s.click(&s.find("#join").expect("join button"));
}

/// Waits for the connect screen's problem line to say something.
pub fn wait_problem(s: &Session, timeout: Duration) -> String {
    wait_for(timeout, "a problem on the connect screen", || {
        let t = s.text(&s.find(".problem")?);
        (!t.trim().is_empty()).then_some(t)
    })
}

/// Presses "Play the demo table" and waits until the play view is online.
pub fn join_demo(s: &Session) {
    let demo = wait_for(Duration::from_secs(30), "the demo button", || {
        s.find("#demo")
    });
    s.click(&demo);
    let in_play = || s.text(&s.find("#room")?).contains("demo").then_some(());
    // On a machine loaded three times over, a click on the connect screen was seen to land on
    // nothing (no join began). A person clicks again when nothing happened: so does the test,
    // once, and only when the button is still there and idle (a join in progress disables it).
    let began = Instant::now();
    let mut clicked_again = false;
    wait_for(Duration::from_secs(45), "the play view", || {
        if in_play().is_some() {
            return Some(());
        }
        if !clicked_again && began.elapsed() > Duration::from_secs(15) {
            if let Some(demo) = s.find("#demo:not([disabled])") {
                eprintln!("the demo button did nothing for 15 s: clicked again");
                clicked_again = true;
                s.click(&demo);
            }
        }
        None
    });
    wait_online(s, Duration::from_secs(15));
}

/// A fresh Studio window (private files, fast demo Keeper) sitting at the demo table.
pub fn open_demo() -> crate::Studio {
    let s = crate::open_studio_with(&[("STUDIO_DEMO_PACING", "fast")]);
    join_demo(&s);
    s
}

/// The model's whole story as Studio saves it (Save → Markdown, written to `saves`, the app's
/// `STUDIO_SAVE_DIR`): every entry, not only the ones the transcript has drawn. The file is
/// removed once read, so the next save is told apart.
pub fn saved_story(s: &Session, saves: &std::path::Path) -> String {
    let md = |p: &std::path::PathBuf| p.extension().is_some_and(|x| x == "md");
    let before: Vec<std::path::PathBuf> = std::fs::read_dir(saves)
        .unwrap_or_else(|e| panic!("{}: {e}", saves.display()))
        .flatten()
        .map(|e| e.path())
        .filter(md)
        .collect();
    assert!(
        before.is_empty(),
        "an earlier save was left in {}",
        saves.display()
    );
    s.click(&s.find("#story-save").expect("the save menu"));
    let item = wait_for(Duration::from_secs(5), "Save as Markdown", || {
        s.find("#export-md")
    });
    s.click(&item);
    let file = wait_for(Duration::from_secs(10), "the saved story", || {
        std::fs::read_dir(saves)
            .ok()?
            .flatten()
            .map(|e| e.path())
            .find(md)
    });
    // Written by the backend in one call: read it once it stops growing.
    let text = wait_for(Duration::from_secs(5), "the whole file", || {
        let a = std::fs::read_to_string(&file).ok()?;
        std::thread::sleep(Duration::from_millis(50));
        let b = std::fs::read_to_string(&file).ok()?;
        (a == b && !a.is_empty()).then_some(b)
    });
    std::fs::remove_file(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    text
}
