//! The two shapes every wire vocabulary here takes, written once.

/// A string-valued wire enum with an `Other(String)` fallback: minor versions are
/// additive, so a value this client does not know must survive decode and re-encode.
macro_rules! wire_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident { $( $(#[$vmeta:meta])* $variant:ident = $wire:literal ),* $(,)? }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )*
            /// A value this client does not know, kept verbatim.
            Other(String),
        }

        impl $name {
            /// The wire spelling.
            pub fn as_str(&self) -> &str {
                match self {
                    $( Self::$variant => $wire, )*
                    Self::Other(other) => other,
                }
            }

            /// Reads a wire spelling; unknown spellings become `Other`.
            pub fn from_wire(wire: &str) -> Self {
                match wire {
                    $( $wire => Self::$variant, )*
                    other => Self::Other(other.to_owned()),
                }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl From<&str> for $name {
            fn from(wire: &str) -> Self {
                Self::from_wire(wire)
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let wire = <String as ::serde::Deserialize>::deserialize(d)?;
                Ok(Self::from_wire(&wire))
            }
        }
    };
}

/// An object union discriminated by one string field (`type` for frames, `kind` for
/// blocks), with an `Unknown` variant that keeps the whole raw object. Dispatch is
/// manual (see `from_object`) so an unknown tag is a value, never an error, while a
/// known tag with a malformed payload is an error naming that tag.
///
/// Unit variants carry no payload (extra fields on them are ignored); data variants
/// wrap a payload struct whose fields are the frame's fields minus the tag.
macro_rules! tagged_union {
    (
        $(#[$meta:meta])*
        pub enum $name:ident (tag = $tag:literal, unknown = $unknown:ident) {
            $( $(#[$umeta:meta])* $unit:ident = $unit_wire:literal, )*
            ;
            $( $(#[$dmeta:meta])* $data:ident($payload:ty) = $data_wire:literal, )*
        }
    ) => {
        $(#[$meta])*
        // Payloads stay unboxed so consumers can build and match them plainly; a
        // frame is decoded once and moved a handful of times, so size is no issue.
        #[allow(clippy::large_enum_variant)]
        #[derive(Debug, Clone, PartialEq)]
        pub enum $name {
            $( $(#[$umeta])* $unit, )*
            $( $(#[$dmeta])* $data($payload), )*
            /// A tag this client does not know: ignored by consumers, kept verbatim.
            Unknown {
                $unknown: String,
                /// The whole object as received, tag included.
                raw: ::serde_json::Value,
            },
        }

        impl $name {
            /// Every tag this client knows, in declaration order.
            pub const TAGS: &'static [&'static str] = &[$( $unit_wire, )* $( $data_wire, )*];

            /// The tag this value carries on the wire.
            pub fn tag(&self) -> &str {
                match self {
                    $( Self::$unit => $unit_wire, )*
                    $( Self::$data(_) => $data_wire, )*
                    Self::Unknown { $unknown, .. } => $unknown,
                }
            }

            /// True for the `Unknown` fallback.
            pub fn is_unknown(&self) -> bool {
                matches!(self, Self::Unknown { .. })
            }

            pub(crate) fn from_object(
                mut obj: ::serde_json::Map<String, ::serde_json::Value>,
            ) -> Result<Self, $crate::frame::tagged::TagError> {
                let tag = match obj.get($tag) {
                    Some(::serde_json::Value::String(tag)) => tag.clone(),
                    _ => return Err($crate::frame::tagged::TagError::MissingTag),
                };
                match tag.as_str() {
                    $( $unit_wire => Ok(Self::$unit), )*
                    $( $data_wire => {
                        // The tag is not a payload field; leaving it would land it in `extra`.
                        obj.remove($tag);
                        ::serde_json::from_value(::serde_json::Value::Object(obj))
                            .map(Self::$data)
                            .map_err(|error| $crate::frame::tagged::TagError::Payload { tag, error })
                    } )*
                    _ => Ok(Self::Unknown { $unknown: tag, raw: ::serde_json::Value::Object(obj) }),
                }
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                match self {
                    $( Self::$unit => $crate::frame::tagged::serialize_unit(s, $tag, $unit_wire), )*
                    $( Self::$data(payload) => {
                        $crate::frame::tagged::serialize_tagged(s, $tag, $data_wire, payload)
                    } )*
                    Self::Unknown { raw, .. } => ::serde::Serialize::serialize(raw, s),
                }
            }
        }
    };
}
