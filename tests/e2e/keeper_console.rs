//! The keeper console in the real window, against the demo table: a model saved with a key
//! (write-only: the field is empty after, only the mask shows), back up then restore by the
//! returned server path, a reset armed by typing the room's name, a skill toggled, a generation
//! with visible progress (and a readable failure once the model is unreachable) — then neither the provider key nor a minted key is anywhere in the
//! window's DOM or in the app's log.

use std::time::Duration;

use studio_e2e::keeper::{click, fill, open_page, page_text, wait_text};
use studio_e2e::play::join_demo;
use studio_e2e::{open_studio_with, out_dir, wait_for};

const PROVIDER_KEY: &str = "sk-e2e-provider-7f3a9c2e";

#[test]
fn keeper_console_round_trips_and_keeps_secrets() {
    let _scenario = studio_e2e::scenario();
    let log = std::env::temp_dir().join(format!("studio-e2e-log-{}.txt", std::process::id()));
    let _ = std::fs::remove_file(&log);
    let log_path = log.to_string_lossy().into_owned();
    let s = open_studio_with(&[
        ("STUDIO_DEMO_PACING", "fast"),
        ("STUDIO_LOG_FILE", &log_path),
        (
            "RUST_LOG",
            "info,studio_lib=debug,transport=debug,local_table=debug",
        ),
    ]);
    join_demo(&s);

    // Skills: a toggle takes the server's fresh list.
    open_page(&s, "skills");
    let toggle = "#skills .skill[data-id='image-gen'] .skill-toggle";
    wait_for(Duration::from_secs(20), "the skills", || s.find(toggle));
    let before = s
        .find("#skills .skill[data-id='image-gen'].enabled")
        .is_some();
    click(&s, toggle);
    wait_for(Duration::from_secs(10), "the skill to flip", || {
        (s.find("#skills .skill[data-id='image-gen'].enabled")
            .is_some()
            != before)
            .then_some(())
    });

    // Generate: progress shows while the forge works (watched by an observer, so a quick
    // answer cannot hide it), then what was generated.
    let watch_progress = || {
        s.execute(
            "window.__sawProgress = false; new MutationObserver(() => { \
               if (document.querySelector('#generate-progress')) window.__sawProgress = true; \
             }).observe(document.body, {childList: true, subtree: true});",
            serde_json::json!([]),
        )
        .expect("observer");
    };
    let saw_progress = || {
        // Unset (null) is "not seen"; a failed read panics rather than read as "not seen".
        s.execute("return window.__sawProgress", serde_json::json!([]))
            .unwrap_or_else(|e| panic!("reading whether progress showed: {e}"))
            .as_bool()
            .unwrap_or(false)
    };
    fill(
        &s,
        "#generate-description",
        "A skill that describes the weather.",
    );
    watch_progress();
    click(&s, "#generate");
    let generated = wait_text(&s, "#generated", "the generated skill", |t| !t.is_empty());
    assert!(generated.contains("generated-"), "{generated}");
    assert!(saw_progress(), "no progress was shown while generating");
    s.screenshot(&out_dir().join("keeper-skills.png"));

    // Model: save with a key; the form resets to the answering config, the key field empty.
    open_page(&s, "model");
    wait_for(Duration::from_secs(20), "the provider catalog", || {
        (s.find_all("#model-provider option").len() >= 10).then_some(())
    });
    fill(&s, "#model-name", "gpt-4o-mini");
    fill(&s, "#model-base-url", "http://127.0.0.1:9/v1");
    fill(&s, "#model-api-key", PROVIDER_KEY);
    click(&s, "#model-save");
    let state = wait_text(&s, "#model-key-state", "the key to read as set", |t| {
        t.contains("...")
    });
    assert!(state.contains("sk-e...9c2e"), "{state}");
    let field = s.find("#model-api-key").expect("the key field");
    wait_for(Duration::from_secs(5), "the key field to be empty", || {
        s.execute_on(&field, "return arguments[0].value")
            .ok()?
            .as_str()?
            .is_empty()
            .then_some(())
    });
    s.screenshot(&out_dir().join("keeper-model.png"));
    // On the model page itself, right after the save: the whole DOM (text, every attribute)
    // and every field's value, not only the mask and the key field.
    let on_page = page_text(&s);
    assert!(
        on_page.contains("model-key-state") && on_page.contains("sk-e...9c2e"),
        "the model page was read"
    );
    assert!(
        !on_page.contains(PROVIDER_KEY),
        "the provider key is on the model page after the save"
    );

    // With a model set that cannot be reached, generating fails readably.
    open_page(&s, "skills");
    fill(
        &s,
        "#generate-description",
        "A rule system for sea voyages.",
    );
    click(&s, "#generate");
    let failure = wait_text(&s, "#generate-form .failure", "the generate failure", |t| {
        !t.is_empty()
    });
    assert!(failure.contains("llm_failed"), "{failure}");

    // Back up, then restore by the path the server returned.
    open_page(&s, "room");
    click(&s, "#export");
    let path = wait_text(
        &s,
        "#room-op[data-action='export'] [data-field='server path'] dd",
        "the backup's path",
        |t| t.ends_with(".json"),
    );
    assert!(s.find("#room-op [data-field='documents']").is_some());
    let import = s.find("#import").expect("restore button");
    assert!(!s.is_enabled(&import), "restore must be armed first");
    fill(&s, "#arm-import", "demo");
    wait_for(Duration::from_secs(5), "restore to arm", || {
        s.is_enabled(&import).then_some(())
    });
    click(&s, "#import");
    let restored = wait_text(
        &s,
        "#room-op[data-action='import'] [data-field='server path'] dd",
        "the restore result",
        |t| !t.is_empty(),
    );
    assert_eq!(restored, path);

    // Reset: disarmed until the room's name is typed exactly.
    let reset = s.find("#reset").expect("reset button");
    fill(&s, "#arm-reset", "dem");
    assert!(!s.is_enabled(&reset), "a near miss does not arm reset");
    fill(&s, "#arm-reset", "demo");
    wait_for(Duration::from_secs(5), "reset to arm", || {
        s.is_enabled(&reset).then_some(())
    });
    click(&s, "#reset");
    wait_for(Duration::from_secs(20), "the reset result", || {
        s.find("#room-op[data-action='reset']")
    });
    s.screenshot(&out_dir().join("keeper-room.png"));

    // Mint, read the key once, close it; close the screens.
    open_page(&s, "keys");
    fill(&s, "#mint-name", "Secret keeper test");
    click(&s, "#mint");
    let minted = wait_text(&s, "#minted-key", "the minted key", |t| t.len() > 8);
    click(&s, "#reveal-done");
    click(&s, "#keeper-back");
    wait_for(Duration::from_secs(5), "the table again", || {
        s.find("#keeper-screen").is_none().then_some(())
    });

    let dom = page_text(&s);
    assert!(dom.contains("transcript"), "the page text was read");
    assert!(
        !dom.contains(PROVIDER_KEY),
        "the provider key is in the DOM"
    );
    assert!(!dom.contains(&minted), "the minted key is in the DOM");
    let log_text =
        std::fs::read_to_string(&log).unwrap_or_else(|e| panic!("{}: {e}", log.display()));
    // The log is real and saw these very requests (so a leak would have shown here).
    assert!(log_text.contains("admin_set_model") && log_text.contains("admin_mint_key"));
    assert!(
        !log_text.contains(PROVIDER_KEY),
        "the provider key is in the log"
    );
    assert!(!log_text.contains(&minted), "the minted key is in the log");

    // Deleting the room's data (backup first) leaves a room that answers nothing: Studio says so
    // on the connect screen.
    open_page(&s, "room");
    fill(&s, "#arm-delete-data", "demo");
    click(&s, "#delete-data");
    let notice = wait_text(
        &s,
        ".connect .problem",
        "the connect screen's notice",
        |t| !t.is_empty(),
    );
    assert!(notice.contains("no longer exists"), "{notice}");
}
