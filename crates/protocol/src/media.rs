//! The media rules every side shares: which kinds may be uploaded, and how large a file may be.

/// Image kinds the protocol accepts (and the only ones Studio shows as pictures).
pub const IMAGE_MIMES: [&str; 5] = [
    "image/png",
    "image/jpeg",
    "image/webp",
    "image/gif",
    "image/svg+xml",
];

/// Audio kinds the protocol accepts.
pub const AUDIO_MIMES: [&str; 6] = [
    "audio/mpeg",
    "audio/ogg",
    "audio/wav",
    "audio/flac",
    "audio/mp4",
    "audio/aac",
];

/// Per-file limit for images (and anything that is not audio, e.g. panel assets).
pub const IMAGE_MAX_BYTES: u64 = 8 * 1024 * 1024;
/// Per-file limit for audio.
pub const AUDIO_MAX_BYTES: u64 = 128 * 1024 * 1024;

pub fn is_image(mime: &str) -> bool {
    IMAGE_MIMES.contains(&mime)
}

pub fn is_audio(mime: &str) -> bool {
    AUDIO_MIMES.contains(&mime)
}

/// Whether `mime` may be uploaded at all.
pub fn is_upload_mime(mime: &str) -> bool {
    is_image(mime) || is_audio(mime)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_allow_list_is_the_specs() {
        assert!(is_upload_mime("image/svg+xml") && is_upload_mime("audio/aac"));
        assert!(!is_upload_mime("text/html") && !is_upload_mime("image/bmp"));
        assert_eq!(IMAGE_MIMES.len() + AUDIO_MIMES.len(), 11);
    }
}

/// A table's refusal of an upload (`error.code`) as the sentence shown next to that upload;
/// `None` when the code is not about uploads.
pub fn upload_refusal(code: &str, message: &str) -> Option<String> {
    Some(match code {
        "media_bad_mime" => "The table does not take this kind of file.".into(),
        "media_too_large" if message.is_empty() => "The table refused it as too large.".into(),
        "media_too_large" => format!("The table refused it as too large: {message}"),
        "media_bad_svg" => {
            "The table refused this SVG: pictures may not carry scripts or outside links.".into()
        }
        "rate_limited" | "media_rate_limited" => {
            "Too many uploads at once: wait a minute and share it again.".into()
        }
        "media_disabled" => "The keeper has turned sharing off.".into(),
        "media_quota" | "media_quota_exceeded" | "quota_exceeded" => {
            format!("The room has no space left for it. {message}")
                .trim()
                .to_string()
        }
        "media_size_mismatch" | "media_hash_mismatch" => {
            "The file changed while it was being sent: share it again.".into()
        }
        c if c.starts_with("media_") && message.is_empty() => {
            format!("The table refused it ({c}).")
        }
        c if c.starts_with("media_") => format!("The table refused it: {message}"),
        _ => return None,
    })
}

#[cfg(test)]
mod upload_refusal_tests {
    use super::upload_refusal;

    #[test]
    fn upload_codes_are_sentences_and_others_are_not_ours() {
        let svg = upload_refusal("media_bad_svg", "x").unwrap();
        assert!(svg.contains("scripts"), "{svg}");
        assert!(upload_refusal("media_rate_limited", "")
            .unwrap()
            .contains("wait a minute"));
        assert_eq!(
            upload_refusal("media_weird", "").unwrap(),
            "The table refused it (media_weird)."
        );
        assert_eq!(upload_refusal("input_too_long", "x"), None);
    }
}
