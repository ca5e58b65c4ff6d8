//! The cases of a run, known by where they are rather than held.
//!
//! A run over a hundred thousand case files must not keep a hundred
//! thousand parsed cases (their fixtures and parameters are most of a run's
//! memory). So every file is validated once, before anything runs (a bad
//! case is still found first, with its file, line and column), and then
//! its place is kept: directory, path, id, line, selected tools and (for a
//! matrix) which of its cells, about fifty bytes. The file's bytes as
//! they were read go to a file of the run's own ([`Kept`]: unnamed, so
//! nothing but this process can reach it), not to memory: a run's memory
//! stays flat however large its suite (issue 46). Those bytes are read
//! back and validated again when its turn comes: a case file is read once.
//!
//! Reading the file again at its turn let a subject rewrite the
//! expectations of the cases still to come (issue 30, item 3): the file
//! is never opened again, so what it becomes during the run changes
//! nothing. The embedded suite is small and already decoded, so it stays
//! in memory.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use crate::case::embedded;
use crate::case::select::Selection;
use toolpath_suite::case::load as suite;
use toolpath_suite::case::{Case, CaseError};
use toolpath_suite::protocol::Tool;

/// Where a run's case instances come from, in run order: the embedded
/// suite's selected instances first, then each case file's.
pub struct Catalog {
    selection: Selection,
    embedded: Vec<Case>,
    /// Selected embedded instances: the case's index, and the tool.
    embedded_instances: Vec<(u32, Tool)>,
    dirs: Vec<PathBuf>,
    files: Vec<FileEntry>,
    /// The position of each file's first instance (after the embedded ones).
    starts: Vec<usize>,
    /// Each file's path (relative to its directory) and then its id.
    text: String,
    /// The bytes of every selected file, as read when it was validated.
    kept: Kept,
    /// The cases of the file validated last (by where its bytes start):
    /// a matrix's instances come one after another, and each would
    /// otherwise validate and expand the whole matrix again (24 instances
    /// of a large one took 216 s, issue 30 item 7).
    last: std::sync::Mutex<Option<(u64, std::sync::Arc<Vec<Case>>)>>,
    total: usize,
}

/// One validated case file, by where it is.
#[derive(Clone, Copy)]
struct FileEntry {
    dir: u32,
    /// Which case of its file: 0, or a matrix's cell.
    nth: u32,
    /// Where its path (relative to the directory) starts in `text`; its id follows.
    at: u32,
    path_len: u32,
    id_len: u32,
    line: u32,
    /// The selected tools, one bit per [`Tool::ALL`] index.
    tools: ToolBits,
    /// Whether the case runs against several tools (its instance ids are `ID@TOOL`).
    several: bool,
    /// Where its file's bytes start in `kept`, and how many there are.
    bytes_at: u64,
    bytes_len: u32,
}

/// The bytes of the selected case files, as they were read, in a file
/// without a name in the temporary directory, owned by this process:
/// written once, read back at each file's turn.
#[derive(Default)]
struct Kept {
    file: Option<std::fs::File>,
    len: u64,
}

impl Kept {
    /// Appends `bytes`; where they start.
    fn append(&mut self, bytes: &[u8]) -> std::io::Result<u64> {
        use std::os::unix::fs::FileExt;
        let file = match &mut self.file {
            Some(file) => file,
            None => self.file.insert(tempfile::tempfile()?),
        };
        let at = self.len;
        file.write_all_at(bytes, at)?;
        self.len += bytes.len() as u64;
        Ok(at)
    }

    /// The `len` bytes kept at `at`.
    fn read(&self, at: u64, len: u32) -> std::io::Result<Vec<u8>> {
        use std::os::unix::fs::FileExt;
        let mut bytes = vec![0; len as usize];
        if let Some(file) = &self.file {
            file.read_exact_at(&mut bytes, at)?;
        }
        Ok(bytes)
    }
}

