//! Generated file content: a file described by its size, a fill pattern
//! and a few bytes at given offsets, so that a fixture can hold a file far
//! larger than a case file may be (`files: {ws/big.txt: {generate: {size:
//! 2MiB, fill: "a\n", at: {1MiB: "\0"}}}}`, a NUL past the first MiB for
//! SEARCH-8) at the cost of one line.
//!
//! [`Generated`] is the validated description; its bytes are made only
//! where they are needed (the fixture builder writes them in chunks, the
//! harness reads a line back for SEARCH-10), never stored in a case. Sizes
//! are bounded by [`MAX_GENERATED_BYTES`] per file and
//! [`MAX_GENERATED_TOTAL`] per fixture (`crate::case::limits`), so a case
//! cannot make a build slow or fill a disk.

use crate::case::limits::MAX_GENERATED_BYTES;

/// A file's content, generated: `fill` repeated (and cut) to `size` bytes,
/// then each `at` run written over it at its offset.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Generated {
    pub size: u64,
    pub fill: Vec<u8>,
    /// Offset and bytes, sorted by offset, none overlapping another, each
    /// ending within `size`.
    pub at: Vec<(u64, Vec<u8>)>,
}

impl Generated {
    /// The bytes from `start` to `end` (at most `size`): what a writer
    /// writes chunk by chunk.
    pub fn range(&self, start: u64, end: u64) -> Vec<u8> {
        let end = end.min(self.size);
        if start >= end {
            return Vec::new();
        }
        // One period of `fill` from where `start` falls in it, then what is
        // made so far copied after itself, doubling (its length stays a
        // whole number of periods, so the copy continues the pattern):
        // a few copies per range, where one per period (`a\n`: 32,768 per
        // 64 KiB chunk) made a 1 MiB file cost milliseconds in the dev
        // profile, for every instance that has one. Each piece is then
        // copied over it as a slice.
        let wanted = (end - start) as usize;
        let mut out: Vec<u8> = Vec::with_capacity(wanted);
        let at = (start % self.fill.len() as u64) as usize;
        out.extend_from_slice(&self.fill[at..]);
        out.extend_from_slice(&self.fill[..at]);
        out.truncate(wanted);
        while out.len() < wanted {
            let more = out.len().min(wanted - out.len());
            out.extend_from_within(..more);
        }
        for (offset, bytes) in &self.at {
            let (from, to) = (*offset, offset + bytes.len() as u64);
            if to <= start || from >= end {
                continue;
            }
            let (lo, hi) = (from.max(start), to.min(end));
            out[(lo - start) as usize..(hi - start) as usize]
                .copy_from_slice(&bytes[(lo - from) as usize..(hi - from) as usize]);
        }
        out
    }

    /// The whole content, for readers that need it all (`size` is at most
    /// [`MAX_GENERATED_BYTES`]).
    pub fn bytes(&self) -> Vec<u8> {
        self.range(0, self.size)
    }
}

/// What a size or an offset written as text looks like: a number of
/// bytes, or a number with `KiB` or `MiB`, optionally plus bytes. The
/// editor schema carries it; [`parse_size`] accepts exactly these.
pub const SIZE_PATTERN: &str = r"^[0-9]+(KiB|MiB)?(\+[0-9]+)?$";

