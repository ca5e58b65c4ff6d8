//! The floors of `ARCHITECTURE.md`, enforced: no module imports one on its
//! own floor or above it, in `src/` and inside the suite crate.
//!
//! The floors are read from `ARCHITECTURE.md`'s tables (the one place they
//! are written). Each crate is read as its compiler reads it: from its root
//! (`lib.rs`, `main.rs`) along every `mod` declaration, every file parsed
//! as Rust (syn), test code included. What a module names is every `use`
//! tree, flattened (`use crate::{a::b, c}`, over several lines, with any
//! spacing), and every path of two segments or more anywhere in the code
//! (expressions, types, patterns, macro arguments, and the paths attributes
//! give as strings, such as serde's `with = "crate::..."`), resolved from
//! where it stands: `crate::`, `super::` (from the module the code is in,
//! inline `mod tests` included), `self::` and a child module's name. Doc
//! comments and string literals outside attributes name nothing.
//!
//! A module doc that says its modules import "never each other" is held to
//! it too: no child of that module names another (its `tests` aside).
//!
//! The check cannot pass by reading nothing: every `.rs` file on disk must
//! be a module of the crate (and every declared module a file on disk),
//! every module the table places must exist and every top-level module
//! must be placed, and some imports must have been resolved.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use proc_macro2::{Spacing, Span, TokenStream, TokenTree};
use syn::visit::Visit;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A module path inside one crate, without `crate`: `["case", "validate"]`.
type ModPath = Vec<String>;

/// A table of floors: each placed module and its floor.
#[derive(Debug)]
struct Floors(Vec<(ModPath, f32)>);

impl Floors {
    /// The table under the heading that starts with `heading` in `markdown`:
    /// rows `| floor | module | ... |`, the floor a number (`1½` is 1.5),
    /// the module its first backticked name. Rows that place something
    /// other than a module path (`main.rs`, the `toolpath-suite` crate) are
    /// not modules of the crate read and are left out.
    fn read(markdown: &str, heading: &str) -> Floors {
        let mut lines = markdown.lines();
        lines
            .find(|l| {
                l.strip_prefix("## ")
                    .is_some_and(|h| h.starts_with(heading))
            })
            .unwrap_or_else(|| panic!("no section `## {heading}`"));
        let rows = lines
            .skip_while(|l| !l.starts_with('|'))
            .take_while(|l| l.starts_with('|'))
            .skip(2);
        let mut floors = Vec::new();
        for row in rows {
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            let floor = match cells[1].strip_suffix('½') {
                Some(whole) => whole.parse::<f32>().unwrap() + 0.5,
                None => cells[1].parse::<f32>().unwrap(),
            };
            let Some(name) = cells[2].split('`').nth(1) else {
                panic!("`{row}`: no module in backticks");
            };
            let is_path = name
                .split("::")
                .all(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'));
            if is_path {
                floors.push((name.split("::").map(str::to_owned).collect(), floor));
            }
        }
        assert!(!floors.is_empty(), "`## {heading}` places no module");
        Floors(floors)
    }

    /// The entry that places `module`: the longest that is a prefix of it.
    fn place(&self, module: &[String]) -> Option<(&ModPath, f32)> {
        self.0
            .iter()
            .filter(|(placed, _)| module.starts_with(placed))
            .max_by_key(|(placed, _)| placed.len())
            .map(|(placed, floor)| (placed, *floor))
    }
}

/// One path as written, where it stands.
#[derive(Debug)]
struct Named {
    file: PathBuf,
    line: usize,
    /// The module the code is in.
    within: ModPath,
    /// The segments as written: `crate`, `super`, `self` or a name first.
    segments: Vec<String>,
}

/// A crate as read: its modules and everything they name.
#[derive(Debug, Default)]
struct Crate {
    /// Every module, with the file it is in.
    modules: Vec<(ModPath, PathBuf)>,
    /// Modules behind `#[cfg(test)]`, or named `tests`.
    tests: BTreeSet<ModPath>,
    /// Every file read.
    files: Vec<PathBuf>,
    named: Vec<Named>,
    /// Modules whose doc says their modules import "never each other".
    apart: Vec<ModPath>,
    /// What could not be read: missing files, unsupported forms.
    errors: Vec<String>,
}

impl Crate {
    /// Reads the crate whose root file is `root`, in `dir`, along its
    /// `mod` declarations.
    fn read(dir: &Path, root: &str) -> Crate {
        let mut krate = Crate::default();
        krate.read_file(&dir.join(root), Vec::new(), dir.to_owned());
        krate
    }

