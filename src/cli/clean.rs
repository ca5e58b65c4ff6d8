//! `toolpath clean`: removes what runs that died (SIGKILL, a crash) left in
//! the fixture directory a run with the same `--fixture-dir` (or
//! `TOOLPATH_FIXTURE_DIR`) would use, and only there: their directories and
//! the processes that carry their id. Never a live run's.

use std::path::PathBuf;

use clap::Args;

use crate::cli::usage;
use crate::report::ExitCode;
use crate::session::Place;

/// `toolpath clean`.
#[derive(Debug, Clone, Default, Args)]
pub struct CleanRequest {
    /// The fixture directory to clean, as given to `toolpath run`. Default:
    /// $TOOLPATH_FIXTURE_DIR, else /dev/shm when it is a writable tmpfs, else
    /// the system temporary directory.
    #[arg(long, value_name = "DIR")]
    pub fixture_dir: Option<PathBuf>,
}

/// `toolpath clean`: exit 1 when something could not be removed.
pub fn clean(request: CleanRequest) -> ExitCode {
    let place = match Place::resolve(request.fixture_dir.as_deref()) {
        Ok(place) => place,
        Err(e) => return usage(e),
    };
    if crate::session::clean::clean_and_say(&place, true) {
        ExitCode::Ok
    } else {
        ExitCode::Unexpected
    }
}
