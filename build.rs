//! Embeds the suite's own cases into the binary, so an installed `toolpath`
//! runs the full, versioned suite from any directory with no checkout beside
//! it. Generates `embedded_cases.rs`: a sorted list of (path, contents).

use std::path::{Path, PathBuf};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            // `.yml` too, so the loader refuses it here as it does under
            // `--cases`, instead of the build leaving it out unnoticed.
            out.push(path);
        }
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let cases = manifest.join("cases");
    println!("cargo:rerun-if-changed=cases");
    let mut files = Vec::new();
    collect(&cases, &mut files);
    files.sort();
    let mut code = String::from(
        "/// The suite's cases as (path relative to the repository, contents).\npub static EMBEDDED_CASES: &[(&str, &str)] = &[\n",
    );
    for file in &files {
        // Directories too, so adding a file to a new folder triggers a rebuild.
        if let Some(parent) = file.parent() {
            println!("cargo:rerun-if-changed={}", parent.display());
        }
        println!("cargo:rerun-if-changed={}", file.display());
        let relative = file
            .strip_prefix(&manifest)
            .expect("below the manifest")
            .to_string_lossy()
            .replace('\\', "/");
        code.push_str(&format!(
            "    ({relative:?}, include_str!({:?})),\n",
            file.display().to_string()
        ));
    }
    code.push_str("];\n");
    let out =
        PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("embedded_cases.rs");
    std::fs::write(out, code).expect("write embedded_cases.rs");
}