    /// Reads `file`, the module `path`, whose child files are in `children`.
    fn read_file(&mut self, file: &Path, path: ModPath, children: PathBuf) {
        let text = match std::fs::read_to_string(file) {
            Ok(text) => text,
            Err(e) => {
                self.errors.push(format!("{}: {e}", file.display()));
                return;
            }
        };
        let parsed = match syn::parse_file(&text) {
            Ok(parsed) => parsed,
            Err(e) => {
                let at = e.span().start();
                self.errors
                    .push(format!("{}:{}: {e}", file.display(), at.line));
                return;
            }
        };
        self.files.push(file.to_owned());
        self.modules.push((path.clone(), file.to_owned()));
        if doc(&parsed.attrs).contains("never each other") {
            self.apart.push(path.clone());
        }
        let mut reader = Reader {
            krate: self,
            file: file.to_owned(),
            within: path,
            children,
        };
        for item in &parsed.items {
            reader.visit_item(item);
        }
    }

    /// Where `named` leads: the module it names (the deepest module its
    /// path passes through), or `None` for what lies outside the crate
    /// (another crate, a local name).
    fn resolve(&self, named: &Named) -> Option<ModPath> {
        let mut segments = named.segments.iter().peekable();
        let mut path: ModPath = match segments.peek().map(|s| s.as_str()) {
            Some("crate" | "$crate") => {
                segments.next();
                Vec::new()
            }
            Some("self" | "super") => named.within.clone(),
            Some(child) => {
                let mut path = named.within.clone();
                path.push(child.to_owned());
                if !self.is_module(&path) {
                    return None;
                }
                named.within.clone()
            }
            None => return None,
        };
        while let Some(s) = segments.next_if(|s| *s == "self" || *s == "super") {
            if s == "super" {
                path.pop()?;
            }
        }
        for segment in segments {
            path.push(segment.clone());
            if !self.is_module(&path) {
                path.pop();
                break;
            }
        }
        Some(path)
    }

    fn is_module(&self, path: &[String]) -> bool {
        self.modules.iter().any(|(m, _)| m == path)
    }

    fn is_test(&self, path: &[String]) -> bool {
        self.tests.iter().any(|t| path.starts_with(t))
    }
}

/// The text of the `//!` or `///` doc attributes.
fn doc(attrs: &[syn::Attribute]) -> String {
    let mut text = String::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("doc")) {
        if let syn::Meta::NameValue(nv) = &attr.meta
            && let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) = &nv.value
        {
            text.push_str(&s.value());
            text.push('\n');
        }
    }
    text
}

/// Walks one file, recording what it names and the modules it declares.
struct Reader<'k> {
    krate: &'k mut Crate,
    file: PathBuf,
    /// The module the walk is in.
    within: ModPath,
    /// Where the files of its child modules are.
    children: PathBuf,
}

