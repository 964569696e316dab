//! The demo story's performances in the real window: resources as meters, a choice click that
//! sends its input, a dice line in its tone's colour, a letter, a clipping, a map pin and a title
//! card (overlay, then the transcript's line). Screenshots land in `out_dir()` to be looked at.

use std::time::Duration;

use studio_e2e::play::{narrative, open_demo, play_turn, say, wait_turn_end};
use studio_e2e::{out_dir, wait_for, Element, Session};

/// The tone colour a dice line should wear, computed by the page from the same variables.
fn tone_colours(s: &Session, dice: &Element) -> (String, String, String) {
    let v = s
        .execute_on(
            dice,
            "const el = arguments[0];
             const vars = {success: 'var(--lw-ok)', failure: 'var(--lw-warn)',
                           fumble: 'var(--lw-danger)', critical: '#7fd0ff'};
             const probe = (c) => { const p = document.createElement('span'); p.style.color = c;
                 el.appendChild(p); const got = getComputedStyle(p).color; p.remove(); return got; };
             return [getComputedStyle(el).borderLeftColor,
                     probe(vars[el.dataset.tone] || 'inherit'), probe('var(--lw-ink-faint)')];",
        )
        .expect("computing the dice colours");
    let s = |i: usize| v[i].as_str().unwrap_or_default().to_string();
    (s(0), s(1), s(2))
}

