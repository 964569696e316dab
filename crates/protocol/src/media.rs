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

/// The media type of a file by its extension (case-insensitive), in the engine's own table
/// (`core/pack.py`, `_ASSET_MIME_BY_SUFFIX`, pinned so a build does not depend on the machine):
/// the documented pictures and sounds, and the web kinds a panel page is made of. `None` for
/// anything else (a pack asset is then `application/octet-stream`; an upload is refused).
pub fn mime_for(path: &str) -> Option<&'static str> {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let (_, ext) = name.rsplit_once('.')?;
    Some(match ext.to_ascii_lowercase().as_str() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "webp" => "image/webp",
        "gif" => "image/gif",
        "svg" => "image/svg+xml",
        "mp3" => "audio/mpeg",
        "ogg" | "oga" | "opus" => "audio/ogg",
        "wav" => "audio/wav",
        "flac" => "audio/flac",
        "m4a" => "audio/mp4",
        "aac" => "audio/aac",
        // Not documented pack media: what the engine's fallback (Python's `mimetypes`) says.
        "mp4" => "video/mp4",
        "html" | "htm" => "text/html",
        "js" | "mjs" => "text/javascript",
        "css" => "text/css",
        "json" => "application/json",
        "txt" | "md" => "text/plain",
        _ => return None,
    })
}

/// Whether `mime` is a picture or a sound the protocol accepts.
pub fn is_media(mime: &str) -> bool {
    IMAGE_MIMES.contains(&mime) || AUDIO_MIMES.contains(&mime)
}

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

    #[test]
    fn one_table_of_kinds_by_extension_as_the_engine_builds_packs() {
        // The engine's `_ASSET_MIME_BY_SUFFIX`, row by row.
        let engine = [
            ("png", "image/png"),
            ("jpg", "image/jpeg"),
            ("jpeg", "image/jpeg"),
            ("webp", "image/webp"),
            ("gif", "image/gif"),
            ("svg", "image/svg+xml"),
            ("mp3", "audio/mpeg"),
            ("ogg", "audio/ogg"),
            ("oga", "audio/ogg"),
            ("opus", "audio/ogg"),
            ("wav", "audio/wav"),
            ("flac", "audio/flac"),
            ("m4a", "audio/mp4"),
            ("aac", "audio/aac"),
        ];
        for (ext, mime) in engine {
            assert_eq!(mime_for(&format!("a/b.{ext}")), Some(mime), "{ext}");
            assert!(is_media(mime), "{mime} is documented media");
        }
        assert_eq!(mime_for("dir/Sea.WAV"), Some("audio/wav"));
        assert_eq!(mime_for("C:\\x\\map.Svg"), Some("image/svg+xml"));
        assert_eq!(mime_for("ui/panel/index.html"), Some("text/html"));
        assert_eq!(mime_for("clip.mp4"), Some("video/mp4"));
        assert!(
            !is_media("video/mp4"),
            "an .mp4 is not a sound the table takes"
        );
        assert_eq!(mime_for("notes.bin"), None);
        assert_eq!(mime_for("Makefile"), None);
        assert_eq!(mime_for("dir.d/noext"), None);
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
