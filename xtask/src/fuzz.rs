//! `cargo xtask fuzz [--secs N] [--only TARGET] [--seed]`: coverage-guided fuzzing with
//! libFuzzer, on the stable toolchain.
//!
//! The targets live in `fuzz/` (outside the workspace, their own target dir, so the
//! instrumented build never invalidates the normal one). They are built the way `cargo fuzz`
//! builds with `--sanitizer none`: SanitizerCoverage through `-Cpasses=sancov-module` and
//! `-Cllvm-args`, which stable rustc accepts, plus overflow checks and debug assertions. No
//! `-Z` flag is used, so no nightly and no `RUSTC_BOOTSTRAP`: what is given up is
//! AddressSanitizer, which safe Rust needs least. A finding is a panic, an overflow or a failed
//! assertion; libFuzzer saves the input under `target/fuzz/artifacts/<target>/`.
//!
//! Each run starts from the committed seeds (`fuzz/seeds/<target>`, made by `--seed` from the
//! shared conformance tables and the engine captures) and keeps what it learns in
//! `target/fuzz/corpus/<target>`, so a long campaign resumes where the last one stopped.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::cmd::{cargo, root};

/// Every target, with the longest input worth trying.
const TARGETS: &[(&str, usize)] = &[
    ("frames", 8192),
    ("ticket", 1024),
    ("visible_when", 1024),
    ("template", 4096),
];

/// Instrumentation as `cargo fuzz build --sanitizer none` passes it.
const RUSTFLAGS: &str = "-Cpasses=sancov-module \
    -Cllvm-args=-sanitizer-coverage-level=4 \
    -Cllvm-args=-sanitizer-coverage-inline-8bit-counters \
    -Cllvm-args=-sanitizer-coverage-pc-table \
    -Cllvm-args=-sanitizer-coverage-trace-compares \
    --cfg fuzzing -Cdebug-assertions -Coverflow-checks";

pub fn run(args: &[String]) -> Result<(), String> {
    let mut secs: u64 = 60;
    let mut only: Option<String> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--secs" => {
                secs = it
                    .next()
                    .and_then(|s| s.parse().ok())
                    .ok_or("--secs needs a number of seconds")?
            }
            "--only" => only = Some(it.next().ok_or("--only needs a target")?.clone()),
            "--seed" => return crate::fuzz_seeds::write(&root().join("fuzz/seeds")),
            other => return Err(format!("fuzz: unknown argument {other}")),
        }
    }
    let targets: Vec<(&str, usize)> = TARGETS
        .iter()
        .copied()
        .filter(|(name, _)| only.as_deref().is_none_or(|o| o == *name))
        .collect();
    if targets.is_empty() {
        return Err(format!(
            "no target named {only:?}; the targets are {:?}",
            TARGETS.iter().map(|t| t.0).collect::<Vec<_>>()
        ));
    }
    let bin_dir = build()?;
    let share = (secs / targets.len() as u64).max(1);
    let mut rows = Vec::new();
    for (name, max_len) in &targets {
        rows.push(campaign(&bin_dir, name, *max_len, share)?);
    }
    let total: u64 = rows.iter().map(|r| r.execs).sum();
    println!("\nfuzz: {secs} s over {} targets", rows.len());
    for r in &rows {
        println!(
            "  {:<13} {:>11} execs  {:>8} /s  corpus {:>5}  coverage {:>5}",
            r.name,
            r.execs,
            r.execs / r.secs.max(1),
            r.corpus,
            r.coverage
        );
    }
    println!("  total         {total:>11} execs, 0 findings");
    Ok(())
}

/// Builds every target, instrumented; returns the folder holding the binaries.
fn build() -> Result<PathBuf, String> {
    let host = host_triple()?;
    let target_dir = root().join("target/fuzz");
    cargo(&["build", "--release", "--manifest-path", "fuzz/Cargo.toml"])
        .args(["--target", host.as_str(), "--target-dir"])
        .args([&target_dir])
        // `--target` keeps the flags off build scripts and proc macros, as cargo fuzz does.
        .env("RUSTFLAGS", RUSTFLAGS)
        .run()?;
    Ok(target_dir.join(host).join("release"))
}

fn host_triple() -> Result<String, String> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = Command::new(rustc)
        .arg("-vV")
        .output()
        .map_err(|e| format!("rustc -vV: {e}"))?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .ok_or_else(|| "rustc -vV printed no host".into())
}

struct Row {
    name: String,
    execs: u64,
    secs: u64,
    corpus: usize,
    coverage: u64,
}

/// One target for `secs` seconds; a finding is an error naming the saved input.
fn campaign(bin_dir: &Path, name: &str, max_len: usize, secs: u64) -> Result<Row, String> {
    let seeds = root().join("fuzz/seeds").join(name);
    let corpus = root().join("target/fuzz/corpus").join(name);
    let artifacts = root().join("target/fuzz/artifacts").join(name);
    for dir in [&corpus, &artifacts] {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    if count_files(&seeds) == 0 {
        return Err(format!(
            "{}: no seeds (run `cargo xtask fuzz --seed` and commit them)",
            seeds.display()
        ));
    }
    eprintln!("fuzz: {name} for {secs} s");
    // New inputs go to the first folder (the working corpus); the seeds are only read.
    let out = Command::new(bin_dir.join(name))
        .arg(format!("-max_total_time={secs}"))
        .arg(format!("-max_len={max_len}"))
        .arg("-timeout=10")
        .arg("-rss_limit_mb=2048")
        .arg("-print_final_stats=1")
        .arg(format!("-artifact_prefix={}/", artifacts.display()))
        .arg(&corpus)
        .arg(&seeds)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("{name}: {e}"))?;
    let log = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        let tail: Vec<&str> = log.lines().rev().take(40).collect();
        for line in tail.into_iter().rev() {
            eprintln!("{line}");
        }
        return Err(format!(
            "fuzz target {name} found a failure ({}); the input is in {}",
            out.status,
            artifacts.display()
        ));
    }
    let stat = |key: &str| {
        log.lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.trim().parse::<u64>().ok())
    };
    let execs = stat("stat::number_of_executed_units:")
        .ok_or_else(|| format!("{name}: libFuzzer printed no final stats"))?;
    let run_secs = stat("stat::average_exec_per_sec:")
        .filter(|rate| *rate > 0)
        .map_or(secs, |rate| execs / rate);
    let coverage: u64 = log
        .lines()
        .rev()
        .find_map(|l| l.split(" cov: ").nth(1))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| format!("{name}: libFuzzer printed no coverage"))?;
    // A run that reached no code (an uninstrumented build, a target that returns at once)
    // proves nothing: it fails like a finding.
    if execs == 0 || coverage == 0 {
        return Err(format!(
            "fuzz target {name} covered nothing ({execs} execs, coverage {coverage})"
        ));
    }
    Ok(Row {
        name: name.to_string(),
        execs,
        secs: run_secs,
        corpus: count_files(&corpus) + count_files(&seeds),
        coverage,
    })
}

fn count_files(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |d| d.filter_map(Result::ok).count())
}
