//! Reads what the engine's packer (`app.py --pack <src> --out <file> --json`) said: its one JSON
//! line on stdout, or the Python traceback it leaves when a declared file is missing or not
//! UTF-8. Pure text in, typed verdict out; running the packer is the caller's business.
//!
//! The packer stops at the first error and names no position except YAML's and JSON's
//! "line N, column M", so `file` and `line` are whatever its sentence names, nothing more.

use serde_json::Value;

#[derive(Debug, Clone, PartialEq)]
pub enum EngineVerdict {
    Built {
        path: String,
        id: String,
        version: String,
        sha256: String,
        /// The trust card as the engine wrote it (its fields grow with the engine).
        trust: Value,
    },
    Refused {
        /// The engine's sentence, unchanged.
        error: String,
        /// Pack-relative file the sentence names (`pack.yaml` for manifest sentences).
        file: Option<String>,
        /// 1-based, from "line N, column M" (YAML's problem mark, or JSON's).
        line: Option<u32>,
        column: Option<u32>,
    },
    Crashed {
        /// The exception's last line, e.g. `FileNotFoundError: [Errno 2] No such file …`.
        exception: String,
        /// The traceback's last lines, for a reader who needs more.
        tail: Vec<String>,
    },
}

/// Output that fits none of the packer's forms: never read as a pass or an empty refusal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable {
    pub reason: String,
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the packer's output is unreadable ({}; exit {:?})\nstdout:\n{}\nstderr:\n{}",
            self.reason, self.code, self.stdout, self.stderr
        )
    }
}

impl std::error::Error for Unreadable {}

impl EngineVerdict {
    pub fn accepted(&self) -> bool {
        matches!(self, EngineVerdict::Built { .. })
    }
}

/// How many traceback lines `Crashed::tail` keeps.
const TAIL: usize = 8;

/// `code` is the exit code (None when a signal ended the run).
pub fn read(stdout: &str, stderr: &str, code: Option<i32>) -> Result<EngineVerdict, Unreadable> {
    let fail = |reason: String| Unreadable {
        reason,
        code,
        stdout: stdout.to_string(),
        stderr: stderr.to_string(),
    };
    let objects: Vec<&str> = stdout
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with('{'))
        .collect();
    match objects.as_slice() {
        [] => crashed(stderr, code).ok_or_else(|| fail("no JSON line and no traceback".into())),
        [line] => {
            let json: Value =
                serde_json::from_str(line).map_err(|e| fail(format!("bad JSON line: {e}")))?;
            from_json(&json, code).map_err(fail)
        }
        _ => Err(fail(format!("{} JSON lines, expected one", objects.len()))),
    }
}

fn from_json(json: &Value, code: Option<i32>) -> Result<EngineVerdict, String> {
    let text = |key: &str| {
        json.get(key)
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| format!("`{key}` is missing or not text"))
    };
    match (json.get("ok").and_then(Value::as_bool), code) {
        (Some(true), Some(0)) => Ok(EngineVerdict::Built {
            path: text("path")?,
            id: text("id")?,
            version: text("version")?,
            sha256: text("sha256")?,
            trust: json
                .get("trust")
                .cloned()
                .ok_or("`trust` is missing".to_string())?,
        }),
        (Some(false), Some(c)) if c != 0 => {
            let error = text("error")?;
            let (line, column) = position(&error).unzip();
            Ok(EngineVerdict::Refused {
                file: named_file(&error),
                line,
                column,
                error,
            })
        }
        (ok, code) => Err(format!("`ok` is {ok:?} but the exit code is {code:?}")),
    }
}

/// A traceback's verdict, or None when stderr holds none (or the run "succeeded").
fn crashed(stderr: &str, code: Option<i32>) -> Option<EngineVerdict> {
    let start = stderr.rfind("Traceback (most recent call last):")?;
    if code == Some(0) {
        return None;
    }
    let lines: Vec<String> = stderr[start..]
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect();
    // The exception's summary is the last unindented line (`Name: message`).
    let exception = lines
        .iter()
        .rev()
        .find(|l| !l.starts_with(' ') && l.contains(':') && !l.starts_with("Traceback"))?
        .clone();
    let tail = lines[lines.len().saturating_sub(TAIL)..].to_vec();
    Some(EngineVerdict::Crashed { exception, tail })
}

/// Sentence openings that are about `pack.yaml` without naming it.
const MANIFEST: [&str; 8] = [
    "manifest ",
    "invalid manifest YAML",
    "contents.",
    "unknown contents kinds",
    "unknown card entry keys",
    "unknown engine keys",
    "engine.",
    "pack.yaml ",
];

/// Words the packer puts before a file path: `panels ui/panels.yaml: …`, `card cards/a.json: …`.
const KINDS: [&str; 8] = [
    "panels ",
    "card ",
    "lorebook ",
    "presentation ",
    "preset ",
    "prep script ",
    "asset ",
    "file ",
];

fn named_file(error: &str) -> Option<String> {
    if MANIFEST.iter().any(|m| error.starts_with(m)) {
        return Some("pack.yaml".into());
    }
    for kind in KINDS {
        let Some(rest) = error.strip_prefix(kind) else {
            continue;
        };
        if let Some((path, _)) = rest.split_once(": ") {
            // A path has no spaces and names a file (`rulepack combat` names a stem only).
            if !path.contains(' ') && path.contains('.') {
                return Some(path.to_string());
            }
        }
    }
    // `asset missing from source: 'x'`, `unsafe archive path (…): 'x'`: the quoted path ends it.
    let quoted = error.strip_suffix('\'')?;
    let (_, path) = quoted.rsplit_once(": '")?;
    (!path.is_empty() && !path.contains('\'')).then(|| path.to_string())
}

/// The last "line N, column M" (or JSON's "line N column M"): YAML's problem mark comes after
/// its context mark.
fn position(error: &str) -> Option<(u32, u32)> {
    error.rmatch_indices("line ").find_map(|(at, _)| {
        let rest = &error[at + "line ".len()..];
        let (line, rest) = number(rest)?;
        let rest = rest.strip_prefix(',').unwrap_or(rest);
        let (column, _) = number(rest.strip_prefix(" column ")?)?;
        Some((line, column))
    })
}

fn number(s: &str) -> Option<(u32, &str)> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    Some((s[..end].parse().ok()?, &s[end..]))
}

#[cfg(test)]
#[path = "engine_verdict_tests.rs"]
mod tests;
