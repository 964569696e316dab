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