#[test]
fn demo_story_performances_render() {
    let _scenario = studio_e2e::scenario();
    let s = open_demo();

    // Resources as meters: a character first.
    say(&s, ".coc Alice");
    let fill = wait_for(Duration::from_secs(15), "a resource meter", || {
        s.find("#character .resource .meter-fill")
    });
    let width = s.attr(&fill, "style").unwrap_or_default();
    assert!(width.starts_with("width:"), "meter fill style: {width}");
    let px = s.computed_style(&fill, "width");
    assert!(
        px.trim_end_matches("px").parse::<f64>().unwrap_or(0.0) > 0.0,
        "a full resource has a visible fill, got {px}"
    );
    let resources = s.find_all("#character .resource");
    assert!(
        resources.len() >= 3,
        "HP, MP and SAN at least: {}",
        resources.len()
    );
    wait_for(Duration::from_secs(10), "the character's name", || {
        s.text(&s.find("#character h3")?)
            .contains("Alice")
            .then_some(())
    });

    // Beat 1: the scene opens and offers choices.
    play_turn(&s, "I climb the cliff path to the cottage.");
    let choice = wait_for(Duration::from_secs(15), "the choices", || {
        s.find_all(".transcript .lw-choice")
            .into_iter()
            .find(|b| s.text(b).contains("Search the desk"))
    });
    // The sidebar holds the scene's title card as a compact line.
    assert!(
        s.find(".sidebar .lw-act-line").is_some(),
        "the scene region's title card in the sidebar"
    );

    // A choice click sends that option's input as my line; beat 2 answers it.
    s.click(&choice);
    wait_for(
        Duration::from_secs(15),
        "the choice's input as my line",
        || {
            narrative(&s)
                .iter()
                .any(|l| l.speaker == "player" && l.text.contains("I search the desk for letters"))
                .then_some(())
        },
    );
    wait_for(Duration::from_secs(5), "the choices to settle", || {
        s.find(".transcript .lw-choices.settled").map(|_| ())
    });
    wait_turn_end(&s, Duration::from_secs(60));

    // The Spot Hidden check: a dice line with its tone and that tone's colour.
    let dice = wait_for(Duration::from_secs(10), "a toned dice line", || {
        s.find_all(".transcript .entry.dice[data-tone]")
            .into_iter()
            .find(|d| {
                matches!(
                    s.attr(d, "data-tone").as_deref(),
                    Some("success" | "failure" | "critical" | "fumble")
                )
            })
    });
    let tone = s.attr(&dice, "data-tone").unwrap_or_default();
    let (border, want, plain) = tone_colours(&s, &dice);
    eprintln!("dice tone {tone}: border {border}, expected {want}, plain {plain}");
    assert_eq!(border, want, "the {tone} dice line wears its tone's colour");
    assert_ne!(border, plain, "a {tone} line is not the plain colour");
    assert!(
        s.text(&dice).contains("Spot Hidden"),
        "dice text: {}",
        s.text(&dice)
    );
    s.scroll_into_view(&dice);
    std::thread::sleep(Duration::from_millis(400));
    s.screenshot(&out_dir().join("dice.png"));

    // The handouts: a letter and a clipping, crafted, not defaulted.
    let letter = wait_for(Duration::from_secs(10), "the letter", || {
        s.find(".transcript .lw-letter")
    });
    for part in [
        ".lw-letter-date",
        ".lw-letter-to",
        ".lw-letter-body",
        ".lw-letter-from",
        ".lw-letter-seal",
    ] {
        assert!(
            s.find(&format!(".transcript .lw-letter {part}")).is_some(),
            "the letter's {part}"
        );
    }
    let letter_text = s.text(&letter);
    assert!(
        letter_text.contains("Sister, keep the light burning"),
        "{letter_text}"
    );
    assert!(letter_text.contains("Eli Pike"), "{letter_text}");
    let clipping = s.find(".transcript .lw-clipping").expect("the clipping");
    let headline = s
        .find(".transcript .lw-clipping .lw-clip-headline")
        .expect("the headline");
    assert_eq!(s.text(&headline), "FISHING BOAT LOST OFF GULL POINT");
    // The masthead is set in capitals by CSS; WebDriver reads the rendered text.
    let clip_text = s.text(&clipping).to_lowercase();
    assert!(clip_text.contains("the kingsport gazette"), "{clip_text}");
    assert!(clip_text.contains("5 november 1923"), "{clip_text}");
    s.scroll_into_view(&letter);
    std::thread::sleep(Duration::from_millis(400));
    s.screenshot(&out_dir().join("letter.png"));
    s.scroll_into_view(&clipping);
    std::thread::sleep(Duration::from_millis(1000));
    s.screenshot(&out_dir().join("clipping.png"));

    // Beat 3: the map with its pin, in the sidebar.
    play_turn(&s, "I follow Martha's finger to the boathouse on the map.");
    wait_for(Duration::from_secs(20), "the map", || {
        s.find(".sidebar .lw-map .lw-map-frame")
    });
    let map = wait_for(Duration::from_secs(30), "the map, loaded", || {
        s.find(".sidebar .lw-map .lw-map-frame.loaded")
    });
    let pin = s.find(".sidebar .lw-map .lw-pin").expect("the pin");
    let place = s.attr(&pin, "style").unwrap_or_default();
    assert!(
        place.contains("left: 53.000%") && place.contains("top: 66.000%"),
        "the pin at x 0.53, y 0.66 of the map: {place}"
    );
    assert_eq!(
        s.attr(&pin, "aria-label").as_deref(),
        Some("Boathouse — Where Eli kept his boat")
    );
    // The marker sits inside the picture, where the fractions say.
    let geometry = s
        .execute_on(
            &map,
            "const f = arguments[0].getBoundingClientRect();
             const p = arguments[0].querySelector('.lw-pin').getBoundingClientRect();
             const i = arguments[0].querySelector('img').getBoundingClientRect();
             return [(p.left + p.width / 2 - i.left) / i.width, (p.top + p.height / 2 - i.top) / i.height,
                     i.width, i.height, f.width];",
        )
        .expect("pin geometry");
    eprintln!("map pin geometry: {geometry}");
    let frac = |i: usize| geometry[i].as_f64().unwrap_or(-1.0);
    assert!(
        frac(2) > 50.0 && frac(3) > 50.0,
        "the map image has a size: {geometry}"
    );
    assert!(
        (frac(0) - 0.53).abs() < 0.08 && (frac(1) - 0.66).abs() < 0.12,
        "the pin stands at its fractions of the image: {geometry}"
    );
    s.scroll_into_view(&map);
    std::thread::sleep(Duration::from_millis(400));
    s.screenshot(&out_dir().join("map-pin.png"));

    // Beats 4 and 5: the end-of-act title card plays over the play area.
    play_turn(&s, "I step into the boathouse.");
    say(&s, "I tell Martha what I found.");
    let card = wait_for(Duration::from_secs(60), "the title card overlay", || {
        s.find(".play-main .lw-act-card")
    });
    // Let it fade in (1 s) before the picture; it holds for ~5 s.
    std::thread::sleep(Duration::from_millis(1200));
    s.screenshot(&out_dir().join("title-card.png"));
    let title = s
        .find(".lw-act-card .lw-act-card-title")
        .expect("the card's title");
    assert_eq!(s.text(&title), "End of Act I");
    let subtitle = s
        .find(".lw-act-card .lw-act-card-subtitle")
        .map(|e| s.text(&e));
    assert_eq!(subtitle.as_deref(), Some("The light will burn tonight"));
    // It covers the play area.
    let cover = s
        .execute_on(
            &card,
            "const c = arguments[0].getBoundingClientRect();
             const m = document.querySelector('.play-main').getBoundingClientRect();
             return [c.width / m.width, c.height / m.height];",
        )
        .expect("card geometry");
    assert!(
        cover[0].as_f64().unwrap_or(0.0) > 0.95 && cover[1].as_f64().unwrap_or(0.0) > 0.95,
        "the act card is full-bleed over the play area: {cover}"
    );
    // A click dismisses it; the transcript keeps a compact line.
    s.click(&card);
    wait_for(Duration::from_secs(5), "the card to leave", || {
        s.find(".lw-act-card").is_none().then_some(())
    });
    let line = wait_for(Duration::from_secs(5), "the title line", || {
        s.find(".transcript .entry.title-line")
    });
    let line_text = s.text(&line);
    assert!(
        line_text.contains("Act I") && line_text.contains("End of Act I"),
        "title line: {line_text}"
    );
    wait_turn_end(&s, Duration::from_secs(60));
    // Later frames (state, ticks, other regions) must not reset the sidebar's pictures: the
    // map and the scene's images stay shown, not back to their placeholders.
    std::thread::sleep(Duration::from_secs(6));
    let frames = s
        .execute(
            "return [...document.querySelectorAll('.sidebar .lw-image-frame, .sidebar .lw-map-frame')]
                .map(f => f.className);",
            serde_json::json!([]),
        )
        .expect("the sidebar's picture frames");
    let frames: Vec<&str> = frames
        .as_array()
        .map(|a| a.iter().filter_map(|v| v.as_str()).collect())
        .unwrap_or_default();
    assert!(
        frames.len() >= 3,
        "map and scene images in the sidebar: {frames:?}"
    );
    assert!(
        frames.iter().all(|c| c.split(' ').any(|c| c == "loaded")),
        "every sidebar picture is still shown: {frames:?}"
    );
    s.screenshot(&out_dir().join("demo-after-act.png"));
}
