//! Rooms & invites in the real window, against the demo table: mint a key, copy it and a whole
//! invite (read back from the X clipboard), join a second window with that invite as a player,
//! rename, the last-keeper refusal explained, the uploads switch reaching the player, a keeper's
//! variable edit repainting the player's panel, and deleting the key.
//!
//! The key never reaches either window's log: both backends handle it (the keeper's copies it
//! and the invite, the player's joins with it). The scan is held to a positive control: each
//! log is first seen to hold a line its backend is known to write on that same path ("copied an
//! invite to the clipboard", "joined a table"), so an unreadable or empty log cannot pass it.

use std::time::Duration;

use studio_e2e::keeper::{
    choose, click, clipboard_text, fill, open_page, page_text, paste, wait_text,
};
use studio_e2e::logs;
use studio_e2e::peers::fresh_dir;
use studio_e2e::play::{join_demo, say, wait_online};
use studio_e2e::{open_studio_with, out_dir, wait_for};

#[test]
fn keeper_invites_a_player_and_manages_the_table() {
    let _scenario = studio_e2e::scenario();
    let dir = fresh_dir("keeper-invites");
    let (keeper_data, player_data) = (dir.join("keeper"), dir.join("player"));
    let keeper = open_studio_with(&[
        ("STUDIO_DEMO_PACING", "fast"),
        (
            "STUDIO_DATA_DIR",
            keeper_data.to_str().expect("a UTF-8 path"),
        ),
        // Copied keys leave the clipboard after 4 s here (a minute for people).
        ("STUDIO_CLIPBOARD_CLEAR_SECS", "4"),
    ]);
    join_demo(&keeper);
    open_page(&keeper, "keys");
    // The roster lists the demo's keys with the engine's extra fields as columns.
    wait_for(Duration::from_secs(20), "the key roster", || {
        (keeper.find_all("#keys .key-row").len() >= 2).then_some(())
    });
    assert!(keeper.find("#keys td[data-col='purpose']").is_some());

    // Mint: the key is revealed once.
    fill(&keeper, "#mint-name", "Robin");
    click(&keeper, "#mint");
    let key = wait_text(&keeper, "#minted-key", "the minted key", |t| t.len() > 8);
    keeper.screenshot(&out_dir().join("keeper-minted.png"));

    click(&keeper, "#copy-key");
    wait_text(&keeper, ".reveal .copied", "the copy confirmation", |t| {
        !t.is_empty()
    });
    assert_eq!(
        clipboard_text().trim(),
        key,
        "Copy key put the key on the clipboard"
    );
    click(&keeper, "#copy-invite");
    let invite = wait_for(
        Duration::from_secs(10),
        "the invite on the clipboard",
        || {
            let t = clipboard_text();
            t.contains("Ticket:").then_some(t)
        },
    );
    assert!(invite.contains(&format!("Invite key: {key}")), "{invite}");
    // The person copies something of their own over the invite at once (within the 4 s): when
    // the invite's time is up it is not ours any more, and stays. (Served while `own` lives.)
    let mut own = arboard::Clipboard::new().expect("the X clipboard");
    own.set_text("the person's own words")
        .expect("copying the person's words");
    // Both copies went through the backend and were logged, without the key.
    logs::wait_line(
        &keeper_data,
        "copied a minted key to the clipboard",
        Duration::from_secs(10),
    );
    logs::wait_line(
        &keeper_data,
        "copied an invite to the clipboard",
        Duration::from_secs(10),
    );
    logs::assert_absent(
        &keeper_data,
        &key,
        "the minted key (after Copy and Copy as invite)",
    );
    // Both copies' time comes (the key's, then the invite's): neither is on the clipboard any
    // more, so the person's words stay.
    let left = "the clipboard holds something else now: left as it is";
    wait_for(Duration::from_secs(15), "both copies' time to come", || {
        (logs::count(&keeper_data, left) >= 2).then_some(())
    });
    assert_eq!(clipboard_text(), "the person's own words");
    assert_eq!(
        logs::count(&keeper_data, "cleared a copied key from the clipboard"),
        0,
        "a copy was cleared that was no longer ours"
    );
    drop(own);
    // The key copied again, still there when its time comes: cleared.
    click(&keeper, "#copy-key");
    wait_for(Duration::from_secs(5), "the key copied again", || {
        (clipboard_text().trim() == key).then_some(())
    });
    wait_for(Duration::from_secs(15), "the copied key cleared", || {
        clipboard_text().is_empty().then_some(())
    });
    logs::wait_line(
        &keeper_data,
        "cleared a copied key from the clipboard",
        Duration::from_secs(5),
    );

    // Closed: the cleartext is gone from the page.
    click(&keeper, "#reveal-done");
    wait_for(Duration::from_secs(5), "the reveal to close", || {
        keeper.find("#minted-key").is_none().then_some(())
    });
    assert!(
        !page_text(&keeper).contains(&key),
        "the key is still in the DOM"
    );
    let row = wait_for(Duration::from_secs(10), "Robin's row", || {
        keeper.find("#keys .key-row[data-name='Robin']")
    });
    assert!(
        !keeper.text(&row).contains(&key),
        "the roster shows a masked key"
    );

    // A second window pastes the invite block once and joins as the new player.
    let player = open_studio_with(&[(
        "STUDIO_DATA_DIR",
        player_data.to_str().expect("a UTF-8 path"),
    )]);
    paste(&player, "#ticket", &invite);
    click(&player, "#join");
    wait_for(Duration::from_secs(30), "the player's play view", || {
        player
            .text(&player.find(".status-role")?)
            .contains("player")
            .then_some(())
    });
    wait_online(&player, Duration::from_secs(15));
    assert!(
        player.find("#keeper-menu").is_none(),
        "a player window never shows the Keeper menu"
    );
    logs::wait_line(&player_data, "joined a table", Duration::from_secs(10));
    logs::assert_absent(
        &player_data,
        &key,
        "the invite key (after the player joined with it)",
    );

    // Rename.
    click(&keeper, "#keys .key-row[data-name='Robin'] .rename");
    fill(
        &keeper,
        "#keys .key-row[data-name='Robin'] .rename-input",
        "Robin Hood",
    );
    click(&keeper, "#keys .key-row[data-name='Robin'] .rename-save");
    wait_for(Duration::from_secs(10), "the renamed row", || {
        keeper.find("#keys .key-row[data-name='Robin Hood']")
    });

    // Role change: the row follows the server's answer.
    let robin_role = "#keys .key-row[data-name='Robin Hood'] .role-select";
    // A promotion to keeper asks first, naming the key; Cancel puts the select back.
    let robin = "#keys .key-row[data-name='Robin Hood']";
    choose(&keeper, robin_role, "keeper");
    let ask = wait_text(
        &keeper,
        &format!("{robin} .promote-confirm"),
        "the promotion's question",
        |t| t.contains("Robin Hood"),
    );
    eprintln!("promotion asks: {ask}");
    click(&keeper, &format!("{robin} .promote-no"));
    wait_for(Duration::from_secs(5), "the select back on player", || {
        let el = keeper.find(robin_role)?;
        let v = keeper
            .execute_on(&el, "return arguments[0].value")
            .unwrap_or_else(|e| panic!("reading Robin's role: {e}"));
        (v.as_str() == Some("player")
            && keeper.find(&format!("{robin} .promote-confirm")).is_none())
        .then_some(())
    });
    choose(&keeper, robin_role, "keeper");
    click(&keeper, &format!("{robin} .promote-yes"));
    wait_for(Duration::from_secs(10), "Robin to be a keeper", || {
        let el = keeper.find(robin_role)?;
        let v = keeper
            .execute_on(&el, "return arguments[0].value")
            .unwrap_or_else(|e| panic!("reading Robin's role: {e}"));
        let busy = keeper.find("#keys .key-row[data-name='Robin Hood'] .pending");
        (v.as_str() == Some("keeper") && busy.is_none()).then_some(())
    });
    choose(&keeper, robin_role, "player");
    wait_for(
        Duration::from_secs(10),
        "Robin to be a player again",
        || {
            keeper
                .find("#keys .key-row[data-name='Robin Hood'] .pending")
                .is_none()
                .then_some(())
        },
    );

    // Demoting the room's only keeper key is refused, and explained.
    let keeper_row = keeper
        .find_all("#keys .key-row")
        .into_iter()
        .find(|r| {
            keeper
                .execute_on(r, "return arguments[0].querySelector('.role-select').value")
                .unwrap_or_else(|e| panic!("reading a key row's role: {e}"))
                .as_str()
                == Some("keeper")
        })
        .expect("the keeper's own key");
    let id = keeper.attr(&keeper_row, "data-id").expect("a key id");
    choose(
        &keeper,
        &format!("#keys .key-row[data-id='{id}'] .role-select"),
        "player",
    );
    let refusal = wait_text(
        &keeper,
        &format!("#keys .key-row[data-id='{id}'] .failure"),
        "the last-keeper refusal",
        |t| !t.is_empty(),
    );
    assert!(refusal.contains("last keeper key"), "{refusal}");
    keeper.screenshot(&out_dir().join("keeper-last-keeper.png"));

    // Uploads off: the player's share button goes; on again: it is back.
    let share_shown = |on: bool| {
        wait_for(Duration::from_secs(10), "the player's share button", || {
            let shown = player
                .execute("return getComputedStyle(document.querySelector('#share-button')).display !== 'none'", serde_json::json!([]))
                .unwrap_or_else(|e| panic!("reading whether the share button shows: {e}"));
            let shown = shown
                .as_bool()
                .unwrap_or_else(|| panic!("the share button's display: not a boolean: {shown}"));
            // Off: one line says why, instead of the button.
            let why = player.find("#uploads-off").map(|e| player.text(&e));
            let said = why.is_some_and(|t| t.contains("turned off sharing"));
            (shown == on && said != on).then_some(())
        })
    };
    share_shown(true);
    open_page(&keeper, "switches");
    click(&keeper, "#uploads-switch");
    share_shown(false);
    click(&keeper, "#uploads-switch");
    share_shown(true);

    // A keeper's variable edit goes out as `.var set` and the player's panel follows the state.
    click(&keeper, "#keeper-back");
    say(&keeper, ".panels enable demo-panels");
    wait_text(
        &player,
        "[data-panel$='clues'] .lw-stat-value",
        "the player's Day stat",
        |t| t.trim() == "1",
    );
    click(&keeper, ".variable-row[data-var='day'] .var-edit-open");
    fill(&keeper, ".var-edit[data-var='day'] .var-input", "4");
    click(&keeper, ".var-edit[data-var='day'] .var-set");
    wait_text(
        &player,
        "[data-panel$='clues'] .lw-stat-value",
        "the player's Day stat to read 4",
        |t| t.trim() == "4",
    );
    player.screenshot(&out_dir().join("keeper-var-edit-player.png"));

    // Delete the new key (confirmed).
    open_page(&keeper, "keys");
    click(&keeper, "#keys .key-row[data-name='Robin Hood'] .delete");
    click(
        &keeper,
        "#keys .key-row[data-name='Robin Hood'] .delete-yes",
    );
    wait_for(Duration::from_secs(10), "the key to be gone", || {
        keeper
            .find("#keys .key-row[data-name='Robin Hood']")
            .is_none()
            .then_some(())
    });
    // Once more at the end, over everything both windows logged meanwhile (the rename, the role
    // changes and the delete each act on the key's row).
    logs::assert_absent(&keeper_data, &key, "the minted key (at the end)");
    logs::assert_absent(&player_data, &key, "the invite key (at the end)");
}
