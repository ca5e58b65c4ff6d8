//! Embeds the suite's own cases into the binary, so an installed `toolpath`
//! runs the full, versioned suite from any directory with no checkout beside
//! it, and validates them here, once, instead of at every start.
//!
//! The validator is the `toolpath-suite` crate, this script's build
//! dependency as it is the binary's dependency, so the embedded suite is
//! checked by exactly the code that checks `--cases DIR`. An invalid case
//! fails the build with its `file:line:column`. Writes to `OUT_DIR`:
//!
//! - `embedded_suite.postcard`: the validated cases (see `src/case/embedded.rs`);
//! - `embedded_heads.postcard`: what lists and selects each of them
//!   (`CaseHead`), for `toolpath list`;
//! - `embedded_cases.rs`: the YAML texts, sorted by path, for `toolpath export`.

use std::path::{Path, PathBuf};

use toolpath_suite::case::{CaseError, CaseHead, load};

/// The path of `file` in the repository, `/`-separated on every machine.
fn relative(manifest: &Path, file: &Path) -> String {
    file.strip_prefix(manifest)
        .unwrap_or(file)
        .to_string_lossy()
        .replace('\\', "/")
}

/// Prints every error, located in the repository, and fails the build.
fn fail(manifest: &Path, errors: Vec<CaseError>) -> ! {
    for mut error in errors {
        error.file = PathBuf::from(relative(manifest, &error.file));
        eprintln!("{error}");
    }
    eprintln!("the embedded suite (cases/) has invalid cases; nothing was built");
    std::process::exit(1);
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it"));
    let dir = manifest.join("cases");
    // A change to the validator rebuilds the suite crate, and so this
    // script; the cases are watched here.
    println!("cargo:rerun-if-changed=cases");
    let files = load::case_files(&dir).unwrap_or_else(|errors| fail(&manifest, errors));
    for file in &files {
        // Directories too, so adding a file to a new folder triggers a rebuild.
        if let Some(parent) = file.parent() {
            println!("cargo:rerun-if-changed={}", parent.display());
        }
        println!("cargo:rerun-if-changed={}", file.display());
    }
    let (mut cases, errors) = load::load(std::slice::from_ref(&dir));
    if !errors.is_empty() {
        fail(&manifest, errors);
    }
    for case in &mut cases {
        case.file = PathBuf::from(relative(&manifest, &case.file));
    }
    let bytes = postcard::to_allocvec(&cases).expect("cases serialise");
    std::fs::write(out.join("embedded_suite.postcard"), bytes).expect("write the suite");
    let heads: Vec<CaseHead> = cases.iter().map(CaseHead::from).collect();
    let bytes = postcard::to_allocvec(&heads).expect("heads serialise");
    std::fs::write(out.join("embedded_heads.postcard"), bytes).expect("write the heads");
    let mut code = String::from(
        "/// The suite's cases as (path relative to the repository, contents).\npub static EMBEDDED_CASES: &[(&str, &str)] = &[\n",
    );
    for file in &files {
        code.push_str(&format!(
            "    ({:?}, include_str!({:?})),\n",
            relative(&manifest, file),
            file.display().to_string()
        ));
    }
    code.push_str("];\n");
    std::fs::write(out.join("embedded_cases.rs"), code).expect("write embedded_cases.rs");
}
