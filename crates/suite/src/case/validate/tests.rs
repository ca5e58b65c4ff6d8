//! The validator's tests, through `parse_case` as a case author meets it.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::*;
use crate::case::Shape;
use crate::case::raw::RawCase;
use crate::case::yaml::strip_position;
use crate::case::{Action, Case, CaseError, CaseErrors, ExpectedMatch, KNOWN_TAGS, QUOTE_LIMIT};
use crate::case::{FixturePath, MAX_CASE_BYTES, MAX_CASE_NODES, yaml_lines};
use crate::protocol::Tool;

#[test]
fn the_editor_schema_knows_the_ids_tags_and_requirements_lint_knows() {
    let schema = schemars::generate::SchemaSettings::draft07()
        .into_generator()
        .into_root_schema_for::<RawCase>();
    let schema: Value = serde_json::to_value(&schema).unwrap();
    let props = &schema["properties"];
    let known: Vec<String> = crate::spec::requirements()
        .iter()
        .map(|r| r.id.clone())
        .collect();
    assert_eq!(props["spec"]["items"]["enum"], serde_json::json!(known));
    assert_eq!(
        props["tags"]["items"]["enum"],
        serde_json::json!(KNOWN_TAGS)
    );
    let pattern = regex::Regex::new(props["id"]["pattern"].as_str().unwrap()).unwrap();
    for id in [
        "search.file.relative",
        "a.b",
        "x.tmp-root",
        "a_b.c9",
        "search",
        "Search.file",
        "a..b",
        "a.-b",
        "a.b.",
        ".a.b",
        "a.b c",
    ] {
        assert_eq!(pattern.is_match(id), header::check_id(id).is_ok(), "{id}");
    }
}

