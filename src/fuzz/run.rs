//! The fuzzing loop: iterations spread over workers, each with its own
//! reference and adapter; every divergence is shrunk once per key and kept
//! as a finding unless the adapter's expectations already know it.
//!
//! Iteration `i` of seed `s` always generates the same sample (its RNG is
//! seeded from both), so `--seed` reproduces a finding whatever `--jobs`.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

use crate::fuzz::finding::Finding;
use crate::fuzz::generate::{Capabilities, samples};
use crate::fuzz::probe::{Env, Probe, probe};
use crate::fuzz::shrink::{self, Budget};
use crate::harness::baseline::{Baseline, BaselineStatus};
use crate::harness::config::SubjectFactory;
use crate::subject::{AdapterFailure, FailureKind, Reference, Subject};
use crate::sys::is_root;
use toolpath_suite::protocol::{AdapterHello, Tool};

/// What to fuzz and for how long.
pub struct FuzzConfig<'a> {
    pub seed: u64,
    /// Stop after this many iterations (`None`: only `time` bounds the run).
    pub iterations: Option<u64>,
    pub time: Option<Duration>,
    pub jobs: usize,
    /// The adapter's expectations: findings on rules it lists are known.
    pub known: Baseline,
    pub shrink: Budget,
    /// Where fixtures are built (the system temporary directory if `None`):
    /// the session's run directory, so a killed run leaves nothing `toolpath
    /// clean` does not find.
    pub fixtures: Option<std::path::PathBuf>,
    /// Where each worker's reference makes its scratch directory (the
    /// system temporary directory if `None`): the run directory too.
    pub reference_scratch: Option<std::path::PathBuf>,
    /// Stop once this many new findings are kept.
    pub max_findings: Option<usize>,
    /// Called after every iteration (progress display).
    pub on_iteration: Option<&'a (dyn Fn(&Counts) + Sync)>,
    /// Called with each new finding, once shrunk.
    pub on_finding: Option<&'a (dyn Fn(&Finding) + Sync)>,
}

/// Running totals.
#[derive(Debug, Default)]
pub struct Counts {
    pub iterations: AtomicU64,
    pub skipped: AtomicU64,
    pub diverged: AtomicU64,
    /// Divergences on a key the expectations already list.
    pub known: AtomicU64,
    pub findings: AtomicU64,
}

