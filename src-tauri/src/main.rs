// Keep a console-less window on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

use studio_lib::cli::{self, Cli};

fn main() {
    match cli::parse(std::env::args_os().skip(1)) {
        Cli::Version => println!("{}", cli::version_line()),
        Cli::Help => println!("{}\n\n{}", cli::version_line(), cli::USAGE),
        Cli::Run(startup) => {
            studio_lib::choose_drawing();
            for arg in &startup.ignored {
                eprintln!("loreweaver-studio: ignoring {arg:?} (see --help)");
            }
            studio_lib::run(startup);
        }
    }
}
