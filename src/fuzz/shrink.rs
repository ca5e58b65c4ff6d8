//! Shrinking: walk proptest's value tree toward simpler samples (fewer
//! entries, earlier pool names, shorter paths, simpler patterns) while the
//! divergence fails the same check, so the minimal case shows the same
//! finding rather than wandering off to another one.

use std::time::{Duration, Instant};

use proptest::strategy::ValueTree;

use crate::fuzz::probe::Divergence;
use crate::fuzz::sample::Sample;

/// How far shrinking may go. The number of probes is the bound that decides
/// the result, so the same seed shrinks to the same case on any machine;
/// a wall-time bound (for an adapter that hangs, which costs its timeout on
/// every probe) is there only when asked for, and makes the result depend
/// on the machine's speed when it is reached.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    pub probes: usize,
    pub time: Option<Duration>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            probes: 2_000,
            time: None,
        }
    }
}

/// Shrinks `tree`, whose current value diverged as `found`; `probe` answers
/// a sample's divergence, if any. Returns the simplest sample that still
/// fails the same check, and that divergence.
pub fn shrink(
    tree: &mut dyn ValueTree<Value = Sample>,
    found: Divergence,
    budget: Budget,
    permissions: bool,
    mut probe: impl FnMut(&Sample) -> Option<Divergence>,
) -> (Sample, Divergence) {
    let key = found.check();
    let mut best = (tree.current(), found);
    let started = Instant::now();
    let mut probes = 0;
    let within = |probes: usize| {
        probes < budget.probes && budget.time.is_none_or(|time| started.elapsed() < time)
    };
    // The simplest input of the tool first: what fails there is minimal.
    let simplest = best.0.simplest();
    if simplest != best.0 && within(probes) {
        probes += 1;
        if let Some(divergence) = probe(&simplest).filter(|d| d.check() == key) {
            return (simplest, divergence);
        }
    }
    if tree.simplify() {
        while within(probes) {
            probes += 1;
            let candidate = tree.current();
            match probe(&candidate).filter(|d| d.check() == key) {
                Some(divergence) => {
                    best = (candidate, divergence);
                    if !tree.simplify() {
                        break;
                    }
                }
                None => {
                    if !tree.complicate() {
                        break;
                    }
                }
            }
        }
    }
    // proptest cannot drop an entry that a path parameter reaches by
    // index; with the paths pinned as text, try each simpler step greedily.
    // After a success the walk goes on from the same position rather than
    // from the first step again, so a pass costs one probe per step and
    // ends after a whole round of steps that all failed.
    let mut current = best.0.pin(permissions);
    let (mut at, mut failed) = (0, 0);
    while within(probes) {
        let candidates = current.simpler();
        if failed >= candidates.len() {
            break;
        }
        let candidate = &candidates[at % candidates.len()];
        probes += 1;
        match probe(candidate).filter(|d| d.check() == key) {
            Some(divergence) => {
                best = (candidate.clone(), divergence);
                current = candidate.clone();
                failed = 0;
            }
            None => {
                at = at % candidates.len() + 1;
                failed += 1;
            }
        }
    }
    best
}
