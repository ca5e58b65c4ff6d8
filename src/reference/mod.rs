//! The reference implementation: what `spec/README.md` means where its prose is unclear.
