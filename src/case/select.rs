//! Choosing which case instances a run covers: by id wildcard (SEARCH-9's
//! `*`, `?` and `{a,b}`, through the suite's one engine), requirement, tag,
//! tool, and shard. Sharding hashes the instance id (FNV-1a), so an
//! instance stays on the same machine however the suite grows.

use toolpath_suite::case::{Case, CaseHead, Instance};
use toolpath_suite::protocol::Tool;
use toolpath_suite::wildcard::Wildcard;

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
    /// Wildcards (SEARCH-9) on the instance id or the case id.
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

    /// The selected instances of the cases `heads` stand for, each as its
    /// case's head and tool, in the order [`Self::instances`] gives them.
    pub fn heads<'a>(&self, heads: &'a [CaseHead]) -> Vec<(&'a CaseHead, Tool)> {
        let instances = heads
            .iter()
            .flat_map(|head| head.tools.iter().map(move |&tool| (head, tool)));
        instances
            .filter(|(head, tool)| {
                let case = (head.id.as_str(), head.spec.as_slice(), head.tags.as_slice());
                self.admits_instance(&head.instance_id(*tool), case, *tool)
            })
            .collect()
    }

    fn admits(&self, instance: &Instance) -> bool {
        let case = instance.case;
        let parts = (case.id.as_str(), case.spec.as_slice(), case.tags.as_slice());
        self.admits_instance(&instance.id(), parts, instance.tool)
    }

    /// Whether the instance `id` of the case `(case_id, spec, tags)` for
    /// `tool` is selected.
    fn admits_instance(
        &self,
        id: &str,
        (case_id, spec, tags): (&str, &[String], &[String]),
        tool: Tool,
    ) -> bool {
        (self.ids.is_empty()
            || self.ids.iter().any(|g| {
                let wildcard = Wildcard::new(g);
                wildcard.matches(id) || wildcard.matches(case_id)
            }))
            && (self.specs.is_empty() || self.specs.iter().any(|s| spec.contains(s)))
            && (self.tags.is_empty() || self.tags.iter().any(|t| tags.contains(t)))
            && (self.tools.is_empty() || self.tools.contains(&tool))
            && self.shard.is_none_or(|s| s.contains(id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_filters_are_search_9_wildcards() {
        let case = toolpath_suite::case::validate::parse_case(
            std::path::Path::new("x.yaml"),
            "id: search.x\nsummary: s\nspec: [SEARCH-5]\nfixture: {roots: [ws]}\ncall: {tool: search, params: {pattern: a}}\nexpect: {outcome: ok}\n",
        )
        .unwrap();
        let chosen = |filter: &str| -> Vec<String> {
            let selection = Selection {
                ids: vec![filter.into()],
                ..Selection::default()
            };
            selection.of_case(&case).map(|i| i.id()).collect()
        };
        assert_eq!(chosen("search.*"), ["search.x@grep", "search.x@ripgrep"]);
        assert_eq!(chosen("*@rip*"), ["search.x@ripgrep"]);
        assert_eq!(chosen("search.x@{grep,shell}"), ["search.x@grep"]);
        assert_eq!(chosen("search.?"), ["search.x@grep", "search.x@ripgrep"]);
        assert!(chosen("*****X").is_empty());
    }

    /// Selecting by heads (`toolpath list`) selects what selecting the
    /// whole cases does, filter by filter, on the embedded suite.
    #[test]
    fn heads_select_the_instances_the_cases_do() {
        let (cases, _) = crate::case::embedded::load_embedded();
        let heads: Vec<CaseHead> = cases.iter().map(CaseHead::from).collect();
        let selections = [
            Selection::default(),
            Selection {
                ids: vec!["search.*".into(), "*@ls".into()],
                ..Selection::default()
            },
            Selection {
                specs: vec!["SEC-11".into(), "RES-4".into()],
                ..Selection::default()
            },
            Selection {
                tags: vec![cases.iter().find_map(|c| c.tags.first()).unwrap().clone()],
                ..Selection::default()
            },
            Selection {
                tools: vec![Tool::Grep, Tool::Shell],
                shard: Some(Shard { index: 2, count: 3 }),
                ..Selection::default()
            },
        ];
        for selection in selections {
            let by_case: Vec<String> = selection.instances(&cases).iter().map(|i| i.id()).collect();
            let by_head: Vec<String> = (selection.heads(&heads).iter())
                .map(|(head, tool)| head.instance_id(*tool))
                .collect();
            assert!(!by_case.is_empty(), "{selection:?}");
            assert_eq!(by_head, by_case, "{selection:?}");
        }
    }

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