const GOOD: &str = "\
id: search.file.relative
summary: s
spec: [SEARCH-5]
fixture:
  roots: [ws]
  files: {ws/a.ts: \"hello\\n\"}
call:
  tool: search
  params: {pattern: hello, dir_path: a.ts}
expect:
  outcome: ok
  kind: file
  path: \"{ws}/a.ts\"
  matches: [\"{ws}/a.ts:1\"]
  notes: []
";

fn parse(text: &str) -> Result<Case, CaseErrors> {
    parse_case(Path::new("cases/x.yaml"), text)
}

fn error_of(text: &str) -> String {
    parse(text)
        .expect_err("case should be rejected")
        .to_string()
}

#[test]
fn a_good_case_expands_to_one_instance_per_search_tool() {
    let case = parse(GOOD).unwrap();
    let ids: Vec<_> = case.instances().map(|i| i.id()).collect();
    assert_eq!(
        ids,
        ["search.file.relative@grep", "search.file.relative@ripgrep"]
    );
    assert_eq!(case.fixture.target.as_str(), "ws");
    assert_eq!(
        case.expect.matches.as_ref().unwrap()[0],
        ExpectedMatch {
            path: "{ws}/a.ts".into(),
            line: 1
        }
    );
}

#[test]
fn unknown_field_names_file_line_and_column() {
    let text = GOOD.replace("  kind: file", "  knd: file");
    let err = error_of(&text);
    assert!(err.starts_with("cases/x.yaml:12:3: "), "{err}");
    assert!(err.contains("knd"), "{err}");
}

#[test]
fn unknown_requirement_id_is_located() {
    let err = error_of(&GOOD.replace("[SEARCH-5]", "[SEARCH-5, NOPE-1]"));
    assert!(
        err.starts_with("cases/x.yaml:3:18: spec: unknown requirement ID `NOPE-1`"),
        "{err}"
    );
}

#[test]
fn hostile_fixture_paths_are_refused_with_their_location() {
    for (bad, why) in [
        ("/etc/passwd", "absolute"),
        ("../escape", "escapes the fixture directory"),
        ("ws/../../escape", "escapes"),
        ("ws//a", "empty segment"),
        ("ws/./a", "`.` segment"),
    ] {
        let err = error_of(&GOOD.replace("ws/a.ts: ", &format!("{bad}: ")));
        assert!(err.starts_with("cases/x.yaml:6:"), "{bad}: {err}");
        assert!(err.contains(why), "{bad}: {err}");
    }
}

#[test]
fn features_must_match_the_fixture() {
    let with_link = GOOD.replace("  files:", "  symlinks: {ws/l: a.ts}\n  files:");
    assert!(error_of(&with_link).contains("uses `symlinks` but does not declare it"));
    let declared = GOOD.replace("fixture:", "requires: [fifos]\nfixture:");
    assert!(error_of(&declared).contains("`fifos` is declared but the case does not use it"));
}

#[test]
fn inconsistent_expectations_are_refused() {
    let err = error_of(&GOOD.replace("outcome: ok", "outcome: error"));
    assert!(err.contains("needs `error"), "{err}");
    let bad_match = GOOD.replace("{ws}/a.ts:1\"", "{ws}/a.ts\"");
    assert!(error_of(&bad_match).contains("is not PATH:LINE"));
    assert!(error_of(&GOOD.replace("search.file.relative", "Search.File")).contains("id:"));
}

#[test]
fn entries_through_the_fixtures_own_links_are_refused() {
    let through = GOOD
        .replace("fixture:", "requires: [symlinks]\nfixture:")
        .replace("ws/a.ts: ", "ws/out/passwd: ")
        .replace("  files:", "  symlinks: {ws/out: /etc}\n  files:");
    let err = error_of(&through);
    assert!(
        err.contains("`ws/out/passwd` would be written through the symbolic link `ws/out`"),
        "{err}"
    );
    let mode = GOOD
        .replace("fixture:", "requires: [symlinks, permissions]\nfixture:")
        .replace(
            "  files:",
            "  symlinks: {ws/l: /etc/passwd}\n  modes: {ws/l: \"0777\"}\n  files:",
        );
    assert!(error_of(&mode).contains("a mode on the symbolic link `ws/l`"));
}

#[test]
fn roots_named_like_a_placeholder_are_refused() {
    for name in crate::placeholders::RESERVED {
        let err = error_of(&GOOD.replace("roots: [ws]", &format!("roots: [ws, {name}]")));
        assert!(
            err.starts_with("cases/x.yaml:5:") && err.contains(&format!("`{{{name}}}`")),
            "{name}: {err}"
        );
    }
}

#[test]
fn target_must_lie_in_a_root() {
    let err = error_of(&GOOD.replace("  roots: [ws]", "  roots: [ws]\n  target: elsewhere"));
    assert!(
        err.contains("fixture.target: `elsewhere` is not a root or below one"),
        "{err}"
    );
}

fn with_fixture(fixture: &str) -> String {
    format!(
        "id: t.t\nsummary: s\nspec: [RES-1]\n{fixture}call: {{tool: resolve}}\nexpect: {{outcome: ok}}\n"
    )
}

#[test]
fn setuid_setgid_and_sticky_modes_are_refused_with_their_location() {
    for (mode, bit) in [
        ("4755", "setuid"),
        ("2755", "setgid"),
        ("1777", "sticky"),
        ("6755", "setuid and setgid"),
    ] {
        let text = with_fixture(&format!(
            "requires: [permissions]\nfixture:\n  roots: [ws]\n  files: {{ws/sh: x}}\n  modes: {{ws/sh: \"{mode}\"}}\n"
        ));
        let err = error_of(&text);
        assert!(
            err.starts_with(&format!(
                "cases/x.yaml:8:11: fixture.modes: `{mode}` sets the {bit} bit"
            )),
            "{mode}: {err}"
        );
    }
    let ok = with_fixture(
        "requires: [permissions]\nfixture:\n  roots: [ws]\n  files: {ws/sh: x}\n  modes: {ws/sh: \"0777\"}\n",
    );
    assert_eq!(parse(&ok).unwrap().fixture.modes[0].1, 0o777);
}

fn link_case(links: &str) -> String {
    with_fixture(&format!(
        "requires: [symlinks]\nfixture:\n  roots: [ws]\n  dirs: [outside]\n  symlinks: {{{links}}}\n"
    ))
}

#[test]
fn link_targets_must_stay_inside_the_fixture_directory() {
    for (links, why) in [
        ("ws/etc: /etc", "`/etc` is outside the fixture directory"),
        ("ws/r: /", "`/` is outside the fixture directory"),
        ("ws: /proc/kmsg", "`/proc/kmsg` is outside"),
        (
            "ws/up: ../../etc",
            "`../../etc` climbs out of the fixture directory",
        ),
        ("ws/up: a/../../..", "climbs out"),
        ("ws/t: \"{tmp}/..\"", "climbs out"),
        ("ws/t: \"{tmp}x\"", "must be followed by `/`"),
        ("ws/t: \"\"", "the target is empty"),
        // `ws/x` leads to the fixture directory; `..` after it would
        // climb from there, out of the fixture.
        ("ws/x: .., ws/y: x/../..", "after the fixture's link `ws/x`"),
    ] {
        let err = error_of(&link_case(links));
        assert!(err.starts_with("cases/x.yaml:8:"), "{links}: {err}");
        assert!(err.contains("fixture.symlinks: `"), "{links}: {err}");
        assert!(err.contains(why), "{links}: {err}");
    }
    for links in [
        "ws/out: ../outside",
        "ws/a/b: ../../outside",
        "ws/t: \"{tmp}/outside\"",
        "ws/t: \"{tmp}\"",
        "ws/gone: missing/../../nowhere",
        "ws/loop: loop",
        "ws/x: .., ws/y: x/outside",
    ] {
        parse(&link_case(links)).unwrap_or_else(|e| panic!("{links}: {e}"));
    }
}

#[test]
fn fixtures_that_cannot_be_built_are_refused_with_their_location() {
    for (fixture, at, why) in [
        (
            "fixture:\n  roots: [ws]\n  files: {ws: x}\n",
            "6:11",
            "`ws` is not a directory but is also a workspace root",
        ),
        (
            "fixture:\n  roots: [ws]\n  files: {ws/a: x, ws/a/b: z}\n",
            "6:11",
            "`ws/a` is not a directory but is also the parent directory of `ws/a/b`",
        ),
        (
            "fixture:\n  roots: [ws]\n  target: ws/f\n  files: {ws/f: x}\n",
            "7:11",
            "`ws/f` is not a directory but is also a workspace root or the target",
        ),
        (
            "requires: [fifos]\nfixture:\n  roots: [ws]\n  fifos: [ws/p]\n  dirs: [ws/p/d]\n",
            "7:11",
            "`ws/p` is not a directory",
        ),
        (
            "requires: [permissions]\nfixture:\n  roots: [ws]\n  modes: {ws/nothing: \"0000\"}\n",
            "7:11",
            "fixture.modes: `ws/nothing` is not created by the fixture",
        ),
    ] {
        let err = error_of(&with_fixture(fixture));
        assert!(err.starts_with(&format!("cases/x.yaml:{at}: ")), "{err}");
        assert!(err.contains(why), "{err}");
    }
}

#[test]
fn invalid_utf8_is_located_at_the_first_bad_byte() {
    let mut bytes = GOOD.as_bytes().to_vec();
    let at = GOOD.find("summary: s").unwrap() + "summary: ".len();
    bytes[at] = 0xff;
    let err = parse_case_bytes(Path::new("cases/x.yaml"), &bytes)
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("cases/x.yaml:2:10: not UTF-8: byte 0xff"),
        "{err}"
    );
    // Lines end where YAML ends them, so the parser's locations and
    // ours agree: a lone CR ends a line too.
    let crlf = b"id: a.b\r\nsummary: s\rspec: \xff";
    let errors = parse_case_bytes(Path::new("x.yaml"), crlf).unwrap_err();
    let err = errors.first();
    assert_eq!((err.line, err.column), (3, 7), "{err}");
    let lines: Vec<&str> = yaml_lines("a\r\nb\rc\nd").collect();
    assert_eq!(lines, ["a", "b", "c", "d"]);
}

#[test]
fn control_characters_never_reach_a_message_raw() {
    let text = GOOD.replace(
        "id: search.file.relative",
        "id: \"a.b\\nother.yaml:1:1: forged\\u001b[2J\"",
    );
    let err = error_of(&text);
    assert!(!err.contains('\n') && !err.contains('\u{1b}'), "{err}");
    assert!(
        err.contains("a.b\\nother.yaml:1:1: forged\\u{1b}[2J"),
        "{err}"
    );
    // Also in a file name and in the parser's own messages.
    let e = CaseError {
        file: PathBuf::from("x\ny.yaml"),
        line: 1,
        column: 1,
        message: "bad\r".into(),
    };
    assert_eq!(e.to_string(), "x\\ny.yaml:1:1: bad\\r");
    let yaml = error_of(&GOOD.replace("  kind: file", "  \"k\\tnd\": file"));
    assert!(yaml.contains("k\\tnd") && !yaml.contains('\t'), "{yaml}");
}

#[test]
fn quoted_values_are_capped_with_their_length() {
    let long = "x".repeat(100_000);
    let text = GOOD.replace("tool: search", "tool: shell").replace(
        "{pattern: hello, dir_path: a.ts}",
        &format!("{{command: {long}}}"),
    );
    let err = error_of(&text);
    assert!(err.len() < 1000, "{} bytes", err.len());
    assert!(
        err.contains(&format!(
            "`{}… (100000 characters)`",
            "x".repeat(QUOTE_LIMIT)
        )),
        "{err}"
    );
    let field = error_of(&GOOD.replace("  kind: file", &format!("  {long}: file")));
    assert!(
        field.len() < 1200,
        "{} bytes: {}",
        field.len(),
        &field[..300]
    );
}

#[test]
fn size_limits_refuse_before_parsing_with_a_whole_message() {
    let big = format!("{GOOD}# {}\n", "x".repeat(MAX_CASE_BYTES));
    let err = error_of(&big);
    assert!(
        err.ends_with(&format!(
            "the file is larger than {MAX_CASE_BYTES} bytes, the most a case file may be; nothing was parsed"
        )),
        "{err}"
    );
    let entries: String = (0..MAX_CASE_NODES / 2 + 1)
        .map(|i| format!("    ws/f{i}: x\n"))
        .collect();
    let many = GOOD.replace(
        "  files: {ws/a.ts: \"hello\\n\"}\n",
        &format!("  files:\n{entries}"),
    );
    assert!(many.len() < MAX_CASE_BYTES);
    let err = error_of(&many);
    assert!(
        err.contains("budget breached") && err.ends_with("parsing stopped here)"),
        "{err}"
    );
    // A position inside the message is kept; only a trailing one goes.
    assert_eq!(
        strip_position("x (used at line 3, column 7) y"),
        "x (used at line 3, column 7) y"
    );
    assert_eq!(strip_position("bad at line 3, column 7"), "bad");
}

#[test]
fn yaml_1_1_booleans_in_params_are_refused_where_written() {
    // serde-saphyr reads these words as booleans (YAML 1.1); lint refuses
    // each, where it is written, saying what it was read as.
    for (word, read_as) in [
        ("yes", true),
        ("No", false),
        ("on", true),
        ("OFF", false),
        ("y", true),
        ("n", false),
    ] {
        let text = GOOD.replace(
            "dir_path: a.ts}",
            &format!("dir_path: a.ts, case_sensitive: {word}}}"),
        );
        assert_eq!(
            error_of(&text),
            format!(
                "cases/x.yaml:9:60: call.params.case_sensitive: `{word}` is a YAML 1.1 word read as the boolean {read_as}; write `{read_as}` for a boolean or quote it for a string"
            )
        );
    }
    for (ok, sent) in [
        ("true", Value::Bool(true)),
        ("False", Value::Bool(false)),
        ("\"yes\"", Value::String("yes".into())),
    ] {
        let text = GOOD.replace(
            "dir_path: a.ts}",
            &format!("dir_path: a.ts, case_sensitive: {ok}}}"),
        );
        let case = parse(&text).unwrap_or_else(|e| panic!("{ok}: {e}"));
        let Action::Invoke(params) = &case.action else {
            panic!("{ok}: not a call")
        };
        assert_eq!(params["case_sensitive"], sent, "{ok}");
    }
}

#[test]
fn a_repeated_needle_is_refused() {
    let text = GOOD.replace("outcome: ok", "outcome: error").replace(
        "  kind: file\n  path: \"{ws}/a.ts\"\n  matches: [\"{ws}/a.ts:1\"]\n  notes: []\n",
        "  error: {code: not_found, message_contains: [\"{ws}\", \"{ws}\"]}\n",
    );
    let err = error_of(&text);
    assert!(err.contains("`{ws}` is given twice"), "{err}");
}

#[test]
fn git_roots_must_be_roots_and_nothing_is_written_into_dot_git() {
    let git = GOOD.replace("fixture:", "requires: [git]\nfixture:");
    let not_root = git.replace("  roots: [ws]", "  roots: [ws]\n  git: [ws/sub]");
    assert!(error_of(&not_root).contains("fixture.git: `ws/sub` is neither a root nor holds one"));
    let above = git.replace("  roots: [ws]", "  roots: [ws]\n  git: [ws]");
    assert!(parse(&above).is_ok());
    let hook = git
        .replace("  roots: [ws]", "  roots: [ws]\n  git: [ws]")
        .replace("ws/a.ts: ", "ws/.git/hooks/pre-commit: ");
    let err = error_of(&hook);
    assert!(err.starts_with("cases/x.yaml:8:"), "{err}");
    assert!(err.contains("inside a `.git` directory"), "{err}");
    let undeclared = GOOD.replace("  roots: [ws]", "  roots: [ws]\n  git: [ws]");
    assert!(error_of(&undeclared).contains("uses `git` but does not declare it"));
}

#[test]
fn every_error_of_a_file_is_reported_in_file_order() {
    let text = "\
id: Bad.Id
summary: s
spec: [NOPE-1, RES-1]
tags: [compat, nope]
requires: [fifos]
fixture:
  roots: [ws]
  files: {/abs: x, ws/ok: \"\"}
  modes: {ws/ok: \"4755\"}
call: {tool: shell, params: {command: rm}}
expect:
  outcome: error
";
    let errors = parse(text).unwrap_err();
    let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        shown,
        [
            "cases/x.yaml:1:5: id: `Bad.Id` is not dotted lower-case words like `search.file.relative`",
            "cases/x.yaml:1:5: requires: the case uses `permissions` but does not declare it",
            "cases/x.yaml:3:8: spec: unknown requirement ID `NOPE-1`",
            "cases/x.yaml:4:16: tags: unknown tag `nope` (known: change-a, change-b, change-c, change-d, compat, security, errors, edge, multi-root, files)",
            "cases/x.yaml:5:12: requires: `fifos` is declared but the case does not use it",
            "cases/x.yaml:8:11: fixture.files: `/abs` is absolute; fixture paths are relative to the fixture directory",
            "cases/x.yaml:9:11: fixture.modes: `4755` sets the setuid bit; only permission bits (at most 0777) are allowed",
            "cases/x.yaml:10:7: call.params.command: `rm` would run on this machine; the harness only runs `pwd` or `ls` (a case may give an empty command, a non-string or one with a NUL byte)",
            "cases/x.yaml:12:3: expect: `outcome: error` needs `error: {code: ...}`",
        ]
    );
    assert_eq!(errors.first().line, 1);
}

#[test]
fn a_repeat_in_any_list_is_refused_where_it_is_repeated() {
    let text = "\
id: a.b
summary: s
spec: [RES-1, RES-1]
tags: [edge, edge]
requires: [fifos, sockets, devices, git, git]
fixture:
  roots: [ws, ws]
  dirs: [ws/d, ws/d]
  fifos: [ws/p, ws/p]
  sockets: [ws/s, ws/s]
  devices: [ws/n, ws/n]
  git: [ws, ws]
call: {tool: search, params: {pattern: x}}
expect:
  outcome: ok
  matches: [\"{ws}/a:1\", \"{ws}/a:1\"]
  notes: [n, n]
";
    let shown: Vec<String> = parse(text)
        .unwrap_err()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        shown,
        [
            "cases/x.yaml:3:15: spec: `RES-1` is given twice",
            "cases/x.yaml:4:14: tags: `edge` is given twice",
            "cases/x.yaml:5:42: requires: `git` is given twice",
            "cases/x.yaml:7:15: fixture.roots: `ws` is given twice",
            "cases/x.yaml:8:16: fixture.dirs: `ws/d` is given twice",
            "cases/x.yaml:9:17: fixture.fifos: `ws/p` is given twice",
            "cases/x.yaml:10:19: fixture.sockets: `ws/s` is given twice",
            "cases/x.yaml:11:19: fixture.devices: `ws/n` is given twice",
            "cases/x.yaml:12:13: fixture.git: `ws` is given twice",
            "cases/x.yaml:16:25: expect.matches: `{ws}/a:1` is given twice; the list is a set",
            "cases/x.yaml:17:14: expect.notes: `n` is given twice; the list is a set",
        ]
    );
    let files = GOOD.replace("outcome: ok\n", "outcome: ok\n  files: [a, b, a]\n");
    let files = files.replace("tool: search", "tool: glob");
    assert!(
        error_of(&files).contains("expect.files: `a` is given twice"),
        "{}",
        error_of(&files)
    );
}

#[test]
fn names_and_paths_beyond_the_platform_limits_are_refused_at_lint() {
    use crate::case::limits::{NAME_MAX, PATH_BUDGET};
    let long_name = "n".repeat(NAME_MAX + 1);
    let err = error_of(&GOOD.replace("ws/a.ts: ", &format!("ws/{long_name}: ")));
    assert!(
        err.starts_with("cases/x.yaml:6:11: fixture.files: `ws/")
            && err.contains("has a name of 256 bytes"),
        "{err}"
    );
    // Sockets are held to NAME_MAX like every name, and to no less.
    let socket = |name: &str| {
        with_fixture(&format!(
            "requires: [sockets]\nfixture:\n  roots: [ws]\n  sockets: [ws/{name}]\n"
        ))
    };
    parse(&socket(&"s".repeat(NAME_MAX))).unwrap();
    assert!(error_of(&socket(&long_name)).contains("NAME_MAX"));
    let deep = format!("ws/{}", "d/".repeat(PATH_BUDGET / 2));
    let err = error_of(&with_fixture(&format!(
        "fixture:\n  roots: [ws]\n  dirs: [\"{deep}x\"]\n"
    )));
    assert!(
        err.starts_with("cases/x.yaml:6:10: fixture.dirs: ") && err.contains("bytes long"),
        "{err}"
    );
    let target = format!("{}x", "a/".repeat(PATH_BUDGET / 2));
    let err = error_of(&link_case(&format!("ws/l: \"{target}\"")));
    assert!(err.contains("a link target is at most 3072 bytes"), "{err}");
}

/// Issue 21, item 1: only `fixture.git` may make anything git would take
/// for a repository. (The attacker's whole case files are in
/// `tests/data/hostile/planted-*.yaml`, checked by `tests/planted.rs`.)
#[test]
fn nothing_but_fixture_git_makes_a_repository() {
    for (fixture, at, why) in [
        // A `.git` of any kind, at any depth, in any letter case.
        (
            "fixture:\n  roots: [ws]\n  files: {ws/.git/config: x}\n",
            "6:11",
            "`ws/.git/config` is inside a `.git` directory",
        ),
        (
            "fixture:\n  roots: [ws]\n  files: {ws/.git: \"gitdir: ../x\"}\n",
            "6:11",
            "`ws/.git` is named `.git`",
        ),
        (
            "fixture:\n  roots: [ws]\n  dirs: [ws/a/.GIT]\n",
            "6:10",
            "`ws/a/.GIT` is named `.git`",
        ),
        (
            "requires: [fifos]\nfixture:\n  roots: [ws]\n  fifos: [ws/.git]\n",
            "7:11",
            "`ws/.git` is named `.git`",
        ),
        (
            "fixture:\n  roots: [ws/.git]\n",
            "5:11",
            "`ws/.git` is named `.git`",
        ),
        (
            "requires: [symlinks]\nfixture:\n  roots: [ws]\n  dirs: [r]\n  symlinks: {ws/.git: ../r}\n",
            "8:14",
            "`ws/.git` is named `.git`",
        ),
        // A link into a `.git`.
        (
            "requires: [symlinks]\nfixture:\n  roots: [ws]\n  symlinks: {ws/l: ../x/.git/refs}\n",
            "7:14",
            "the target `../x/.git/refs` leads into a `.git`",
        ),
        // `HEAD` beside `objects`, `refs`, `commondir` or `gitdir`, as
        // files, directories, links or implied directories alike.
        (
            "fixture:\n  roots: [ws]\n  files: {ws/sub/HEAD: x, ws/sub/refs: x}\n  dirs: [ws/sub/objects]\n",
            "6:11",
            "`ws/sub` would hold `HEAD` beside `objects`, `refs`",
        ),
        (
            "fixture:\n  roots: [ws]\n  files: {ws/w/HEAD: x, ws/w/commondir: ../c}\n",
            "6:11",
            "`ws/w` would hold `HEAD` beside `commondir`",
        ),
        (
            "fixture:\n  roots: [ws]\n  files: {ws/w/gitdir: x, ws/w/head/x: z}\n",
            "6:27",
            "`ws/w` would hold `HEAD` beside `gitdir`",
        ),
        (
            "requires: [symlinks]\nfixture:\n  roots: [ws]\n  files: {ws/r/HEAD: x}\n  symlinks: {ws/r/objects: .}\n",
            "7:11",
            "`ws/r` would hold `HEAD` beside `objects`",
        ),
        (
            "fixture:\n  roots: [ws]\n  files: {HEAD: x, refs/x: z}\n",
            "6:11",
            "the fixture directory would hold `HEAD` beside `refs`",
        ),
        // And inside a repository `fixture.git` makes, too.
        (
            "requires: [git]\nfixture:\n  roots: [ws]\n  files: {ws/sub/HEAD: x, ws/sub/objects/x: z}\n  git: [ws]\n",
            "7:11",
            "`ws/sub` would hold `HEAD` beside `objects`",
        ),
    ] {
        let err = error_of(&with_fixture(fixture));
        assert!(
            err.lines()
                .any(|l| l.starts_with(&format!("cases/x.yaml:{at}: ")) && l.contains(why)),
            "{why}:\n{err}"
        );
        assert!(err.contains("only `fixture.git` may make"), "{err}");
    }
    // Names git does not take for a repository stay allowed.
    for fixture in [
        "fixture:\n  roots: [ws]\n  files: {ws/HEAD: x, ws/config: v, ws/.gitignore: z, ws/a.git: w}\n",
        "fixture:\n  roots: [ws]\n  dirs: [ws/objects, ws/refs, ws/x/HEAD_old]\n",
        "requires: [git]\nfixture:\n  roots: [ws]\n  files: {ws/.gitignore: \"*.log\\n\", ws/.github/x: z}\n  git: [ws]\n",
    ] {
        parse(&with_fixture(fixture)).unwrap_or_else(|e| panic!("{fixture}: {e}"));
    }
}

#[test]
fn generated_files_are_described_not_stored_and_bounded() {
    let with = |content: &str| {
        GOOD.replace(
            "{ws/a.ts: \"hello\\n\"}",
            &format!("{{ws/a.ts: {content}}}"),
        )
    };
    let case = parse(&with(
        "{generate: {size: 1MiB+2, fill: \"ab\\n\", at: {1048577: \"\\0\", 4: hi}}}",
    ))
    .unwrap();
    assert!(case.fixture.files.is_empty(), "nothing is stored");
    let (path, g) = &case.fixture.generated[0];
    assert_eq!(path.as_str(), "ws/a.ts");
    assert_eq!(g.size, (1 << 20) + 2);
    assert_eq!(g.at, [(4, b"hi".to_vec()), (1 << 20 | 1, b"\0".to_vec())]);
    assert_eq!(g.range(0, 7), b"ab\nahia");
    assert_eq!(g.range((1 << 20) - 1, 1 << 21), b"ab\0");
    // Each refusal names the value it is about by its line and column
    // (`at`: the text the location must point at; the file line is 6).
    let line = "  files: {ws/a.ts: ";
    for (content, message, at) in [
        (
            "{generate: {size: 9MiB, fill: a}}",
            "the most a generated file may be",
            "9MiB",
        ),
        (
            "{generate: {size: 99999999999999999999, fill: a}}",
            "is not a size: write a whole number of bytes, at most 8388608",
            "99999",
        ),
        ("{generate: {size: 2GB, fill: a}}", "is not a size", "2GB"),
        (
            "{generate: {size: 4, fill: \"\"}}",
            "generate.fill: empty",
            "\"\"",
        ),
        (
            "{generate: {size: 4, fill: a, at: {3: xy}}}",
            "past the size 4",
            "3: xy",
        ),
        (
            "{generate: {size: 9, fill: a, at: {1: xyz, 2: q}}}",
            "the runs at 1 and 2 overlap",
            "2: q",
        ),
        (
            "{generate: {size: 9, fill: a, at: {1GiB: x}}}",
            "is not a size",
            "1GiB",
        ),
        (
            "{generate: {size: -1, fill: a}}",
            "cannot be negative",
            "-1",
        ),
        (
            "{generate: {size: 4, fill: a, bytes: 3}}",
            "unknown field",
            "bytes",
        ),
        (
            "{generate: {size: 4, fill: a, at: [1]}}",
            "generate.at",
            "[1]",
        ),
        (
            "{base64: AA, generate: {size: 1, fill: a}}",
            "given once",
            "{base64",
        ),
    ] {
        let err = error_of(&with(content));
        assert!(err.contains(message), "{content}: {err}");
        let column = line.len() + content.find(at).unwrap() + 1;
        assert!(
            err.starts_with(&format!("cases/x.yaml:6:{column}: ")),
            "{content}: want 6:{column}: {err}"
        );
    }
    // Together, a fixture's generated files are bounded too.
    let many = GOOD.replace(
        "{ws/a.ts: \"hello\\n\"}",
        "{ws/a.ts: \"hello\\n\", ws/1: {generate: {size: 8MiB, fill: a}}, ws/2: {generate: {size: 8MiB, fill: a}}, ws/3: {generate: {size: 1, fill: a}}}",
    );
    assert!(error_of(&many).contains("hold more than 16777216 bytes together"));
}

#[test]
fn writes_are_one_file_inside_a_root_and_only_for_a_successful_write() {
    let case = |tool: &str, expect: &str| {
        format!(
            "id: file.x\nsummary: s\nspec: [FILE-8]\nrequires: [symlinks]\nfixture:\n  roots: [ws]\n  files: {{ws/a.txt: \"x\"}}\n  symlinks: {{ws/l: a.txt}}\ncall:\n  tool: {tool}\n  params: {{file_path: \"{{ws}}/a.txt\", content: zz}}\nexpect: {expect}\n"
        )
    };
    let good = parse(&case("write_file", "{outcome: ok, writes: {ws/a.txt: zz}}")).unwrap();
    assert_eq!(
        good.expect.writes,
        [(FixturePath::parse("ws/a.txt").unwrap(), b"zz".to_vec())]
    );
    let edit = parse(&case(
        "edit",
        "{outcome: ok, writes: {ws/new/b.txt: {base64: enoK}}}",
    ))
    .unwrap();
    assert_eq!(edit.expect.writes[0].1, b"zz\n");
    for (tool, expect, says) in [
        ("write_file", "{outcome: ok}", "writes one file: say which"),
        (
            "read_file",
            "{outcome: ok, writes: {ws/a.txt: zz}}",
            "only a `write_file` or `edit` call",
        ),
        (
            "write_file",
            "{outcome: error, error: {code: not_found}, writes: {ws/a.txt: zz}}",
            "a call that fails changes nothing",
        ),
        (
            "write_file",
            "{outcome: ok, writes: {outside/a.txt: zz}}",
            "is not below a root",
        ),
        (
            "write_file",
            "{outcome: ok, writes: {ws: zz}}",
            "is not below a root",
        ),
        (
            "write_file",
            "{outcome: ok, writes: {ws/l: zz}}",
            "something other than a file",
        ),
        (
            "write_file",
            "{outcome: ok, writes: {ws/a.txt/b: zz}}",
            "lies below the file",
        ),
        // Issue 30 item 9: a link on the way (`ws/l` is one) may lead out
        // of the roots; the case could never pass.
        (
            "write_file",
            "{outcome: ok, writes: {ws/l/x.txt: zz}}",
            "lies below the link",
        ),
        (
            "write_file",
            "{outcome: ok, writes: {ws/a.txt: zz, ws/b.txt: zz}}",
            "writes one file, not 2",
        ),
        (
            "write_file",
            "{outcome: ok, writes: {ws/a.txt: {base64: \"!\"}}}",
            "bad base64",
        ),
        (
            "write_file",
            "{outcome: ok, writes: {ws/a.txt: {generate: {size: 1, fill: a}}}}",
            "`generate` describes fixture files only",
        ),
    ] {
        let error = error_of(&case(tool, expect));
        assert!(error.contains(says), "{tool} {expect}: {error}");
    }
}

/// Issue 45 item 7: a root that is a link holds what lies below the
/// place it leads to, so a write through it names that file (and the
/// place beside it is still outside).
#[test]
fn a_write_below_a_root_that_is_a_link_names_where_it_leads() {
    let case = |writes: &str| {
        format!(
            "id: file.x\nsummary: s\nspec: [FILE-8]\nrequires: [symlinks]\nfixture:\n  roots: [wslink]\n  files: {{real/a.txt: \"x\", elsewhere/b.txt: \"x\"}}\n  symlinks: {{wslink: real}}\ncall:\n  tool: write_file\n  params: {{file_path: \"{{wslink}}/a.txt\", content: zz}}\nexpect: {{outcome: ok, writes: {{{writes}: zz}}}}\n"
        )
    };
    let good = parse(&case("real/a.txt")).unwrap();
    assert_eq!(good.expect.writes[0].0.as_str(), "real/a.txt");
    for (writes, says) in [
        ("elsewhere/b.txt", "is not below a root"),
        ("real", "is not below a root"),
        ("wslink/a.txt", "lies below the link"),
    ] {
        let error = error_of(&case(writes));
        assert!(error.contains(says), "{writes}: {error}");
    }
}

// Matrix cases: one path for several tools, forms and roots.

const MATRIX: &str = "\
id: security.shape.link-out
summary: s
spec: [SEC-5]
requires: [symlinks]
matrix:
  tools: [resolve, search, read_file, write_file]
  path: lnk
  params:
    search: {pattern: secret}
fixture:
  roots: [ws, ws2]
  symlinks: {ws/lnk: \"{tmp}/out\", ws2/lnk: \"{tmp}/out\"}
expect:
  outcome: error
  error: {code: outside_workspace, message_contains: [\"{target}/lnk\"]}
";

fn parse_all(text: &str) -> Result<Vec<Case>, CaseErrors> {
    parse_cases(Path::new("cases/x.yaml"), text)
}

fn matrix_errors(text: &str) -> Vec<String> {
    parse_all(text)
        .expect_err("matrix should be rejected")
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn a_matrix_is_one_case_per_tool_form_and_root_file_tools_absolute_only() {
    let cases = parse_all(MATRIX).unwrap();
    let cells: Vec<(String, String, String)> = cases
        .iter()
        .map(|c| {
            let Action::Invoke(params) = &c.action else {
                panic!("a matrix invokes")
            };
            let params = serde_json::to_string(params).unwrap();
            (c.id.clone(), c.fixture.target.to_string(), params)
        })
        .collect();
    let expected = [
        ("resolve.abs.r1", "ws", r#"{"path":"{target}/lnk"}"#),
        ("resolve.abs.r2", "ws2", r#"{"path":"{target}/lnk"}"#),
        ("resolve.rel.r1", "ws", r#"{"path":"lnk"}"#),
        ("resolve.rel.r2", "ws2", r#"{"path":"lnk"}"#),
        (
            "search.abs.r1",
            "ws",
            r#"{"dir_path":"{target}/lnk","pattern":"secret"}"#,
        ),
        (
            "search.abs.r2",
            "ws2",
            r#"{"dir_path":"{target}/lnk","pattern":"secret"}"#,
        ),
        (
            "search.rel.r1",
            "ws",
            r#"{"dir_path":"lnk","pattern":"secret"}"#,
        ),
        (
            "search.rel.r2",
            "ws2",
            r#"{"dir_path":"lnk","pattern":"secret"}"#,
        ),
        ("read_file.abs.r1", "ws", r#"{"file_path":"{target}/lnk"}"#),
        ("read_file.abs.r2", "ws2", r#"{"file_path":"{target}/lnk"}"#),
        (
            "write_file.abs.r1",
            "ws",
            r#"{"content":"toolpath\n","file_path":"{target}/lnk"}"#,
        ),
        (
            "write_file.abs.r2",
            "ws2",
            r#"{"content":"toolpath\n","file_path":"{target}/lnk"}"#,
        ),
    ];
    let expected: Vec<(String, String, String)> = expected
        .iter()
        .map(|(id, target, params)| {
            (
                format!("security.shape.link-out.{id}"),
                target.to_string(),
                params.to_string(),
            )
        })
        .collect();
    assert_eq!(cells, expected);
    // `search` is both search tools; every cell is named after the file's id.
    assert_eq!(cases[4].tools, [Tool::Grep, Tool::Ripgrep]);
    assert!(
        cases
            .iter()
            .all(|c| c.file_id() == "security.shape.link-out")
    );
    assert_eq!(
        cases[2].shape,
        Shape {
            form: Some(crate::case::Form::Relative),
            root: Some(crate::case::RootPlace::First)
        }
    );
    assert_eq!(cases[1].shape.root, Some(crate::case::RootPlace::Later));
    // One case only where one is asked for.
    assert!(
        parse(MATRIX)
            .unwrap_err()
            .to_string()
            .contains("a matrix of 12 cases where one case was expected")
    );
}

#[test]
fn each_cell_keeps_the_result_fields_its_tool_answers_with() {
    let text = "\
id: search.shape.dir
summary: s
spec: [SEARCH-2]
matrix:
  tools: [search, shell, ls]
  forms: [relative]
  roots: [ws]
  path: src
fixture:
  roots: [ws]
  files: {ws/src/a.ts: \"x\\n\"}
expect:
  outcome: ok
  kind: directory
  path: \"{target}/src\"
  cwd: \"{target}/src\"
  matches: [\"{target}/src/a.ts:1\"]
  entries: {\"{target}/src/a.ts\": file}
";
    let cases = parse_all(text).unwrap();
    let fields = |c: &Case| {
        let e = &c.expect;
        (
            e.path.is_some(),
            e.cwd.is_some(),
            e.matches.is_some(),
            e.entries.is_some(),
        )
    };
    assert_eq!(
        cases.iter().map(fields).collect::<Vec<_>>(),
        [
            (true, false, true, false),
            (false, true, false, false),
            (true, false, false, true)
        ]
    );
}

#[test]
fn a_matrix_write_is_written_below_each_cells_target() {
    let text = "\
id: file.shape.write
summary: s
spec: [FILE-8]
matrix:
  tools: [read_file, write_file]
  path: a.txt
fixture:
  roots: [ws, ws2]
  files: {ws/a.txt: \"x\", ws2/a.txt: \"x\"}
expect:
  outcome: ok
  kind: file
  writes: {\"{target}/a.txt\": \"toolpath\\n\"}
";
    let cases = parse_all(text).unwrap();
    let writes: Vec<Vec<String>> = cases
        .iter()
        .map(|c| c.expect.writes.iter().map(|(p, _)| p.to_string()).collect())
        .collect();
    assert_eq!(
        writes,
        [
            vec![],
            vec![],
            vec!["ws/a.txt".to_owned()],
            vec!["ws2/a.txt".to_owned()]
        ]
    );
}

#[test]
fn every_mistake_of_a_matrix_is_reported_with_its_place() {
    let text = "\
id: security.shape.bad
summary: s
spec: [SEC-5]
matrix:
  tools: [search, grep, edit, edit]
  forms: [relative]
  roots: [ws, nope]
  path: /abs
  params:
    shell: {command: pwd}
    edit: {file_path: x}
fixture:
  roots: [ws]
  target: ws
expect:
  outcome: ok
  files: [\"{target}/x\"]
";
    assert_eq!(
        matrix_errors(text),
        [
            "cases/x.yaml:5:3: matrix.tools: `search` already stands for `grep` and `ripgrep`",
            "cases/x.yaml:5:25: matrix.tools: `edit` takes an absolute path only, and the matrix has no `absolute` form (a relative path is FILE-3's refusal, pinned on its own)",
            "cases/x.yaml:5:31: matrix.tools: `edit` is given twice",
            "cases/x.yaml:5:31: matrix.tools: `edit` takes an absolute path only, and the matrix has no `absolute` form (a relative path is FILE-3's refusal, pinned on its own)",
            "cases/x.yaml:7:15: matrix.roots: `nope` is not one of `fixture.roots`",
            "cases/x.yaml:8:9: matrix.path: write the path relative to the target directory (`lnk/../x`, `../outside`); the `absolute` form prefixes `{target}/` itself",
            "cases/x.yaml:10:5: matrix.params: `shell` is not one of `matrix.tools`",
            "cases/x.yaml:11:12: matrix.params.edit.file_path: the matrix sends the path itself (`matrix.path`)",
            "cases/x.yaml:14:11: fixture.target: a matrix takes each of its roots as the target in turn; leave `target` out",
            "cases/x.yaml:16:3: expect.files: no tool of the matrix answers with files",
            "cases/x.yaml:16:3: expect.matches: a successful `grep`, `ripgrep` cell is judged on what it found: say it (an empty list when nothing)",
            "cases/x.yaml:16:3: expect: a successful `edit` writes one file: say which and what it then holds in `writes`",
        ]
    );
}

#[test]
fn a_case_has_call_or_matrix_and_a_matrix_write_names_its_target() {
    let both = MATRIX.replace("fixture:", "call: {tool: resolve}\nfixture:");
    assert!(
        matrix_errors(&both)
            .iter()
            .any(|e| e.ends_with("call: a case has `call` or `matrix`, not both"))
    );
    let neither = GOOD.replace(
        "call:\n  tool: search\n  params: {pattern: hello, dir_path: a.ts}\n",
        "",
    );
    assert!(error_of(&neither).contains("a case needs `call` (one call) or `matrix`"));
    let text = MATRIX.replace("outcome: error", "outcome: ok").replace(
        "  error: {code: outside_workspace, message_contains: [\"{target}/lnk\"]}\n",
        "  writes: {ws/lnk: x}\n",
    );
    assert!(
        matrix_errors(&text)
            .iter()
            .any(|e| e.contains("expect.writes: a matrix writes below each cell's target: write `{target}/PATH`, not `ws/lnk`")),
    );
}

/// Issue 30 item 7: a matrix over 2,000 roots was 24,000 instances. A
/// matrix expands to at most `MAX_MATRIX_CELLS` cases; past it, it is
/// refused where it stands, and counted, never expanded.
#[test]
fn a_matrix_that_expands_to_too_many_cases_is_refused() {
    let roots: Vec<String> = std::iter::once("ws".to_owned())
        .chain(std::iter::once("ws2".to_owned()))
        .chain((0..298).map(|i| format!("r{i}")))
        .collect();
    let text = MATRIX.replace(
        "roots: [ws, ws2]",
        &format!("roots: [{}]", roots.join(", ")),
    );
    let errors = matrix_errors(&text);
    assert_eq!(
        errors,
        [format!(
            "cases/x.yaml:6:3: matrix: it expands to 1800 cases (tools × forms × roots), more than {}: split it",
            crate::case::limits::MAX_MATRIX_CELLS
        )]
    );
}

#[test]
fn a_fixture_deeper_than_the_snapshot_reaches_is_refused() {
    use crate::case::limits::SNAPSHOT_DEPTH;
    let case = |levels: usize| {
        let file = vec!["d"; levels].join("/");
        format!(
            "id: c.deep\nsummary: s\nspec: [RES-1]\n\
             fixture: {{roots: [ws], files: {{\"ws/{file}\": x}}}}\n\
             call: {{tool: resolve, params: {{path: a}}}}\nexpect: {{outcome: ok}}\n"
        )
    };
    // `ws/d/.../d` holds a file SNAPSHOT_DEPTH levels deep: its directory
    // is one level short of the bound.
    assert!(parse(&case(SNAPSHOT_DEPTH - 1)).is_ok());
    let error = error_of(&case(SNAPSHOT_DEPTH));
    assert!(
        error.contains("levels deep; the harness's snapshot stops at 64"),
        "{error}"
    );
}

/// Issue 41 item 3: six glob cells (`shape-name-255`,
/// `shape-path-long-normalised`, `shape-root-through-link` in their second
/// root) expected `ok` with a `path` and no `files`, so a glob that named
/// the file in the other root passed them. A successful matrix says what
/// each of its listing tools found: without it a cell cannot tell one
/// root's answer from another's.
#[test]
fn a_successful_matrix_says_what_each_listing_tool_found() {
    let text = "\
id: resolve.shape.found
summary: s
spec: [RES-2]
matrix:
  tools: [resolve, search, glob, ls]
  path: a.txt
fixture:
  roots: [ws, ws2]
  files: {ws/a.txt: \"x\\n\", ws2/a.txt: \"x\\n\"}
expect:
  outcome: ok
  kind: file
  path: \"{target}/a.txt\"
";
    assert_eq!(
        matrix_errors(text),
        [
            "cases/x.yaml:11:3: expect.matches: a successful `grep`, `ripgrep` cell is judged on what it found: say it (an empty list when nothing)",
            "cases/x.yaml:11:3: expect.files: a successful `glob` cell is judged on what it found: say it (an empty list when nothing)",
            "cases/x.yaml:11:3: expect.entries: a successful `ls` cell is judged on what it found: say it (an empty list when nothing)",
        ]
    );
    let complete = text.replace(
        "  path: \"{target}/a.txt\"\n",
        "  path: \"{target}/a.txt\"\n  matches: [\"{target}/a.txt:1\"]\n  files: [\"{target}/a.txt\"]\n  entries: {\"{target}/a.txt\": file}\n",
    );
    assert_eq!(parse_all(&complete).map(|c| c.len()).ok(), Some(16));
}

/// `own_ignore_files` names directories, as `dirs` does: each a fixture
/// path, refused where it is written, and one that files can be put in.
#[test]
fn own_ignore_file_directories_are_refused_with_their_location() {
    let own = |dirs: &str| {
        with_fixture(&format!(
            "requires: [fifos]\nfixture:\n  roots: [ws]\n  files: {{ws/f: x}}\n  fifos: [ws/p]\n  own_ignore_files: {{{dirs}}}\n"
        ))
    };
    let case = parse(&own("ws: \"f\\n\", ws/sub: \"\"")).unwrap();
    let fp = |p: &str| FixturePath::parse(p).unwrap();
    assert_eq!(
        case.fixture.own_ignore_files,
        [(fp("ws"), "f\n".to_owned()), (fp("ws/sub"), String::new())]
    );
    for (dirs, at, message) in [
        (
            "/etc: x",
            "9:22",
            "fixture.own_ignore_files: `/etc` is absolute; fixture paths are relative to the fixture directory",
        ),
        (
            "ws: x, ../up: x",
            "9:29",
            "fixture.own_ignore_files: `../up` escapes the fixture directory with `..`",
        ),
        (
            "ws//a: x",
            "9:22",
            "fixture.own_ignore_files: `ws//a` has an empty segment",
        ),
        (
            "ws/f: x",
            "9:22",
            "fixture.own_ignore_files: `ws/f` cannot hold files: it is a file",
        ),
        (
            "ws/p/d: x",
            "9:22",
            "fixture.own_ignore_files: `ws/p/d` cannot hold files: `ws/p` is a named pipe",
        ),
        ("ws/.git: x", "9:22", "fixture: `ws/.git` is named `.git`"),
    ] {
        let err = error_of(&own(dirs));
        assert!(
            err.starts_with(&format!("cases/x.yaml:{at}: {message}")),
            "{dirs}: {err}"
        );
    }
    let linked = with_fixture(
        "requires: [symlinks]\nfixture:\n  roots: [ws]\n  symlinks: {ws/l: d}\n  dirs: [ws/d]\n  own_ignore_files: {ws/l: x}\n",
    );
    assert!(
        error_of(&linked).starts_with(
            "cases/x.yaml:9:22: fixture.own_ignore_files: `ws/l` cannot hold files: it is a symbolic link"
        ),
        "{}",
        error_of(&linked)
    );
}

/// The subject's names join the fixture in one place, as files of the
/// text; a name that would stand where the case makes something is
/// refused, naming both.
#[test]
fn a_subjects_own_ignore_files_join_the_fixture_as_files() {
    let names = |n: &[&str]| n.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    let plain = parse(GOOD).unwrap();
    assert!(matches!(
        plain.fixture.with_own_ignore_files(&names(&[".x"])),
        Ok(std::borrow::Cow::Borrowed(_))
    ));
    let case = parse(&with_fixture(
        "fixture:\n  roots: [ws]\n  files: {ws/src/a: a}\n  own_ignore_files: {ws: \"a\\n\", ws/src: \"b\\n\"}\n",
    ))
    .unwrap();
    let built = case
        .fixture
        .with_own_ignore_files(&names(&[".mytoolignore", ".clineignore"]))
        .unwrap();
    let files: Vec<(&str, &[u8])> = built
        .files
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_slice()))
        .collect();
    assert_eq!(
        files,
        [
            ("ws/src/a", &b"a"[..]),
            ("ws/.mytoolignore", b"a\n"),
            ("ws/.clineignore", b"a\n"),
            ("ws/src/.mytoolignore", b"b\n"),
            ("ws/src/.clineignore", b"b\n"),
        ]
    );
    assert!(built.own_ignore_files.is_empty(), "an ordinary fixture");
    assert_eq!(
        case.fixture
            .with_own_ignore_files(&names(&["a"]))
            .unwrap_err(),
        "the announced ignore file `a` would be `ws/src/a`, where the fixture already makes `ws/src/a`"
    );
    assert_eq!(
        case.fixture
            .with_own_ignore_files(&names(&["src"]))
            .unwrap_err(),
        "the announced ignore file `src` would be `ws/src`, where the fixture already makes `ws/src/a`"
    );
    assert_eq!(
        case.fixture
            .with_own_ignore_files(&names(&[".x", ".x"]))
            .unwrap_err(),
        "the announced ignore file `.x` would be `ws/.x`, where the fixture already makes `ws/.x`"
    );
}
