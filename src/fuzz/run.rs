//! The fuzzing loop: iterations spread over workers, each with its own
//! reference and adapter. A divergence (the judge failed the adapter) is
//! taken for a finding already made when its input has every feature of
//! that finding's shrunk input and fails the same check; otherwise it is
//! shrunk, and kept as a new finding unless its shrunk shape repeats one
//! already made or the adapter's expectations know it. A finding never
//! stops the search on its field: the next divergence of another shape on
//! the same field is shrunk and reported in its own right.
//!
//! Iteration `i` of seed `s` always generates the same sample (its RNG is
//! seeded from both), and divergences are recorded in iteration order
//! ([`Order`]): workers probe in parallel, but the one that diverged at
//! `i` waits until every iteration before `i` is recorded. So a run
//! bounded by iterations makes the same findings whatever `--jobs` (a run
//! bounded by time, or cut short, stops at a point that depends on speed).

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

use crate::fuzz::failed::Failed;
use crate::fuzz::finding::FuzzFinding;
use crate::fuzz::generate::{Capabilities, samples};
use crate::fuzz::probe::{Env, Probe, probe};
use crate::fuzz::shrink::{self, Budget};
use crate::fuzz::signature::Signature;
use crate::harness::baseline::{Baseline, BaselineStatus};
use crate::harness::config::SubjectFactory;
use crate::subject::{AdapterFailure, FailureKind, Reference, Subject};
use crate::sys::is_root;
use toolpath_suite::case::raw::Feature;
use toolpath_suite::protocol::{AdapterHello, Tool};

/// What to fuzz and for how long.
pub struct FuzzConfig<'a> {
    pub seed: u64,
    /// The iteration the run starts at (0 for a whole run). Iteration `i`'s
    /// sample depends on the seed and `i` alone, so a later one runs the
    /// same without those before it.
    pub first_iteration: u64,
    /// Stop after this many iterations (`None`: only `time` bounds the run).
    pub iterations: Option<u64>,
    pub time: Option<Duration>,
    /// Only these tools (empty: every tool the adapter has).
    pub tools: Vec<Tool>,
    pub jobs: usize,
    /// The adapter's expectations files: findings whose id one lists
    /// (`glob.fuzz.*`) or whose rule an `xfail` entry gives as `spec:` are
    /// known. Several, since the file `toolpath run --strict` reads may not
    /// list what no case matches.
    pub known: Vec<Baseline>,
    pub shrink: Budget,
    /// Where fixtures are built (the system temporary directory if `None`):
    /// the session's run directory, so a killed run leaves nothing `toolpath
    /// clean` does not find.
    pub fixtures: Option<std::path::PathBuf>,
    /// Where each worker's reference makes its scratch directory (the
    /// system temporary directory if `None`): the run directory too.
    pub reference_scratch: Option<std::path::PathBuf>,
    /// How long a call on a fixture with FIFOs is waited for before they
    /// are released ([`crate::subject::fifos`]): the adapter blocked on one
    /// is a finding after this bound, not after the call's timeout.
    pub hang_timeout: Duration,
    /// The call's time limit, which each fixture's build gets too, as in
    /// a suite run.
    pub fixture_timeout: Duration,
    /// Stop once this many new findings are kept.
    pub max_findings: Option<usize>,
    /// Called after every iteration (progress display).
    pub on_iteration: Option<&'a (dyn Fn(&FuzzTally) + Sync)>,
    /// Called with each new finding, once shrunk.
    pub on_finding: Option<&'a (dyn Fn(&FuzzFinding) + Sync)>,
    /// Which signal cancelled the run, if one did (the session's): the run
    /// then ends between iterations, and a call it cut short is no finding.
    pub cancelled: &'a (dyn Fn() -> Option<i32> + Sync),
}

/// Running totals.
#[derive(Debug, Default)]
pub struct FuzzTally {
    pub iterations: AtomicU64,
    pub skipped: AtomicU64,
    pub diverged: AtomicU64,
    /// Divergences the expectations already list.
    pub known: AtomicU64,
    /// Divergences taken for a finding already made (new or known).
    pub repeated: AtomicU64,
    pub findings: AtomicU64,
}

/// The result of a fuzzing run.
#[derive(Debug)]
pub struct Fuzzed {
    pub counts: FuzzTally,
    /// New findings, one per check and shape, lowest iteration first.
    pub findings: Vec<FuzzFinding>,
    pub elapsed: Duration,
    pub implementation: String,
}

