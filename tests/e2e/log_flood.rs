//! A page that floods the IPC with wrong-key messages (#28 item 1): Tauri reports each one with
//! the page's own text in it, and none of that text may reach the log, however much there is.

use std::path::Path;
use std::time::Duration;

use studio_e2e::wait_for;

/// What the page puts after the newline of its "key": a forged log line, then filler.
const FORGED: &str = "PAGE-CHOSEN-LOG-LINE";
const POSTS: usize = 50;
const EACH: usize = 1 << 20;

fn size_of(path: &Path) -> u64 {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => std::fs::read_dir(path)
            .map(|it| it.flatten().map(|e| size_of(&e.path())).sum())
            .unwrap_or(0),
        Ok(m) => m.len(),
        Err(_) => 0,
    }
}

fn text_of(path: &Path) -> String {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => std::fs::read_dir(path)
            .map(|it| it.flatten().map(|e| text_of(&e.path())).collect())
            .unwrap_or_default(),
        Ok(_) => String::from_utf8_lossy(&std::fs::read(path).unwrap_or_default()).into_owned(),
        Err(_) => String::new(),
    }
}

/// Posts 50 MB of wrong-key IPC messages from the page and checks the log file (`log`) and the
/// log folder (`folder`) grew by less than 1 MiB together, with no page-chosen text in them, and
/// that the folder and its files are private.
pub fn log_flood_is_one_event(s: &studio_e2e::Studio, log: &Path, folder: &Path) {
    let before = size_of(log) + size_of(folder);
    // One post per task: a loaded machine takes minutes over the whole flood, and one script
    // doing it all would outlast a WebDriver call.
    let started = std::time::Instant::now();
    s.execute(
        "const filler = 'A'.repeat(arguments[1]);
         window.__floodSent = 0;
         const post = () => {
           const i = window.__floodSent;
           window.webkit.messageHandlers.ipc.postMessage(JSON.stringify({
             cmd: 'studio_info', callback: 1, error: 2, payload: { args: {} },
             __TAURI_INVOKE_KEY__: 'x\\n' + arguments[0] + ' ' + i + '\\n' + filler,
           }));
           window.__floodSent = i + 1;
           if (i + 1 < arguments[2]) { setTimeout(post, 0); }
         };
         post();
         return 0;",
        serde_json::json!([FORGED, EACH, POSTS]),
    )
    .expect("the page's flood");
    wait_for(
        Duration::from_secs(240),
        "the page's flood to be posted",
        || {
            let sent = s
                .execute("return window.__floodSent;", serde_json::json!([]))
                .ok()?
                .as_u64()?;
            (sent as usize >= POSTS).then_some(())
        },
    );
    println!("log flood: posted in {:?}", started.elapsed());
    // The window still answers after the flood (its IPC works), and the app has handled every
    // post: a real command answered after them went through the same queue.
    s.execute(
        "window.__afterFlood = null;
         window.__TAURI_INTERNALS__.invoke('studio_info', { args: {} })
           .then(() => { window.__afterFlood = true; }, () => { window.__afterFlood = false; });
         return 0;",
        serde_json::json!([]),
    )
    .expect("a command after the flood");
    // (The app's main thread reads every post first: minutes on a machine loaded three times.)
    wait_for(
        Duration::from_secs(150),
        "the window to answer after the flood",
        || {
            s.execute("return window.__afterFlood;", serde_json::json!([]))
                .ok()?
                .as_bool()
                .filter(|ok| *ok)
        },
    );
    // What the stderr filter still had in its pipe has had time to land.
    let settled = wait_for(Duration::from_secs(20), "the log to settle", || {
        let a = size_of(log) + size_of(folder);
        std::thread::sleep(Duration::from_millis(500));
        (size_of(log) + size_of(folder) == a).then_some(a)
    });
    let grown = settled.saturating_sub(before);
    println!(
        "log flood: {} MB posted, the log grew by {grown} bytes",
        (POSTS * EACH) >> 20
    );
    assert!(
        grown < 1 << 20,
        "the log grew by {grown} bytes for one page's flood"
    );
    let text = text_of(log) + &text_of(folder);
    assert!(!text.contains(FORGED), "page-chosen text reached the log");
    assert!(
        !text.contains("AAAAAAAAAAAAAAAA"),
        "page-chosen filler reached the log"
    );
    assert!(
        text.contains("wrong invoke key"),
        "the flood left no notice at all"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(folder), 0o700, "the log folder is not private");
        for file in std::fs::read_dir(folder).unwrap().flatten() {
            assert_eq!(
                mode(&file.path()),
                0o600,
                "{} is not private",
                file.path().display()
            );
        }
    }
}