/// An instance whose case file's bytes, kept from its validation, no
/// longer validate as they did (which validating the same bytes twice
/// never does): reported as `case_error` with `message`, never run.
#[derive(Debug, Clone)]
pub struct Unreadable {
    pub id: String,
    pub case: String,
    pub tool: Tool,
    pub file: PathBuf,
    pub line: u64,
    pub message: String,
}

impl Catalog {
    /// The cases of the embedded suite (unless `replace` names directories
    /// to use instead) and of `add`, validated, with every error found; ids
    /// are checked unique across all of them.
    pub fn open(
        replace: &[PathBuf],
        add: &[PathBuf],
        selection: &Selection,
    ) -> Result<Catalog, Vec<CaseError>> {
        let (embedded, mut errors) = if replace.is_empty() {
            embedded::load_embedded()
        } else {
            (Vec::new(), Vec::new())
        };
        let mut catalog = Catalog {
            selection: selection.clone(),
            embedded,
            embedded_instances: Vec::new(),
            dirs: replace.iter().chain(add).cloned().collect(),
            files: Vec::new(),
            starts: Vec::new(),
            text: String::new(),
            kept: Kept::default(),
            last: std::sync::Mutex::new(None),
            total: 0,
        };
        for dir in 0..catalog.dirs.len() {
            catalog.index_dir(dir, &mut errors);
        }
        errors.extend(catalog.duplicate_ids());
        if !errors.is_empty() {
            return Err(errors);
        }
        catalog.select();
        Ok(catalog)
    }

    /// Validates every case file below `dirs[dir]`, keeping each one's place.
    fn index_dir(&mut self, dir: usize, errors: &mut Vec<CaseError>) {
        let root = self.dirs[dir].clone();
        let first = self.files.len();
        let mut found = Vec::new();
        let walked = suite::walk(&root, &mut |file| {
            let loaded = suite::read_file(&file)
                .and_then(|bytes| Ok((suite::load_bytes(&file, &bytes)?, bytes)));
            match loaded {
                Ok((cases, bytes)) => {
                    let first = self.files.len();
                    let at = self.kept.len;
                    for (nth, case) in cases.iter().enumerate() {
                        self.remember(dir, &root, &file, case, nth, (at, bytes.len()));
                    }
                    // Only the selected files' bytes are kept (a matrix's
                    // cells share their file's).
                    if self.files[first..].iter().any(|f| f.tools != 0)
                        && let Err(e) = self.kept.append(&bytes)
                    {
                        found.push(CaseError {
                            message: format!("cannot keep its bytes for the run: {e}"),
                            ..CaseError::unreadable(&file, &e)
                        });
                    }
                }
                Err(e) => found.extend(e),
            }
        });
        // Stable: a file's own errors stay in file order.
        found.sort_by(|a, b| a.file.cmp(&b.file));
        if let Err(mut problems) = walked {
            errors.append(&mut problems);
        }
        errors.append(&mut found);
        // Sorted by path, as `suite::load` orders them, and a matrix's
        // cells in its order: runs, shards and reports stay deterministic.
        let text = &self.text;
        self.files[first..].sort_by(|a, b| {
            Path::new(a.path(text))
                .cmp(Path::new(b.path(text)))
                .then(a.nth.cmp(&b.nth))
        });
    }

    fn remember(
        &mut self,
        dir: usize,
        root: &Path,
        file: &Path,
        case: &Case,
        nth: usize,
        (bytes_at, bytes_len): (u64, usize),
    ) {
        let relative = file.strip_prefix(root).unwrap_or(file).to_string_lossy();
        let entry = FileEntry {
            dir: dir as u32,
            nth: nth as u32,
            at: self.text.len() as u32,
            path_len: relative.len() as u32,
            id_len: case.id.len() as u32,
            line: case.line as u32,
            tools: self
                .selection
                .of_case(case)
                .fold(0, |bits, i| bits | tool_bit(i.tool)),
            several: case.tools.len() > 1,
            bytes_at,
            bytes_len: bytes_len as u32,
        };
        self.text.push_str(&relative);
        self.text.push_str(&case.id);
        self.files.push(entry);
    }

