//! The HTML certification page in a real browser: Debian's Chromium,
//! headless, driven over the DevTools protocol on a pipe
//! (`--remote-debugging-pipe`: JSON messages ending in a NUL byte, written
//! to the browser's fd 3 and read from its fd 4), so no WebDriver, npm
//! package or network port is involved.
//!
//! The page is built from real runs (the reference; a mutant adapter with
//! half of its failures listed as expected, so there are failures and
//! expected failures) and from a hand-written hostile report whose ids,
//! reasons, diffs and implementation name are HTML and `</script>`, and one
//! of whose reasons carries an escape sequence, a bidi override, a
//! zero-width joiner and a lone CR. The test checks that it loads without a
//! console error or exception, that the matrix has exactly one cell per
//! requirement and report with the colour and counts the report JSON gives
//! (computed here independently of the renderer), that a real mouse click
//! on a failing cell lists that cell's failing instances with their diffs,
//! and that nothing hostile ran, became markup or reached the page's text
//! without its stand-in. The committed `docs/certification/index.html` is
//! loaded and clicked too. Screenshots go to `target/browser-test/` for
//! review.
//!
//! Chromium is `/usr/bin/chromium` (or `$TOOLPATH_CHROMIUM`). Without it
//! the test says so on stderr and passes only when
//! `TOOLPATH_REQUIRE_BROWSER` is unset; `scripts/test` and `.ci/run` install
//! it and set the variable, so there it fails instead.
//!
//! scripts/test-lanes: after the setup, which installs Chromium.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::{Value, json};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Every wait on the browser is bounded by this. Generous because the
/// machine running the tests may be a busy 2-core one where Chromium's
/// start alone has taken seconds; it only turns a hang into a failure.
const WAIT: Duration = Duration::from_secs(120);
/// The size of the window the page is laid out in, but for the README's
/// picture (which has its own).
const WINDOW: (u32, u32) = (1400, 900);

fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("TOOLPATH_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    if path.is_file() {
        return Some(path);
    }
    let message = format!(
        "{} is missing: install Debian's chromium (scripts/setup-chromium)",
        path.display()
    );
    assert!(
        std::env::var_os("TOOLPATH_REQUIRE_BROWSER").is_none(),
        "{message}"
    );
    eprintln!("SKIPPED: {message}");
    None
}

/// A headless Chromium and one page in it, over the DevTools pipe.
struct Browser {
    child: Child,
    to_browser: std::io::PipeWriter,
    from_browser: Receiver<Value>,
    next_id: u64,
    session: String,
    /// Events seen while waiting for answers, in order.
    events: Vec<Value>,
    /// Chromium's `--user-data-dir`, and its `TMPDIR` (`tmp` inside).
    profile: tempfile::TempDir,
}

