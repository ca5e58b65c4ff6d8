//! `grep` and `ripgrep`: one contract, one implementation (SEARCH).

use std::collections::BTreeMap;
use std::fs;
use std::sync::{Mutex, PoisonError};

use regex::bytes::Regex;
use serde_json::{Map, Value};

use super::resolve::{self, Target};
use super::{ToolError, include, params, walk};
use toolpath_suite::protocol::{ErrorCode, Kind, Match, Outcome, Tool, ToolResult, Workspace};

use toolpath_suite::protocol::notes::{BINARY, INCLUDE_IGNORED};

/// Validated search parameters (SEARCH-1, SEARCH-7).
struct Query {
    regex: Regex,
    pattern: String,
    path: Option<String>,
    include: Option<String>,
}

/// Runs a search: validate the parameters, resolve the target, search it.
pub fn run(workspace: &Workspace, params: &Map<String, Value>) -> ToolResult {
    match parse(params).and_then(|query| search(workspace, &query)) {
        Ok(result) => result,
        Err(err) => err.into(),
    }
}

/// The table of the parameters a search takes: `ripgrep` takes `grep`'s
/// (one contract, SEARCH).
const SEARCH: Tool = Tool::Grep;

fn parse(params: &Map<String, Value>) -> Result<Query, ToolError> {
    params::only_for(params, SEARCH)?;
    let pattern = params::required(params, "pattern")?;
    let path = params::path_of(params, SEARCH)?;
    let include = params::optional(params, "include")?;
    params::no_nul("pattern", &pattern)?;
    if let Some(include) = &include {
        params::no_nul("include", include)?;
    }
    let regex = compiled(&pattern).map_err(|e| {
        ToolError::new(
            ErrorCode::InvalidParams,
            format!("pattern does not compile: {e}"),
        )
    })?;
    Ok(Query {
        regex,
        pattern,
        path,
        include,
    })
}

/// `pattern` compiled, by this process once (up to [`PatternCache`]'s
/// bounds): the suite's instances ask a handful of patterns (`needle`,
/// `hello`) thousands of times, and compiling one (the regex crate builds
/// a DFA for a small pattern) was about a tenth of the reference's CPU
/// time over the whole suite, in process or served (measured 2026-12-06:
/// 8.8% of a whole-suite run of the unoptimised build). A compiled
/// pattern is immutable and its clone shares the program, so a call
/// answered from the cache matches exactly as one that compiled afresh.
fn compiled(pattern: &str) -> Result<Regex, regex::Error> {
    static PATTERNS: Mutex<PatternCache> = Mutex::new(PatternCache::new());
    let cached = PATTERNS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(pattern);
    if let Some(regex) = cached {
        return Ok(regex);
    }
    // Compiled outside the lock: another worker's call waits for nothing.
    let regex = Regex::new(pattern)?;
    PATTERNS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .keep(pattern, &regex);
    Ok(regex)
}

/// Compiled patterns by their text, bounded, since a case file or a fuzzed
/// call may send any number of patterns of any size and a compiled one
/// keeps its program (and what its searches cached) while it is kept: at
/// most [`Self::PATTERNS`], none longer than [`Self::LONGEST`] bytes (a
/// longer one is compiled for its call alone, as every pattern was
/// before). Full, it starts again empty: the suite's few patterns come
/// straight back.
struct PatternCache {
    patterns: BTreeMap<String, Regex>,
}

impl PatternCache {
    const PATTERNS: usize = 32;
    const LONGEST: usize = 256;

    const fn new() -> Self {
        PatternCache {
            patterns: BTreeMap::new(),
        }
    }

    fn get(&self, pattern: &str) -> Option<Regex> {
        self.patterns.get(pattern).cloned()
    }

    fn keep(&mut self, pattern: &str, regex: &Regex) {
        if pattern.len() > Self::LONGEST {
            return;
        }
        if self.patterns.len() >= Self::PATTERNS {
            self.patterns.clear();
        }
        self.patterns.insert(pattern.to_owned(), regex.clone());
    }
}