/// Reads a size or an offset: a number of bytes, or a number followed by
/// `KiB` or `MiB` (binary units; `1MiB` is 1048576), optionally plus a
/// number of bytes (`1MiB+1`), with no spaces. Anything else, and a value
/// past [`MAX_GENERATED_BYTES`], is refused with a message saying so.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let bad = || {
        format!(
            "`{}` is not a size: write a number of bytes (`1048577`), or one with \
             KiB or MiB (`2MiB`), optionally plus bytes (`1MiB+1`)",
            crate::case::error::quote(text)
        )
    };
    // Digits too many for 64 bits are a size too large, not a typo.
    let too_large = || {
        format!(
            "`{}` is more than {MAX_GENERATED_BYTES} bytes (8 MiB), the most a generated file may be",
            crate::case::error::quote(text)
        )
    };
    let number = |digits: &str| -> Result<u64, String> {
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        digits.parse::<u64>().map_err(|_| too_large())
    };
    let (main, extra) = match text.split_once('+') {
        Some((main, extra)) => (main, Some(extra)),
        None => (text, None),
    };
    let (digits, factor) = if let Some(d) = main.strip_suffix("KiB") {
        (d, 1 << 10)
    } else if let Some(d) = main.strip_suffix("MiB") {
        (d, 1 << 20)
    } else {
        (main, 1)
    };
    let units = number(digits)?;
    let extra = match extra {
        Some(extra) => number(extra)?,
        None => 0,
    };
    units
        .checked_mul(factor)
        .and_then(|v| v.checked_add(extra))
        .filter(|v| *v <= MAX_GENERATED_BYTES)
        .ok_or_else(too_large)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("12"), Ok(12));
        assert_eq!(parse_size("2MiB"), Ok(2 << 20));
        assert_eq!(parse_size("1MiB+1"), Ok((1 << 20) + 1));
        assert_eq!(parse_size("3KiB"), Ok(3 << 10));
        let pattern = regex::Regex::new(SIZE_PATTERN).unwrap();
        for good in ["0", "12", "2MiB", "1MiB+1", "3KiB", "0KiB+7"] {
            assert!(parse_size(good).is_ok(), "{good}");
            assert!(pattern.is_match(good), "the schema accepts {good}");
        }
        for bad in [
            "",
            "MiB",
            "1 GiB",
            "1MB",
            "-1",
            "1MiB+",
            "x",
            " 2MiB",
            "2 MiB",
            "2MiB ",
            "1+1+1",
            "1+MiB",
            "+1",
            "1B",
            "1mib",
            "1KiB+1MiB",
        ] {
            assert!(parse_size(bad).is_err(), "{bad}");
            assert!(!pattern.is_match(bad), "the schema refuses {bad:?}");
        }
        assert!(parse_size("9MiB").unwrap_err().contains("the most"));
        assert!(
            parse_size("1MiB+99999999999999999999")
                .unwrap_err()
                .contains("the most")
        );
        assert!(parse_size("+1").unwrap_err().contains("is not a size"));
    }

    #[test]
    fn long_ranges_continue_the_fill_from_any_offset() {
        // A period that divides neither the chunk nor the range, so every
        // doubling copy starts mid-pattern if the length were not kept a
        // whole number of periods.
        let g = Generated {
            size: 10_000,
            fill: b"abc\n\x00".to_vec(),
            at: vec![(4_097, b"PIECE".to_vec())],
        };
        let defined = |i: u64| match i.checked_sub(4_097) {
            Some(k) if k < 5 => b"PIECE"[k as usize],
            _ => g.fill[(i % 5) as usize],
        };
        for (start, end) in [
            (0, 10_000),
            (1, 9_999),
            (3, 4_100),
            (4_099, 8_193),
            (9_998, 20_000),
        ] {
            let want: Vec<u8> = (start..end.min(10_000)).map(defined).collect();
            assert_eq!(g.range(start, end), want, "{start}..{end}");
        }
    }

    #[test]
    fn content_is_the_fill_with_runs_over_it() {
        let g = Generated {
            size: 7,
            fill: b"ab".to_vec(),
            at: vec![(1, b"XY".to_vec()), (6, b"Z".to_vec())],
        };
        assert_eq!(g.bytes(), b"aXYbabZ");
        assert_eq!(g.range(2, 5), b"Yba");
        assert_eq!(g.range(5, 99), b"bZ");
        assert_eq!(g.range(9, 12), b"");
        let whole: Vec<u8> = (0..7).step_by(3).flat_map(|s| g.range(s, s + 3)).collect();
        assert_eq!(whole, g.bytes(), "chunks add up to the whole");
        // Every range is that slice of the whole, byte for byte as the
        // definition says (fill at i % len, then each piece over it).
        let defined: Vec<u8> = (0..7usize)
            .map(|i| {
                let piece = g.at.iter().find_map(|(offset, bytes)| {
                    let offset = *offset as usize;
                    (offset..offset + bytes.len())
                        .contains(&i)
                        .then(|| bytes[i - offset])
                });
                piece.unwrap_or(g.fill[i % 2])
            })
            .collect();
        for start in 0..9u64 {
            for end in start..10 {
                let (lo, hi) = (start.min(7) as usize, end.min(7) as usize);
                assert_eq!(
                    g.range(start, end),
                    defined[lo..hi.max(lo)],
                    "{start}..{end}"
                );
            }
        }
    }
}
