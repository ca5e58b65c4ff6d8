//! [`FixturePath`]: a path inside the fixture directory, safe to join and
//! short enough for Linux to build.

use std::fmt;

use crate::case::error::quote;
use crate::case::limits::{NAME_MAX, PATH_BUDGET};

/// A path inside the fixture directory: relative, `/`-separated, free of
/// `.`, `..` and empty segments, so joining it can never leave the
/// directory; no name longer than [`NAME_MAX`] and no more than
/// [`PATH_BUDGET`] bytes, so every machine can build it.
// Deserialize trusts its input: it is only ever given the embedded suite,
// which the build validated (see `case::compact`); text goes through `parse`.
#[derive(
    Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct FixturePath(String);

impl FixturePath {
    pub fn parse(text: &str) -> Result<FixturePath, String> {
        if text.is_empty() {
            return Err("empty path".into());
        }
        if text.starts_with('/') {
            return Err(format!(
                "`{}` is absolute; fixture paths are relative to the fixture directory",
                quote(text)
            ));
        }
        if text.contains('\0') {
            return Err(format!("`{}` contains a NUL byte", quote(text)));
        }
        for segment in text.split('/') {
            match segment {
                "" => return Err(format!("`{}` has an empty segment", quote(text))),
                "." => return Err(format!("`{}` has a `.` segment", quote(text))),
                ".." => {
                    return Err(format!(
                        "`{}` escapes the fixture directory with `..`",
                        quote(text)
                    ));
                }
                name if name.len() > NAME_MAX => {
                    return Err(format!(
                        "`{}` has a name of {} bytes, `{}`; a name is at most {NAME_MAX} bytes (NAME_MAX)",
                        quote(text),
                        name.len(),
                        quote(name)
                    ));
                }
                _ => {}
            }
        }
        if text.len() > PATH_BUDGET {
            return Err(format!(
                "`{}` is {} bytes long; a fixture path is at most {PATH_BUDGET} bytes (PATH_MAX less room for the fixture directory)",
                quote(text),
                text.len()
            ));
        }
        Ok(FixturePath(text.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether `self` is `other` or lies below it.
    pub fn is_within(&self, other: &FixturePath) -> bool {
        self.0 == other.0
            || self
                .0
                .strip_prefix(&other.0)
                .is_some_and(|rest| rest.starts_with('/'))
    }

    /// `rest` below `self`, checked like any path: two paths within the
    /// length budget may join into one past it.
    pub fn join(&self, rest: &FixturePath) -> Result<FixturePath, String> {
        FixturePath::parse(&format!("{}/{}", self.0, rest.0))
    }

    /// The last segment.
    pub fn name(&self) -> &str {
        self.0.rsplit_once('/').map_or(&self.0, |(_, name)| name)
    }

    /// The directory holding it, `""` for the fixture directory itself.
    pub fn parent(&self) -> &str {
        self.0.rsplit_once('/').map_or("", |(parent, _)| parent)
    }
}

impl fmt::Display for FixturePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Default for FixturePath {
    fn default() -> Self {
        FixturePath("ws".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn containment_is_by_component() {
        let ws = FixturePath::parse("ws").unwrap();
        assert!(FixturePath::parse("ws/a").unwrap().is_within(&ws));
        assert!(ws.is_within(&ws));
        assert!(!FixturePath::parse("ws-evil").unwrap().is_within(&ws));
    }

    #[test]
    fn names_and_paths_are_held_to_the_platform_limits() {
        let longest_name = "n".repeat(NAME_MAX);
        assert!(FixturePath::parse(&format!("ws/{longest_name}")).is_ok());
        let err = FixturePath::parse(&format!("ws/{longest_name}x/a")).unwrap_err();
        assert!(
            err.contains("has a name of 256 bytes") && err.contains("at most 255 bytes (NAME_MAX)"),
            "{err}"
        );
        // Bytes, not characters: 128 two-byte characters are 256 bytes.
        assert!(FixturePath::parse(&"é".repeat(128)).is_err());
        assert!(FixturePath::parse(&"é".repeat(127)).is_ok());
        let deep = |bytes: usize| {
            let segment = "d".repeat(99);
            let mut path = String::new();
            while path.len() + 100 <= bytes {
                path.push_str(&segment);
                path.push('/');
            }
            path.push_str(&"f".repeat(bytes - path.len()));
            assert_eq!(path.len(), bytes);
            path
        };
        assert!(FixturePath::parse(&deep(PATH_BUDGET)).is_ok());
        let err = FixturePath::parse(&deep(PATH_BUDGET + 1)).unwrap_err();
        assert!(
            err.contains(&format!("is {} bytes long", PATH_BUDGET + 1)),
            "{err}"
        );
    }

    #[test]
    fn name_and_parent() {
        let p = FixturePath::parse("ws/a/b").unwrap();
        assert_eq!((p.parent(), p.name()), ("ws/a", "b"));
        let top = FixturePath::parse("ws").unwrap();
        assert_eq!((top.parent(), top.name()), ("", "ws"));
    }
}
