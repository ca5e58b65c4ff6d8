//! How a path is compared when the directory it is in cannot be observed
//! (`files.path`, `entries.path`, `matches.path` unobservable or derived):
//! by its last component. One folding for the judge and for the cut of a
//! truncated answer (`truncation`), so an item the judge would match is
//! never one the cut drops.

/// The last component of a path: what a listing or a match names when the
/// directory it is in cannot be observed.
pub fn base_name(path: &str) -> &str {
    path.trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or(path)
}

/// `path` as it is compared: whole when its directory is observed, else
/// its base name.
pub fn folded(path: &str, whole: bool) -> &str {
    if whole { path } else { base_name(path) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_folds_to_its_last_component_only_when_not_whole() {
        assert_eq!(base_name("/t/ws/src/a.ts"), "a.ts");
        assert_eq!(base_name("/t/ws/src/"), "src");
        assert_eq!(base_name("a.ts"), "a.ts");
        assert_eq!(folded("/t/ws/a.ts", true), "/t/ws/a.ts");
        assert_eq!(folded("/t/ws/a.ts", false), "a.ts");
    }
}
