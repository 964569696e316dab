//! #28 item 3, against the real engine: a panel's intent that the engine would run as a command
//! must be one Studio prompts as a command (`protocol::intent_gate::is_command`). Each value is
//! typed by the keeper on a real engine on loopback, and read by what comes back: a `dice` frame
//! (the engine ran `.r`), a Keeper turn (it narrated the words), or an error (it refused them).

// The real engine is installed for Linux (`cargo xtask setup`); under Wine these do not run.
#![cfg(target_os = "linux")]

mod common;

use std::time::Duration;

use common::*;
use protocol::intent_gate::is_command;
use test_support::engine::Engine;

#[derive(Debug, PartialEq, Clone, Copy)]
enum Outcome {
    RanCommand,
    Narrated,
    Refused,
}

/// What the engine made of the keeper's `text`, once it has settled.
async fn outcome(keeper: &mut Client, text: &str) -> Outcome {
    keeper.input(text).await;
    loop {
        let Some(f) = keeper.try_next(Duration::from_secs(60)).await else {
            panic!("no answer to {text:?}");
        };
        match f["type"].as_str().unwrap_or("") {
            "dice" => {
                keeper.until_state().await;
                return Outcome::RanCommand;
            }
            "turn_status" if f["status"] == "busy" => {
                keeper.until_turn_end().await;
                return Outcome::Narrated;
            }
            // The engine takes five lines at once, then one per 2 s: send it again at its pace.
            "error" if f["code"] == "rate_limited" => {
                tokio::time::sleep(Duration::from_millis(2100)).await;
                keeper.input(text).await;
            }
            "error" => {
                eprintln!("refused {text:?}: {f}");
                return Outcome::Refused;
            }
            "narrative"
                if f["speaker"] == "system"
                    && f["text"]
                        .as_str()
                        .is_some_and(|t| t.contains("nknown command")) =>
            {
                keeper.until_state().await;
                return Outcome::RanCommand;
            }
            _ => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn what_the_engine_runs_as_a_command_studio_asks_about_as_one() {
    let dir = temp_dir("engine-commands");
    let engine = tokio::task::spawn_blocking(move || Engine::start(dir))
        .await
        .expect("the engine starts");
    let mut keeper = Client::dial(engine.ticket(), &engine.keeper_key).await;
    keeper.until(|f| f["type"] == "ui_manifest").await;
    let values = [
        ".r 1d6",
        " .r 1d6",
        "\u{1f}.r 1d6",
        "\u{1c}.r 1d6",
        "\u{200b}.r 1d6",
        "\u{feff}.r 1d6",
        "\u{feff}/r 1d6",
        "．r 1d6",
        "。r 1d6",
        " \u{3000}.r 1d6",
        "\u{a0}.r 1d6",
        "x .r 1d6",
    ];
    let mut table = Vec::new();
    for v in values {
        let got = outcome(&mut keeper, v).await;
        eprintln!(
            "{:<24} engine: {got:?}, Studio asks as a command: {}",
            format!("{v:?}"),
            is_command(v)
        );
        table.push((v, got));
    }
    // The test can tell: the plain command runs, the plain words are narrated.
    assert_eq!(table[0].1, Outcome::RanCommand, "{table:?}");
    assert_eq!(table.last().unwrap().1, Outcome::Narrated, "{table:?}");
    let unasked: Vec<_> = table
        .iter()
        .filter(|(v, got)| *got == Outcome::RanCommand && !is_command(v))
        .collect();
    assert!(
        unasked.is_empty(),
        "the engine ran these as commands, and Studio would send them from a panel without \
         asking: {unasked:?}"
    );
    keeper.close().await;
    drop(engine);
}