fn search(workspace: &Workspace, query: &Query) -> Result<ToolResult, ToolError> {
    let target = resolve::resolve_target(workspace, query.path.as_deref())?;
    let include = query.include.as_deref();
    let mut matches = Vec::new();
    let mut notes = Vec::new();
    let (kind, path, parent) = match target {
        Target::AllWorkspaces => {
            for root in &workspace.roots {
                search_below(root, include, &query.regex, &mut matches);
            }
            once_per_file(&mut matches);
            (Kind::AllWorkspaces, None, None)
        }
        Target::Directory(dir) => {
            // The walk skips unreadable directories below; the one asked for
            // must be readable, like a file target (SEARCH-11).
            fs::read_dir(&dir).map_err(|e| resolve::io_error(&dir, &e))?;
            search_below(&dir, include, &query.regex, &mut matches);
            (Kind::Directory, Some(dir), None)
        }
        Target::File { path, parent } => {
            // The file alone, never its directory (SEARCH-5).
            let bytes = fs::read(&path).map_err(|e| resolve::io_error(&path, &e))?;
            search_bytes(&path, &bytes, &query.regex, &mut matches);
            if include.is_some() {
                notes.push(INCLUDE_IGNORED.to_owned());
            }
            // Not searched, and said so: "no matches" would read as "the
            // text is not there" (SEARCH-8).
            if bytes.contains(&0) {
                notes.push(BINARY.to_owned());
            }
            (Kind::File, Some(path), Some(parent))
        }
    };
    // Nested roots can reach one file twice; report each line once (SEARCH-10).
    matches.sort();
    matches.dedup();
    let place = resolve::place(workspace, path.as_deref());
    Ok(ToolResult {
        outcome: Some(Outcome::Ok),
        kind: Some(kind),
        model_text: Some(model_text(&query.pattern, &place, &matches, &notes)),
        path,
        parent,
        matches: Some(matches),
        notes: Some(notes),
        description: Some(format!("'{}' in {place}", query.pattern)),
        ..ToolResult::default()
    })
}

/// What the model reads (OUT-5): the resolved place searched, never the
/// path as the caller wrote it, then one `PATH:LINE: TEXT` line per match.
fn model_text(pattern: &str, place: &str, matches: &[Match], notes: &[String]) -> String {
    let count = match matches.len() {
        1 => "1 match".to_owned(),
        n => format!("{n} matches"),
    };
    let mut text = format!("Found {count} for pattern {pattern:?} in {place}");
    if !notes.is_empty() {
        text.push_str(&format!(" (notes: {})", notes.join(", ")));
    }
    text.push('\n');
    for m in matches {
        text.push_str(&format!("{}:{}: {}\n", m.path, m.line, m.text));
    }
    text
}

/// Keeps the first match of each line of each real file (SEARCH-10): nested
/// roots, or two roots that are one directory through a link, reach a file
/// twice, and it is reported once, under the first root in the workspace's
/// order (the walk's order), so the result does not depend on sorting.
fn once_per_file(matches: &mut Vec<Match>) {
    let mut seen = std::collections::HashSet::new();
    matches.retain(|m| {
        let real = fs::canonicalize(&m.path).unwrap_or_else(|_| m.path.clone().into());
        seen.insert((real, m.line))
    });
}

/// Searches every regular file below `dir` (SEARCH-4) whose base name
/// `include` matches, reported under the lexical `dir` (OUT-4); what the
/// walk never enters or opens is in [`walk::regular_files_below`]. A file
/// that cannot be read is skipped silently (SEARCH-11).
fn search_below(dir: &str, include: Option<&str>, regex: &Regex, matches: &mut Vec<Match>) {
    walk::regular_files_below(dir, &mut |path, relative| {
        let name = relative.rsplit('/').next().unwrap_or(relative);
        if include.is_none_or(|glob| include::matches(glob, name))
            && let Ok(bytes) = fs::read(path)
        {
            search_bytes(path, &bytes, regex, matches);
        }
    });
}