/// The RNG of one iteration.
pub(crate) fn rng(seed: u64, iteration: u64) -> TestRng {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8..16].copy_from_slice(&iteration.to_le_bytes());
    bytes[16..].copy_from_slice(b"toolpath-fuzz-v1");
    TestRng::from_seed(RngAlgorithm::ChaCha, &bytes)
}

/// Whether the expectations file lists every failure of this finding's
/// rule: an `xfail` entry whose `spec:` names it (or, for an adapter
/// failure, a `skip` entry too: a case that must not be sent, usually
/// because it hangs or crashes the adapter). Known by its rule, a
/// divergence needs no shrinking to be set aside.
fn known_rule(known: &[Baseline], finding: &FuzzFinding) -> bool {
    let rule = finding.divergence.rules[0].as_str();
    let failed = finding.divergence.adapter_failed();
    known.iter().flat_map(Baseline::entries).any(|(_, e)| {
        let status = e.status == BaselineStatus::Xfail || failed;
        status
            && e.spec
                .as_ref()
                .is_some_and(|s| s.ids().iter().any(|id| id == rule))
    })
}

/// What the adapter's `hello` says it can take, of the `chosen` tools
/// (all when empty).
fn capabilities(hello: &AdapterHello, chosen: &[Tool]) -> Capabilities {
    let declared = [Feature::Symlinks, Feature::Fifos, Feature::Sockets]
        .into_iter()
        .filter(|f| hello.features.contains(f));
    // Modes only where they can be observed; fixture repositories are
    // written in-process: always possible.
    let permissions = (!is_root()).then_some(Feature::Permissions);
    Capabilities {
        tools: Tool::ALL
            .into_iter()
            .filter(|t| hello.tools.contains(t))
            .filter(|t| chosen.is_empty() || chosen.contains(t))
            .collect(),
        features: declared.chain(permissions).chain([Feature::Git]).collect(),
    }
}

/// Iterations are recorded in order: [`Order::wait_for`] returns once
/// every iteration before the given one is [`Order::done`]. Every
/// iteration handed out is marked done exactly once (by [`Turn`], also
/// when its worker stops early), so a wait always ends.
struct Order {
    state: Mutex<(u64, BTreeSet<u64>)>,
    turn: Condvar,
}

impl Order {
    /// Nothing recorded yet; `first` is the first iteration handed out.
    fn starting_at(first: u64) -> Order {
        Order {
            state: Mutex::new((first, BTreeSet::new())),
            turn: Condvar::new(),
        }
    }

    fn done(&self, i: u64) {
        let mut state = self.state.lock().expect("order");
        let (below, done) = &mut *state;
        done.insert(i);
        // Saturating: the last iteration there is (`--first-iteration`
        // lets a run reach it) has no next one.
        while done.remove(below) {
            *below = below.saturating_add(1);
        }
        self.turn.notify_all();
    }

    fn wait_for(&self, i: u64) {
        let mut state = self.state.lock().expect("order");
        while state.0 < i {
            state = self.turn.wait(state).expect("order");
        }
    }
}

/// Iteration `i`, marked done when dropped.
struct Turn<'a>(&'a Order, u64);

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        self.0.done(self.1);
    }
}

/// What the findings made so far explain: each one's check and the
/// features of its shrunk input, known ones included.
#[derive(Default)]
struct Explained {
    explained: Vec<((Failed, String), Signature)>,
    findings: Vec<FuzzFinding>,
}

impl Explained {
    fn explains(&self, check: &(Failed, String), signature: &Signature) -> bool {
        self.explained
            .iter()
            .any(|(c, s)| c == check && s.explains(signature))
    }
}

/// State shared by the workers of one run.
struct Shared<'a, 'b> {
    config: &'a FuzzConfig<'b>,
    caps: Capabilities,
    env: Env,
    started: Instant,
    counts: FuzzTally,
    next: AtomicU64,
    order: Order,
    stop: AtomicBool,
    found: Mutex<Explained>,
}

/// One worker's own subjects.
struct Subjects {
    reference: Reference,
    adapter: Box<dyn Subject + Send>,
}

impl Shared<'_, '_> {
    /// Whether the run was cancelled.
    fn cancelled(&self) -> bool {
        (self.config.cancelled)().is_some()
    }

