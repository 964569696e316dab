//! `cargo xtask fuzz --seed`: the committed seed corpus, made from the shared conformance
//! tables and the real engine's captures, so every campaign starts from frames, expressions
//! and templates a real engine and real packs produce.

use std::path::Path;

use serde_json::{json, Value};

use crate::cmd::shared_dir;

/// Consecutive frames of one connection per `frames` seed.
const FRAMES_PER_SEED: usize = 12;
/// The largest `frames` seed: about what the target's `-max_len` lets a mutation keep.
const MAX_SEED: usize = 8000;

pub fn write(seeds: &Path) -> Result<(), String> {
    let conformance = shared_dir().join("conformance");
    let mut written = 0;
    for (target, files) in [
        ("frames", frames(&conformance)?),
        ("visible_when", visible_when(&conformance)?),
        ("template", template(&conformance)?),
        ("ticket", tickets()),
    ] {
        let dir = seeds.join(target);
        // Stale seeds from an older capture must not linger.
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for (i, bytes) in files.iter().enumerate() {
            let path = dir.join(format!("{i:04}"));
            std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        eprintln!("fuzz: {} seeds for {target}", files.len());
        written += files.len();
    }
    println!("{written} seeds written under {}", seeds.display());
    Ok(())
}

fn read_json(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Runs of server frames as one connection received them, each prefixed with the byte the
/// target reads as its read size (0x3f: reads of 64 bytes).
fn frames(conformance: &Path) -> Result<Vec<Vec<u8>>, String> {
    let mut seeds = Vec::new();
    for capture in ["engine-session-2.3.jsonl", "engine-admin-2.3.jsonl"] {
        let path = conformance.join(capture);
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut by_conn: Vec<(String, Vec<String>)> = Vec::new();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let record: Value =
                serde_json::from_str(line).map_err(|e| format!("{}: {e}", path.display()))?;
            let (Some(conn), Some(frame)) = (record["conn"].as_str(), record.get("frame")) else {
                continue;
            };
            match by_conn.iter_mut().find(|(c, _)| c == conn) {
                Some((_, frames)) => frames.push(frame.to_string()),
                None => by_conn.push((conn.to_string(), vec![frame.to_string()])),
            }
        }
        for (_, frames) in by_conn {
            for run in frames.chunks(FRAMES_PER_SEED) {
                let mut seed = vec![0x3f];
                for frame in run {
                    if seed.len() + frame.len() + 1 > MAX_SEED {
                        break;
                    }
                    seed.extend_from_slice(frame.as_bytes());
                    seed.push(b'\n');
                }
                if seed.len() > 1 {
                    seeds.push(seed);
                }
            }
        }
    }
    Ok(seeds)
}

/// `expr` then, on the next line, the row's variables as JSON.
fn visible_when(conformance: &Path) -> Result<Vec<Vec<u8>>, String> {
    let table = read_json(&conformance.join("visible_when_vectors.json"))?;
    let mut seeds = Vec::new();
    for row in table["cases"].as_array().into_iter().flatten() {
        let expr = row["expr"].as_str().unwrap_or_default();
        let vars = row.get("vars").cloned().unwrap_or_else(|| json!({}));
        seeds.push(format!("{expr}\n{vars}").into_bytes());
    }
    for row in table["rejected"].as_array().into_iter().flatten() {
        seeds.push(row["expr"].as_str().unwrap_or_default().as_bytes().to_vec());
    }
    Ok(seeds)
}

/// Each row's blocks, variables and locale, as the target reads them.
fn template(conformance: &Path) -> Result<Vec<Vec<u8>>, String> {
    let table = read_json(&conformance.join("panel_template_vectors.json"))?;
    Ok(table["cases"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|row| {
            json!({"blocks": row["blocks"], "variables": row["variables"], "locale": row["locale"]})
                .to_string()
                .into_bytes()
        })
        .collect())
}

/// A real ticket, and the ways people paste one.
fn tickets() -> Vec<Vec<u8>> {
    let key = iroh::SecretKey::from_bytes(&[7u8; 32]);
    let addr = iroh::EndpointAddr::new(key.public())
        .with_ip_addr("127.0.0.1:4242".parse().expect("an address"));
    let t = iroh_tickets::endpoint::EndpointTicket::new(addr).to_string();
    [
        t.clone(),
        format!("  ticket={}\n{}  \r\n", &t[..20], &t[20..]),
        format!("\"{t}\""),
        format!("<{}>", t.to_uppercase()),
        t[..t.len() - 5].to_string(),
        "endpoint".to_string(),
    ]
    .into_iter()
    .map(String::into_bytes)
    .collect()
}
