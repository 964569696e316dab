//! The `--version` probe: an engine answers with one version line quickly; anything else (a
//! random binary, a script that hangs, a crash) is not an engine, said in a sentence.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

use crate::engine::Engine;

/// How long an engine may take to print its version. The engine is a Python program whose
/// `--version` imports all of it: 2.2–2.8 s on an idle 2-core machine, and past 3 s while
/// windows and a build share it (a 3 s limit called the real engine "not an engine" in CI).
/// A person is not left waiting blind: the window says after a few seconds that it still waits.
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// The version in an engine's `--version` output: one line such as `0.4.1` or `0.0.0+unknown`
/// (optionally after the word `loreweaver`). Anything else is not an engine's answer.
pub fn parse_version(stdout: &str) -> Option<String> {
    let mut lines = stdout.lines().map(str::trim).filter(|l| !l.is_empty());
    let line = lines.next()?;
    if lines.next().is_some() {
        return None;
    }
    let version = line
        .strip_prefix("loreweaver ")
        .or_else(|| line.strip_prefix("loreweaver-server "))
        .unwrap_or(line)
        .trim();
    let numeric: String = version
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let parts: Vec<&str> = numeric.split('.').collect();
    let ok = version.len() <= 64
        && !version.chars().any(char::is_whitespace)
        && parts.len() >= 2
        && parts.iter().take(3).all(|p| !p.is_empty())
        && version[numeric.len()..]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    ok.then(|| version.to_string())
}

/// Runs `<engine> --version` with `timeout`: the engine's version, or why it is not one.
pub fn run(engine: &Engine, timeout: Duration) -> Result<String, String> {
    let (program, mut args) = engine.command();
    args.push("--version".into());
    let mut cmd = Command::new(&program);
    cmd.args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    if let Some(dir) = engine.workdir() {
        cmd.current_dir(dir);
    }
    let shown = engine.path().display().to_string();
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("{shown} could not be started: {e}"))?;
    let mut stdout = child.stdout.take().expect("piped");
    // At most 64 KiB of answer: an engine prints one short line.
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = (&mut stdout).take(64 * 1024).read_to_end(&mut out);
        String::from_utf8_lossy(&out).into_owned()
    });
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "{shown} did not answer --version within {} s: it is not a Loreweaver engine",
                    timeout.as_secs()
                ));
            }
        }
    };
    let out = reader.join().unwrap_or_default();
    if !status.success() {
        return Err(format!(
            "{shown} failed when asked its version ({status}): it is not a working Loreweaver engine"
        ));
    }
    parse_version(&out).ok_or_else(|| {
        format!("{shown} answered --version with something that is not an engine's version: it is not a Loreweaver engine")
    })
}

/// Answers remembered per engine while its files stay as they were: hosting again (or the
/// bench's packer) does not pay another Python start, and a machine loaded by windows cannot
/// turn an engine that answered into "not an engine" on a slow second probe.
#[derive(Debug, Default)]
pub struct Remembered(HashMap<PathBuf, (SystemTime, String)>);

/// When the files an engine runs from last changed (the executable; the source's `app.py` and
/// its Python). `None` when one cannot be read: such an engine is probed every time.
fn stamp(engine: &Engine) -> Option<SystemTime> {
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    match engine {
        Engine::Executable(p) => modified(p),
        Engine::Source { dir, python } => modified(&dir.join("app.py")).max(modified(python)),
    }
}

impl Remembered {
    /// The version `engine` answered before, if its files have not changed since.
    pub fn get(&self, engine: &Engine) -> Option<String> {
        let (when, version) = self.0.get(engine.path())?;
        (stamp(engine)? == *when).then(|| version.clone())
    }

    /// Keeps a version the engine answered.
    pub fn keep(&mut self, engine: &Engine, version: &str) {
        if let Some(when) = stamp(engine) {
            self.0
                .insert(engine.path().to_path_buf(), (when, version.to_string()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_remembered_until_the_engine_changes() {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("loreweaver");
        std::fs::write(&exe, "#!/bin/sh\necho 0.4.1\n").unwrap();
        let engine = Engine::Executable(exe.clone());
        let mut known = Remembered::default();
        assert_eq!(known.get(&engine), None);
        known.keep(&engine, "0.4.1");
        assert_eq!(known.get(&engine).as_deref(), Some("0.4.1"));
        // A new install (the file rewritten later) is probed again.
        let later = SystemTime::now() + Duration::from_secs(5);
        std::fs::File::options()
            .write(true)
            .open(&exe)
            .unwrap()
            .set_modified(later)
            .unwrap();
        assert_eq!(known.get(&engine), None);
        // A vanished engine is never answered from memory.
        known.keep(&engine, "0.4.1");
        std::fs::remove_file(&exe).unwrap();
        assert_eq!(known.get(&engine), None);
    }
    #[cfg(unix)]
    use std::path::Path;

    #[test]
    fn versions_are_read_and_anything_else_is_not() {
        assert_eq!(
            parse_version("0.0.0+unknown\n").as_deref(),
            Some("0.0.0+unknown")
        );
        assert_eq!(
            parse_version("loreweaver 1.4.2\n").as_deref(),
            Some("1.4.2")
        );
        assert_eq!(parse_version("2.3.0rc1").as_deref(), Some("2.3.0rc1"));
        assert_eq!(
            parse_version("1.2.3-dev.4+g1234").as_deref(),
            Some("1.2.3-dev.4+g1234")
        );
        for not in [
            "",
            "sleep (GNU coreutils) 9.1\nCopyright",
            "Python 3.11.2",
            "usage: app.py [-h]",
            "1",
            "1.2.3\n4.5.6",
            "1.2 beta",
        ] {
            assert_eq!(parse_version(not), None, "{not:?}");
        }
    }

    #[cfg(unix)]
    fn script(dir: &Path, body: &str) -> Engine {
        use std::os::unix::fs::PermissionsExt;
        let path = dir.join("engine.sh");
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        Engine::Executable(path)
    }

    #[cfg(unix)]
    #[test]
    fn the_probe_answers_a_version_a_sentence_or_gives_up_in_time() {
        let t = tempfile::tempdir().unwrap();
        let good = script(t.path(), "echo 0.9.1");
        assert_eq!(run(&good, TIMEOUT).unwrap(), "0.9.1");
        let wrong = script(t.path(), "echo hello world");
        assert!(run(&wrong, TIMEOUT)
            .unwrap_err()
            .contains("not an engine's version"));
        let failing = script(t.path(), "exit 3");
        assert!(run(&failing, TIMEOUT).unwrap_err().contains("failed"));
        let hangs = script(t.path(), "exec sleep 30");
        let started = Instant::now();
        let e = run(&hangs, Duration::from_millis(500)).unwrap_err();
        assert!(e.contains("did not answer"), "{e}");
        assert!(started.elapsed() < Duration::from_secs(3));
    }
}
