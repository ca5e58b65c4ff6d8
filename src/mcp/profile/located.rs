//! Values kept with their place in the profile ([`At`], [`Position`]), so
//! every mistake `check` finds is reported at its line and column, and
//! regular expressions checked when the file is read ([`Pattern`]).

use std::borrow::Cow;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer};

/// Where a value stands in the profile: 1-based line and column.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Position {
    pub line: u64,
    pub column: u64,
}

/// A value and where it stands, so a check made after reading can name
/// the place of what it found wrong. Reads and describes itself (JSON
/// Schema) exactly as `T` does.
#[derive(Debug, Clone)]
pub struct At<T> {
    pub value: T,
    pub place: Position,
}

impl<T> std::ops::Deref for At<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.value
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for At<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let spanned = serde_saphyr::Spanned::<T>::deserialize(deserializer)?;
        Ok(At {
            place: Position {
                line: spanned.referenced.line(),
                column: spanned.referenced.column(),
            },
            value: spanned.value,
        })
    }
}

/// Written as the value alone (the schema's defaults are written so).
impl<T: serde::Serialize> serde::Serialize for At<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(serializer)
    }
}

impl<T: JsonSchema> JsonSchema for At<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }

    fn schema_name() -> Cow<'static, str> {
        T::schema_name()
    }

    fn schema_id() -> Cow<'static, str> {
        T::schema_id()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
}

/// A regular expression, compiled when the profile is read, and where it
/// stands.
#[derive(Debug, Clone)]
pub struct Pattern(pub regex::Regex, pub Position);

impl<'de> Deserialize<'de> for Pattern {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = At::<String>::deserialize(deserializer)?;
        regex::Regex::new(&text)
            .map(|regex| Pattern(regex, text.place))
            .map_err(|e| serde::de::Error::custom(format!("not a regular expression: {e}")))
    }
}

impl JsonSchema for Pattern {
    fn schema_name() -> Cow<'static, str> {
        "Pattern".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "format": "regex",
            "description": "A regular expression (Rust `regex` syntax), matched against one line of the server's text unless said otherwise."
        })
    }
}

impl Pattern {
    pub fn is_match(&self, text: &str) -> bool {
        self.0.is_match(text)
    }

    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }
}
