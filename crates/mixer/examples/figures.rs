//! The mixer's figures for `cargo xtask bench`, (e) and (f), as a program of its own.
//!
//! xtask must build on a bare machine before setup has installed ALSA's headers, so it never
//! links the mixer: it builds and runs this example after setup and reads its two lines,
//! `latency_ms <v> <v> …` and `fade_error <v>`.

fn main() -> std::process::ExitCode {
    let Some(dir) = std::env::args_os().nth(1).map(std::path::PathBuf::from) else {
        eprintln!("usage: figures <work dir>");
        return std::process::ExitCode::from(2);
    };
    let run = || -> Result<(), String> {
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let latency = mixer::bench::play_latency(&dir, 15)?;
        let ms: Vec<String> = latency
            .iter()
            .map(|d| format!("{:.3}", d.as_secs_f64() * 1000.0))
            .collect();
        println!("latency_ms {}", ms.join(" "));
        println!("fade_error {}", mixer::bench::fade_error(&dir, 1000)?);
        Ok(())
    };
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("figures: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
