//! Searching the story and saving it: at the demo table, the search box narrows the transcript
//! to the lines that match (and clears), and the story saves as Markdown and as a self-contained
//! web page whose wire text is escaped (`STUDIO_SAVE_DIR` stands in for the native dialog).

use std::time::Duration;

use studio_e2e::peers::fresh_dir;
use studio_e2e::play::{join_demo, play_turn};
use studio_e2e::{open_studio_with, out_dir, wait_for};

#[test]
fn the_story_can_be_searched_and_saved() {
    let _scenario = studio_e2e::scenario();
    let dir = fresh_dir("story");
    let saves = dir.join("saves");
    std::fs::create_dir_all(&saves).unwrap();
    let s = open_studio_with(&[
        ("STUDIO_DEMO_PACING", "fast"),
        ("STUDIO_SAVE_DIR", saves.to_str().unwrap()),
    ]);
    join_demo(&s);
    play_turn(&s, "I knock on the <b>cottage</b> door.");
    let all = s.find_all(".transcript .entry").len();
    assert!(all > 2, "{all} lines");
    // Search: only the lines that hold the words.
    let search = s.find("#search").expect("the search box");
    s.type_text(&search, "cottage");
    let summary = wait_for(Duration::from_secs(5), "the search summary", || {
        s.find("#search-summary")
    });
    let n: usize = s.attr(&summary, "data-count").unwrap().parse().unwrap();
    let shown = s.find_all(".transcript .entry");
    assert!(
        n >= 1 && shown.len() == n && n < all,
        "{n} matches, {} shown of {all}",
        shown.len()
    );
    for e in &shown {
        assert!(
            s.text(e).to_lowercase().contains("cottage"),
            "{}",
            s.text(e)
        );
    }
    s.screenshot(&out_dir().join("story-search.png"));
    s.clear(&search);
    s.type_text(&search, " ");
    s.clear(&search);
    wait_for(Duration::from_secs(5), "the whole story back", || {
        (s.find("#search-summary").is_none() && s.find_all(".transcript .entry").len() >= all)
            .then_some(())
    });
    // Save: Markdown, then the web page.
    for (button, ext) in [("#export-md", "md"), ("#export-html", "html")] {
        s.click(&s.find("#story-save").expect("the save menu"));
        let item = wait_for(Duration::from_secs(5), "the save item", || s.find(button));
        s.click(&item);
        let file = wait_for(Duration::from_secs(10), "the saved file", || {
            std::fs::read_dir(&saves)
                .ok()?
                .flatten()
                .map(|e| e.path())
                .find(|p| p.extension().is_some_and(|x| x == ext))
        });
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(text.contains("cottage"), "{ext}: {text}");
        if ext == "md" {
            assert!(text.starts_with("# demo"), "{text}");
        } else {
            assert!(
                text.contains("&lt;b&gt;cottage&lt;/b&gt;"),
                "the web page is not escaped"
            );
            assert!(!text.contains("<b>cottage"), "wire text became markup");
        }
        wait_for(Duration::from_secs(5), "the saved notice", || {
            s.find("#story-saved")
        });
    }
}
