use super::*;

/// A 1×1 grey PNG made here, with `extra` chunks before IEND.
fn image(extra: &[(&[u8; 4], Vec<u8>)]) -> Vec<u8> {
    use std::io::Write;
    let mut idat = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    idat.write_all(&[0, 128]).unwrap();
    let mut out = SIGNATURE.to_vec();
    push_chunk(&mut out, b"IHDR", &[0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]);
    push_chunk(&mut out, b"IDAT", &idat.finish().unwrap());
    for (kind, data) in extra {
        push_chunk(&mut out, kind, data);
    }
    push_chunk(&mut out, b"IEND", &[]);
    out
}

fn text_chunk(keyword: &str, json: &Value) -> Vec<u8> {
    let mut data = keyword.as_bytes().to_vec();
    data.push(0);
    data.extend(
        base64::engine::general_purpose::STANDARD
            .encode(json.to_string())
            .bytes(),
    );
    data
}

#[test]
fn a_card_written_is_read_back_and_each_chunk_is_there_once() {
    let old = serde_json::json!({"name": "old"});
    let png = image(&[
        (b"tEXt", text_chunk("chara", &old)),
        (b"tEXt", text_chunk("ccv3", &old)),
        (b"tEXt", b"Software\0paint".to_vec()),
    ]);
    let v2 = serde_json::json!({"spec": "chara_card_v2", "data": {"name": "新"}});
    let v3 = serde_json::json!({"spec": "chara_card_v3", "data": {"name": "新"}});
    let once = embed(&png, &v2, &v3).unwrap();
    let twice = embed(&once, &v2, &v3).unwrap();
    assert_eq!(once, twice, "writing again changed the file");
    assert_eq!(
        text_keywords(&twice).unwrap(),
        ["Software", "chara", "ccv3"]
    );
    assert_eq!(read_card(&twice).unwrap(), v3, "ccv3 is the one read");
    // The image itself is untouched.
    assert!(twice.windows(4).any(|w| w == b"IDAT"));
}

#[test]
fn chara_alone_and_compressed_text_chunks_are_read() {
    use std::io::Write;
    let card = serde_json::json!({"name": "z"});
    let b64 = base64::engine::general_purpose::STANDARD.encode(card.to_string());
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(b64.as_bytes()).unwrap();
    let mut ztxt = b"chara\0\0".to_vec();
    ztxt.extend(z.finish().unwrap());
    assert_eq!(read_card(&image(&[(b"zTXt", ztxt)])).unwrap(), card);
    let mut itxt = b"chara\0\0\0\0\0".to_vec();
    itxt.extend(b64.bytes());
    assert_eq!(read_card(&image(&[(b"iTXt", itxt)])).unwrap(), card);
}

#[test]
fn a_damaged_or_cardless_png_is_refused_with_a_sentence() {
    let mut png = image(&[]);
    assert!(read_card(&png)
        .unwrap_err()
        .to_string()
        .contains("no SillyTavern card"));
    let at = png.len() - 20;
    png[at] ^= 1;
    assert!(read_card(&png).unwrap_err().to_string().contains("damaged"));
    assert!(read_card(b"GIF89a")
        .unwrap_err()
        .to_string()
        .contains("not a PNG"));
    let not_json = image(&[(b"tEXt", b"chara\0!!!".to_vec())]);
    assert!(read_card(&not_json)
        .unwrap_err()
        .to_string()
        .contains("base64"));
}