    /// The next iteration to run, or `None` when the run is over.
    fn next_iteration(&self) -> Option<Turn<'_>> {
        let i = self.next.fetch_add(1, Ordering::SeqCst);
        let turn = Turn(&self.order, i);
        // Past the last iteration there is, the count wraps around.
        let wrapped = i < self.config.first_iteration;
        let out_of_time = self
            .config
            .time
            .is_some_and(|t| self.started.elapsed() >= t);
        // SIGINT/SIGTERM (the session's handlers) end the run between
        // iterations; what was found so far is kept.
        let done = self.stop.load(Ordering::SeqCst)
            || wrapped
            || self.cancelled()
            || self
                .config
                .iterations
                .is_some_and(|n| i >= self.config.first_iteration.saturating_add(n))
            || out_of_time;
        (!done).then_some(turn)
    }

    fn worker(&self, mut subjects: Subjects) {
        let strategy = samples(&self.caps);
        while let Some(turn) = self.next_iteration() {
            let i = turn.1;
            let mut runner = TestRunner::new_with_rng(Config::default(), rng(self.config.seed, i));
            let mut tree = strategy
                .new_tree(&mut runner)
                .expect("the sample strategy never rejects");
            let s = &mut subjects;
            match probe(
                &tree.current(),
                &self.env,
                &mut s.reference,
                s.adapter.as_mut(),
            ) {
                Probe::Agree => {}
                Probe::Skipped(_) => {
                    self.counts.skipped.fetch_add(1, Ordering::SeqCst);
                }
                // A call the cancellation cut short is no finding.
                Probe::Diverge(_) if self.cancelled() => break,
                Probe::Diverge(divergence) => {
                    self.counts.diverged.fetch_add(1, Ordering::SeqCst);
                    let finding = FuzzFinding {
                        seed: self.config.seed,
                        iteration: i,
                        divergence: *divergence,
                    };
                    self.order.wait_for(i);
                    if !self.stop.load(Ordering::SeqCst) {
                        self.record(finding, tree.as_mut(), s);
                    }
                }
            }
            drop(turn);
            self.counts.iterations.fetch_add(1, Ordering::SeqCst);
            if let Some(callback) = self.config.on_iteration {
                callback(&self.counts);
            }
        }
    }

    /// Sets a divergence aside (its rule known, or a finding already made
    /// explains it), or shrinks it and keeps it: as a new finding, or as a
    /// known one whose id the expectations list. Called in iteration order.
    fn record(
        &self,
        unshrunk: FuzzFinding,
        tree: &mut dyn ValueTree<Value = crate::fuzz::sample::Sample>,
        s: &mut Subjects,
    ) {
        let check = unshrunk.divergence.check();
        if known_rule(&self.config.known, &unshrunk) {
            self.counts.known.fetch_add(1, Ordering::SeqCst);
            return;
        }
        let explained = |signature: &Signature| {
            let found = self.found.lock().expect("findings");
            found.explains(&check, signature)
        };
        if explained(&unshrunk.divergence.signature) {
            self.counts.repeated.fetch_add(1, Ordering::SeqCst);
            return;
        }
        let (_, divergence) = shrink::shrink(
            tree,
            unshrunk.divergence,
            self.config.shrink,
            self.env.permissions,
            |sample| match probe(sample, &self.env, &mut s.reference, s.adapter.as_mut()) {
                Probe::Diverge(_) if self.cancelled() => None,
                Probe::Diverge(d) => Some(*d),
                _ => None,
            },
        );
        if self.cancelled() {
            // Shrinking was cut short: the finding is not minimal, and its
            // last probes were cancelled calls. The next run finds it again.
            return;
        }
        let finding = FuzzFinding {
            divergence,
            ..unshrunk
        };
        let signature = finding.divergence.signature.clone();
        let mut found = self.found.lock().expect("findings");
        if found.explains(&check, &signature) {
            // Shrunk to the shape of a finding already made.
            self.counts.repeated.fetch_add(1, Ordering::SeqCst);
            return;
        }
        found.explained.push((check, signature));
        let id = finding.id();
        if self.config.known.iter().any(|k| k.lookup(&id).is_some()) {
            self.counts.known.fetch_add(1, Ordering::SeqCst);
            return;
        }
        found.findings.push(finding.clone());
        self.counts.findings.fetch_add(1, Ordering::SeqCst);
        if let Some(callback) = self.config.on_finding {
            callback(&finding);
        }
        if self
            .config
            .max_findings
            .is_some_and(|m| found.findings.len() >= m)
        {
            self.stop.store(true, Ordering::SeqCst);
        }
    }
}

