//! A pasted ticket: whatever a person (or a `loreweaver:` link) hands Studio. Anything parsed
//! must print back to a ticket that parses to the same thing.

#![no_main]

use libfuzzer_sys::fuzz_target;
use ticket::parse_ticket;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(parsed) = parse_ticket(text) {
        let again = parse_ticket(&parsed.to_string()).expect("a printed ticket parses");
        assert_eq!(again, parsed, "a ticket changed on its way round");
    }
});
