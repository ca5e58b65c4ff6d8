//! Every size a case file is held to, in one place: the loader's own
//! (a hostile file is refused before it costs seconds) and the platform's
//! (a fixture that Linux could not build is refused at lint, with its
//! location, rather than failing at run time on some machines).
//! `cases/README.md` ("Size", "Limits") states them for case authors.

/// The largest case file loaded, in bytes. The largest case in `cases/` is
/// under 1 KiB; 256 KiB leaves room for base64 file contents while keeping a
/// hostile file from costing seconds. Checked before any parsing.
pub const MAX_CASE_BYTES: usize = 256 * 1024;

/// The most YAML nodes (scalars, sequences, mappings) in one case file,
/// enforced by the parser as it goes, before any validation.
pub const MAX_CASE_NODES: usize = 20_000;

/// The most cases one matrix may expand to (tools × forms × roots). A
/// 13 KB matrix over 2,000 roots was 24,000 instances, and listing them
/// took 2.2 GB (issue 30, item 7); the largest matrix in `cases/` has a
/// few dozen cells.
pub const MAX_MATRIX_CELLS: usize = 1024;

/// The longest name (one `/`-separated segment of a fixture path) in bytes:
/// Linux's `NAME_MAX`, which every local file system of it keeps.
pub const NAME_MAX: usize = 255;

/// The longest fixture path (and symbolic link target) in bytes.
///
/// Linux's `PATH_MAX` is 4096 bytes with the final NUL, and a tool sees a
/// fixture path below the fixture directory's own absolute path
/// (`/dev/shm/toolpath-…/…`, or wherever `--fixture-dir` points). 1024
/// bytes are left for that directory, so a path of this budget still
/// reaches every tool whole: 4096 - 1024 = 3072.
pub const PATH_BUDGET: usize = 3072;

/// The deepest directory the harness's snapshot of a fixture descends
/// into (the fixture directory is level 0). A directory at this level or
/// deeper would stop the snapshot, and with it every check of what a call
/// changed (SEC-11, SEC-12): lint refuses such a fixture, and a run that
/// meets one calls the instance not observed.
pub const SNAPSHOT_DEPTH: usize = 64;

/// The largest generated file (`files: {PATH: {generate: ...}}`), in
/// bytes: room for a NUL past the first MiB (SEARCH-8) with margin, while
/// a build stays a matter of milliseconds on a tmpfs.
pub const MAX_GENERATED_BYTES: u64 = 8 << 20;

/// The most bytes the generated files of one fixture may hold together.
pub const MAX_GENERATED_TOTAL: u64 = 16 << 20;