/// Adds the matching lines of one file's content (SEARCH-7, SEARCH-8,
/// SEARCH-10).
///
/// A file containing a NUL byte is binary and contributes nothing. Lines are
/// split on `\n` alone, so a `\r` before it stays part of the line's text (as
/// with `grep` and `rg` without `--crlf`), and `$` does not match before it.
/// A final `\n` ends the last line rather than starting an empty one. Text
/// that is not UTF-8 is reported with replacement characters.
fn search_bytes(path: &str, bytes: &[u8], regex: &Regex, matches: &mut Vec<Match>) {
    if bytes.is_empty() || bytes.contains(&0) {
        return;
    }
    let content = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    for (i, line) in content.split(|&b| b == b'\n').enumerate() {
        if regex.is_match(line) {
            matches.push(Match {
                path: path.to_owned(),
                line: i as u64 + 1,
                text: String::from_utf8_lossy(line).into_owned(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::symlink;
    use std::path::Path;

    use serde_json::json;

    use super::*;

    fn lines(bytes: &[u8], pattern: &str) -> Vec<(u64, String)> {
        let mut out = Vec::new();
        search_bytes("/f", bytes, &Regex::new(pattern).unwrap(), &mut out);
        out.into_iter().map(|m| (m.line, m.text)).collect()
    }

    #[test]
    fn the_pattern_cache_answers_what_it_kept_and_stays_bounded() {
        let mut cache = PatternCache::new();
        assert!(cache.get("needle").is_none());
        cache.keep("needle", &Regex::new("needle").unwrap());
        let kept = cache.get("needle").expect("kept");
        assert_eq!(kept.as_str(), "needle");
        assert!(kept.is_match(b"a needle"));
        // Past its count it starts again; a long pattern is never kept.
        for i in 0..PatternCache::PATTERNS * 2 {
            let pattern = format!("p{i}");
            cache.keep(&pattern, &Regex::new(&pattern).unwrap());
            assert!(cache.patterns.len() <= PatternCache::PATTERNS);
        }
        let long = "a".repeat(PatternCache::LONGEST + 1);
        cache.keep(&long, &Regex::new(&long).unwrap());
        assert!(cache.get(&long).is_none());
        // What the cache answers is what the pattern compiles to.
        for pattern in ["needle", "^$", "end$", "(?i)hello"] {
            let first = compiled(pattern).unwrap();
            let again = compiled(pattern).unwrap();
            assert_eq!(first.as_str(), pattern);
            assert_eq!(again.as_str(), pattern);
        }
        assert!(compiled("(").is_err());
        assert!(compiled("(").is_err(), "an error is not kept as an answer");
    }

    #[test]
    fn line_splitting() {
        assert_eq!(lines(b"a\nb\na", "a"), [(1, "a".into()), (3, "a".into())]);
        assert_eq!(lines(b"a\n", "^$"), []);
        assert_eq!(lines(b"a\n\nb\n", "^$"), [(2, String::new())]);
        assert_eq!(lines(b"", "^$"), []);
        assert_eq!(lines(b"\n", "^$"), [(1, String::new())]);
        assert_eq!(lines(b"x\r\n", "x\r"), [(1, "x\r".into())]);
        assert_eq!(lines(b"x\r\n", "x$"), []);
        assert_eq!(lines(b"Hello\n", "hello"), []);
        assert_eq!(lines(b"hello\0\n", "hello"), []);
    }

    fn call(ws: &Workspace, p: Value) -> ToolResult {
        run(ws, p.as_object().unwrap())
    }

    fn found(r: &ToolResult) -> Vec<String> {
        r.matches
            .as_ref()
            .unwrap()
            .iter()
            .map(|m| format!("{}:{}", m.path, m.line))
            .collect()
    }

    fn fixture() -> (tempfile::TempDir, String, Workspace) {
        let dir = tempfile::tempdir().unwrap();
        let tmp = fs::canonicalize(dir.path()).unwrap();
        for (p, text) in [
            ("ws/src/a.ts", "hello world\nbye\n"),
            ("ws/src/b.md", "hello md\n"),
            ("ws/src/deep/c.ts", "x\nhello deep\n"),
            ("ws/bin.dat", "hello\0binary\n"),
            ("other/o.ts", "hello other\n"),
            ("outside/secret.ts", "hello secret\n"),
        ] {
            let p = tmp.join(p);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(p, text).unwrap();
        }
        symlink("../outside", tmp.join("ws/out")).unwrap();
        symlink("../../outside/secret.ts", tmp.join("ws/src/s.ts")).unwrap();
        // A FIFO in the walk must be skipped, not opened (it would block).
        crate::sys::mkfifo(&tmp.join("ws/src/pipe.ts"), 0o644).unwrap();
        let tmp = tmp.display().to_string();
        let ws = Workspace {
            roots: vec![format!("{tmp}/ws"), format!("{tmp}/other")],
            target: format!("{tmp}/ws"),
        };
        (dir, tmp, ws)
    }

    #[test]
    fn directory_search_does_not_follow_links() {
        let (_d, tmp, ws) = fixture();
        let r = call(&ws, json!({"pattern": "hello", "dir_path": "src"}));
        assert_eq!(r.kind, Some(Kind::Directory));
        assert_eq!(r.path.as_deref(), Some(&*format!("{tmp}/ws/src")));
        assert_eq!(
            found(&r),
            [
                format!("{tmp}/ws/src/a.ts:1"),
                format!("{tmp}/ws/src/b.md:1"),
                format!("{tmp}/ws/src/deep/c.ts:2")
            ]
        );
        assert_eq!(r.notes, Some(vec![]));
        let r = call(
            &ws,
            json!({"pattern": "hello", "path": "./", "include": "*.{ts,dat}"}),
        );
        assert_eq!(
            found(&r),
            [
                format!("{tmp}/ws/src/a.ts:1"),
                format!("{tmp}/ws/src/deep/c.ts:2")
            ]
        );
    }

    #[test]
    fn file_search_ignores_include_and_siblings() {
        let (_d, tmp, ws) = fixture();
        let r = call(
            &ws,
            json!({"pattern": "hello", "dir_path": "src/a.ts", "include": "*.md"}),
        );
        assert_eq!(r.outcome, Some(Outcome::Ok));
        assert_eq!(r.kind, Some(Kind::File));
        assert_eq!(r.parent.as_deref(), Some(&*format!("{tmp}/ws/src")));
        assert_eq!(found(&r), [format!("{tmp}/ws/src/a.ts:1")]);
        assert_eq!(r.notes, Some(vec![INCLUDE_IGNORED.to_owned()]));
        let resolved = format!("{tmp}/ws/src/a.ts");
        assert_eq!(
            r.description.as_deref(),
            Some(&*format!("'hello' in {resolved}"))
        );
        let shown = r.model_text.as_deref().unwrap();
        assert!(
            shown.starts_with(&format!(
                "Found 1 match for pattern \"hello\" in {resolved} (notes: include_ignored)\n"
            )),
            "{shown}"
        );
        assert!(shown.contains(&format!("{resolved}:1: hello")), "{shown}");
        let r = call(&ws, json!({"pattern": "hello", "dir_path": "bin.dat"}));
        assert_eq!((r.kind, found(&r)), (Some(Kind::File), vec![]));
    }

    #[test]
    fn all_workspaces() {
        let (_d, tmp, ws) = fixture();
        let r = call(
            &ws,
            json!({"pattern": "hello (other|deep)", "dir_path": ""}),
        );
        assert_eq!(r.kind, Some(Kind::AllWorkspaces));
        assert_eq!(r.path, None);
        assert_eq!(
            found(&r),
            [
                format!("{tmp}/other/o.ts:1"),
                format!("{tmp}/ws/src/deep/c.ts:2")
            ]
        );
        // Nested roots report each line once.
        let nested = Workspace {
            roots: vec![format!("{tmp}/ws"), format!("{tmp}/ws/src")],
            ..ws
        };
        assert_eq!(
            found(&call(&nested, json!({"pattern": "deep"}))),
            [format!("{tmp}/ws/src/deep/c.ts:2")]
        );
        // Roots that alias one directory: once, under the first root.
        symlink("ws/src", format!("{tmp}/alias")).unwrap();
        for (first, second) in [("alias", "ws/src"), ("ws/src", "alias")] {
            let aliased = Workspace {
                roots: vec![format!("{tmp}/{first}"), format!("{tmp}/{second}")],
                target: format!("{tmp}/{first}"),
            };
            assert_eq!(
                found(&call(&aliased, json!({"pattern": "deep"}))),
                [format!("{tmp}/{first}/deep/c.ts:2")]
            );
        }
    }

    #[test]
    fn errors() {
        let (_d, _tmp, ws) = fixture();
        let code = |p: Value| call(&ws, p).error.unwrap().code;
        assert_eq!(code(json!({"pattern": "("})), ErrorCode::InvalidParams);
        assert_eq!(code(json!({"pattern": ""})), ErrorCode::InvalidParams);
        assert_eq!(
            code(json!({"pattern": "x", "dir_path": "src", "path": "src"})),
            ErrorCode::InvalidParams
        );
        // invalid_params comes before outside_workspace.
        assert_eq!(
            code(json!({"pattern": "(", "dir_path": "/"})),
            ErrorCode::InvalidParams
        );
        assert_eq!(
            code(json!({"pattern": "x", "dir_path": "out"})),
            ErrorCode::OutsideWorkspace
        );
        assert_eq!(
            code(json!({"pattern": "x", "dir_path": "src/s.ts"})),
            ErrorCode::OutsideWorkspace
        );
        assert_eq!(
            code(json!({"pattern": "x", "dir_path": "nope"})),
            ErrorCode::NotFound
        );
        assert!(Path::new(&ws.target).is_dir());
    }
}

/// Permission cases; root ignores permission bits, so they only run
/// unprivileged (the fixture changes are then observable).
#[cfg(test)]
mod permission_tests {
    use std::os::unix::fs::PermissionsExt;
    use std::path::Path;

    use serde_json::json;

    use super::*;

    #[test]
    fn unreadable_targets_are_permission_denied() {
        if !crate::test_support::unprivileged_or_rerun(
            "reference::search::permission_tests::unreadable_targets_are_permission_denied",
        ) {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let tmp = fs::canonicalize(dir.path()).unwrap().display().to_string();
        let ws = Workspace {
            roots: vec![tmp.clone()],
            target: tmp.clone(),
        };
        for p in ["locked/a.ts", "open/secret.ts", "open/ok.ts", "shut/a.ts"] {
            fs::create_dir_all(Path::new(&format!("{tmp}/{p}")).parent().unwrap()).unwrap();
            fs::write(format!("{tmp}/{p}"), "hello\n").unwrap();
        }
        let mode =
            |p: &str, m| fs::set_permissions(format!("{tmp}/{p}"), fs::Permissions::from_mode(m));
        mode("locked", 0o000).unwrap();
        mode("open/secret.ts", 0o000).unwrap();
        mode("shut", 0o311).unwrap();
        let code = |p: &str| {
            let r = run(
                &ws,
                json!({"pattern": "hello", "dir_path": p})
                    .as_object()
                    .unwrap(),
            );
            r.error.map(|e| e.code)
        };
        // stat through an unsearchable directory: EACCES, not ENOENT (ERR-5).
        assert_eq!(code("locked/a.ts"), Some(ErrorCode::PermissionDenied));
        assert_eq!(code("locked/missing"), Some(ErrorCode::PermissionDenied));
        // Open fails on the file target (SEARCH-11) and on a directory target.
        assert_eq!(code("open/secret.ts"), Some(ErrorCode::PermissionDenied));
        assert_eq!(code("shut"), Some(ErrorCode::PermissionDenied));
        // Below a directory target, unreadable entries are skipped silently.
        let r = run(&ws, json!({"pattern": "hello"}).as_object().unwrap());
        let paths: Vec<_> = r.matches.unwrap().into_iter().map(|m| m.path).collect();
        assert_eq!(paths, [format!("{tmp}/open/ok.ts")]);
        mode("locked", 0o755).unwrap();
        mode("shut", 0o755).unwrap();
    }
}
