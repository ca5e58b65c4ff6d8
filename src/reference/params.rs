//! Parameter validation, done before any file system access (ERR-2).
//!
//! Conventions shared by every tool:
//! - a parameter that is absent, JSON `null` or the empty string is not given
//!   (RES-1); any other non-string value is malformed (`invalid_params`);
//! - strings are taken as they are: no trimming (RES-5);
//! - a path containing a NUL byte is malformed (ERR-7);
//! - a path parameter and its alias may not both be given (SEARCH-1,
//!   SHELL-1);
//! - a key the tool does not define is refused, naming it (ERR-8): a model
//!   that misspells `dir_path` learns so at once instead of receiving a
//!   search of everything.

use serde_json::{Map, Value};

use super::ToolError;
use toolpath_suite::protocol::{ErrorCode, Tool};

type Params = Map<String, Value>;

/// Refuses a key `tool` does not take (ERR-8): the keys of its table in
/// the suite model (`toolpath_suite::params`).
pub fn only_for(params: &Params, tool: Tool) -> Result<(), ToolError> {
    only(params, toolpath_suite::params::names(tool))
}

/// The path `tool` was given, under its path parameter or that one's
/// alias (RES-1, FILE-1), by the suite model's table.
pub fn path_of(params: &Params, tool: Tool) -> Result<Option<String>, ToolError> {
    let names: Vec<&str> = toolpath_suite::params::path_names(tool).collect();
    path(params, &names)
}

/// Refuses the first key not in `known` (ERR-8), naming it and the keys the
/// tool takes, so the caller can correct the call.
pub fn only(params: &Params, known: &[&str]) -> Result<(), ToolError> {
    match params.keys().find(|k| !known.contains(&k.as_str())) {
        None => Ok(()),
        Some(key) => Err(invalid(format!(
            "unknown parameter `{key}`; this tool takes {}",
            known.join(", ")
        ))),
    }
}

/// An optional string parameter; `None` when not given.
pub fn optional(params: &Params, name: &str) -> Result<Option<String>, ToolError> {
    match params.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.is_empty() => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(invalid(format!("{name} must be a string, not {other}"))),
    }
}

/// A required, non-empty string parameter (`pattern`, `command`).
pub fn required(params: &Params, name: &str) -> Result<String, ToolError> {
    optional(params, name)?
        .ok_or_else(|| invalid(format!("{name} is required and must not be empty")))
}

/// A required string parameter that may be empty (`write_file`'s
/// `content`, `edit`'s `new_string`: writing nothing is a write): absent
/// or JSON `null` is missing, any other value that is not a string is
/// malformed.
pub fn string(params: &Params, name: &str) -> Result<String, ToolError> {
    match params.get(name) {
        None | Some(Value::Null) => Err(invalid(format!(
            "{name} is required (a string; it may be empty)"
        ))),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(other) => Err(invalid(format!("{name} must be a string, not {other}"))),
    }
}

/// The path given under `names` (a parameter and its aliases), if any.
pub fn path(params: &Params, names: &[&str]) -> Result<Option<String>, ToolError> {
    let mut given = Vec::new();
    for name in names {
        if let Some(value) = optional(params, name)? {
            if value.contains('\0') {
                return Err(invalid(format!(
                    "{name} contains a NUL byte, which no path can contain"
                )));
            }
            given.push((name, value));
        }
    }
    if given.len() > 1 {
        let names: Vec<String> = given.iter().map(|(n, _)| n.to_string()).collect();
        return Err(invalid(format!(
            "give only one of {}: they are the same parameter",
            names.join(" and ")
        )));
    }
    Ok(given.pop().map(|(_, value)| value))
}

/// Refuses a pattern or glob holding a NUL byte (ERR-7): no line a search
/// reads can hold one (a file with one is binary, SEARCH-8) and no file name
/// can, so it could only ever match nothing; refusing it tells the caller so.
pub fn no_nul(name: &str, value: &str) -> Result<(), ToolError> {
    if value.contains('\0') {
        return Err(invalid(format!(
            "{name} contains a NUL byte, which no line or file name can contain"
        )));
    }
    Ok(())
}

fn invalid(message: String) -> ToolError {
    ToolError::new(ErrorCode::InvalidParams, message)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn params(v: Value) -> Params {
        v.as_object().unwrap().clone()
    }

    fn code<T: std::fmt::Debug>(r: Result<T, ToolError>) -> ErrorCode {
        r.unwrap_err().code
    }

    #[test]
    fn paths() {
        let names = ["dir_path", "path"];
        assert_eq!(path(&params(json!({})), &names), Ok(None));
        assert_eq!(path(&params(json!({"dir_path": ""})), &names), Ok(None));
        assert_eq!(path(&params(json!({"dir_path": null})), &names), Ok(None));
        assert_eq!(
            path(&params(json!({"path": " "})), &names),
            Ok(Some(" ".into()))
        );
        assert_eq!(
            path(&params(json!({"dir_path": "a", "path": ""})), &names),
            Ok(Some("a".into()))
        );
        assert_eq!(
            path(&params(json!({"dir_path": "", "path": "b"})), &names),
            Ok(Some("b".into()))
        );
        assert_eq!(
            code(path(&params(json!({"dir_path": "a", "path": "a"})), &names)),
            ErrorCode::InvalidParams
        );
        assert_eq!(
            code(path(&params(json!({"dir_path": 1})), &names)),
            ErrorCode::InvalidParams
        );
        assert_eq!(
            code(path(&params(json!({"path": ["a"]})), &names)),
            ErrorCode::InvalidParams
        );
        assert_eq!(
            code(path(&params(json!({"path": "a\u{0}b"})), &names)),
            ErrorCode::InvalidParams
        );
    }

    #[test]
    fn unknown_keys_are_named() {
        let known = ["pattern", "dir_path", "path", "include"];
        assert_eq!(
            only(&params(json!({"pattern": "x", "path": ""})), &known),
            Ok(())
        );
        let err = only(&params(json!({"pattern": "x", "paht": "src"})), &known).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidParams);
        assert!(err.message.contains("`paht`"), "{}", err.message);
    }

    #[test]
    fn required_strings() {
        assert_eq!(
            required(&params(json!({"pattern": "x"})), "pattern"),
            Ok("x".into())
        );
        assert_eq!(
            required(&params(json!({"pattern": " "})), "pattern"),
            Ok(" ".into())
        );
        for bad in [
            json!({}),
            json!({"pattern": ""}),
            json!({"pattern": null}),
            json!({"pattern": 3}),
        ] {
            assert_eq!(
                code(required(&params(bad), "pattern")),
                ErrorCode::InvalidParams
            );
        }
    }
}
