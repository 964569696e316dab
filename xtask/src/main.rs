//! `cargo xtask <command>`: everything a fresh Debian machine needs to build, run and test Studio.

mod axe;
mod bench;
mod bench_child;
mod bench_get;
mod bench_pack;
mod bench_pack_engine;
mod bench_upload;
mod bench_webview;
mod bundle;
mod cmd;
mod conformance;
mod dial;
mod engine;
mod fresh;
mod fuzz;
mod fuzz_seeds;
mod guard;
mod icons;
mod libtest;
mod macos;
mod setup;
mod test;
mod ui;
mod windows;

use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask <command>

  setup                 install system packages, the wasm toolchain, wasm-bindgen-cli, tauri-driver
                        and the real engine the tests run (from ../shared/engine)
  ui                    build the Leptos UI to wasm into ui/dist
  run [-- --pack DIR]   setup, build the UI and the app, open Studio (--pack: on the pack bench)
  test                  setup, fmt, clippy, unit and integration tests, wasm build, end-to-end suite
  conformance FILE...   run golden vector tables (visible_when / panel template) and print N passed, M failed
  dial TICKET KEY [--name N] [--send JSON]... [--for SECS]
                        join a table with Studio's transport and print every frame as a JSON line
                        (STUDIO_NETWORK=local stays on loopback)
  icons                 src-tauri/icons (.ico, .icns, PNG sizes) from assets/icon.png
  check-windows         clippy -D warnings of everything for x86_64-pc-windows-gnu (MinGW-w64), then
                        the pure crates' tests under Wine
  check-macos           clippy -D warnings for x86_64-apple-darwin of the crates that need no Apple SDK
  bundle                a release Studio as .deb and .rpm (Tauri's bundler), smoke-tested as installed
  fuzz [--secs N] [--only TARGET] [--seed]
                        coverage-guided fuzzing (libFuzzer, stable): frames + reducer, ticket,
                        visible_when, panel templates; N seconds in all (default 60)
  fresh [COMMAND]       debootstrap a bare Debian, clone HEAD into it and run COMMAND there as root
                        (default `cargo xtask test`): the README's promise on a machine with nothing
  bench                 loopback figures: raw copy vs verified GET (64/128 MiB), peak RSS, decode frames/s,
                        pack reload, audio latency and fade accuracy, upload memory
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("setup") => setup::run().map(|_| ()),
        Some("ui") => setup::run().and_then(|env| ui::build(&env)),
        Some("run") => run(&args[1..]),
        Some("test") => test::run(),
        Some("conformance") => conformance::run(&args[1..]),
        Some("dial") => dial::run(&args[1..]),
        Some("bench") => bench::run(),
        Some("fuzz") => fuzz::run(&args[1..]),
        // The bench's own child process (the upload memory figure), not for people.
        Some("bench-upload-child") => bench_upload::child(&args[1..]),
        // Likewise for the verified GET's memory figure: a fresh process that does only the GET.
        Some("bench-get-child") => bench_get::child(&args[1..]),
        Some("bundle") => bundle::run(),
        Some("icons") => icons::write(),
        Some("check-windows") => windows::run(),
        Some("check-macos") => macos::run(),
        Some("fresh") => fresh::run(&args[1..]),
        // The first step of `test`, alone: xtask's dependencies need no system library.
        Some("guard") => guard::xtask_needs_no_system_library(),
        _ => {
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    // Studio runs from the repository root: a relative pack folder means the caller's one.
    let mut pass = Vec::new();
    let mut it = args.iter().filter(|a| *a != "--");
    while let Some(a) = it.next() {
        pass.push(a.clone());
        if a == "--pack" {
            let dir = it.next().ok_or("--pack needs a folder")?;
            let dir = std::path::absolute(dir).map_err(|e| format!("{dir}: {e}"))?;
            pass.push(dir.display().to_string());
        }
    }
    let env = setup::run()?;
    ui::build(&env)?;
    cmd::cargo(&["build", "-p", "loreweaver-studio"]).run()?;
    cmd::Cmd::new(cmd::root().join("target/debug/loreweaver-studio"))
        .args(pass)
        .run()
}