/// The result of a fuzzing run.
#[derive(Debug)]
pub struct Summary {
    pub counts: Counts,
    /// New findings, one per key, lowest iteration first.
    pub findings: Vec<Finding>,
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

/// Whether the expectations file already lists this finding: by its id
/// (a glob such as `search.fuzz.*`) or by its rule (`spec:` of an entry).
///
/// A `skip` entry (a case that must not be sent, usually because it hangs
/// or crashes the adapter) counts for adapter failures on its rule.
fn is_known(known: &Baseline, finding: &Finding) -> bool {
    let rule = finding.divergence.rules[0].as_str();
    let failed = finding.divergence.adapter_failed();
    known.lookup(&finding.id()).is_some()
        || known.entries().any(|(_, e)| {
            let status = e.status == BaselineStatus::Xfail || failed;
            status
                && e.spec
                    .as_ref()
                    .is_some_and(|s| s.ids().iter().any(|id| id == rule))
        })
}

/// What the adapter's `hello` says it can take.
fn capabilities(hello: &AdapterHello) -> Capabilities {
    let feature = |name: &str| hello.features.iter().any(|f| f == name);
    Capabilities {
        // The file tools are not fuzzed yet: the generator has no file
        // paths to give them, and a write changes the fixture, which the
        // probe counts as a divergence. The suite's FILE cases cover them.
        tools: Tool::ALL
            .into_iter()
            .filter(|t| hello.tools.contains(t) && !t.is_file_tool())
            .collect(),
        symlinks: feature("symlinks"),
        fifos: feature("fifos"),
        sockets: feature("sockets"),
        permissions: !is_root(),
        // Fixture repositories are written in-process: always possible.
        git: true,
    }
}

type Key = (Vec<&'static str>, String);

/// State shared by the workers of one run.
struct Shared<'a, 'b> {
    config: &'a FuzzConfig<'b>,
    caps: Capabilities,
    env: Env,
    started: Instant,
    counts: Counts,
    next: AtomicU64,
    stop: AtomicBool,
    found: Mutex<BTreeMap<Key, Finding>>,
}

/// One worker's own subjects.
struct Subjects {
    reference: Reference,
    adapter: Box<dyn Subject + Send>,
}

impl Shared<'_, '_> {
    /// The next iteration to run, or `None` when the run is over.
    fn next_iteration(&self) -> Option<u64> {
        let i = self.next.fetch_add(1, Ordering::SeqCst);
        let out_of_time = self
            .config
            .time
            .is_some_and(|t| self.started.elapsed() >= t);
        // SIGINT/SIGTERM (the session's handlers) end the run between
        // iterations; what was found so far is kept.
        let done = self.stop.load(Ordering::SeqCst)
            || crate::sys::cancel::requested()
            || self.config.iterations.is_some_and(|n| i >= n)
            || out_of_time;
        (!done).then_some(i)
    }

    fn worker(&self, mut subjects: Subjects) {
        let strategy = samples(&self.caps);
        while let Some(i) = self.next_iteration() {
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
                Probe::Diverge(_) if crate::sys::cancel::requested() => break,
                Probe::Diverge(divergence) => {
                    self.counts.diverged.fetch_add(1, Ordering::SeqCst);
                    let finding = Finding {
                        seed: self.config.seed,
                        iteration: i,
                        divergence: *divergence,
                    };
                    self.record(finding, tree.as_mut(), s);
                }
            }
            self.counts.iterations.fetch_add(1, Ordering::SeqCst);
            if let Some(callback) = self.config.on_iteration {
                callback(&self.counts);
            }
        }
    }

    /// Whether a finding with this key at iteration `i` would be kept: it
    /// is new, or earlier than the one kept (so `--jobs` cannot change
    /// which iteration a finding is reported from).
    fn wanted(&self, key: &Key, i: u64) -> bool {
        let found = self.found.lock().expect("findings");
        found.get(key).is_none_or(|f| f.iteration > i)
    }

    /// Counts a known divergence, or shrinks a new one and keeps it.
    fn record(
        &self,
        unshrunk: Finding,
        tree: &mut dyn ValueTree<Value = crate::fuzz::sample::Sample>,
        s: &mut Subjects,
    ) {
        let key = unshrunk.divergence.key();
        let i = unshrunk.iteration;
        if is_known(&self.config.known, &unshrunk) {
            self.counts.known.fetch_add(1, Ordering::SeqCst);
            return;
        }
        if !self.wanted(&key, i) {
            return;
        }
        let (_, divergence) = shrink::shrink(
            tree,
            unshrunk.divergence,
            self.config.shrink,
            self.env.permissions,
            |sample| match probe(sample, &self.env, &mut s.reference, s.adapter.as_mut()) {
                Probe::Diverge(_) if crate::sys::cancel::requested() => None,
                Probe::Diverge(d) => Some(*d),
                _ => None,
            },
        );
        if crate::sys::cancel::requested() {
            // Shrinking was cut short: the finding is not minimal, and its
            // last probes were cancelled calls. The next run finds it again.
            return;
        }
        let finding = Finding {
            divergence,
            ..unshrunk
        };
        let mut all = self.found.lock().expect("findings");
        if all.get(&key).is_some_and(|f| f.iteration < i) {
            return;
        }
        if all.insert(key, finding.clone()).is_none() {
            self.counts.findings.fetch_add(1, Ordering::SeqCst);
        }
        if let Some(callback) = self.config.on_finding {
            callback(&finding);
        }
        if self.config.max_findings.is_some_and(|m| all.len() >= m) {
            self.stop.store(true, Ordering::SeqCst);
        }
    }
}

/// Fuzzes the adapter that `make` starts against the in-process reference.
pub fn fuzz(make: &SubjectFactory, config: &FuzzConfig) -> Result<Summary, AdapterFailure> {
    let started = Instant::now();
    let first = make()?;
    let hello = first.hello().clone();
    let caps = capabilities(&hello);
    if caps.tools.is_empty() {
        return Err(AdapterFailure {
            kind: FailureKind::BadOutput,
            message: "the adapter declares no tool this suite knows".into(),
            stderr: String::new(),
        });
    }
    let shared = Shared {
        env: Env {
            permissions: caps.permissions,
            fixtures: config.fixtures.clone(),
        },
        caps,
        config,
        started,
        counts: Counts::default(),
        next: AtomicU64::new(0),
        stop: AtomicBool::new(false),
        found: Mutex::new(BTreeMap::new()),
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
    let mut findings: Vec<Finding> = shared
        .found
        .into_inner()
        .expect("findings")
        .into_values()
        .collect();
    findings.sort_by_key(|f| f.iteration);
    Ok(Summary {
        counts: shared.counts,
        findings,
        elapsed: started.elapsed(),
        implementation: format!(
            "{} {}",
            hello.implementation.name, hello.implementation.version
        ),
    })
}