impl Browser {
    fn start(binary: &Path) -> Browser {
        let profile = tempfile::tempdir().unwrap();
        // Chromium's own temporary files (a directory per start, which it
        // leaves behind when killed) go inside the profile, which is
        // removed after it: under /tmp, every run left one.
        let temporary = profile.path().join("tmp");
        std::fs::create_dir(&temporary).unwrap();
        let (their_in, to_browser) = std::io::pipe().unwrap();
        let (from_them, their_out) = std::io::pipe().unwrap();
        let (fd_in, fd_out) = (their_in.as_raw_fd(), their_out.as_raw_fd());
        let mut command = Command::new(binary);
        command
            .args([
                "--headless",
                "--remote-debugging-pipe",
                // Root in a container has no user namespace to sandbox with.
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-extensions",
                "--hide-scrollbars",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .env("TMPDIR", &temporary)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: only async-signal-safe calls (dup, dup2) between fork and
        // exec. dup gives copies without close-on-exec at fresh numbers, so
        // moving them to 3 and 4 cannot clobber the other end.
        unsafe {
            command.pre_exec(move || {
                let (a, b) = (libc::dup(fd_in), libc::dup(fd_out));
                if a < 0 || b < 0 || libc::dup2(a, 3) < 0 || libc::dup2(b, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = command.spawn().expect("chromium starts");
        drop((their_in, their_out));
        let (tx, from_browser) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(from_them);
            let mut message = Vec::new();
            while reader.read_until(0, &mut message).unwrap_or(0) > 0 {
                message.pop_if(|b| *b == 0);
                if let Ok(value) = serde_json::from_slice(&message)
                    && tx.send(value).is_err()
                {
                    break;
                }
                message.clear();
            }
        });
        let mut browser = Browser {
            child,
            to_browser,
            from_browser,
            next_id: 0,
            session: String::new(),
            events: Vec::new(),
            profile,
        };
        browser.open_page();
        browser
    }

    fn open_page(&mut self) {
        let target = self.call("Target.createTarget", json!({"url": "about:blank"}));
        let attached = self.call(
            "Target.attachToTarget",
            json!({"targetId": target["targetId"], "flatten": true}),
        );
        self.session = attached["sessionId"].as_str().unwrap().to_owned();
        for domain in ["Page.enable", "Runtime.enable", "Log.enable"] {
            self.call(domain, json!({}));
        }
        self.resize(WINDOW);
    }

    /// Lays the page out as in a window of `(width, height)` pixels.
    fn resize(&mut self, (width, height): (u32, u32)) {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}),
        );
    }

    /// Sends a command (to the page once attached) and waits for its answer.
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({"id": id, "method": method, "params": params});
        if !self.session.is_empty() {
            message["sessionId"] = json!(self.session);
        }
        let mut bytes = serde_json::to_vec(&message).unwrap();
        bytes.push(0);
        self.to_browser.write_all(&bytes).expect("chromium reads");
        let answer = self.wait_for(|m| m["id"] == id, method);
        assert!(answer["error"].is_null(), "{method}: {answer}");
        answer["result"].clone()
    }