/// Fuzzes the adapter that `make` starts against the in-process reference.
pub fn fuzz(make: &SubjectFactory, config: &FuzzConfig) -> Result<Fuzzed, AdapterFailure> {
    let started = Instant::now();
    let first = make()?;
    let hello = first.hello().clone();
    let caps = capabilities(&hello, &config.tools);
    if caps.tools.is_empty() {
        return Err(AdapterFailure {
            kind: FailureKind::BadOutput,
            message: if config.tools.is_empty() {
                "the adapter declares no tool this suite knows".into()
            } else {
                "the adapter declares none of the tools --tool names".into()
            },
            stderr: String::new(),
        });
    }
    let shared = Shared {
        env: Env {
            permissions: caps.features.contains(&Feature::Permissions),
            fixtures: config.fixtures.clone(),
            hang_timeout: config.hang_timeout,
            fixture_timeout: config.fixture_timeout,
        },
        caps,
        config,
        started,
        counts: FuzzTally::default(),
        next: AtomicU64::new(config.first_iteration),
        order: Order::starting_at(config.first_iteration),
        stop: AtomicBool::new(false),
        found: Mutex::new(Explained::default()),
    };
    let first = Mutex::new(Some(first));
    let start_worker = || -> Result<(), AdapterFailure> {
        let taken = first.lock().expect("first adapter").take();
        let adapter = match taken {
            Some(a) => a,
            None => make()?,
        };
        let reference = match &config.reference_scratch {
            Some(parent) => {
                Reference::with_scratch_in(parent, crate::subject::DEFAULT_CALL_TIMEOUT)
            }
            None => Reference::default(),
        };
        shared.worker(Subjects { reference, adapter });
        Ok(())
    };
    let results: Vec<Result<(), AdapterFailure>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..config.jobs.max(1))
            .map(|_| scope.spawn(start_worker))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("fuzz worker panicked"))
            .collect()
    });
    results.into_iter().collect::<Result<Vec<()>, _>>()?;
    let findings = shared.found.into_inner().expect("findings").findings;
    Ok(Fuzzed {
        counts: shared.counts,
        findings,
        elapsed: started.elapsed(),
        implementation: format!(
            "{} {}",
            hello.implementation.name, hello.implementation.version
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A divergence at `i` is recorded only once every iteration before it
    /// is: whatever order the workers finish in.
    #[test]
    fn a_wait_ends_once_every_earlier_iteration_is_done() {
        let order = Order::starting_at(0);
        let below = |order: &Order| order.state.lock().unwrap().0;
        order.done(1);
        order.done(3);
        assert_eq!(below(&order), 0, "0 is not done yet");
        order.done(0);
        assert_eq!(below(&order), 2, "0 and 1 are");
        order.wait_for(2);
        std::thread::scope(|scope| {
            let waiting = scope.spawn(|| order.wait_for(5));
            order.done(2);
            order.done(4);
            waiting.join().unwrap();
        });
        assert_eq!(below(&order), 5);
        // A turn is done when it is dropped, however its worker stops.
        drop(Turn(&order, 5));
        assert_eq!(below(&order), 6);
    }

    /// The run ends between iterations once its `cancelled` says so, with
    /// no signal sent: after the third iteration here, of a thousand.
    #[test]
    fn a_cancelled_run_stops_between_iterations() {
        let fixtures = tempfile::tempdir().unwrap();
        let three = AtomicBool::new(false);
        let progress = |counts: &FuzzTally| {
            if counts.iterations.load(Ordering::SeqCst) == 3 {
                three.store(true, Ordering::SeqCst);
            }
        };
        let cancelled = || three.load(Ordering::SeqCst).then_some(crate::sys::SIGINT);
        let config = FuzzConfig {
            seed: 1,
            first_iteration: 0,
            iterations: Some(1_000),
            time: None,
            tools: Vec::new(),
            jobs: 1,
            known: Vec::new(),
            shrink: Budget::default(),
            fixtures: Some(fixtures.path().to_owned()),
            reference_scratch: Some(fixtures.path().to_owned()),
            hang_timeout: crate::subject::fifos::DEFAULT_HANG_TIMEOUT,
            fixture_timeout: crate::subject::DEFAULT_CALL_TIMEOUT,
            max_findings: None,
            on_iteration: Some(&progress),
            on_finding: None,
            cancelled: &cancelled,
        };
        let reference = || Ok(Box::new(Reference::default()) as Box<dyn Subject + Send>);
        let summary = fuzz(&reference, &config).unwrap();
        assert_eq!(summary.counts.iterations.load(Ordering::SeqCst), 3);
        assert!(summary.findings.is_empty());
    }
}
