//! A steady view (#30 item 2): reading a story of very different heights upward, step by step
//! ([`studio_e2e::steady_story`]), the line at the top of the view moves by exactly the step at
//! every step, and the reader is never pulled back to the end while going up.

use studio_e2e::steady_story::read_the_story;

#[test]
fn reading_up_through_mixed_heights_moves_by_the_step() {
    let _scenario = studio_e2e::scenario();
    let reading = read_the_story("steady-view-top.png");
    eprintln!("reading up: {reading:?}");
    assert!(
        reading.top,
        "the reading never reached the top: {reading:?}"
    );
    assert_eq!(reading.pulled, 0, "pulled back to the end: {reading:?}");
    assert_eq!(
        reading.jumps, 0,
        "the line at the top of the view jumped: {reading:?}"
    );
}