impl Reader<'_> {
    fn name(&mut self, span: Span, segments: Vec<String>) {
        self.krate.named.push(Named {
            file: self.file.clone(),
            line: span.start().line,
            within: self.within.clone(),
            segments,
        });
    }

    /// Every `a::b::c` in `tokens` (macro arguments, attribute lists) whose
    /// first segment is not itself after a `::`; with `strings`, also the
    /// paths string literals hold.
    fn scan(&mut self, tokens: TokenStream, strings: bool) {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        let colons = |at: usize| {
            matches!((tokens.get(at), tokens.get(at + 1)),
                (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
                    if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':')
        };
        let mut at = 0;
        while at < tokens.len() {
            match &tokens[at] {
                TokenTree::Group(group) => self.scan(group.stream(), strings),
                TokenTree::Literal(literal) if strings => {
                    let literal = syn::parse_str::<syn::LitStr>(&literal.to_string());
                    if let Ok(path) = literal.and_then(|l| l.parse::<syn::Path>()) {
                        self.path(&path, tokens[at].span());
                    }
                }
                TokenTree::Ident(first) if at < 2 || !colons(at - 2) => {
                    let dollar = at > 0
                        && matches!(&tokens[at - 1], TokenTree::Punct(p) if p.as_char() == '$');
                    let mut segments = vec![match dollar {
                        true => format!("${first}"),
                        false => first.to_string(),
                    }];
                    let mut next = at + 1;
                    while colons(next) {
                        match tokens.get(next + 2) {
                            Some(TokenTree::Ident(segment)) => segments.push(segment.to_string()),
                            Some(TokenTree::Punct(p)) if p.as_char() == '*' => {
                                segments.push("*".into())
                            }
                            _ => break,
                        }
                        next += 3;
                    }
                    if segments.len() > 1 {
                        self.name(first.span(), segments);
                        at = next;
                        continue;
                    }
                }
                _ => {}
            }
            at += 1;
        }
    }

    fn path(&mut self, path: &syn::Path, span: Span) {
        if path.leading_colon.is_some() || path.segments.len() < 2 {
            // `::std::...` is another crate; a single name is an item in
            // scope, which only a `use` (read as such) can bring in.
            return;
        }
        let segments = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.name(span, segments);
    }

    /// Every path of a `use` tree, flattened.
    fn use_tree(&mut self, tree: &syn::UseTree, prefix: &mut Vec<String>) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(&p.tree, prefix);
                prefix.pop();
            }
            syn::UseTree::Name(n) => self.use_leaf(prefix, &n.ident),
            syn::UseTree::Rename(r) => self.use_leaf(prefix, &r.ident),
            syn::UseTree::Glob(g) => {
                let mut segments = prefix.clone();
                segments.push("*".into());
                self.name(g.star_token.spans[0], segments);
            }
            syn::UseTree::Group(g) => {
                for tree in &g.items {
                    self.use_tree(tree, prefix);
                }
            }
        }
    }

    fn use_leaf(&mut self, prefix: &[String], ident: &proc_macro2::Ident) {
        let mut segments = prefix.to_vec();
        // `use a::b::{self}` names `a::b`.
        if ident != "self" || segments.is_empty() {
            segments.push(ident.to_string());
        }
        self.name(ident.span(), segments);
    }
}

impl<'ast> Visit<'ast> for Reader<'_> {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        for attr in &item.attrs {
            self.visit_attribute(attr);
        }
        if item.leading_colon.is_none() {
            self.use_tree(&item.tree, &mut Vec::new());
        }
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        for attr in &item.attrs {
            self.visit_attribute(attr);
        }
        let name = item.ident.to_string();
        let mut path = self.within.clone();
        path.push(name.clone());
        let gated = item.attrs.iter().any(|a| {
            a.path().is_ident("cfg")
                && matches!(&a.meta, syn::Meta::List(l) if l.tokens.to_string() == "test")
        });
        if gated || name == "tests" {
            self.krate.tests.insert(path.clone());
        }
        if item.attrs.iter().any(|a| a.path().is_ident("path")) {
            let at = item.ident.span().start().line;
            self.krate.errors.push(format!(
                "{}:{at}: `#[path]` on `mod {name}`: not read by this test",
                self.file.display()
            ));
            return;
        }
        let children = self.children.join(&name);
        match &item.content {
            Some((_, items)) => {
                self.krate.modules.push((path.clone(), self.file.clone()));
                if doc(&item.attrs).contains("never each other") {
                    self.krate.apart.push(path.clone());
                }
                let outer = std::mem::replace(&mut self.within, path);
                let outer_children = std::mem::replace(&mut self.children, children);
                for item in items {
                    self.visit_item(item);
                }
                self.within = outer;
                self.children = outer_children;
            }
            None => {
                let flat = self.children.join(format!("{name}.rs"));
                let folder = children.join("mod.rs");
                let file = match (flat.is_file(), folder.is_file()) {
                    (true, false) => flat,
                    (false, true) => folder,
                    (both, _) => {
                        let why = if both { "both" } else { "neither" };
                        self.krate.errors.push(format!(
                            "{}: `mod {name}`: {why} of {} and {}",
                            self.file.display(),
                            flat.display(),
                            folder.display()
                        ));
                        return;
                    }
                };
                self.krate.read_file(&file, path, children);
            }
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let span = path.segments[0].ident.span();
        self.path(path, span);
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.visit_path(&mac.path);
        self.scan(mac.tokens.clone(), false);
    }

    fn visit_attribute(&mut self, attr: &'ast syn::Attribute) {
        if attr.path().is_ident("doc") {
            return;
        }
        match &attr.meta {
            syn::Meta::Path(_) => {}
            syn::Meta::List(list) => self.scan(list.tokens.clone(), true),
            syn::Meta::NameValue(nv) => {
                if let syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) = &nv.value
                    && let Ok(path) = s.parse::<syn::Path>()
                {
                    self.path(&path, s.span());
                }
            }
        }
    }
}

