//! The real engine's admin capture (`shared/conformance/engine-admin-2.3.jsonl`), read
//! so tests compare the table's replies with what the engine actually sent.

use serde_json::Value;

pub fn records() -> Vec<Value> {
    let text = test_support::read_shared("conformance/engine-admin-2.3.jsonl");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("capture line is JSON"))
        .collect()
}

/// What the engine answered the first frame `conn` sent matching `pred`: every frame
/// any connection received until the next frame was sent, as `(conn, frame)`.
pub fn answer(conn: &str, pred: impl Fn(&Value) -> bool) -> Vec<(String, Value)> {
    let recs = records();
    let start = recs
        .iter()
        .position(|r| r["conn"] == conn && r.get("sent").is_some_and(&pred));
    answer_from(&recs, start)
}

/// Like [`answer`], for the LAST matching frame `conn` sent.
pub fn last_answer(conn: &str, pred: impl Fn(&Value) -> bool) -> Vec<(String, Value)> {
    let recs = records();
    let start = recs
        .iter()
        .rposition(|r| r["conn"] == conn && r.get("sent").is_some_and(&pred));
    answer_from(&recs, start)
}

fn answer_from(recs: &[Value], start: Option<usize>) -> Vec<(String, Value)> {
    let start = start.expect("the capture has such a sent frame");
    recs[start + 1..]
        .iter()
        .take_while(|r| r.get("sent").is_none())
        .filter_map(|r| Some((r["conn"].as_str()?.to_string(), r.get("frame")?.clone())))
        .collect()
}

/// The answer's frames on one connection, in arrival order.
pub fn on(answer: &[(String, Value)], conn: &str) -> Vec<Value> {
    answer
        .iter()
        .filter(|(c, _)| c == conn)
        .map(|(_, f)| f.clone())
        .collect()
}

/// The first frame `conn` got in answer to its first sent frame of type `kind`.
pub fn reply(conn: &str, kind: &str) -> Value {
    on(&answer(conn, |s| s["type"] == kind), conn)
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("no captured reply to {kind}"))
}

/// Asserts both frames carry the same keys at every level. Array rows are paired by
/// `id` when both sides have one (rows of different kinds differ), else by position.
pub fn assert_same_keys(ours: &Value, engine: &Value) {
    if let Err(e) = same_keys(ours, engine, "$") {
        panic!("{e}\n ours:   {ours}\n engine: {engine}");
    }
}

fn same_keys(ours: &Value, engine: &Value, path: &str) -> Result<(), String> {
    match (ours, engine) {
        (Value::Object(a), Value::Object(b)) => {
            let (ka, kb): (Vec<_>, Vec<_>) = (a.keys().collect(), b.keys().collect());
            let mut sa = ka.clone();
            let mut sb = kb.clone();
            sa.sort();
            sb.sort();
            if sa != sb {
                return Err(format!("{path}: keys {ka:?} != engine's {kb:?}"));
            }
            for (k, v) in a {
                same_keys(v, &b[k.as_str()], &format!("{path}.{k}"))?;
            }
            Ok(())
        }
        (Value::Array(a), Value::Array(b)) => {
            for (i, row) in a.iter().enumerate() {
                let by_id = row
                    .get("id")
                    .and_then(|id| b.iter().find(|r| r.get("id") == Some(id)));
                let peer = by_id.or(b.get(i)).or(b.first());
                if let Some(peer) = peer {
                    same_keys(row, peer, &format!("{path}[{i}]"))?;
                }
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// The first frame of type `kind` that `conn` sent (replayed verbatim against the table).
pub fn sent(conn: &str, kind: &str) -> Value {
    records()
        .into_iter()
        .find(|r| r["conn"] == conn && r["sent"]["type"] == kind)
        .map(|r| r["sent"].clone())
        .unwrap_or_else(|| panic!("{conn} never sent {kind} in the capture"))
}

/// `features` without `demo`, which depends on the room's history, not on admin state.
pub fn features(welcome: &Value) -> Vec<String> {
    welcome["features"]
        .as_array()
        .expect("welcome.features")
        .iter()
        .filter_map(Value::as_str)
        .filter(|f| *f != "demo")
        .map(str::to_string)
        .collect()
}