    /// Waits for a message `matches` accepts, keeping every event seen.
    fn wait_for(&mut self, matches: impl Fn(&Value) -> bool, what: &str) -> Value {
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.from_browser.recv_timeout(left) {
                Ok(message) if matches(&message) => {
                    if message["method"].is_string() {
                        self.events.push(message.clone());
                    }
                    return message;
                }
                Ok(message) => {
                    if message["method"].is_string() {
                        self.events.push(message);
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("no answer to {what} in {WAIT:?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("chromium went away during {what}"),
            }
        }
    }

    fn load(&mut self, page: &Path) {
        let url = format!("file://{}", page.display());
        self.events.clear();
        self.call("Page.navigate", json!({"url": url}));
        self.wait_for(|m| m["method"] == "Page.loadEventFired", "the page's load");
    }

    /// The value of a JavaScript expression in the page (JSON-able).
    fn eval(&mut self, expression: &str) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true}),
        );
        assert!(
            result["exceptionDetails"].is_null(),
            "{expression}: {result}"
        );
        result["result"]["value"].clone()
    }

    /// A real click, as the mouse does it, at the middle of `selector`'s
    /// element after scrolling it into view.
    fn click(&mut self, selector: &str) {
        let js = format!(
            "(() => {{ const e = document.querySelector({}); e.scrollIntoView({{block: 'center', inline: 'center'}}); \
             const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()",
            json!(selector)
        );
        let at = self.eval(&js);
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": at[0], "y": at[1], "button": "left", "clickCount": 1}),
            );
        }
    }

    fn screenshot(&mut self, name: &str) -> PathBuf {
        let shot = self.call("Page.captureScreenshot", json!({"format": "png"}));
        let png = base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().unwrap())
            .unwrap();
        let dir = Path::new(ROOT).join("target/browser-test");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, png).unwrap();
        eprintln!("screenshot: {}", path.display());
        path
    }

    /// Console errors, warnings and uncaught exceptions since the last load.
    fn complaints(&self) -> Vec<&Value> {
        self.events
            .iter()
            .filter(|e| match e["method"].as_str() {
                Some("Runtime.exceptionThrown") => true,
                Some("Runtime.consoleAPICalled") => {
                    matches!(
                        e["params"]["type"].as_str(),
                        Some("error" | "warning" | "assert")
                    )
                }
                Some("Log.entryAdded") => {
                    matches!(
                        e["params"]["entry"]["level"].as_str(),
                        Some("error" | "warning")
                    )
                }
                _ => false,
            })
            .collect()
    }

    /// The entries Chromium made in its temporary directory: none would
    /// mean it ignored `TMPDIR` and wrote them elsewhere (/tmp).
    fn temporary_entries(&self) -> usize {
        std::fs::read_dir(self.profile.path().join("tmp"))
            .map(|entries| entries.count())
            .unwrap_or(0)
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn toolpath(args: &[&str]) -> std::process::Output {
    let out = Command::new(env!("CARGO_BIN_EXE_toolpath"))
        .current_dir(ROOT)
        .env("TOOLPATH_BIN", env!("CARGO_BIN_EXE_toolpath"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "toolpath {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The reports the page is built from: the reference, a mutant with its
/// `@grep` failures listed as expected (so both shades of failure occur),
/// and a hostile hand-written one.
fn reports(dir: &Path) -> Vec<PathBuf> {
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let (reference, all, grep, mutant) = (
        path("reference.json"),
        path("all.yaml"),
        path("grep.yaml"),
        path("mutant.json"),
    );
    toolpath(&["run", "--format", "json", "--output", &reference]);
    let adapter = "python3 tests/adapters/mutant.py pre-change-search";
    let common = [
        "run",
        "--jobs",
        "2",
        "--adapter",
        adapter,
        "--format",
        "json",
    ];
    toolpath(&[&common[..], &["--write-expectations", &all]].concat());
    // Keep the entries of grep instances only: a top-level key and the
    // indented lines under it.
    let all = std::fs::read_to_string(dir.join("all.yaml")).unwrap();
    let mut keep = false;
    let mut grep_only = String::new();
    for line in all.lines() {
        if !line.starts_with([' ', '#']) {
            keep = line.ends_with("@grep:");
        }
        if keep {
            grep_only.push_str(line);
            grep_only.push('\n');
        }
    }
    assert!(!grep_only.is_empty(), "the mutant fails some grep cases");
    std::fs::write(dir.join("grep.yaml"), grep_only).unwrap();
    toolpath(&[&common[..], &["--expectations", &grep, "--output", &mutant]].concat());
    // The mutant forwards the reference's `hello`: give it its own name.
    let mut mutant: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("mutant.json")).unwrap()).unwrap();
    mutant["implementation"]["name"] = json!("mutant pre-change-search");
    std::fs::write(dir.join("mutant.json"), mutant.to_string()).unwrap();
    std::fs::write(dir.join("hostile.json"), hostile().to_string()).unwrap();
    ["reference.json", "mutant.json", "hostile.json"]
        .iter()
        .map(|n| dir.join(n))
        .collect()
}

const SCRIPT_ID: &str = "</script><script>window.__pwned = 1</script>";
const IMG: &str = "<img src=x onerror=\"window.__pwned = 2\">";
/// What markup escaping does not stop: an escape sequence, a right-to-left
/// override, a zero-width joiner, a lone CR.
const INVISIBLE: &str = "\u{1b}[2J\u{202e}txt.exe\u{200d}\rx";
/// [`INVISIBLE`] as the page shows it: with `toolpath_suite::sanitize`'s stand-ins.
const INVISIBLE_SHOWN: &str = "␛[2J‹U+202E›txt.exe‹U+200D›␍x";

/// A report as an adapter and case files could make it: markup in every
/// string, and one instance of each status the page tells apart.
fn hostile() -> Value {
    let case = |id: &str, status: &str, spec: &[&str]| {
        json!({"id": id, "case": id, "tool": "grep", "file": "cases/evil.yaml", "line": 7,
               "spec": spec, "tags": [], "status": status, "duration_ms": 1.0})
    };
    let mut bad = case(SCRIPT_ID, "fail", &["RES-1", "SEARCH-1"]);
    bad["reason"] = json!(format!("reason {IMG}{INVISIBLE}"));
    bad["diff"] = json!(format!(
        "--- expected\n+++ actual\n-path: {SCRIPT_ID}\n+path: {IMG}\n"
    ));
    let mut known = case("known<b>bold</b>", "xfail", &["RES-4"]);
    known["diff"] = json!("-a\n+b\n");
    known["expectation"] = json!({"reason": "tracked </script>", "issue": "x"});
    let cases = vec![
        bad,
        known,
        case("seen", "unobserved", &["RES-2"]),
        case("absent", "unsupported", &["RES-3"]),
        case("crashed", "adapter_error", &["SHELL-1"]),
        case("fine", "pass", &["SHELL-1"]),
        case("skipped", "skip", &["SEC-1"]),
    ];
    // Of this suite version: a page compares reports of one version
    // (`toolpath certification` refuses others without --mixed-versions).
    json!({"format": 1, "suite": env!("CARGO_PKG_VERSION"), "protocol": 1,
           "implementation": {"name": format!("hostile {IMG}"), "version": "</style>", "language": "x"},
           "partial": false, "strict": false, "duration_ms": 1.0,
           "summary": {"total": 0, "pass": 0, "fail": 0, "skip": 0, "unsupported": 0,
                       "adapter_error": 0, "xfail": 0, "xpass": 0, "not_run": 0, "case_error": 0},
           "cases": cases})
}

/// What one cell must show, computed from the report JSON alone.
#[derive(Debug, Default, PartialEq, Eq, Clone)]
struct Cell {
    shade: String,
    counts: [u64; 6],
}

/// (implementation label, requirement) -> cell, for every requirement of
/// the spec and every report.
fn expected_cells(reports: &[Value]) -> BTreeMap<(String, String), Cell> {
    let mut cells = BTreeMap::new();
    for report in reports {
        let label = label(report);
        for requirement in toolpath_suite::spec::requirements() {
            // passed, failed, xfail, unobserved, unsupported, skipped
            let mut n = [0u64; 6];
            for case in report["cases"].as_array().unwrap() {
                if !case["spec"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|s| *s == *requirement.id)
                {
                    continue;
                }
                match case["status"].as_str().unwrap() {
                    "pass" | "xpass" => n[0] += 1,
                    "fail" | "adapter_error" | "case_error" => n[1] += 1,
                    "xfail" => (n[1] += 1, n[2] += 1).0,
                    "unobserved" => n[3] += 1,
                    "unsupported" => n[4] += 1,
                    "skip" | "not_run" => n[5] += 1,
                    other => panic!("status {other}"),
                }
            }
            let shade = match n {
                [_, f, x, ..] if f > x => "fail",
                [_, f, ..] if f > 0 => "xfail",
                [p, ..] if p > 0 => "pass",
                [.., o, _, _] if o > 0 => "unobserved",
                [.., u, _] if u > 0 => "unsupported",
                _ => "none",
            };
            cells.insert(
                (label.clone(), requirement.id.clone()),
                Cell {
                    shade: shade.into(),
                    counts: n,
                },
            );
        }
    }
    cells
}

/// The cells the page shows, read from the DOM.
fn shown_cells(browser: &mut Browser) -> BTreeMap<(String, String), Cell> {
    let cells = browser.eval(
        "Array.from(document.querySelectorAll('#matrix td.cell')).map(td => ({
            label: document.querySelector(`th.imp[data-col=\"${td.dataset.col}\"]`).firstChild.textContent,
            req: td.dataset.req,
            classes: Array.from(td.classList).filter(c => c !== 'cell'),
            counts: ['passed', 'failed', 'xfail', 'unobserved', 'unsupported', 'skipped'].map(k => Number(td.dataset[k])),
            ratio: td.querySelector('.n').textContent }))",
    );
    let mut shown = BTreeMap::new();
    for cell in cells.as_array().unwrap() {
        let classes = cell["classes"].as_array().unwrap();
        assert_eq!(classes.len(), 1, "one shade per cell: {cell}");
        let counts: Vec<u64> = cell["counts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap())
            .collect();
        let ratio = match counts[0] + counts[1] {
            0 => "—".to_owned(),
            applicable => format!("{}/{applicable}", counts[0]),
        };
        assert_eq!(cell["ratio"], ratio, "{cell}");
        let key = (
            cell["label"].as_str().unwrap().to_owned(),
            cell["req"].as_str().unwrap().to_owned(),
        );
        let value = Cell {
            shade: classes[0].as_str().unwrap().to_owned(),
            counts: counts.try_into().unwrap(),
        };
        assert!(
            shown.insert(key, value).is_none(),
            "one cell per requirement and report: {cell}"
        );
    }
    shown
}

