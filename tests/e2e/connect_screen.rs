//! The spine: the Leptos UI compiled to wasm renders inside the Tauri window, and the backend
//! answers. A first run explains tickets and keys and offers the demo; a ticket given on the
//! command line (as a desktop `loreweaver:` link would give it) is filled in; the window comes
//! back at the size it was left; `--version` and `--help` answer in a terminal.

use std::time::Duration;
use studio_e2e::peers::fresh_dir;
use studio_e2e::{open_studio_args, out_dir, wait_for};

fn a_ticket() -> String {
    let key = iroh::SecretKey::from_bytes(&[9; 32]);
    let addr =
        iroh::EndpointAddr::new(key.public()).with_ip_addr("127.0.0.1:4242".parse().unwrap());
    iroh_tickets::endpoint::EndpointTicket::new(addr).to_string()
}

#[test]
fn version_and_help_answer_in_a_terminal() {
    let _scenario = studio_e2e::scenario();
    let app = std::env::var("STUDIO_APP").expect("STUDIO_APP (run through cargo xtask test)");
    let run = |arg: &str| {
        let out = std::process::Command::new(&app)
            .arg(arg)
            .env_remove("DISPLAY")
            .output()
            .expect("running Studio");
        assert!(out.status.success(), "{arg}: {:?}", out.status);
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let version = run("--version");
    assert_eq!(
        version.trim(),
        "Loreweaver Studio 0.1.0 (wire protocol 2.3)"
    );
    let help = run("--help");
    assert!(
        help.contains("Usage: loreweaver-studio") && help.contains("--pack DIR"),
        "{help}"
    );
}

#[test]
fn connect_screen_renders_from_wasm_and_backend_answers() {
    let _scenario = studio_e2e::scenario();
    let dir = fresh_dir("connect");
    // The window was left at 900×640 last time (the window-state plugin's file).
    let state = dir.join("config/dev.loreweaver.studio");
    std::fs::create_dir_all(&state).unwrap();
    std::fs::write(
        state.join(".window-state.json"),
        serde_json::json!({"main": {"width": 900, "height": 640, "x": 40, "y": 30,
            "prev_x": 40, "prev_y": 30, "maximized": false, "visible": true,
            "decorated": true, "fullscreen": false}})
        .to_string(),
    )
    .unwrap();
    let ticket = a_ticket();
    let link = format!("loreweaver:{ticket}");
    let data = dir.join("data");
    let s = open_studio_args(
        &[
            ("XDG_CONFIG_HOME", dir.join("config").to_str().unwrap()),
            ("STUDIO_DATA_DIR", data.to_str().unwrap()),
            ("STUDIO_NO_OPEN", "1"),
        ],
        &[&link],
    );
    // The form exists only if the wasm UI mounted; the link's ticket is in it.
    let field = wait_for(Duration::from_secs(30), "the ticket field", || {
        s.find("#ticket")
    });
    let filled = wait_for(Duration::from_secs(10), "the ticket from the link", || {
        let v = s.execute_on(&field, "return arguments[0].value;").ok()?;
        v.as_str().filter(|v| !v.is_empty()).map(str::to_string)
    });
    assert_eq!(filled, ticket);
    assert!(s.find("#key").is_some(), "key field");
    assert!(s.find("#name").is_some(), "name field");
    let heading = s.find(".connect-card h2").expect("heading");
    assert_eq!(s.text(&heading), "Join a table");
    // A first run: what a ticket and a key are, and the demo as the first step.
    let first = wait_for(Duration::from_secs(10), "the first-run help", || {
        s.find("#first-run")
    });
    let help = s.text(&first);
    assert!(
        help.contains("ticket") && help.contains("invite key"),
        "{help}"
    );
    assert!(
        s.find("#first-demo").is_some(),
        "the demo button in the help"
    );
    // The window came back at the size it was left.
    let size = s
        .execute(
            "return [window.innerWidth, window.innerHeight];",
            serde_json::json!([]),
        )
        .unwrap();
    assert_eq!(size, serde_json::json!([900, 640]), "window size");
    // The footer is filled from the studio_info command: the bridge works both ways.
    let about = wait_for(Duration::from_secs(15), "studio_info answer", || {
        let el = s.find("#about")?;
        let text = s.text(&el);
        text.contains("protocol 2.3").then_some(text)
    });
    assert!(about.starts_with("Studio 0.1.0"), "about line: {about}");
    s.screenshot(&out_dir().join("connect.png"));
    // The log folder for bug reports: named on screen, and the log is there.
    s.click(&s.find("#log-folder").expect("the log folder button"));
    let shown = wait_for(Duration::from_secs(5), "the log folder's path", || {
        s.find("#log-folder-path").map(|p| s.text(&p))
    });
    assert_eq!(shown, data.join("logs").display().to_string());
    let log = wait_for(
        Duration::from_secs(10),
        "a log file with Studio's lines",
        || {
            std::fs::read_dir(data.join("logs"))
                .ok()?
                .flatten()
                .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
                .find(|t| t.contains("studio_lib"))
        },
    );
    assert!(!log.is_empty());
    // Submitting without a key explains what is missing.
    s.click(&s.find("#join").expect("join button"));
    let problem = wait_for(Duration::from_secs(5), "a validation message", || {
        let t = s.text(&s.find(".problem")?);
        (!t.is_empty()).then_some(t)
    });
    assert_eq!(problem, "Enter your invite key.");
}
