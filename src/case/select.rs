//! Choosing which case instances a run covers: by id glob, requirement, tag,
//! tool, and shard. Sharding hashes the instance id (FNV-1a), so an
//! instance stays on the same machine however the suite grows.

use crate::case::model::{Case, Instance};
use crate::harness::baseline::glob_match;
use crate::protocol::Tool;

/// One CI machine's share of the run: `index` in `1..=count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("`{text}` is not K/N with 1 <= K <= N (for example 2/4)");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count): (u64, u64) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    pub fn contains(&self, instance_id: &str) -> bool {
        fnv1a(instance_id.as_bytes()) % self.count == self.index - 1
    }
}

/// 64-bit FNV-1a: tiny, and stable across platforms and releases.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// The filters of a run; an empty list does not filter.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// Globs on the instance id or the case id.
    pub ids: Vec<String>,
    pub specs: Vec<String>,
    pub tags: Vec<String>,
    pub tools: Vec<Tool>,
    pub shard: Option<Shard>,
}

impl Selection {
    /// Whether nothing is filtered out: only then can an expectations entry
    /// that matches no instance be called stale.
    pub fn is_everything(&self) -> bool {
        self.ids.is_empty()
            && self.specs.is_empty()
            && self.tags.is_empty()
            && self.tools.is_empty()
            && self.shard.is_none()
    }

    pub fn instances<'a>(&self, cases: &'a [Case]) -> Vec<Instance<'a>> {
        cases.iter().flat_map(|c| self.of_case(c)).collect()
    }

    /// The selected instances of one case, in the order of its tools.
    pub fn of_case<'a>(&self, case: &'a Case) -> impl Iterator<Item = Instance<'a>> {
        case.instances().filter(|i| self.admits(i))
    }

    fn admits(&self, instance: &Instance) -> bool {
        let id = instance.id();
        let case = instance.case;
        (self.ids.is_empty()
            || self
                .ids
                .iter()
                .any(|g| glob_match(g, &id) || glob_match(g, &case.id)))
            && (self.specs.is_empty() || self.specs.iter().any(|s| case.spec.contains(s)))
            && (self.tags.is_empty() || self.tags.iter().any(|t| case.tags.contains(t)))
            && (self.tools.is_empty() || self.tools.contains(&instance.tool))
            && self.shard.is_none_or(|s| s.contains(&id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_ids() {
        let shards: Vec<Shard> = (1..=3).map(|k| format!("{k}/3").parse().unwrap()).collect();
        for id in ["a.b", "search.file.relative@grep", "shell.x", "z.z@ripgrep"] {
            assert_eq!(shards.iter().filter(|s| s.contains(id)).count(), 1, "{id}");
        }
    }

    #[test]
    fn bad_shards_are_refused() {
        for bad in ["0/2", "3/2", "1", "a/b", "1/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_hash_is_stable() {
        // Changing the hash would move instances between CI machines.
        // Pinned values (computed independently), so any change to the
        // hash or to how shards are picked fails here.
        assert_eq!(fnv1a(b"search.file.relative@grep"), 0x7a67_5e62_1287_ef31);
        let on =
            |k: u64, n: u64| Shard { index: k, count: n }.contains("search.file.relative@grep");
        assert!(on(1, 3) && !on(2, 3) && !on(3, 3));
        assert!(on(2, 4) && !on(1, 4));
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
