//! Sealing the run's own event log (the spool), so that nothing an adapter
//! writes into the run directory can change a verdict.
//!
//! A sealed line is the event's JSON, a tab, and the hex HMAC-SHA256 of the
//! line's number (from 0, little-endian u64) followed by the JSON's bytes,
//! under a [`SpoolKey`]. serde_json escapes control characters in strings,
//! so a tab only ever separates the seal. The number is sealed with the
//! bytes, so lines cannot be reordered, dropped from the middle or replayed
//! in another place; the reader ([`crate::report::events::Spool`]) checks
//! the count of lines as well.
//!
//! The key is as good as its secrecy. It is made from the kernel's random
//! generator, never written anywhere, and lives only in the harness's
//! memory, which its children cannot read: the session makes the harness
//! not dumpable and runs every child without `CAP_SYS_PTRACE`
//! ([`crate::sys::keep_memory_private`], [`crate::sys::confine`]).

use std::io;

type Hmac = hmac::Hmac<sha2::Sha256>;

/// The key that seals the spool: 32 random bytes held only in this
/// process's memory. Not `Debug`: it is never printed. Each copy is wiped
/// when dropped, so a key no longer in use does not linger in freed memory
/// (the HMAC states derived from it on the way are short-lived stack
/// values, and the process's memory is closed to its children anyway).
#[derive(Clone)]
pub struct SpoolKey([u8; 32]);

impl SpoolKey {
    /// A fresh random key.
    pub fn generate() -> io::Result<SpoolKey> {
        let mut key = [0u8; 32];
        crate::sys::random_bytes(&mut key)?;
        Ok(SpoolKey(key))
    }

    /// The MAC state for the line numbered `seq`.
    fn mac(&self, seq: u64) -> Hmac {
        use hmac::Mac;
        let mut mac = <Hmac as Mac>::new_from_slice(&self.0).expect("HMAC takes any key length");
        mac.update(&seq.to_le_bytes());
        mac
    }

    /// The seal of `json` (one line, without its newline) at `seq`, in hex.
    fn seal(&self, seq: u64, json: &[u8]) -> String {
        use hmac::Mac;
        let mut mac = self.mac(seq);
        mac.update(json);
        mac.finalize()
            .into_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// Appends a tab and the seal of `line` (JSON, no newline) at `seq`.
    pub fn seal_line(&self, seq: u64, line: &mut String) {
        let seal = self.seal(seq, line.as_bytes());
        line.push('\t');
        line.push_str(&seal);
    }

    /// The JSON of the sealed `line` numbered `seq` (with its newline), if
    /// its seal verifies (compared in constant time); else why not.
    pub fn unseal<'l>(&self, seq: u64, line: &'l [u8]) -> Result<&'l [u8], &'static str> {
        use hmac::Mac;
        let line = line.strip_suffix(b"\n").ok_or("the line is cut short")?;
        let tab = line
            .iter()
            .rposition(|b| *b == b'\t')
            .ok_or("the line has no seal")?;
        let (json, seal) = (&line[..tab], &line[tab + 1..]);
        let verifies = std::str::from_utf8(seal)
            .ok()
            .and_then(unhex)
            .is_some_and(|bytes| {
                let mut mac = self.mac(seq);
                mac.update(json);
                mac.verify_slice(&bytes).is_ok()
            });
        if verifies {
            Ok(json)
        } else {
            Err(
                "its seal does not verify: the line was changed, moved or forged after the run wrote it",
            )
        }
    }

    /// Overwrites the key with zeros; `black_box` keeps the compiler from
    /// dropping the stores as dead.
    fn wipe(&mut self) {
        self.0 = [0; 32];
        std::hint::black_box(&mut self.0);
    }
}

impl Drop for SpoolKey {
    fn drop(&mut self) {
        self.wipe();
    }
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) || !text.is_ascii() {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_line_verifies_only_unchanged_in_its_place_under_its_key() {
        let key = SpoolKey::generate().unwrap();
        let mut line = String::from(r#"{"event":"case","status":"fail"}"#);
        key.seal_line(3, &mut line);
        line.push('\n');
        let json = key.unseal(3, line.as_bytes()).unwrap();
        assert_eq!(json, br#"{"event":"case","status":"fail"}"#);
        // Another place, other bytes, another key, no seal, no newline.
        assert!(key.unseal(4, line.as_bytes()).is_err());
        let changed = line.replace("fail", "pass");
        assert!(key.unseal(3, changed.as_bytes()).is_err());
        assert!(
            SpoolKey::generate()
                .unwrap()
                .unseal(3, line.as_bytes())
                .is_err()
        );
        assert!(key.unseal(3, b"{}\n").is_err());
        assert!(key.unseal(3, line.trim_end().as_bytes()).is_err());
    }

    #[test]
    fn a_wiped_key_holds_only_zeros() {
        let mut key = SpoolKey::generate().unwrap();
        assert_ne!(key.0, [0; 32]);
        key.wipe();
        assert_eq!(key.0, [0; 32]);
    }
}
