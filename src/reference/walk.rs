//! The recursive walk shared by the search tools and `glob`: every regular
//! file below a directory, reached through directories only.
//!
//! `DirEntry::file_type` does not follow links (`lstat`), so a symbolic link
//! below is neither entered nor reported, whatever it points to (SEC-7,
//! GLOB-7); FIFOs, sockets and devices are never opened (RES-10); a
//! directory below that cannot be listed is skipped silently (SEARCH-11,
//! GLOB-9). The directory asked for is checked by the caller, which must
//! report it when it cannot be listed.

use std::fs;

use super::resolve;

/// Calls `visit(path, relative)` for every regular file below `dir`: `path`
/// is the lexical `dir` extended by the file's path below it (OUT-4), and
/// `relative` that path below `dir`, `/`-separated (`src/a.ts`).
pub fn regular_files_below(dir: &str, visit: &mut impl FnMut(&str, &str)) {
    let mut relative = String::new();
    walk(dir, &mut relative, visit);
}

fn walk(dir: &str, relative: &mut String, visit: &mut impl FnMut(&str, &str)) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let Ok(file_type) = entry.file_type() else {
            continue;
        };
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = resolve::join(dir, &name);
        // `relative` grows by this entry's name and shrinks back after it,
        // so no path below is built twice.
        let len = relative.len();
        if len > 0 {
            relative.push('/');
        }
        relative.push_str(&name);
        if file_type.is_dir() {
            walk(&path, relative, visit);
        } else if file_type.is_file() {
            visit(&path, relative);
        }
        relative.truncate(len);
    }
}