/// Every `.rs` file below `dir`, found on disk (not through `mod`).
fn files_on_disk(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_on_disk(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// What checking one crate found.
#[derive(Debug, Default)]
struct Checked {
    /// Imports that climb, and what could not be read: `file:line: ...`.
    found: Vec<String>,
    /// Files read.
    files: usize,
    /// Paths that led to a module of the crate.
    imports: usize,
}

fn show(module: &[String]) -> String {
    match module.is_empty() {
        true => "the crate root".into(),
        false => module.join("::"),
    }
}

/// Checks the crate in `dir` (its roots: `roots`) against `floors`.
fn check(dir: &Path, roots: &[&str], floors: &Floors) -> Checked {
    let mut checked = Checked::default();
    let mut read = Vec::new();
    for root in roots {
        let krate = Crate::read(dir, root);
        checked.found.extend(krate.errors.iter().cloned());
        read.extend(krate.files.iter().cloned());
        if *root == "main.rs" {
            // The binary's `crate` is the binary: the top floor, over the
            // library it uses as another crate.
            continue;
        }
        check_floors(&krate, floors, &mut checked);
        check_apart(&krate, &mut checked);
    }
    let mut on_disk = Vec::new();
    files_on_disk(dir, &mut on_disk);
    for file in &on_disk {
        if !read.contains(file) {
            checked.found.push(format!(
                "{}: no `mod` declares it, so it was not read",
                file.display()
            ));
        }
    }
    checked.files = read.len();
    checked
}

fn check_floors(krate: &Crate, floors: &Floors, checked: &mut Checked) {
    for (placed, _) in &floors.0 {
        if !krate.is_module(placed) {
            checked.found.push(format!(
                "ARCHITECTURE.md places `{}`, which is not a module",
                placed.join("::")
            ));
        }
    }
    for (module, file) in &krate.modules {
        if module.len() == 1 && floors.place(module).is_none() {
            checked.found.push(format!(
                "{}: `{}` is a top-level module that ARCHITECTURE.md does not place",
                file.display(),
                module[0]
            ));
        }
    }
    for named in &krate.named {
        let Some(target) = krate.resolve(named) else {
            continue;
        };
        checked.imports += 1;
        let (Some((from, own)), Some((to, floor))) =
            (floors.place(&named.within), floors.place(&target))
        else {
            continue;
        };
        if from != to && floor >= own {
            checked.found.push(format!(
                "{}:{}: {} (floor {own}) imports {} (floor {floor})",
                named.file.display(),
                named.line,
                from.join("::"),
                to.join("::")
            ));
        }
    }
}

/// A module whose doc says "never each other": no child names another.
fn check_apart(krate: &Crate, checked: &mut Checked) {
    for parent in &krate.apart {
        let child_of = |module: &[String]| {
            (module.len() > parent.len() && module.starts_with(parent))
                .then(|| module[..=parent.len()].to_vec())
                .filter(|child| !krate.is_test(child))
        };
        for named in &krate.named {
            let (Some(from), Some(to)) = (
                child_of(&named.within),
                krate.resolve(named).as_deref().and_then(child_of),
            ) else {
                continue;
            };
            if from != to {
                checked.found.push(format!(
                    "{}:{}: {} imports {}, and {}'s doc says its modules never import each other",
                    named.file.display(),
                    named.line,
                    show(&from),
                    show(&to),
                    show(parent)
                ));
            }
        }
    }
}

fn architecture() -> String {
    std::fs::read_to_string(Path::new(ROOT).join("ARCHITECTURE.md")).unwrap()
}

/// Checks a crate of this repository: nothing found, every file on disk
/// read, and imports resolved.
fn assert_layered(dir: &Path, roots: &[&str], floors: &Floors) {
    let checked = check(dir, roots, floors);
    assert!(
        checked.found.is_empty(),
        "imports that climb:\n{}",
        checked.found.join("\n")
    );
    let mut on_disk = Vec::new();
    files_on_disk(dir, &mut on_disk);
    assert!(
        checked.files >= on_disk.len() && checked.files >= floors.0.len(),
        "read {} files of the {} in {} ({} modules placed)",
        checked.files,
        on_disk.len(),
        dir.display(),
        floors.0.len()
    );
    assert!(checked.imports > 0, "no import read in {}", dir.display());
}

#[test]
fn no_import_climbs_a_floor() {
    let floors = Floors::read(&architecture(), "Floors");
    assert_layered(
        &Path::new(ROOT).join("src"),
        &["lib.rs", "main.rs"],
        &floors,
    );
}

#[test]
fn no_import_climbs_a_floor_of_the_suite_crate() {
    let floors = Floors::read(&architecture(), "Inside the suite crate");
    assert_layered(
        &Path::new(ROOT).join("crates/suite/src"),
        &["lib.rs"],
        &floors,
    );
}

/// A source tree in a temporary directory: `(path, text)` pairs.
fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

fn found(files: &[(&str, &str)]) -> Vec<String> {
    let dir = tree(files);
    let floors = Floors::read(&architecture(), "Floors");
    let found = check(dir.path(), &["lib.rs"], &floors).found;
    // The tree places only a few of ARCHITECTURE.md's modules.
    found
        .into_iter()
        .filter(|f| !f.contains("which is not a module"))
        .map(|f| f.replace(&format!("{}/", dir.path().display()), ""))
        .collect()
}

/// The check itself can fail: a module that imports one above it, and one
/// on its own floor, are both reported.
#[test]
fn a_climbing_import_is_reported() {
    let found = found(&[
        (
            "case/mod.rs",
            "use crate::harness::run;\nuse crate::report::Status;\n// crate::cli in a comment\nuse crate::sys::is_root;\nuse toolpath_suite::case::Case;\n",
        ),
        (
            "lib.rs",
            "pub mod case;\npub mod harness;\npub mod report;\npub mod sys;\n",
        ),
        ("harness/mod.rs", "pub mod run;\n"),
        ("harness/run.rs", ""),
        ("report.rs", ""),
        ("sys.rs", ""),
    ]);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found[0].ends_with("case (floor 2) imports harness (floor 4)"),
        "{found:?}"
    );
    assert!(
        found[1].ends_with("case (floor 2) imports report (floor 2)"),
        "{found:?}"
    );
}

const LIB: (&str, &str) = (
    "lib.rs",
    "pub mod case;\npub mod harness;\npub mod report;\npub mod sys;\n",
);
const HARNESS: [(&str, &str); 2] = [("harness/mod.rs", "pub mod run;\n"), ("harness/run.rs", "")];
const REPORT: (&str, &str) = ("report.rs", "pub struct Status;\n");
const SYS: (&str, &str) = ("sys.rs", "pub fn is_root() -> bool { false }\n");

/// `case/mod.rs` holding `text`, in a tree with harness, report and sys.
fn case_says(text: &str) -> Vec<String> {
    found(&[
        ("case/mod.rs", text),
        LIB,
        HARNESS[0],
        HARNESS[1],
        REPORT,
        SYS,
    ])
}

const TO_HARNESS: &str = "case (floor 2) imports harness (floor 4)";
const TO_REPORT: &str = "case (floor 2) imports report (floor 2)";

fn lines(found: &[String]) -> Vec<&str> {
    found
        .iter()
        .map(|f| f.split(": ").nth(1).unwrap())
        .collect()
}

/// The four forms the text-reading test missed, each reported where it is.
#[test]
fn a_use_tree_group_is_read_whole() {
    let found = case_says("use crate::{harness::run, report::Status};\n");
    assert_eq!(lines(&found), [TO_HARNESS, TO_REPORT], "{found:?}");
    assert!(found[0].starts_with("case/mod.rs:1:"), "{found:?}");
    let found = case_says("use crate::{sys::{self, is_root}, harness::{run::{self}}};\n");
    assert_eq!(lines(&found), [TO_HARNESS], "{found:?}");
}

#[test]
fn a_use_continued_on_the_next_line_is_read() {
    let found =
        case_says("use crate::\n    harness::run;\nuse crate::{\n    sys,\n    report,\n};\n");
    assert_eq!(lines(&found), [TO_HARNESS, TO_REPORT], "{found:?}");
    assert!(found[0].starts_with("case/mod.rs:2:"), "{found:?}");
    assert!(found[1].starts_with("case/mod.rs:5:"), "{found:?}");
}

#[test]
fn super_from_a_top_level_module_is_the_crate_root() {
    let found = case_says("use super::harness;\nfn f() { super::harness::run::go(); }\n");
    assert_eq!(lines(&found), [TO_HARNESS, TO_HARNESS], "{found:?}");
    // From a nested module and an inline test module, `super::super`.
    let found = found_with(&[
        ("case/mod.rs", "pub mod tree;\n"),
        (
            "case/tree.rs",
            "fn f() -> super::super::report::Status { todo!() }\n\
             #[cfg(test)]\nmod tests {\n    use super::super::super::harness::run;\n    use super::super::Fixture;\n}\n",
        ),
    ]);
    assert_eq!(lines(&found), [TO_REPORT, TO_HARNESS], "{found:?}");
}

#[test]
fn spaces_around_the_path_separator_change_nothing() {
    let found =
        case_says("use crate :: harness :: run;\nfn f() -> crate ::report:: Status { todo!() }\n");
    assert_eq!(lines(&found), [TO_HARNESS, TO_REPORT], "{found:?}");
}

/// `case` files given here, with harness, report and sys as above.
fn found_with(case: &[(&str, &str)]) -> Vec<String> {
    let mut files = case.to_vec();
    files.extend([LIB, HARNESS[0], HARNESS[1], REPORT, SYS]);
    found(&files)
}

#[test]
fn paths_in_types_macros_and_attributes_are_read() {
    let found = case_says(
        "struct A { s: Vec<crate::report::Status> }\n\
         fn f() { assert!(crate::sys::is_root() || matches!(x, crate::harness::run::X)); }\n\
         #[derive(serde::Serialize)]\nstruct B { #[serde(with = \"crate::harness::run\")] b: u8 }\n\
         impl crate::report::Status {}\n",
    );
    assert_eq!(
        lines(&found),
        [TO_REPORT, TO_HARNESS, TO_HARNESS, TO_REPORT],
        "{found:?}"
    );
}

#[test]
fn what_names_nothing_is_not_reported() {
    let found = case_says(
        "//! [`crate::harness`] in a doc link\n\
         /// and `crate::harness::run` in a doc comment\n\
         // crate::harness in a comment\n\
         const S: &str = \"crate::harness::run\";\n\
         use my_crate::harness;\nuse ::harness::run;\nuse std::fmt;\n\
         fn f() { println!(\"crate::harness\"); let harness = 1; pub(crate) fn g() {} }\n\
         pub mod fixture { pub fn build() {} }\nfn h() { fixture::build(); self::fixture::build(); }\n",
    );
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn a_crate_read_whole_or_not_at_all() {
    // A file no `mod` declares was never read: reported, never passed over.
    let stray = found_with(&[
        ("case/mod.rs", ""),
        ("case/stray.rs", "use crate::harness::run;\n"),
    ]);
    assert_eq!(stray.len(), 1, "{stray:?}");
    assert!(stray[0].ends_with("case/stray.rs: no `mod` declares it, so it was not read"));
    // A declared module whose file is missing.
    let missing = found_with(&[("case/mod.rs", "mod gone;\n")]);
    assert!(missing[0].contains("`mod gone`: neither of"), "{missing:?}");
    // A module this test cannot follow as the compiler would.
    let moved = found_with(&[("case/mod.rs", "#[path = \"elsewhere.rs\"]\nmod away;\n")]);
    assert!(
        moved[0].ends_with("case/mod.rs:2: `#[path]` on `mod away`: not read by this test"),
        "{moved:?}"
    );
    // A top-level module the table does not place.
    let unplaced = found(&[("lib.rs", "mod extra;\n"), ("extra.rs", "")]);
    assert!(
        unplaced
            .iter()
            .any(|f| f
                .ends_with("`extra` is a top-level module that ARCHITECTURE.md does not place")),
        "{unplaced:?}"
    );
}

/// A crate that reads as nothing (no root, no file) fails the assertion
/// that guards the real crates.
#[test]
#[should_panic(expected = "lib.rs")]
fn reading_nothing_fails() {
    let dir = tempfile::tempdir().unwrap();
    let floors = Floors::read(&architecture(), "Floors");
    assert_layered(dir.path(), &["lib.rs"], &floors);
}

#[test]
#[should_panic(expected = "no import read")]
fn reading_no_import_fails() {
    let dir = tree(&[("lib.rs", "pub mod case;\n"), ("case.rs", "")]);
    let floors = Floors::read(
        "## Floors\n\n| floor | module | what |\n|---|---|---|\n| 2 | `case` | x |\n",
        "Floors",
    );
    assert_layered(dir.path(), &["lib.rs"], &floors);
}

/// A table row places a nested module on a floor above the one around
/// it (`½` floors too); rows that place no module path are left out.
#[test]
fn nested_modules_have_floors_of_their_own() {
    let table = "## Inside\n\n| floor | module | what |\n|---|---|---|\n\
                 | 0 | `toolpath-suite` (crate) | x |\n| 1 | `protocol` | x |\n\
                 | 2 | `case` | x |\n| 2½ | `case::validate` | x |\n| 8 | `main.rs` | x |\n";
    let floors = Floors::read(table, "Inside");
    assert_eq!(floors.0.len(), 3, "{floors:?}");
    assert_eq!(floors.0[2].1, 2.5);
    let dir = tree(&[
        ("lib.rs", "pub mod case;\npub mod protocol;\n"),
        ("protocol.rs", "use crate::case::Case;\n"),
        (
            "case/mod.rs",
            "pub mod validate;\npub mod raw;\npub struct Case;\npub use crate::case::validate::parse;\n",
        ),
        ("case/raw.rs", "use super::validate;\n"),
        (
            "case/validate/mod.rs",
            "use crate::case::{Case, raw};\npub fn parse() {}\n",
        ),
    ]);
    let found = check(dir.path(), &["lib.rs"], &floors).found;
    let found: Vec<&str> = found
        .iter()
        .map(|f| f.split(": ").nth(1).unwrap())
        .collect();
    assert_eq!(
        found,
        [
            "case (floor 2) imports case::validate (floor 2.5)",
            "case (floor 2) imports case::validate (floor 2.5)",
            "protocol (floor 1) imports case (floor 2)",
        ]
    );
}

/// A module whose doc says its modules import "never each other": one
/// that does is reported; its tests and the module itself may.
#[test]
fn modules_said_apart_stay_apart() {
    let dir = tree(&[
        ("lib.rs", "pub mod validate;\n"),
        (
            "validate/mod.rs",
            "//! The concern modules import only this module, never each other.\n\
             pub mod a;\npub mod b;\n#[cfg(test)]\nmod tests;\npub struct Findings;\n\
             fn run() { a::check(); b::check(); }\n",
        ),
        ("validate/a.rs", "use super::Findings;\npub fn check() {}\n"),
        (
            "validate/b.rs",
            "use super::a::check as other;\npub fn check() {}\n",
        ),
        ("validate/tests.rs", "use super::{a, b};\n"),
    ]);
    let floors = Floors::read(
        "## F\n\n| floor | module | what |\n|---|---|---|\n| 1 | `validate` | x |\n",
        "F",
    );
    let found = check(dir.path(), &["lib.rs"], &floors).found;
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].ends_with(
            "validate/b.rs:1: validate::b imports validate::a, and validate's doc says its modules never import each other"
        ),
        "{found:?}"
    );
}