    /// Every later case that reuses an earlier one's id.
    fn duplicate_ids(&self) -> Vec<CaseError> {
        let count = self.embedded.len() + self.files.len();
        suite::duplicates(count, |i| self.id_at(i), |i| self.place_at(i))
    }

    /// The id of case `i` (embedded cases first, then files).
    fn id_at(&self, i: u32) -> &str {
        match self.embedded.get(i as usize) {
            Some(case) => &case.id,
            None => self.files[i as usize - self.embedded.len()].id(&self.text),
        }
    }

    fn place_at(&self, i: u32) -> (PathBuf, u64) {
        match self.embedded.get(i as usize) {
            Some(case) => (case.file.clone(), case.line),
            None => {
                let entry = &self.files[i as usize - self.embedded.len()];
                (self.file_path(entry), u64::from(entry.line))
            }
        }
    }

    /// Keeps the selected instances only, and numbers them.
    fn select(&mut self) {
        self.embedded_instances = self
            .embedded
            .iter()
            .enumerate()
            .flat_map(|(i, case)| {
                self.selection
                    .of_case(case)
                    .map(move |x| (i as u32, x.tool))
            })
            .collect();
        self.files.retain(|f| f.tools != 0);
        self.files.shrink_to_fit();
        let mut next = self.embedded_instances.len();
        self.starts = self
            .files
            .iter()
            .map(|f| {
                let start = next;
                next += f.tools.count_ones() as usize;
                start
            })
            .collect();
        self.total = next;
    }

    /// How many instances the selection covers.
    pub fn len(&self) -> usize {
        self.total
    }

    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The case of the instance at `position`, and its tool. A case file's
    /// bytes kept from its validation are validated again here: the file
    /// itself is not read again.
    pub fn get(&self, position: usize) -> Result<(Cow<'_, Case>, Tool), Unreadable> {
        if let Some(&(case, tool)) = self.embedded_instances.get(position) {
            return Ok((Cow::Borrowed(&self.embedded[case as usize]), tool));
        }
        let index = self.starts.partition_point(|&s| s <= position) - 1;
        let entry = &self.files[index];
        let nth = position - self.starts[index];
        let file = self.file_path(entry);
        let unreadable = |message: String| {
            let tool = tools(entry.tools).nth(nth).expect("a selected tool");
            let id = entry.id(&self.text);
            Unreadable {
                id: if entry.several {
                    format!("{id}@{tool}")
                } else {
                    id.to_owned()
                },
                case: id.to_owned(),
                tool,
                file: file.clone(),
                line: u64::from(entry.line),
                message,
            }
        };
        let cases = {
            let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
            match &*last {
                Some((at, cases)) if *at == entry.bytes_at => cases.clone(),
                _ => {
                    let bytes = self
                        .kept
                        .read(entry.bytes_at, entry.bytes_len)
                        .map_err(|e| {
                            unreadable(format!(
                                "the case file's bytes kept for the run cannot be read: {e}"
                            ))
                        })?;
                    let cases = std::sync::Arc::new(suite::load_bytes(&file, &bytes).map_err(|e| {
                        unreadable(format!(
                            "the case file's bytes no longer load as they did when validated: {e}"
                        ))
                    })?);
                    *last = Some((entry.bytes_at, cases.clone()));
                    cases
                }
            }
        };
        let nth_case = entry.nth as usize;
        let Some(case) = cases.get(nth_case).cloned() else {
            return Err(unreadable(
                "the case file's bytes no longer hold the matrix cell validated".into(),
            ));
        };
        let selected: Vec<Tool> = self.selection.of_case(&case).map(|i| i.tool).collect();
        let bits = selected.iter().fold(0, |bits, &t| bits | tool_bit(t));
        if case.id != entry.id(&self.text) || bits != entry.tools {
            return Err(unreadable(
                "the case file's bytes no longer give the id and selected tools validated".into(),
            ));
        }
        Ok((Cow::Owned(case), selected[nth]))
    }

    /// The bytes this catalog holds in memory for its case files: their
    /// places, their paths and ids.
    #[cfg(test)]
    fn held(&self) -> usize {
        self.files.capacity() * size_of::<FileEntry>()
            + self.starts.capacity() * size_of::<usize>()
            + self.text.capacity()
    }

