//! A card inside a PNG, as SillyTavern writes it: base64 JSON in `tEXt` chunks, `chara` (V2)
//! and `ccv3` (V3). Reading takes `ccv3` when there is one (it carries V3's fields), else
//! `chara`, from `tEXt`, `zTXt` or `iTXt` (inflated with a cap against a zlib bomb). Writing
//! puts exactly one of each before `IEND` and drops every older card chunk, so the engine
//! (which reads the first it meets) and SillyTavern read the card just written.

use std::io::Read;

use base64::Engine as _;
use serde_json::Value;

use crate::Error;

const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
/// Inflated card text past this is refused (the engine's `MAX_DECOMPRESSED_BYTES`).
const MAX_INFLATED: u64 = 4 * 1024 * 1024;
const CARD_KEYWORDS: [&str; 2] = ["chara", "ccv3"];

/// One chunk: its type and data (the CRC is checked when read, made when written).
struct Chunk<'a> {
    kind: [u8; 4],
    data: &'a [u8],
}

fn chunks(png: &[u8]) -> Result<Vec<Chunk<'_>>, Error> {
    let Some(mut rest) = png.strip_prefix(SIGNATURE) else {
        return Err(Error::Png("not a PNG file".into()));
    };
    let mut out = Vec::new();
    while !rest.is_empty() {
        if rest.len() < 12 {
            return Err(Error::Png("the PNG ends inside a chunk".into()));
        }
        let len = u32::from_be_bytes(rest[..4].try_into().unwrap()) as usize;
        if rest.len() < 12 + len {
            return Err(Error::Png("the PNG ends inside a chunk".into()));
        }
        let kind: [u8; 4] = rest[4..8].try_into().unwrap();
        let data = &rest[8..8 + len];
        let crc = u32::from_be_bytes(rest[8 + len..12 + len].try_into().unwrap());
        if crc != crc_of(&kind, data) {
            return Err(Error::Png(format!(
                "the PNG's {} chunk is damaged (its checksum does not match)",
                String::from_utf8_lossy(&kind)
            )));
        }
        out.push(Chunk { kind, data });
        rest = &rest[12 + len..];
        if &kind == b"IEND" {
            break;
        }
    }
    Ok(out)
}

fn crc_of(kind: &[u8; 4], data: &[u8]) -> u32 {
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(kind);
    hasher.update(data);
    hasher.finalize()
}

/// A text chunk's keyword and text, or `None` for another chunk or one that cannot be read.
fn text_of(chunk: &Chunk) -> Option<(String, Vec<u8>)> {
    let (keyword, rest) = split_nul(chunk.data)?;
    let keyword = keyword.iter().map(|&b| b as char).collect::<String>();
    let text = match &chunk.kind {
        b"tEXt" => rest.to_vec(),
        b"zTXt" => match rest.split_first() {
            Some((0, compressed)) => inflate(compressed)?,
            _ => return None,
        },
        b"iTXt" => {
            let (&flag, rest) = rest.split_first()?;
            let (&method, rest) = rest.split_first()?;
            let (_language, rest) = split_nul(rest)?;
            let (_translated, text) = split_nul(rest)?;
            match (flag, method) {
                (0, _) => text.to_vec(),
                (_, 0) => inflate(text)?,
                _ => return None,
            }
        }
        _ => return None,
    };
    Some((keyword, text))
}

fn split_nul(data: &[u8]) -> Option<(&[u8], &[u8])> {
    let at = data.iter().position(|&b| b == 0)?;
    Some((&data[..at], &data[at + 1..]))
}

fn inflate(data: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    flate2::read::ZlibDecoder::new(data)
        .take(MAX_INFLATED + 1)
        .read_to_end(&mut out)
        .ok()?;
    (out.len() as u64 <= MAX_INFLATED).then_some(out)
}

/// The card JSON a PNG carries: `ccv3` if present, else `chara`.
pub fn read_card(png: &[u8]) -> Result<Value, Error> {
    let mut found: [Option<Vec<u8>>; 2] = [None, None];
    for chunk in chunks(png)? {
        if let Some((keyword, text)) = text_of(&chunk) {
            if let Some(slot) = CARD_KEYWORDS.iter().position(|k| *k == keyword) {
                found[slot].get_or_insert(text);
            }
        }
    }
    let [chara, ccv3] = found;
    let text = ccv3
        .or(chara)
        .ok_or_else(|| Error::Png("the PNG carries no SillyTavern card".into()))?;
    let text: Vec<u8> = text
        .into_iter()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    let json = base64::engine::general_purpose::STANDARD
        .decode(&text)
        .map_err(|e| Error::Png(format!("the PNG's card is not base64: {e}")))?;
    let json = json.strip_prefix("\u{feff}".as_bytes()).unwrap_or(&json);
    let card: Value = serde_json::from_slice(json).map_err(Error::json)?;
    if !card.is_object() {
        return Err(Error::Png("the PNG's card is not a JSON object".into()));
    }
    Ok(card)
}

/// The keywords of the PNG's text chunks, in order (the engine's fixture test counts them).
pub fn text_keywords(png: &[u8]) -> Result<Vec<String>, Error> {
    Ok(chunks(png)?
        .iter()
        .filter_map(|c| text_of(c).map(|(k, _)| k))
        .collect())
}

/// `image` with the card written into it: one `chara` chunk holding `v2`, one `ccv3` holding
/// `v3`, before `IEND`; every older `chara`/`ccv3` chunk of any text kind is dropped, every
/// other chunk kept as it was.
pub fn embed(image: &[u8], v2: &Value, v3: &Value) -> Result<Vec<u8>, Error> {
    let chunks = chunks(image)?;
    if chunks.last().map(|c| &c.kind) != Some(b"IEND") {
        return Err(Error::Png("the PNG has no end (IEND) chunk".into()));
    }
    let mut out = SIGNATURE.to_vec();
    for chunk in &chunks {
        let is_card = text_of(chunk).is_some_and(|(k, _)| CARD_KEYWORDS.contains(&k.as_str()));
        if is_card {
            continue;
        }
        if &chunk.kind == b"IEND" {
            for (keyword, card) in [("chara", v2), ("ccv3", v3)] {
                let payload = base64::engine::general_purpose::STANDARD
                    .encode(serde_json::to_vec(card).expect("a card is JSON"));
                let mut data = keyword.as_bytes().to_vec();
                data.push(0);
                data.extend_from_slice(payload.as_bytes());
                push_chunk(&mut out, b"tEXt", &data);
            }
        }
        push_chunk(&mut out, &chunk.kind, chunk.data);
    }
    Ok(out)
}

fn push_chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    out.extend_from_slice(&crc_of(kind, data).to_be_bytes());
}

#[cfg(test)]
mod tests;
