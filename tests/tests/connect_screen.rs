//! The spine: the Leptos UI compiled to wasm renders inside the Tauri window, and the backend answers.

use std::time::Duration;
use studio_e2e::{open_studio, out_dir, wait_for};

#[test]
fn connect_screen_renders_from_wasm_and_backend_answers() {
    let s = open_studio();
    // The form exists only if the wasm UI mounted.
    let ticket = wait_for(Duration::from_secs(30), "the ticket field", || {
        s.find("#ticket")
    });
    assert!(s.find("#key").is_some(), "key field");
    assert!(s.find("#name").is_some(), "name field");
    let heading = s.find(".connect-card h2").expect("heading");
    assert_eq!(s.text(&heading), "Join a table");
    // The footer is filled from the studio_info command: the bridge works both ways.
    let about = wait_for(Duration::from_secs(15), "studio_info answer", || {
        let el = s.find("#about")?;
        let text = s.text(&el);
        text.contains("protocol 2.3").then_some(text)
    });
    assert!(about.starts_with("Studio 0.1.0"), "about line: {about}");
    // Submitting without a key explains what is missing.
    s.type_text(&ticket, "endpointabc");
    s.click(&s.find("#join").expect("join button"));
    let problem = wait_for(Duration::from_secs(5), "a validation message", || {
        let t = s.text(&s.find(".problem")?);
        (!t.is_empty()).then_some(t)
    });
    assert_eq!(problem, "Enter your invite key.");
    s.screenshot(&out_dir().join("connect.png"));
}
