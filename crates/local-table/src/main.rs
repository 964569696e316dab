//! `local-table serve --keys keys.toml --data DIR [--pack DIR]... [--story DIR] [--port N]`
//! `local-table demo --data DIR` (mints demo keys, prints them and the ticket)

use std::path::PathBuf;

use local_table::{KeySource, LocalTable, TableConfig};

const USAGE: &str = "usage:
  local-table serve --keys keys.toml --data DIR [--pack DIR]... [--story DIR] [--port N] [--update-command CMD] [--fast]
  local-table demo --data DIR [--port N]";

fn fail(msg: &str) -> ! {
    eprintln!("{msg}\n{USAGE}");
    std::process::exit(2);
}

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let cmd = args.next().unwrap_or_default();
    let (mut keys, mut data, mut packs, mut story, mut port, mut update, mut fast) =
        (None, None, Vec::new(), None, 0u16, None, false);
    while let Some(flag) = args.next() {
        let mut value = || {
            args.next()
                .unwrap_or_else(|| fail(&format!("{flag} needs a value")))
        };
        match flag.as_str() {
            "--keys" => keys = Some(PathBuf::from(value())),
            "--data" => data = Some(PathBuf::from(value())),
            "--pack" => packs.push(PathBuf::from(value())),
            "--story" => story = Some(PathBuf::from(value())),
            "--port" => {
                port = value()
                    .parse()
                    .unwrap_or_else(|_| fail("--port needs a number"))
            }
            "--update-command" => update = Some(value()),
            "--fast" => fast = true,
            "-h" | "--help" => fail(""),
            other => fail(&format!("unknown argument {other}")),
        }
    }
    let data = data.unwrap_or_else(|| PathBuf::from("local-table-data"));
    let (mut config, demo) = match cmd.as_str() {
        "serve" => {
            let keys = keys.unwrap_or_else(|| fail("serve needs --keys"));
            (TableConfig::new(KeySource::File(keys), data), None)
        }
        "demo" => match local_table::table::demo_config(data) {
            Ok((config, keys)) => (config, Some(keys)),
            Err(e) => fail(&e.to_string()),
        },
        _ => fail("expected a command"),
    };
    config.packs = packs;
    config.story = story;
    config.port = port;
    config.update_command = update;
    if fast {
        config.pacing = local_table::Pacing::fast();
    }
    let table = match LocalTable::start(config).await {
        Ok(t) => t,
        Err(e) => fail(&e.to_string()),
    };
    if let Some(keys) = demo {
        // The operator asked for these keys; printing them to the local terminal is the point.
        println!(
            "room: {}\nkeeper key: {}\nplayer key: {}",
            keys.room, keys.keeper, keys.player
        );
    }
    println!("ticket: {}", table.ticket());
    let _ = tokio::signal::ctrl_c().await;
    table.shutdown().await;
}
