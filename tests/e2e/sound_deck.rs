//! The keeper's sound deck and the person's own levels, in the real window over the real
//! (headless) mixer: the deck's Music button starts the room's sound at the table, the status
//! bar says what plays, the popover's meters read the mixer, and mute silences the measured
//! output; the levels are remembered by the profile.

use std::time::Duration;

use studio_e2e::keeper::{click, open_page};
use studio_e2e::play::join_demo;
use studio_e2e::{open_studio_with, out_dir, wait_for};

/// The output's measured peak, as the popover last read it.
fn output_peak(s: &studio_e2e::Studio) -> Option<f32> {
    let p = s.find("#sound-popover")?;
    s.attr(&p, "data-output-peak")?.parse().ok()
}

fn layer_level(s: &studio_e2e::Studio, layer: &str) -> Option<f32> {
    let el = s.find(&format!(".sound-row .level[data-layer='{layer}']"))?;
    s.attr(&el, "data-level")?.parse().ok()
}

fn wait_peak(s: &studio_e2e::Studio, what: &str, loud: bool) {
    wait_for(Duration::from_secs(15), what, || {
        let p = output_peak(s)?;
        (if loud { p > 0.02 } else { p < 0.001 }).then_some(())
    });
}

#[test]
fn the_deck_plays_the_rooms_sound_and_mute_silences_the_output() {
    let _scenario = studio_e2e::scenario();
    let profile = studio_e2e::peers::fresh_dir("sound-profile");
    let data = profile.join("data");
    let env = [
        ("STUDIO_DATA_DIR", data.to_str().unwrap()),
        ("STUDIO_DEMO_PACING", "fast"),
    ];
    let s = open_studio_with(&env);
    join_demo(&s);
    // The gallery's Listen plays a room sound to this person only, through the mixer.
    click(&s, "#sound-button");
    wait_peak(&s, "silence before anything plays", false);
    click(&s, "#open-gallery");
    click(&s, "#gallery .gallery-sound .listen");
    wait_peak(&s, "the sound being listened to", true);
    assert!(
        s.find("#now-playing").is_none(),
        "a private listen is not the table's music"
    );
    click(&s, "#gallery .gallery-sound.listening .listen");
    wait_peak(&s, "silence after Stop", false);
    click(&s, "#gallery-close");
    click(&s, "#sound-button");
    open_page(&s, "sound");
    let item = wait_for(
        Duration::from_secs(10),
        "the room's sound in the deck",
        || {
            s.find_all(".deck-item")
                .into_iter()
                .find(|i| s.text(i).contains("Sea at Night"))
        },
    );
    s.screenshot(&out_dir().join("sound-deck.png"));
    let play = s
        .find_all(".deck-item .deck-play[data-layer='bgm']")
        .into_iter()
        .next()
        .expect("a Music button");
    let _ = item;
    s.click(&play);
    wait_for(
        Duration::from_secs(15),
        "the status bar's now playing",
        || {
            let n = s.find("#now-playing .layer[data-layer='bgm']")?;
            s.text(&n).contains("Sea at Night").then_some(())
        },
    );
    click(&s, "#keeper-back");

    // The popover reads the mixer: the music is heard, on its layer.
    click(&s, "#sound-button");
    wait_peak(&s, "the music in the output", true);
    wait_for(Duration::from_secs(5), "the music's meter", || {
        (layer_level(&s, "bgm")? > 0.05).then_some(())
    });
    assert!(
        layer_level(&s, "sfx").unwrap_or(1.0) < 1e-3,
        "effects are silent"
    );
    s.screenshot(&out_dir().join("sound-popover.png"));

    // Mute: the measured output goes silent; unmute: heard again.
    click(&s, "#mute-all");
    wait_peak(&s, "silence after mute", false);
    assert!(
        s.find("#sound-button .icon-sound-off").is_some(),
        "the button shows the muted icon"
    );
    click(&s, "#mute-all");
    wait_peak(&s, "the music after unmute", true);

    // Music alone muted: the music's layer reads zero.
    click(&s, ".mute-layer-box[data-layer='bgm']");
    wait_for(Duration::from_secs(5), "the music's layer muted", || {
        (layer_level(&s, "bgm")? < 1e-3).then_some(())
    });
    wait_peak(&s, "silence with the music muted", false);
    click(&s, ".mute-layer-box[data-layer='bgm']");
    wait_peak(&s, "the music back", true);

    // The deck pauses the table's music: shown paused, silent.
    click(&s, "#sound-button");
    open_page(&s, "sound");
    click(&s, ".deck-layer[data-layer='bgm'] .deck-pause");
    wait_for(Duration::from_secs(15), "the music shown paused", || {
        s.find("#now-playing .layer.paused[data-layer='bgm']")
    });
    click(&s, "#keeper-back");
    click(&s, "#sound-button");
    wait_peak(&s, "silence while paused", false);

    // Levels are the profile's: muted in one window, still muted in the next.
    click(&s, "#mute-all");
    drop(s);
    let s = open_studio_with(&env);
    wait_for(Duration::from_secs(30), "the connect screen", || {
        s.find("#ticket")
    });
    join_demo(&s);
    wait_for(Duration::from_secs(10), "the remembered mute", || {
        s.find("#sound-button .icon-sound-off")
    });
}
