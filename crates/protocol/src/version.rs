//! The version gate: a client and server must agree on the major version.

/// The major of a version banner such as `"2.3"`, tolerant of leading zeros and whitespace.
/// `None` means the banner is unreadable, which is *not* evidence of a mismatch.
pub fn protocol_major(banner: &str) -> Option<u32> {
    let major = banner.trim().split('.').next()?.trim();
    if major.is_empty() || !major.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    major.parse().ok()
}

/// True only when the banner is readable and names a different major than ours.
pub fn is_major_mismatch(banner: &str) -> bool {
    matches!(protocol_major(banner), Some(m) if m != crate::PROTOCOL_MAJOR)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_majors() {
        assert_eq!(protocol_major("2.3"), Some(2));
        assert_eq!(protocol_major(" 02.1 "), Some(2));
        assert_eq!(protocol_major("3.0"), Some(3));
        assert_eq!(protocol_major("2"), Some(2));
        assert_eq!(protocol_major("abc"), None);
        assert_eq!(protocol_major(""), None);
    }

    #[test]
    fn mismatch_needs_a_readable_banner() {
        assert!(is_major_mismatch("3.0"));
        assert!(!is_major_mismatch("2.9"));
        assert!(!is_major_mismatch("abc"));
    }
}
