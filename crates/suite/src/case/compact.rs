//! How two fields of a validated case are written in the compact embedded
//! form (the binary's `case::embedded`, written by its `build.rs`), which
//! is postcard: a format that is not self-describing, so it cannot carry a
//! JSON `Value` by itself, and that writes a `Vec<u8>` byte by byte unless
//! told it is bytes.

/// Tool parameters as JSON text.
pub mod json_text {
    use serde::{Deserialize, Deserializer, Serializer};
    use serde_json::{Map, Value};

    pub fn serialize<S: Serializer>(params: &Map<String, Value>, s: S) -> Result<S::Ok, S::Error> {
        let text = serde_json::to_string(params).map_err(serde::ser::Error::custom)?;
        s.serialize_str(&text)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Map<String, Value>, D::Error> {
        let text = String::deserialize(d)?;
        serde_json::from_str(&text).map_err(serde::de::Error::custom)
    }
}

/// A fixture's files, each content as one run of bytes: decoding it
/// element by element was a fifth of `toolpath list`.
pub mod files {
    use std::fmt;

    use serde::de::{SeqAccess, Visitor};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::case::path::FixturePath;

    struct Bytes<'a>(&'a [u8]);

    impl Serialize for Bytes<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(self.0)
        }
    }

    struct ByteBuf(Vec<u8>);

    impl<'de> Deserialize<'de> for ByteBuf {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct Expect;
            impl Visitor<'_> for Expect {
                type Value = ByteBuf;
                fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                    f.write_str("file content bytes")
                }
                fn visit_bytes<E>(self, bytes: &[u8]) -> Result<ByteBuf, E> {
                    Ok(ByteBuf(bytes.to_vec()))
                }
            }
            d.deserialize_bytes(Expect)
        }
    }

    pub fn serialize<S: Serializer>(
        files: &[(FixturePath, Vec<u8>)],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.collect_seq(files.iter().map(|(path, bytes)| (path, Bytes(bytes))))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Vec<(FixturePath, Vec<u8>)>, D::Error> {
        struct Files;
        impl<'de> Visitor<'de> for Files {
            type Value = Vec<(FixturePath, Vec<u8>)>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of fixture files")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut files = Vec::with_capacity(seq.size_hint().unwrap_or(0));
                while let Some((path, ByteBuf(bytes))) = seq.next_element()? {
                    files.push((path, bytes));
                }
                Ok(files)
            }
        }
        d.deserialize_seq(Files)
    }
}