    fn file_path(&self, entry: &FileEntry) -> PathBuf {
        self.dirs[entry.dir as usize].join(entry.path(&self.text))
    }
}

impl FileEntry {
    fn path<'t>(&self, text: &'t str) -> &'t str {
        &text[self.at as usize..][..self.path_len as usize]
    }

    fn id<'t>(&self, text: &'t str) -> &'t str {
        &text[(self.at + self.path_len) as usize..][..self.id_len as usize]
    }
}

/// One bit per tool: wide enough for every tool of the protocol (a test
/// says so), where a `u8` overflowed once the file tools made nine.
type ToolBits = u16;

fn tool_bit(tool: Tool) -> ToolBits {
    1 << tool.index()
}

/// The tools of a bit set, in [`Tool::ALL`] order.
fn tools(bits: ToolBits) -> impl Iterator<Item = Tool> {
    Tool::ALL
        .into_iter()
        .filter(move |&t| bits & tool_bit(t) != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_has_a_bit_of_its_own() {
        assert!(Tool::ALL.len() <= ToolBits::BITS as usize);
        let all = Tool::ALL.iter().fold(0, |bits, &t| bits | tool_bit(t));
        assert_eq!(all.count_ones() as usize, Tool::ALL.len());
        assert_eq!(tools(all).collect::<Vec<_>>(), Tool::ALL);
        assert_eq!(
            tools(tool_bit(Tool::Edit)).collect::<Vec<_>>(),
            [Tool::Edit]
        );
    }

    /// A valid case `id` run against `tools`, as file text.
    fn case_text(id: &str, tools: &str) -> String {
        format!(
            "id: {id}\nsummary: x\nspec: [RES-1]\nfixture:\n  roots: [ws]\n\
             call:\n  tool: {tools}\n  params: {{path: a}}\nexpect:\n  outcome: ok\n"
        )
    }

    fn write(dir: &Path, relative: &str, text: &str) {
        let path = dir.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    /// Every selected instance: its id and tool, by position.
    fn listed(catalog: &Catalog) -> Vec<(String, Tool)> {
        (0..catalog.len())
            .map(|p| {
                let (case, tool) = catalog.get(p).unwrap();
                (Instance { case: &case, tool }.id(), tool)
            })
            .collect()
    }

    use toolpath_suite::case::Instance;

    /// A directory of cases in several subdirectories, written out of
    /// order, some run against several tools.
    fn suite_dir() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "z/last.yaml",
            &case_text("resolve.last", "resolve"),
        );
        write(dir.path(), "b-c.yaml", &case_text("search.b.c", "search"));
        write(dir.path(), "a/x.yaml", &case_text("resolve.x", "resolve"));
        write(dir.path(), "a-b.yaml", &case_text("shell.a.b", "shell"));
        write(dir.path(), "a/b/y.yaml", &case_text("glob.y", "glob"));
        dir
    }

    #[test]
    fn instances_are_those_of_the_loaded_suite_in_the_same_order() {
        let dir = suite_dir();
        let dirs = [dir.path().to_owned()];
        let (cases, errors) = suite::load(&dirs);
        assert!(errors.is_empty(), "{errors:?}");
        for selection in [
            Selection::default(),
            Selection {
                tools: vec![Tool::Grep, Tool::Glob, Tool::Resolve],
                ..Selection::default()
            },
            Selection {
                ids: vec!["*.b*".into()],
                ..Selection::default()
            },
        ] {
            let catalog = Catalog::open(&dirs, &[], &selection).unwrap();
            let expected: Vec<(String, Tool)> = selection
                .instances(&cases)
                .iter()
                .map(|i| (i.id(), i.tool))
                .collect();
            assert!(!expected.is_empty());
            assert_eq!(listed(&catalog), expected, "{selection:?}");
        }
    }

    #[test]
    fn the_embedded_suite_comes_first_and_ids_are_unique_across_everything() {
        let dir = suite_dir();
        let add = [dir.path().to_owned()];
        let catalog = Catalog::open(&[], &add, &Selection::default()).unwrap();
        let (embedded, _) = embedded::load_embedded();
        let first: usize = embedded.iter().map(|c| c.tools.len()).sum();
        assert_eq!(catalog.len(), first + 6);
        assert_eq!(listed(&catalog)[first].0, "glob.y");

        // The same id twice, and an id the embedded suite already has.
        write(dir.path(), "c/x.yaml", &case_text("resolve.x", "resolve"));
        let taken = &embedded[0];
        let name = suite::file_name(&taken.id);
        write(dir.path(), &name, &case_text(&taken.id, "resolve"));
        let errors = Catalog::open(&[], &add, &Selection::default())
            .err()
            .expect("duplicates are refused");
        let expected = suite::duplicate_ids(
            &embedded
                .iter()
                .cloned()
                .chain(suite::load(&add).0)
                .collect::<Vec<_>>(),
        );
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert_eq!(errors, expected);
        // The later file is the one refused, pointing at the first.
        let later = errors
            .iter()
            .find(|e| e.file.ends_with("c/x.yaml"))
            .unwrap();
        assert_eq!(
            later.message,
            format!(
                "id `resolve.x` is already used by {}:1",
                dir.path().join("a/x.yaml").display()
            )
        );
        assert_eq!((later.line, later.column), (1, 1));
    }

    /// Issue 30 item 3: what a file becomes after its validation (broken,
    /// another tool, other expectations, removed) changes nothing: each
    /// instance is the case as validated.
    #[test]
    fn a_file_is_run_as_it_was_validated_whatever_it_becomes() {
        let dir = suite_dir();
        let dirs = [dir.path().to_owned()];
        let catalog = Catalog::open(&dirs, &[], &Selection::default()).unwrap();
        let before = listed(&catalog);
        let cases: Vec<Case> = (0..catalog.len())
            .map(|i| catalog.get(i).unwrap().0.into_owned())
            .collect();
        write(dir.path(), "a/x.yaml", "id: [broken\n");
        write(dir.path(), "a-b.yaml", &case_text("shell.a.b", "grep"));
        let summary = case_text("search.b.c", "grep").replace("summary: ", "summary: Changed ");
        write(dir.path(), "b-c.yaml", &summary);
        std::fs::remove_file(dir.path().join("z/last.yaml")).unwrap();
        assert_eq!(listed(&catalog), before);
        for (i, case) in cases.iter().enumerate() {
            assert_eq!(&*catalog.get(i).unwrap().0, case);
        }
    }

    /// Issue 46 item 5: what the catalog holds in memory is its places,
    /// a few dozen bytes a case, whatever its files' size: a run's memory
    /// stays flat as its suite grows, and each file is still read once
    /// (the test above).
    #[test]
    fn memory_holds_each_case_s_place_not_its_file_s_text() {
        let dir = tempfile::tempdir().unwrap();
        let long = "x".repeat(4000);
        for i in 0..200 {
            let text = case_text(&format!("resolve.c{i}"), "resolve")
                .replace("summary: x", &format!("summary: {long}"));
            write(dir.path(), &format!("c{i}.yaml"), &text);
        }
        let dirs = [dir.path().to_owned()];
        let catalog = Catalog::open(&dirs, &[], &Selection::default()).unwrap();
        assert_eq!(catalog.len(), 200);
        let held = catalog.held();
        assert!(held < 200 * 100, "{held} bytes held for 200 cases");
        assert!(catalog.get(199).unwrap().0.summary.starts_with("xxxx"));
    }

    #[test]
    fn invalid_files_are_all_reported_in_path_order() {
        let dir = suite_dir();
        write(dir.path(), "q/bad.yaml", "id: [broken\n");
        write(dir.path(), "c/bad.yaml", "summary: no id\n");
        let dirs = [dir.path().to_owned()];
        let errors = Catalog::open(&dirs, &[], &Selection::default())
            .err()
            .expect("refused");
        assert_eq!(errors, suite::load(&dirs).1);
        assert_eq!(errors.len(), 2);
    }
}