/// The failing instances the side panel lists: (heading, diff text).
fn detail(browser: &mut Browser) -> Vec<(String, String)> {
    let items = browser.eval(
        "Array.from(document.querySelectorAll('#detail article')).map(a => [
            a.querySelector('h3').textContent,
            (a.querySelector('pre.diff') || {textContent: ''}).textContent])",
    );
    serde_json::from_value(items).unwrap()
}

/// (id, diff) of `report`'s failing instances citing `req`, as the panel
/// should list them.
fn failing(report: &Value, req: &str) -> Vec<(String, String)> {
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| {
            matches!(
                c["status"].as_str(),
                Some("fail" | "xfail" | "adapter_error" | "case_error")
            )
        })
        .filter(|c| c["spec"].as_array().unwrap().iter().any(|s| s == req))
        .map(|c| {
            let heading = format!(
                "{} ({})",
                c["id"].as_str().unwrap(),
                c["status"].as_str().unwrap()
            );
            let diff = c["diff"]
                .as_str()
                .map(|d| format!("{}\n", d.trim_end_matches('\n')))
                .unwrap_or_default();
            (heading, diff)
        })
        .collect()
}

#[test]
fn the_certification_page_works_in_a_browser() {
    let Some(binary) = chromium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let paths = reports(dir.path());
    let page = dir.path().join("certification.html");
    let mut args = vec![
        "certification",
        "--format",
        "html",
        "--output",
        page.to_str().unwrap(),
    ];
    args.extend(paths.iter().map(|p| p.to_str().unwrap()));
    toolpath(&args);
    let reports: Vec<Value> = paths
        .iter()
        .map(|p| serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap())
        .collect();

    let mut browser = Browser::start(&binary);
    browser.load(&page);
    assert!(
        browser.temporary_entries() > 0,
        "Chromium's temporary files are not in its profile"
    );
    assert!(
        browser.complaints().is_empty(),
        "console: {:?}",
        browser.complaints()
    );

    // The matrix: every (report, requirement) once, as the JSON says.
    let expected = expected_cells(&reports);
    let shown = shown_cells(&mut browser);
    assert_eq!(shown.len(), expected.len());
    assert_eq!(shown, expected);
    let columns = browser.eval("document.querySelectorAll('#matrix th.imp').length");
    assert_eq!(columns, reports.len());
    let shades: std::collections::BTreeSet<&str> =
        shown.values().map(|c| c.shade.as_str()).collect();
    assert_eq!(
        shades.into_iter().collect::<Vec<_>>(),
        ["fail", "none", "pass", "unobserved", "unsupported", "xfail"],
        "every shade occurs, so each was checked"
    );

    // A failing cell of the mutant (with failures and expected failures):
    // a real click lists its instances.
    let mutant = &reports[1];
    let req = shown
        .iter()
        .find(|((l, _), c)| *l == label(mutant) && c.shade == "fail" && c.counts[2] > 0)
        .map(|((_, req), _)| req.clone())
        .expect("a mutant cell with failures and expected failures");
    let col = column(&mut browser, &label(mutant));
    let selector = format!("td.cell[data-col=\"{col}\"][data-req=\"{req}\"]");
    assert_eq!(detail(&mut browser), [], "nothing listed before a click");
    browser.click(&selector);
    let listed = detail(&mut browser);
    assert_eq!(listed, failing(mutant, &req), "{req}");
    assert!(
        listed
            .iter()
            .any(|(_, diff)| diff.contains("\n-") && diff.contains("\n+")),
        "{listed:?}"
    );
    let selected = browser.eval(&format!(
        "document.querySelector({}).classList.contains('selected')",
        json!(selector)
    ));
    assert_eq!(selected, true);
    browser.screenshot("matrix-clicked.png");

    // The hostile report: nothing ran, nothing became markup.
    let col = column(&mut browser, &label(&reports[2]));
    browser.click(&format!("td.cell[data-col=\"{col}\"][data-req=\"RES-1\"]"));
    let listed = detail(&mut browser);
    assert_eq!(listed, failing(&reports[2], "RES-1"));
    assert_eq!(listed[0].0, format!("{SCRIPT_ID} (fail)"));
    let safe = browser.eval(
        "[typeof window.__pwned, document.querySelectorAll('img, b:not(th b), script').length, \
          document.querySelector('#detail .reason').textContent]",
    );
    assert_eq!(
        safe,
        json!(["undefined", 2, format!("reason {IMG}{INVISIBLE_SHOWN}")]),
        "two scripts: the page's own"
    );
    let shown = browser.eval("document.body.innerText");
    let shown = shown.as_str().unwrap();
    assert_eq!(
        toolpath_suite::sanitize::first_hostile(shown),
        None,
        "nothing invisible on the page: {shown}"
    );
    assert!(
        browser.complaints().is_empty(),
        "console: {:?}",
        browser.complaints()
    );

    // One row and column per row scripts/certify runs, each with a page of
    // its own.
    let rows_certified = std::fs::read_dir(Path::new(ROOT).join("docs/certification"))
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.ends_with(".md") && name != "README.md"
        })
        .count();
    assert!(rows_certified >= 9, "{rows_certified} row pages");

    // The README's picture of the committed page (scripts/page-picture)
    // holds the whole containment table, every row and every column.
    let committed = Path::new(ROOT).join("docs/certification/index.html");
    let (width, height) = png_size(&Path::new(ROOT).join("docs/certification/page.png"));
    browser.resize((width, height));
    browser.load(Path::new(&format!("{}#picture", committed.display())));
    let table = browser.eval(
        "(() => { const t = document.querySelector('#containment table'); \
         const r = t.getBoundingClientRect(); \
         return [r.right, r.bottom, t.querySelectorAll('tbody tr').length]; })()",
    );
    assert!(
        table[0].as_f64().unwrap() <= f64::from(width)
            && table[1].as_f64().unwrap() <= f64::from(height),
        "the containment table ({table}) does not fit the picture ({width} x {height})"
    );
    assert_eq!(table[2], rows_certified);
    browser.resize(WINDOW);

    // The committed page, as a reader opens it.
    browser.load(&committed);
    assert!(
        browser.complaints().is_empty(),
        "console: {:?}",
        browser.complaints()
    );
    let columns = browser.eval("document.querySelectorAll('#matrix th.imp').length");
    assert_eq!(
        columns, rows_certified,
        "the implementations scripts/certify runs"
    );
    let rows = browser.eval("document.querySelectorAll('#matrix tr[data-req]').length");
    assert_eq!(rows, toolpath_suite::spec::requirements().len());
    browser.click("#matrix td.cell.xfail");
    let listed = detail(&mut browser);
    assert!(
        !listed.is_empty() && listed.iter().all(|(_, diff)| !diff.is_empty()),
        "{listed:?}"
    );
    let shot = browser.screenshot("certification.png");
    assert!(
        std::fs::metadata(shot).unwrap().len() > 10_000,
        "a screenshot with something in it"
    );
    assert!(
        browser.complaints().is_empty(),
        "console: {:?}",
        browser.complaints()
    );
}

/// The width and height of the PNG picture at `path`, from its header.
fn png_size(path: &Path) -> (u32, u32) {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[1..4], b"PNG", "{} is a PNG", path.display());
    let number = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (number(16), number(20))
}

/// `name version (language)`, as the page labels a report's column.
fn label(report: &Value) -> String {
    let imp = &report["implementation"];
    let part = |key: &str| imp[key].as_str().unwrap().to_owned();
    format!(
        "{} {} ({})",
        part("name"),
        part("version"),
        part("language")
    )
}

/// The index of the column headed `label`.
fn column(browser: &mut Browser, label: &str) -> String {
    let js = format!(
        "Array.from(document.querySelectorAll('th.imp')).find(t => t.firstChild.textContent === {}).dataset.col",
        json!(label)
    );
    browser.eval(&js).as_str().unwrap().to_owned()
}
