//! Error codes: the `error` frame's and the `admin_error` frame's.

use serde::{Deserialize, Serialize};

wire_enum! {
    /// `error.code`. The spec names the join/session codes and "media error codes";
    /// the media list is the engine's (`MediaError`), including spellings that differ
    /// between engine versions (`media_quota` / `media_quota_exceeded`).
    pub enum ErrorCode {
        BadKey = "bad_key",
        BadFrame = "bad_frame",
        InputTooLong = "input_too_long",
        RateLimited = "rate_limited",
        ServerError = "server_error",
        JoinTimeout = "join_timeout",
        TooManyConnections = "too_many_connections",
        DemoUnavailable = "demo_unavailable",
        /// A panel_intent naming a panel outside this member's manifest.
        Forbidden = "forbidden",
        MediaDisabled = "media_disabled",
        MediaRateLimited = "media_rate_limited",
        MediaBadMime = "media_bad_mime",
        MediaTooLarge = "media_too_large",
        MediaQuota = "media_quota",
        MediaQuotaExceeded = "media_quota_exceeded",
        MediaBadHash = "media_bad_hash",
        MediaBadOffer = "media_bad_offer",
        MediaBadSvg = "media_bad_svg",
        MediaBadUpload = "media_bad_upload",
        MediaSizeMismatch = "media_size_mismatch",
        MediaHashMismatch = "media_hash_mismatch",
        MediaNotFound = "media_not_found",
        AvatarNoCharacter = "avatar_no_character",
    }
}

impl ErrorCode {
    /// The codes after which the server closes the connection (they only happen
    /// during or before the join handshake); every other error leaves it open.
    pub fn closes_connection(&self) -> bool {
        matches!(
            self,
            Self::BadKey | Self::JoinTimeout | Self::TooManyConnections
        )
    }

    /// A media upload/download rejection (known or not, by its `media_` prefix).
    pub fn is_media(&self) -> bool {
        self.as_str().starts_with("media_")
    }
}

wire_enum! {
    /// `admin_error.code`. None of them close the connection.
    pub enum AdminErrorCode {
        /// The connection is not a keeper's (or the room is not the caller's own).
        Forbidden = "forbidden",
        UnknownProvider = "unknown_provider",
        BadRequest = "bad_request",
        SetFailed = "set_failed",
        NotFound = "not_found",
        OpFailed = "op_failed",
        NotConfigured = "not_configured",
        /// Refused: it would demote/delete the room's last keeper join key.
        LastKeeper = "last_keeper",
    }
}

/// `error` — a localized failure notice; see [`ErrorCode::closes_connection`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErrorFrame {
    pub code: ErrorCode,
    pub message: String,
}
