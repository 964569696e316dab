//! The real engine capture (`shared/conformance/engine-session-2.3.jsonl`) must
//! decode frame by frame to KNOWN variants and re-encode to the same JSON.

use protocol::codec::{decode_client, decode_media_reply, decode_server, encode_line};
use protocol::frame::MediaReply;
use serde_json::Value;

fn capture() -> Vec<Value> {
    let text = test_support::read_shared("conformance/engine-session-2.3.jsonl");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| serde_json::from_str(l).unwrap_or_else(|e| panic!("record {i}: {e}")))
        .collect()
}

/// JSON equality where numbers compare by value (`12` == `12.0`) and objects by
/// key set: a key the input lacked must not appear, a key it had must not vanish.
/// Returns the path of the first difference.
fn diff(a: &Value, b: &Value, path: &str) -> Option<String> {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            (x.as_f64() != y.as_f64()).then(|| format!("{path}: {x} != {y}"))
        }
        (Value::Object(x), Value::Object(y)) => {
            for key in x.keys().chain(y.keys()) {
                match (x.get(key), y.get(key)) {
                    (Some(u), Some(v)) => {
                        if let Some(d) = diff(u, v, &format!("{path}.{key}")) {
                            return Some(d);
                        }
                    }
                    (Some(_), None) => return Some(format!("{path}.{key}: dropped on re-encode")),
                    (None, _) => return Some(format!("{path}.{key}: invented on re-encode")),
                }
            }
            None
        }
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                return Some(format!("{path}: length {} != {}", x.len(), y.len()));
            }
            x.iter()
                .zip(y)
                .enumerate()
                .find_map(|(i, (u, v))| diff(u, v, &format!("{path}[{i}]")))
        }
        _ => (a != b).then(|| format!("{path}: {a} != {b}")),
    }
}

fn reencoded(line: &str) -> Value {
    assert!(line.ends_with('\n') && !line[..line.len() - 1].contains('\n'));
    serde_json::from_str(line).expect("encode_line writes JSON")
}

#[test]
fn every_server_frame_decodes_known_and_reencodes_losslessly() {
    let mut seen = std::collections::BTreeSet::new();
    for (i, record) in capture().iter().enumerate() {
        let Some(frame) = record.get("frame") else {
            continue;
        };
        let line = frame.to_string();
        let decoded = decode_server(&line).unwrap_or_else(|e| panic!("record {i}: {e}"));
        assert!(
            !decoded.is_unknown(),
            "record {i}: `{}` decoded as Unknown",
            decoded.tag()
        );
        let out = encode_line(&decoded);
        if let Some(d) = diff(frame, &reencoded(&out), decoded.tag()) {
            panic!("record {i}: {d}\n in:  {line}\n out: {out}");
        }
        // The re-encoded line decodes back to the same typed value.
        assert_eq!(decode_server(&out).unwrap(), decoded, "record {i}");
        seen.insert(decoded.tag().to_owned());
    }
    assert!(seen.len() >= 20, "capture covered only {seen:?}");
}

#[test]
fn every_client_frame_decodes_and_reencodes_losslessly() {
    let mut unknown = Vec::new();
    for (i, record) in capture().iter().enumerate() {
        let Some(frame) = record.get("sent") else {
            continue;
        };
        let line = frame.to_string();
        let decoded = decode_client(&line).unwrap_or_else(|e| panic!("record {i}: {e}"));
        if decoded.is_unknown() {
            unknown.push(decoded.tag().to_owned());
        }
        let out = encode_line(&decoded);
        if let Some(d) = diff(frame, &reencoded(&out), decoded.tag()) {
            panic!("record {i}: {d}\n in:  {line}\n out: {out}");
        }
        assert_eq!(decode_client(&out).unwrap(), decoded, "record {i}");
    }
    // The capture deliberately probes the engine with one made-up type (answered
    // with error bad_frame); it is the only frame allowed to stay Unknown.
    assert_eq!(unknown, ["bogus_frame"]);
}

#[test]
fn media_channel_replies_in_the_capture_decode() {
    let mut count = 0;
    for record in capture() {
        let Some(reply) = record.get("put_reply").and_then(Value::as_str) else {
            continue;
        };
        match decode_media_reply(reply) {
            Ok(MediaReply::PutOk { hash }) => assert_eq!(hash.len(), 64),
            other => panic!("unexpected {other:?}"),
        }
        let back: Value =
            serde_json::from_str(&encode_line(&decode_media_reply(reply).unwrap())).unwrap();
        assert_eq!(back, serde_json::from_str::<Value>(reply).unwrap());
        count += 1;
    }
    assert!(count > 0);
}

/// The bench's workload (`fold_lines`, timed natively and in the WebView) takes every server
/// frame of the capture: none is skipped, so both figures count real work.
#[test]
fn the_bench_workload_applies_every_captured_frame() {
    let lines: Vec<String> = capture()
        .iter()
        .filter_map(|r| r.get("frame").map(Value::to_string))
        .collect();
    assert!(lines.len() > 50, "only {} frames", lines.len());
    let (model, applied) = protocol::session::fold_lines(&lines);
    assert_eq!(applied, lines.len());
    assert!(!model.is_empty(), "nothing reached the transcript");
    let mut bad = lines.clone();
    bad.push("not json".into());
    bad.push(r#"{"type":"dice"}"#.into());
    assert_eq!(protocol::session::fold_lines(&bad).1, lines.len());
}

/// The window runs the model's clock only while `awaits_clock` says so: at every step of the
/// player's side of the capture (its inputs sent, the engine's frames applied), a model that
/// awaits nothing must have nothing for any later tick to change.
#[test]
fn a_model_that_awaits_no_clock_has_nothing_a_tick_would_change() {
    let mut model = protocol::session::SessionModel::new();
    let (mut waited, mut idle) = (0, 0);
    for (i, record) in capture().iter().enumerate() {
        if record["conn"] != "player" {
            continue;
        }
        let now = i as f64 * 1_000.0;
        if let Some(text) = record["sent"]["text"].as_str() {
            model.submit_input(text, now);
        } else if let Some(frame) = record.get("frame") {
            let frame = decode_server(&frame.to_string()).expect("a captured frame decodes");
            model.apply(&frame, now);
        }
        if model.awaits_clock() {
            waited += 1;
        } else {
            idle += 1;
            let later = model.clone().tick(now + 24.0 * 3_600_000.0);
            assert!(later.is_empty(), "step {i}: a tick changed {later:?}");
        }
    }
    assert!(
        waited > 0 && idle > 0,
        "awaited at {waited} steps, idle at {idle}"
    );
}
