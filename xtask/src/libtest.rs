//! Reading `cargo test`'s output as it streams: the passed and failed counts of every
//! `test result:` line, the failed tests' names, and each failure's panic message for the
//! summary. The test run and the Windows check both count their tests this way.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

/// Runs cargo test, echoing its output and adding up every `test result:` line; each failed
/// test's panic (its `---- name stdout ----` block) is added to `why`, its name to `failed`.
pub fn run_counting(
    cmd: &mut Command,
    why: &mut Vec<String>,
    failed_tests: &mut Vec<String>,
) -> Result<(usize, usize, bool), String> {
    eprintln!("$ {cmd:?}");
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    // Cargo's own errors (a test binary that did not build, or did not start: no libtest
    // block says so) are kept for the summary; everything is still shown as it comes.
    // A process the tests leave behind (Wine's server) may hold the pipe open after cargo
    // ends: the lines are taken as they come, and not waited for past a few seconds.
    let stderr = child.stderr.take().expect("piped");
    let kept = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let (done_tx, done) = std::sync::mpsc::channel::<()>();
    let reader_kept = kept.clone();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            eprintln!("{line}");
            let mut kept = reader_kept.lock().expect("not poisoned");
            if kept.len() < 12 && cargo_error(&line) {
                kept.push(cut(&line, 400).to_string());
            }
        }
        let _ = done_tx.send(());
    });
    let (mut passed, mut failed) = (0, 0);
    let mut panics = Panics::default();
    for line in BufReader::new(child.stdout.take().expect("piped")).lines() {
        let line = line.map_err(|e| e.to_string())?;
        println!("{line}");
        panics.read(&line, why);
        if let Some(name) = line
            .strip_prefix("test ")
            .and_then(|r| r.strip_suffix(" ... FAILED"))
        {
            failed_tests.push(name.to_string());
        }
        if let Some(rest) = line.strip_prefix("test result: ") {
            passed += count(rest, " passed");
            failed += count(rest, " failed");
        }
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    let _ = done.recv_timeout(std::time::Duration::from_secs(5));
    let errors = std::mem::take(&mut *kept.lock().expect("not poisoned"));
    if !status.success() {
        why.extend(errors.into_iter().map(|e| format!("cargo: {e}")));
    }
    Ok((passed, failed, status.success()))
}

/// A line of cargo's that says why a run failed outside any test.
fn cargo_error(line: &str) -> bool {
    line.starts_with("error") || line.contains("didn't exit successfully")
}

/// Reads libtest's failure blocks: a `---- name stdout ----` header, then the captured output,
/// in which `thread '…' panicked at file:line:` is followed by the message (up to a blank line).
#[derive(Default)]
struct Panics {
    test: Option<String>,
    message_lines: Option<usize>,
}

impl Panics {
    /// Lines kept of one panic message (an assertion's left/right can be long).
    const MAX_LINES: usize = 12;

    fn read(&mut self, line: &str, why: &mut Vec<String>) {
        if let Some(name) = line
            .strip_prefix("---- ")
            .and_then(|r| r.strip_suffix(" stdout ----"))
        {
            self.test = Some(name.to_string());
            self.message_lines = None;
            return;
        }
        let Some(test) = &self.test else { return };
        if line.starts_with("thread '") && line.contains("panicked at") {
            why.push(format!("{test}: {line}"));
            self.message_lines = Some(0);
        } else if let Some(n) = self.message_lines {
            if line.trim().is_empty() || line.starts_with("note: ") || n >= Self::MAX_LINES {
                self.message_lines = None;
            } else {
                why.push(format!("    {}", cut(line, 400)));
                self.message_lines = Some(n + 1);
            }
        }
        if line == "failures:" {
            self.test = None;
            self.message_lines = None;
        }
    }
}

/// At most `max` bytes of `line` (on a char boundary).
fn cut(line: &str, max: usize) -> &str {
    let mut end = line.len().min(max);
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    &line[..end]
}

/// The number before `label` in "ok. 3 passed; 0 failed; ...".
fn count(text: &str, label: &str) -> usize {
    text.split(';')
        .find_map(|part| {
            part.trim()
                .trim_start_matches("ok. ")
                .trim_start_matches("FAILED. ")
                .strip_suffix(label.trim_start())
        })
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::Panics;

    #[test]
    fn each_failed_tests_panic_is_kept_with_its_message() {
        let out = "test a ... FAILED\n\nfailures:\n\n---- e2e::a stdout ----\nsome output\n\
                   thread 'e2e::a' panicked at tests/e2e/a.rs:3:5:\nwaited 60 s for the verdict\n\
                   second line\n\nnote: run with `RUST_BACKTRACE=1`\n\n---- b stdout ----\n\
                   thread 'b' panicked at b.rs:1:1:\nassertion failed\nnote: x\n\nfailures:\n    e2e::a\n    b\n";
        let mut why = Vec::new();
        let mut p = Panics::default();
        for line in out.lines() {
            p.read(line, &mut why);
        }
        assert_eq!(
            why,
            [
                "e2e::a: thread 'e2e::a' panicked at tests/e2e/a.rs:3:5:",
                "    waited 60 s for the verdict",
                "    second line",
                "b: thread 'b' panicked at b.rs:1:1:",
                "    assertion failed",
            ]
        );
    }
}
