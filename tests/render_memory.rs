//! The formats of `toolpath run` render a streamed report in memory that
//! does not grow with its instances (issue 14, flat memory).
//!
//! A counting allocator (this test binary's own) measures, to the byte, the
//! most memory the rendering thread holds at once while each format renders
//! a few thousand generated instances and then ten times as many. The
//! peaks must be equal: no threshold, so a machine's load cannot blur the
//! measure and a renderer that kept even one byte per instance would fail.
//! The cases are generated one at a time by the source, so the test itself
//! holds none.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::{Cell, RefCell};
use std::io;

use toolpath::report::render::{human, json, junit, markdown};
use toolpath::report::view::{CaseSource, View};
use toolpath::report::{CaseReport, ExpectationNote, REPORT_FORMAT, Report, Status, Summary};
use toolpath_suite::protocol::{Implementation, Tool};

/// The system allocator, counting the bytes each thread has live and the
/// most it has had, so other test threads do not blur the measure.
struct Counting;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn account(delta: isize) {
    // `try_with`: a thread being torn down has no counters left to keep.
    let _ = LIVE.try_with(|live| {
        let now = live.get() + delta;
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        account(layout.size() as isize);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        account(-(layout.size() as isize));
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        account(new_size as isize - layout.size() as isize);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most bytes held at once by this thread while `f` ran, beyond what
/// was held when it started.
fn peak_during(f: impl FnOnce()) -> isize {
    let start = LIVE.with(Cell::get);
    PEAK.with(|peak| peak.set(start));
    f();
    PEAK.with(Cell::get) - start
}

/// `n` instances made one at a time on every read, with a few statuses,
/// reasons, tools and requirement IDs repeating: what a long run's spool
/// gives back.
struct Generated(usize);

impl Generated {
    fn case(i: usize) -> CaseReport {
        let (status, reason) = match i % 10 {
            0 => (Status::Fail, None),
            1 => (Status::Skip, Some("needs root")),
            2 => (Status::Skip, Some("no tmpfs")),
            3 => (Status::Unsupported, Some("no shell tool")),
            4 => (Status::Xfail, None),
            5 => (Status::Unobserved, None),
            _ => (Status::Pass, None),
        };
        let failed = matches!(status, Status::Fail | Status::Xfail);
        CaseReport {
            id: format!("case-{i:06}@x"),
            case: format!("case-{i:06}"),
            tool: Tool::ALL[i % Tool::ALL.len()],
            file: format!("cases/case-{:02}.yaml", i % 50),
            line: 3,
            spec: vec![format!("RES-{}", i % 7), format!("OLD-{}", i % 3)],
            tags: Vec::new(),
            status,
            reason: reason.map(str::to_owned),
            mismatches: Vec::new(),
            diff: failed.then(|| "--- expected\n+++ actual\n-code: a\n+code: b\n".to_owned()),
            unchecked: Vec::new(),
            expectation: (status == Status::Xfail).then(|| ExpectationNote {
                reason: "known bug".to_owned(),
                spec: None,
                issue: None,
            }),
            stderr: None,
            fixture: None,
            containment: None,
            duration_ms: 1.25,
        }
    }

    fn summary(&self) -> Summary {
        let mut summary = Summary::default();
        for i in 0..self.0 {
            summary.add(Generated::case(i).status);
        }
        summary
    }
}

impl CaseSource for Generated {
    fn each(&self, visit: &mut dyn FnMut(&CaseReport) -> io::Result<()>) -> io::Result<()> {
        (0..self.0).try_for_each(|i| visit(&Generated::case(i)))
    }
}

fn head(summary: Summary) -> Report {
    Report {
        format: REPORT_FORMAT,
        suite: "0.3.0".to_owned(),
        protocol: 1,
        implementation: Implementation {
            name: "generated".to_owned(),
            version: "1".to_owned(),
            language: "rust".to_owned(),
        },
        adapter: None,
        partial: false,
        strict: false,
        duration_ms: 1000.0,
        waited_ms: 0.0,
        workers: 1,
        fixture_dir: None,
        unprotected: Vec::new(),
        selection: Default::default(),
        run_against: None,
        summary,
        findings: Vec::new(),
        profile_rules: Vec::new(),
        containment: Default::default(),
        rules: Default::default(),
        cases: Vec::new(),
    }
}

/// Instances in the smaller run and ten times as many in the larger one.
const SMALL: usize = 5_000;
const LARGE: usize = 10 * SMALL;

/// The peak of rendering `n` generated instances in `format` to a sink.
fn peak(format: &str, n: usize) -> isize {
    peak_of(format, &Generated(n), Generated(n).summary())
}

/// The peak of rendering `source`'s instances in `format` to a sink.
fn peak_of(format: &str, source: &dyn CaseSource, summary: Summary) -> isize {
    let head = head(summary);
    let view = View::streamed(&head, source);
    peak_during(|| {
        let out = &mut io::sink();
        match format {
            "human" => human::write(view, true, human::Detail::Every, out),
            "junit" => junit::write(view, out),
            "markdown" => markdown::write(view, out),
            "json" => json::write(view, out),
            other => panic!("no format {other}"),
        }
        .unwrap()
    })
}

const FORMATS: [&str; 4] = ["human", "junit", "markdown", "json"];

/// Exactly the same peak for ten times the instances: every instance is
/// the same size (fixed-width ids), so anything a renderer kept per
/// instance, even one byte, would show. The counts in the report's header
/// have one digit more in the larger run; a renderer that holds nothing
/// per instance does not hold more because of that at its peak.
#[test]
fn every_format_renders_in_memory_that_does_not_grow_with_instances() {
    for format in FORMATS {
        // Once first, so what is built once and kept (the embedded spec's
        // requirements, parsed on first use) is not counted as growth.
        peak(format, 10);
        let small = peak(format, SMALL);
        let large = peak(format, LARGE);
        eprintln!("{format}: at most {small} bytes for {SMALL} instances, {large} for {LARGE}");
        assert_eq!(
            large, small,
            "{format}: {small} bytes at most for {SMALL} instances, {large} for {LARGE}"
        );
    }
}

/// Generated instances, with one byte kept for each one read: the least
/// a renderer could hold per instance.
struct Leaky {
    cases: Generated,
    kept: RefCell<Vec<u8>>,
}

impl CaseSource for Leaky {
    fn each(&self, visit: &mut dyn FnMut(&CaseReport) -> io::Result<()>) -> io::Result<()> {
        self.cases.each(&mut |case| {
            self.kept.borrow_mut().push(0);
            visit(case)
        })
    }
}

/// The measure itself can fail: one byte held per instance shows in every
/// format, and so does holding the cases.
#[test]
fn holding_anything_per_instance_is_measured() {
    for format in FORMATS {
        let leaky = |n: usize| {
            let source = Leaky {
                cases: Generated(n),
                kept: RefCell::new(Vec::new()),
            };
            peak_of(format, &source, Generated(n).summary())
        };
        leaky(10);
        let (small, large) = (leaky(SMALL), leaky(LARGE));
        assert!(large > small, "{format}: {small} and {large}");
    }
    let kept = |n: usize| {
        peak_during(|| {
            let cases: Vec<CaseReport> = (0..n).map(Generated::case).collect();
            std::hint::black_box(&cases);
        })
    };
    assert!(kept(LARGE) > kept(SMALL) + 1024 * 1024);
}
