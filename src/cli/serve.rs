//! `toolpath serve`: the reference implementation over stdio, as an adapter.

use crate::report::ExitCode;

/// `toolpath serve`.
pub fn serve() -> ExitCode {
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    match crate::subject::serve::serve(stdin, stdout) {
        Ok(()) => ExitCode::Ok,
        Err(e) => {
            eprintln!("toolpath serve: {e}");
            ExitCode::Unexpected
        }
    }
}
