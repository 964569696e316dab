//! Hot reload of a pack folder (the pack bench): a saved edit republishes the manifest to the
//! rooms using the pack; a broken file is an error that names its line, and the last good pack
//! stays served.

mod common;

use common::{start, Client, KEEPER};
use std::path::Path;

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

fn titles(manifest: &serde_json::Value) -> Vec<String> {
    manifest["panels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["title"]["en"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[tokio::test]
async fn an_edit_republishes_and_a_broken_file_keeps_the_last_good_pack() {
    let mut cfg = common::config("reload");
    let dir = common::temp_dir("reload-pack").join("pack");
    copy_dir(&common::fixture_pack(), &dir);
    cfg.packs = vec![dir.clone()];
    cfg.enable_packs = true;
    let table = start(cfg).await;
    let mut keeper = Client::join(&table, KEEPER).await;
    let first = keeper.seen.last().unwrap().clone();
    assert!(titles(&first).contains(&"Sidebar".to_string()), "{first}");

    let panels = dir.join("ui/panels.yaml");
    let text = std::fs::read_to_string(&panels).unwrap();
    std::fs::write(&panels, text.replace("\"Sidebar\"", "\"Sidebar, edited\"")).unwrap();
    table.reload_pack(&dir).expect("a clean edit reloads");
    let fresh = keeper.until(|f| f["type"] == "ui_manifest").await;
    let fresh = fresh.last().unwrap();
    assert!(
        titles(fresh).contains(&"Sidebar, edited".to_string()),
        "{fresh}"
    );

    // A typo: the error names the file and the line; nothing new is published.
    std::fs::write(&panels, "panels:\n  - id: side\n    title: [unclosed\n").unwrap();
    let err = table
        .reload_pack(&dir)
        .expect_err("a broken file is refused")
        .to_string();
    assert!(err.contains("panels.yaml") && err.contains("line"), "{err}");
    eprintln!("{err}");
    let late = Client::join(&table, KEEPER).await;
    let served = late.seen.last().unwrap().clone();
    assert!(
        titles(&served).contains(&"Sidebar, edited".to_string()),
        "{served}"
    );
    late.close().await;
    keeper.close().await;
}
