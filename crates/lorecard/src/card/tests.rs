use super::*;

#[test]
fn unknown_fields_survive_and_keys_come_out_in_the_stable_order() {
    let text = r#"{"worldbook":[{"content":"x","title":"t","mood":"grim"}],"format_version":1,
        "format":"loreweaver.card","name":"N","studio":{"layout":2},
        "variables":[{"id":"hp","kind":"number","minimum":0,"maximum":10.5,"default":3,"note":"n"}]}"#;
    let card = read(text.as_bytes()).unwrap();
    assert_eq!(card.worldbook[0].extra["mood"], "grim");
    assert_eq!(card.extra["studio"]["layout"], 2);
    assert_eq!(card.variables[0].extra["note"], "n");
    // Defaults the engine applies are the entry's when the file says nothing.
    assert!(card.worldbook[0].enabled);
    assert_eq!(card.worldbook[0].probability, 100);
    let out = write(&card);
    let again = read(out.as_bytes()).unwrap();
    assert_eq!(again, card);
    let keys = [
        "\"format\"",
        "\"format_version\"",
        "\"name\"",
        "\"worldbook\"",
        "\"studio\"",
    ];
    let at: Vec<usize> = keys.iter().map(|k| out.find(k).unwrap()).collect();
    assert!(
        at.windows(2).all(|w| w[0] < w[1]),
        "keys out of order:\n{out}"
    );
    assert!(out.contains("10.5"), "a float bound changed:\n{out}");
    assert!(out.ends_with("}\n"));
}

#[test]
fn what_the_engine_refuses_is_refused_with_a_sentence() {
    let refused = [
        (r#"[1]"#, "JSON object"),
        (
            r#"{"format":"other","format_version":1}"#,
            "format is \"other\"",
        ),
        (
            r#"{"format":"loreweaver.card","format_version":2}"#,
            "format_version 2",
        ),
        (r#"{"format":"loreweaver.card"}"#, "format_version missing"),
    ];
    for (text, says) in refused {
        let e = read(text.as_bytes()).unwrap_err().to_string();
        assert!(e.contains(says), "{text}: {e}");
    }
    let e = read(b"{\n  \"format\": \"loreweaver.card\",\n  oops\n}").unwrap_err();
    assert!(matches!(e, Error::Json { line: 3, .. }), "{e:?}");
    let e = read(br#"{"format":"loreweaver.card","format_version":1,"tags":"x"}"#).unwrap_err();
    assert!(matches!(e, Error::Json { line: 1, .. }), "{e:?}");
}

#[test]
fn a_byte_order_mark_is_read_past() {
    let mut text = "\u{feff}".as_bytes().to_vec();
    text.extend_from_slice(br#"{"format":"loreweaver.card","format_version":1,"name":"A"}"#);
    assert_eq!(read(&text).unwrap().name, "A");
}
