//! The report a person reads in a terminal after a run.
//!
//! It reads top-down, from what matters most to its evidence: first the
//! containment counts and the escapes by id (a pass of its own, made only
//! when the header counts escapes: an escape is the first thing a
//! maintainer must see); then the rules that fail, each with its own
//! counts; then the failing instances, one block each, opening with
//! `file:line` so an editor or terminal can jump to the case. By default
//! a few blocks are shown ([`Detail::First`]): the first failing instance
//! of each rule, in the order met, then more of the same until the budget
//! is spent; the rest are counted and pointed to (`--every-failure`, the
//! Markdown and JSON reports), so a fresh skeleton's first run fits on a
//! screen or two instead of thousands of lines. Instances that were not
//! judged are only counted, grouped by reason, because a list of three
//! hundred identical "needs root" lines hides the one failure that matters.
//!
//! The last line is plain (never coloured) and fixed in form,
//! `N passed, N failed, N skipped`, because CI tooling reads it; a run
//! with escapes appends `, N escapes` (the three counts keep their form).
//! So no text of a subject or a case may start a line: a field is shown
//! on one line ([`sanitize::one_line`]), and a diff or stderr line by line
//! behind an indent.

use std::collections::BTreeMap;
use std::io::{self, Write};

use super::outcome::RunOutcome;
use super::text;
use crate::report::conformance::in_rule_order;
use crate::report::profile_rules;
use crate::report::view::View;
use crate::report::{CaseReport, ExpectationNote, Report, Status, Summary};
use toolpath_suite::sanitize;

/// Diff lines shown per instance: diffs are field lists and rarely come near
/// this; a runaway one should not bury the rest.
const DIFF_LINES: usize = 200;
/// Lines of adapter stderr shown: the end is where a crash explains itself.
const STDERR_LINES: usize = 20;

/// How many failing instances the report shows as blocks of their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// At most this many blocks, and escapes listed: the first failing
    /// instance of each rule (a case's first requirement), in the order
    /// met, then more of the same rules until the budget is spent; the
    /// rest are counted.
    First(usize),
    /// Every failing instance, and the escapes up to the lists' cap
    /// (`--every-failure`).
    Every,
}

/// Blocks (and escapes) shown by default.
pub const FIRST: usize = 10;

impl Default for Detail {
    fn default() -> Self {
        Detail::First(FIRST)
    }
}

/// The whole human report as a string: [`write()`] on a report whose cases
/// are in memory.
pub fn render(report: &Report, color: bool) -> String {
    super::written(|out| write(View::of(report), color, Detail::default(), out))
        .expect("a report in memory cannot fail to render")
}

/// The whole human report, written to `out`. `color` adds ANSI colours; the
/// caller decides whether the output is a terminal that wants them.
///
/// One pass over the cases (two when there are escapes to list first):
/// under [`Detail::Every`] each notable instance's block is written as it
/// comes; under [`Detail::First`] at most twice the budget is held until
/// the pass ends. The rest are only counted per status and reason, so
/// memory grows with the number of distinct reasons, not of instances.
/// Everything else comes from the header's counts.
pub fn write(view: View, color: bool, detail: Detail, out: &mut dyn Write) -> io::Result<()> {
    let paint = Paint(color);
    let head = view.head;
    let mut text = String::new();
    header(&mut text, head, &paint);
    containment(&mut text, view, detail, &paint)?;
    rules(&mut text, head, &paint);
    out.write_all(text.as_bytes())?;

    let mut unjudged = NotJudged::default();
    let mut chosen = Chosen::default();
    let mut wrong = WrongFields::default();
    view.cases.each(&mut |case| {
        unjudged.count(case);
        wrong.count(case);
        if is_notable(case.status) {
            let mut text = String::from("\n");
            block(&mut text, case, head, &paint);
            match detail {
                Detail::Every => out.write_all(text.as_bytes())?,
                Detail::First(budget) => chosen.offer(case, text, budget),
            }
        }
        Ok(())
    })?;

    let mut text = String::new();
    if let Detail::First(budget) = detail {
        let (blocks, hidden) = chosen.take(budget);
        for block in blocks {
            text.push_str(&block);
        }
        if hidden > 0 {
            text.push_str(&format!(
                "\n{} more failing instance{} not shown: `--every-failure` shows every one \
                 here; the Markdown and JSON reports (`--format markdown|json`) list them all.\n",
                hidden,
                if hidden == 1 { "" } else { "s" }
            ));
        }
    }
    unjudged.list(&mut text);
    fix_first(&mut text, head, &wrong, &paint);
    text.push('\n');
    if head.partial {
        banner(&mut text, &head.summary, &paint);
    }
    text.push_str(&format!("time: {}\n", head.timing()));
    text.push_str(&totals(head, &paint));
    text.push('\n');
    if !head.summary.judged_anything() {
        text.push_str(&paint.alarm(
            "toolpath: nothing was judged (every instance unsupported, skipped or not run); \
             a run that judges nothing certifies nothing",
        ));
        text.push('\n');
    }
    text.push_str(&closing_line(head));
    text.push('\n');
    out.write_all(text.as_bytes())
}

/// The totals line and the plain closing line, uncoloured: what a run whose
/// reports all went to files prints. Reads only the header (summary,
/// strictness, duration), never `report.cases`, so a streamed run's header
/// will do.
pub fn closing_lines(report: &Report) -> String {
    format!(
        "{}\n{}\n",
        totals(report, &Paint(false)),
        closing_line(report)
    )
}

/// One line for a terminal progress display, without `\r` or newline: the
/// caller owns the cursor. Kept short enough not to wrap on an 80-column
/// terminal, since a wrapped line cannot be redrawn in place.
pub fn progress_line(done: usize, total: usize, last: &CaseReport) -> String {
    const WIDTH: usize = 20;
    let filled = (done.min(total) * WIDTH)
        .checked_div(total)
        .unwrap_or(WIDTH);
    format!(
        "[{}{}] {done}/{total} {:<13} {}",
        "=".repeat(filled),
        " ".repeat(WIDTH - filled),
        last.status.name(),
        text::shorten(&sanitize::one_line(&last.id), 28),
    )
}

/// `N passed, N failed, N skipped`, in the categories of the exit code:
/// failed counts everything that makes the run unsuccessful (adapter and
/// case errors too, so a crash cannot read as "0 failed"), skipped
/// everything not counted (expected failures included), and the three add
/// up to the number of instances. Counted from `report.summary`, never
/// `report.cases`.
pub fn closing_line(report: &Report) -> String {
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    for status in Status::ALL {
        let n = report.summary.count(status);
        match RunOutcome::of(status, report.strict) {
            RunOutcome::Passed => passed += n,
            RunOutcome::Failed | RunOutcome::Errored => failed += n,
            RunOutcome::Skipped => skipped += n,
        }
    }
    // Always `escapes`, even for one: a parser reads one fixed form.
    let escapes = match report.containment.escapes {
        0 => String::new(),
        n => format!(", {n} escapes"),
    };
    format!("{passed} passed, {failed} failed, {skipped} skipped{escapes}")
}

/// The containment counts and every escape by id, before anything else:
/// `containment:` and its counts, then one line per escape. Nothing when
/// no instance has a containment verdict.
fn containment(out: &mut String, view: View, detail: Detail, paint: &Paint) -> io::Result<()> {
    let counts = &view.head.containment;
    if counts.total() == 0 {
        return Ok(());
    }
    out.push_str(&format!("\ncontainment: {}\n", counts.line()));
    let (mut escapes, total) = super::containment::escapes(view)?;
    if let Detail::First(budget) = detail {
        escapes.truncate(budget);
    }
    for escape in &escapes {
        out.push_str(&format!(
            "  {} {}\n",
            paint.alarm("ESCAPE"),
            sanitize::one_line(&escape.line())
        ));
    }
    if let Some(more) = super::containment::more(escapes.len(), total) {
        out.push_str(&format!("  {more}\n"));
    }
    Ok(())
}

/// The rules that fail, each with its own counts, then the rules nothing
/// exercised, each with the reason, and how many rules stand where: one
/// rule failing across a whole tool shows as that rule, and the rest of
/// its area keeps its own counts.
fn rules(out: &mut String, report: &Report, paint: &Paint) {
    if report.rules.is_empty() {
        return;
    }
    let mut standing = BTreeMap::new();
    for count in report.rules.values() {
        *standing
            .entry(count.tally.standing().symbol())
            .or_insert(0usize) += 1;
    }
    let count = |symbol| standing.get(symbol).copied().unwrap_or(0);
    out.push_str(&format!(
        "\nrules: {} conform, {} fail, {} not observable, {} not exercised\n",
        count("✅"),
        count("❌"),
        count("👁"),
        count("➖")
    ));
    let listed = in_rule_order(&report.rules);
    for (rule, count) in listed.iter().filter(|(_, c)| c.tally.failed > 0) {
        let tally = &count.tally;
        let xfail = match tally.xfail {
            0 => String::new(),
            n => format!(" ({n} xfail)"),
        };
        out.push_str(&format!(
            "  {} {:<10} {} failed{xfail}, {} passed, {} not observable\n",
            paint.red("FAIL"),
            sanitize::one_line(rule),
            tally.failed,
            tally.passed,
            tally.unobserved
        ));
    }
    for (rule, count) in &listed {
        if let Some(reason) = &count.not_exercised {
            out.push_str(&format!(
                "  {} {:<10} {}\n",
                paint.yellow("NOT EXERCISED"),
                sanitize::one_line(rule),
                sanitize::one_line(reason)
            ));
        }
    }
}

/// Each status as the totals line names it, in the order it lists them.
const TOTALS: [(Status, &str); 10] = [
    (Status::Pass, "pass"),
    (Status::Xpass, "xpass"),
    (Status::Fail, "fail"),
    (Status::AdapterError, "adapter error"),
    (Status::CaseError, "case error"),
    (Status::Unobserved, "not observable"),
    (Status::Skip, "skip"),
    (Status::Unsupported, "unsupported"),
    (Status::Xfail, "xfail"),
    (Status::NotRun, "not run"),
];

/// Statuses that get a block of their own: everything unexpected, and an
/// unexpected pass even when not strict, since it means an expectations
/// entry is stale.
fn is_notable(status: Status) -> bool {
    matches!(
        status,
        Status::Fail | Status::AdapterError | Status::CaseError | Status::Xpass
    )
}

fn header(out: &mut String, report: &Report, paint: &Paint) {
    out.push_str(&paint.bold("toolpath report"));
    out.push('\n');
    out.push_str(&format!(
        "  implementation: {}\n",
        sanitize::one_line(&text::implementation(&report.implementation))
    ));
    out.push_str(&format!(
        "  {:<16}{}\n",
        format!("{}:", report.subject()),
        sanitize::one_line(&text::adapter(report.adapter.as_deref()))
    ));
    let strict = if report.strict { ", strict" } else { "" };
    out.push_str(&format!(
        "  suite:          {} (protocol {}{strict})\n",
        sanitize::one_line(&report.suite),
        report.protocol
    ));
    if let Some(part) = report.selection.describe() {
        out.push_str(&format!(
            "  selection:      {} (part of the suite)\n",
            sanitize::one_line(&part)
        ));
    }
    if let Some(dir) = &report.fixture_dir {
        out.push_str(&format!("  fixtures:       {}\n", sanitize::one_line(dir)));
    }
    for gap in &report.unprotected {
        out.push_str(&paint.alarm(&format!("  NOT PROTECTED:  {}", sanitize::one_line(gap))));
        out.push('\n');
    }
    if report.partial {
        out.push_str(&paint.alarm("  PARTIAL RUN: see the end of this report"));
        out.push('\n');
    }
    findings(out, report, paint);
    rules_never_matched(out, report, paint);
}

/// The server's findings, right under the header: they are about the
/// whole run, and a reader who stops at the first failure should see them.
fn findings(out: &mut String, report: &Report, paint: &Paint) {
    for finding in &report.findings {
        out.push_str(&format!(
            "  {} {}\n",
            paint.yellow("FINDING"),
            sanitize::one_line(&text::finding(finding))
        ));
        out.push_str(&format!(
            "    first: {}\n",
            sanitize::one_line(&text::shorten(&finding.example, 200))
        ));
        if !finding.cases.is_empty() {
            out.push_str(&format!(
                "    during: {}\n",
                sanitize::one_line(&text::finding_cases(finding))
            ));
        }
    }
}

/// An MCP profile's rules that applied to answers and matched none: a
/// code rule that never matched leaves its refusals to the default (not
/// observable), a result rule its field missing, and neither fails
/// loudly (issue 34). The JSON report counts every rule.
fn rules_never_matched(out: &mut String, report: &Report, paint: &Paint) {
    for warning in report
        .profile_rules
        .iter()
        .filter_map(profile_rules::warning)
    {
        out.push_str(&format!(
            "  {} {}\n",
            paint.yellow("WARNING"),
            sanitize::one_line(&warning)
        ));
    }
}

/// One notable instance; `head` says who answered (an MCP server's
/// stderr and fields are the server's, not an adapter's) and whether the
/// run is strict.
fn block(out: &mut String, case: &CaseReport, head: &Report, paint: &Paint) {
    let subject = head.subject();
    out.push_str(&format!(
        "{}:{}: {} {}\n",
        sanitize::one_line(&case.file),
        case.line,
        label(case.status, head.strict, paint),
        paint.bold(&sanitize::one_line(&case.id))
    ));
    if !case.spec.is_empty() {
        out.push_str(&format!(
            "  spec: {}\n",
            sanitize::one_line(&case.spec.join(", "))
        ));
    }
    if let Some(reason) = &case.reason {
        out.push_str(&format!("  reason: {}\n", sanitize::one_line(reason)));
    }
    if let Some(news) = case.containment.as_ref().and_then(|c| c.news()) {
        out.push_str(&format!("  containment: {}\n", sanitize::one_line(&news)));
    }
    if let Some(note) = &case.expectation {
        out.push_str(&sanitize::one_line(&expectation(note, case.status)));
        out.push('\n');
    }
    if let Some(diff) = case.diff.as_deref().filter(|d| !d.is_empty()) {
        diff_head(out, diff, paint);
    }
    if let Some(stderr) = case.stderr.as_deref().filter(|s| !s.trim().is_empty()) {
        stderr_tail(out, stderr, subject);
    }
    if let Some(fixture) = &case.fixture {
        out.push_str(&format!(
            "  fixture kept at: {}\n",
            sanitize::one_line(fixture)
        ));
    }
    if !case.unchecked.is_empty() {
        out.push_str(&format!(
            "  not checked ({}): {}\n",
            text::cannot_show(subject),
            sanitize::one_line(&case.unchecked.join(", "))
        ));
    }
}

/// A block's status, in red where it makes the run fail (an unexpected
/// pass only under `--strict`).
fn label(status: Status, strict: bool, paint: &Paint) -> String {
    match status {
        Status::Fail => paint.red("FAIL"),
        Status::AdapterError => paint.red("ADAPTER ERROR"),
        Status::CaseError => paint.red("CASE ERROR"),
        Status::Xpass if strict => paint.red("XPASS (strict)"),
        Status::Xpass => paint.yellow("XPASS"),
        other => other.name().to_owned(),
    }
}

/// The expectations file's entry for the case: why it is expected to
/// fail, where that is tracked, and, when it passed, that the entry is
/// stale.
fn expectation(note: &ExpectationNote, status: Status) -> String {
    let mut line = format!("  expected to fail: {}", note.reason);
    let refs: Vec<&str> = [note.spec.as_deref(), note.issue.as_deref()]
        .into_iter()
        .flatten()
        .collect();
    if !refs.is_empty() {
        line.push_str(&format!(" ({})", refs.join("; ")));
    }
    if status == Status::Xpass {
        line.push_str(" -- but it passed: remove the entry");
    }
    line
}

/// The diff's first lines, painted; the rest is left to the JSON report.
fn diff_head(out: &mut String, diff: &str, paint: &Paint) {
    let (lines, omitted) = text::head_lines(diff, DIFF_LINES);
    for line in lines {
        out.push_str("    ");
        out.push_str(&paint.diff_line(&sanitize::visible(line)));
        out.push('\n');
    }
    if omitted > 0 {
        out.push_str(&format!(
            "    ... {omitted} more diff lines in the JSON report\n"
        ));
    }
}

/// The subject's last lines of standard error, where a crash says why.
fn stderr_tail(out: &mut String, stderr: &str, subject: &str) {
    let (lines, omitted) = text::tail_lines(stderr, STDERR_LINES);
    if omitted > 0 {
        out.push_str(&format!(
            "  {subject} stderr (last {} of {} lines):\n",
            lines.len(),
            lines.len() + omitted
        ));
    } else {
        out.push_str(&format!("  {subject} stderr:\n"));
    }
    for line in lines {
        out.push_str(&format!("    | {}\n", sanitize::visible(line)));
    }
}

/// The blocks [`Detail::First`] shows: while the cases pass, the first
/// block of each rule (up to the budget) and as many more as the budget
/// (to fill it when fewer rules fail); everything else is only counted.
#[derive(Default)]
struct Chosen {
    /// (position met, block), the first of their rule.
    firsts: Vec<(usize, String)>,
    /// (position met, block), of a rule already shown.
    more: Vec<(usize, String)>,
    rules: std::collections::BTreeSet<String>,
    met: usize,
    hidden: usize,
}

impl Chosen {
    fn offer(&mut self, case: &CaseReport, block: String, budget: usize) {
        let rule = case.spec.first().cloned().unwrap_or_default();
        let at = self.met;
        self.met += 1;
        if self.firsts.len() < budget && !self.rules.contains(&rule) {
            self.rules.insert(rule);
            self.firsts.push((at, block));
        } else if self.more.len() < budget {
            self.more.push((at, block));
        } else {
            self.hidden += 1;
        }
    }

    /// The blocks to show, in the order met, and how many are not.
    fn take(self, budget: usize) -> (Vec<String>, usize) {
        let room = budget - self.firsts.len();
        let hidden = self.hidden + self.more.len().saturating_sub(room);
        let mut shown: Vec<(usize, String)> = self.firsts;
        shown.extend(self.more.into_iter().take(room));
        shown.sort_by_key(|(at, _)| *at);
        (shown.into_iter().map(|(_, block)| block).collect(), hidden)
    }
}

/// How many failing instances each check got wrong, by the check's head
/// (`error.code`, `path`, `error.message contains`): a fixed set of names,
/// so the map is bounded whatever the run.
#[derive(Default)]
struct WrongFields(BTreeMap<&'static str, usize>);

impl WrongFields {
    fn count(&mut self, case: &CaseReport) {
        if case.status != Status::Fail {
            return;
        }
        let mut heads: Vec<&'static str> = case.mismatches.iter().map(|m| m.field.head()).collect();
        heads.sort_unstable();
        heads.dedup();
        for head in heads {
            *self.0.entry(head).or_default() += 1;
        }
    }

    /// The check most instances got wrong, and how many (the first by name
    /// on a tie, so the advice is the same on every run).
    fn most(&self) -> Option<(&'static str, usize)> {
        let mut most: Option<(&'static str, usize)> = None;
        for (head, n) in &self.0 {
            if most.is_none_or(|(_, m)| *n > m) {
                most = Some((head, *n));
            }
        }
        most
    }
}

/// What to fix first, as `toolpath smoke` advises, at the end where a
/// terminal leaves the reader: a subject that does not answer (adapter
/// errors) before anything it answers; escapes before wrong answers; then
/// the rule that fails most often, with the selection that runs it alone,
/// and the check most failing instances got wrong. When the failures cite
/// embedded case files and spec sections, how to get them on disk.
fn fix_first(out: &mut String, head: &Report, wrong: &WrongFields, paint: &Paint) {
    let errors = head.summary.count(Status::AdapterError);
    let escapes = head.containment.escapes;
    let rule = in_rule_order(&head.rules)
        .into_iter()
        .filter(|(_, c)| c.tally.failed > 0)
        .max_by(|(a, x), (b, y)| {
            // The most failures; on a tie, the rule listed first.
            x.tally.failed.cmp(&y.tally.failed).then_with(|| {
                toolpath_suite::spec::order_key(b).cmp(&toolpath_suite::spec::order_key(a))
            })
        });
    let most_wrong = wrong.most();
    if errors == 0 && escapes == 0 && rule.is_none() && most_wrong.is_none() {
        return;
    }
    out.push_str(&format!("\n{}\n", paint.bold("fix first:")));
    if errors > 0 {
        out.push_str(&format!(
            "  {} adapter error{}: the {} crashed, hung or sent a line that is not an answer \
             (its stderr is in the blocks above; the framing is in spec/protocol.md).\n",
            errors,
            if errors == 1 { "" } else { "s" },
            head.subject()
        ));
    }
    if escapes > 0 {
        out.push_str(&format!(
            "  {escapes} escape{}, listed under containment: a path outside every root was taken \
             (SEC-12); nothing else matters as much.\n",
            if escapes == 1 { "" } else { "s" }
        ));
    }
    if let Some((rule, count)) = rule {
        let rule = sanitize::one_line(rule);
        out.push_str(&format!(
            "  {rule} fails {} instance{}, the most of any rule: `toolpath run --spec {rule}` \
             runs its cases alone.\n",
            count.tally.failed,
            if count.tally.failed == 1 { "" } else { "s" }
        ));
    }
    if let Some((check, n)) = most_wrong {
        out.push_str(&format!(
            "  the check most failing instances get wrong: `{check}`, in {n}.\n"
        ));
    }
    if head.selection.cases.is_empty() && (errors > 0 || rule.is_some()) {
        out.push_str(
            "  the case files (cases/...) and the spec (spec/README.md, spec/protocol.md) cited \
             above come with toolpath: `toolpath export DIR` writes them into DIR.\n",
        );
    }
}

/// Skipped, unsupported, not-run and expected-failure instances, counted
/// per status and reason. The reasons are owned because a streamed case
/// is gone once counted; there are few distinct ones.
#[derive(Default)]
struct NotJudged(BTreeMap<(Status, String), usize>);

impl NotJudged {
    fn count(&mut self, case: &CaseReport) {
        if !matches!(
            case.status,
            Status::Skip | Status::Unsupported | Status::NotRun | Status::Xfail
        ) {
            return;
        }
        // An expected failure is explained by its expectations entry, the
        // rest by the reason the harness gave.
        let reason = match (&case.expectation, case.status) {
            (Some(note), Status::Xfail) => note.reason.as_str(),
            _ => case.reason.as_deref().unwrap_or("(no reason given)"),
        };
        *self.0.entry((case.status, reason.to_owned())).or_default() += 1;
    }

    fn list(self, out: &mut String) {
        if self.0.is_empty() {
            return;
        }
        let mut rows: Vec<_> = self.0.into_iter().collect();
        // Status first (the enum's order), then the biggest groups.
        rows.sort_by(|((s1, r1), n1), ((s2, r2), n2)| s1.cmp(s2).then(n2.cmp(n1)).then(r1.cmp(r2)));
        out.push_str("\nnot counted as failures:\n");
        for ((status, reason), count) in rows {
            out.push_str(&format!(
                "  {:<12} {count:>4} x {}\n",
                status.name(),
                sanitize::one_line(&reason)
            ));
        }
    }
}

/// The totals line: the three counts of the plain closing line (so the two
/// can never disagree), each followed by the statuses it is made of. Under
/// `--strict` an xpass is counted with the failures, here as there.
fn totals(report: &Report, paint: &Paint) -> String {
    let statuses = TOTALS.map(|(status, name)| (status, report.summary.count(status), name));
    let group = |wanted: &[RunOutcome], word: &str| {
        let parts: Vec<String> = statuses
            .iter()
            .filter(|(s, n, _)| *n > 0 && wanted.contains(&RunOutcome::of(*s, report.strict)))
            .map(|(_, n, name)| format!("{n} {name}"))
            .collect();
        let total: usize = statuses
            .iter()
            .filter(|(s, _, _)| wanted.contains(&RunOutcome::of(*s, report.strict)))
            .map(|(_, n, _)| n)
            .sum();
        let head = format!("{total} {word}");
        let head = match word {
            "passed" if total > 0 => paint.green(&head),
            "failed" if total > 0 => paint.red(&head),
            _ => head,
        };
        if parts.is_empty() {
            head
        } else {
            format!("{head} ({})", parts.join(", "))
        }
    };
    format!(
        "toolpath: {}, {}, {} in {}",
        group(&[RunOutcome::Passed], "passed"),
        group(&[RunOutcome::Failed, RunOutcome::Errored], "failed"),
        group(&[RunOutcome::Skipped], "skipped"),
        text::seconds(report.duration_ms)
    )
}

fn banner(out: &mut String, summary: &Summary, paint: &Paint) {
    let rule = "!".repeat(72);
    let lines = [
        rule.clone(),
        format!(
            "!!! PARTIAL RUN: {} of {} instances did not run; each says why.",
            summary.not_run, summary.total
        ),
        "!!! These results are incomplete and certify nothing.".to_owned(),
        rule,
    ];
    for line in lines {
        out.push_str(&paint.alarm(&line));
        out.push('\n');
    }
}

/// ANSI colouring that is a no-op when off, so the layout code is written
/// once.
struct Paint(bool);

impl Paint {
    fn wrap(&self, code: &str, text: &str) -> String {
        if self.0 {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }
    fn bold(&self, text: &str) -> String {
        self.wrap("1", text)
    }
    fn red(&self, text: &str) -> String {
        self.wrap("31", text)
    }
    fn green(&self, text: &str) -> String {
        self.wrap("32", text)
    }
    fn yellow(&self, text: &str) -> String {
        self.wrap("33", text)
    }
    fn alarm(&self, text: &str) -> String {
        self.wrap("1;31", text)
    }
    fn diff_line(&self, line: &str) -> String {
        if line.starts_with("+++") || line.starts_with("---") {
            self.bold(line)
        } else if line.starts_with('+') {
            self.green(line)
        } else if line.starts_with('-') {
            self.red(line)
        } else if line.starts_with("@@") {
            self.wrap("36", line)
        } else {
            line.to_owned()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::render::sample_reports::{
        CountedSpool, broken, case, expected, failing, head, hostile, report, unprotected, varied,
        with_reason,
    };
    use toolpath_suite::protocol::Field;
    use toolpath_suite::sanitize::first_hostile;

    /// The whole report of a deliberately broken run, reviewed in the
    /// snapshot; the tests below pin one rule each.
    #[test]
    fn snapshot_of_a_broken_run() {
        insta::assert_snapshot!(render(&broken(), false));
    }

    /// Every field an adapter or case file controls, through the terminal
    /// report: nothing a terminal would act on, nothing hidden.
    #[test]
    fn snapshot_of_hostile_text() {
        let out = render(&hostile(), false);
        assert_eq!(first_hostile(&out), None, "{out}");
        insta::assert_snapshot!(out);
        let coloured = render(&hostile(), true);
        let own_colours = regex::Regex::new("\x1b\\[[0-9;]*m").unwrap();
        let uncoloured = own_colours.replace_all(&coloured, "");
        assert_eq!(first_hostile(&uncoloured), None, "only our own colours");
        let progress = progress_line(1, 2, &hostile().cases[0]);
        assert_eq!(first_hostile(&progress), None, "{progress}");
    }

    /// A run whose subject could reach its verdict says so in the header,
    /// a line per reason, each shown as foreign text.
    #[test]
    fn snapshot_of_an_unprotected_run() {
        let out = render(&unprotected(), false);
        assert_eq!(first_hostile(&out), None, "{out}");
        assert_eq!(out.matches("\n  NOT PROTECTED:  ").count(), 3, "{out}");
        insta::assert_snapshot!(out);
    }

    #[test]
    fn header_names_implementation_adapter_and_suite() {
        let mut r = report("fake", vec![case("a", Status::Pass, &["RES-1"])]);
        let out = render(&r, false);
        assert!(out.contains("implementation: fake 1.2.3 (python)"), "{out}");
        assert!(out.contains("adapter:        python3 adapter.py"), "{out}");
        assert!(out.contains("suite:          0.3.0 (protocol 1)"), "{out}");
        r.adapter = None;
        assert!(render(&r, false).contains("adapter:        built-in reference"));
    }

    /// By default a few blocks: the first failing instance of each rule in
    /// the order met, then more of the same rules to fill the budget, and
    /// a line counting the rest and pointing to `--every-failure`; with
    /// it, every block and no such line.
    #[test]
    fn a_few_failures_are_shown_the_first_of_each_rule_first() {
        let shown = |ids_rules: &[(&str, &str)], detail: Detail| -> Vec<String> {
            let cases: Vec<CaseReport> = ids_rules
                .iter()
                .map(|(id, rule)| case(id, Status::Fail, &[rule]))
                .collect();
            let r = report("fake", cases);
            let out = super::super::written(|out| write(View::of(&r), false, detail, out)).unwrap();
            let blocks: Vec<String> = (out.lines())
                .filter_map(|l| l.split(": FAIL ").nth(1).map(str::to_owned))
                .collect();
            let pointer = out
                .lines()
                .find(|l| l.contains("not shown: `--every-failure`"));
            let mut seen = blocks;
            seen.extend(pointer.map(|l| l.split(" more").next().unwrap().to_owned()));
            seen
        };
        let mixed = [
            ("a1", "A"),
            ("a2", "A"),
            ("a3", "A"),
            ("b1", "B"),
            ("c1", "C"),
            ("d1", "D"),
        ];
        assert_eq!(shown(&mixed, Detail::First(3)), ["a1", "b1", "c1", "3"]);
        assert_eq!(
            shown(&mixed, Detail::First(5)),
            ["a1", "a2", "b1", "c1", "d1", "1"]
        );
        let one_rule = [
            ("a1", "A"),
            ("a2", "A"),
            ("a3", "A"),
            ("a4", "A"),
            ("a5", "A"),
        ];
        assert_eq!(shown(&one_rule, Detail::First(3)), ["a1", "a2", "a3", "2"]);
        assert_eq!(
            shown(&mixed, Detail::Every),
            ["a1", "a2", "a3", "b1", "c1", "d1"]
        );
        assert_eq!(shown(&mixed[..2], Detail::First(3)), ["a1", "a2"]);
    }

    /// Issue 34 item 4: an MCP server is the implementation, never an
    /// adapter: the header, its stderr and what it cannot show say
    /// "server" in every format that says "adapter" for an adapter.
    #[test]
    fn an_mcp_server_is_called_the_server() {
        let mut bad = failing("search-file@grep", &["SEARCH-5"]);
        bad.stderr = Some("boot\n".into());
        bad.unchecked = vec!["kind".into()];
        let mut r = report("fake", vec![bad]);
        r.adapter = Some("--mcp runners/x/x.profile.yaml".into());
        let out = render(&r, false);
        for said in [
            "  server:         --mcp runners/x/x.profile.yaml\n",
            "  server stderr:\n",
            "  not checked (the server cannot show them): kind\n",
        ] {
            assert!(out.contains(said), "{said:?} in {out}");
        }
        assert!(!out.contains("adapter"), "{out}");
        let junit = crate::report::render::junit::render(&r);
        assert!(
            junit.contains("not checked (the server cannot show them): kind"),
            "{junit}"
        );
        let markdown = crate::report::render::markdown::render(&r);
        assert!(
            markdown.contains("- **Server:** `--mcp runners/x/x.profile.yaml`"),
            "{markdown}"
        );
        assert!(
            markdown.contains("the fields the server can show"),
            "{markdown}"
        );
        r.adapter = Some("python3 adapter.py".into());
        let out = render(&r, false);
        assert!(out.contains("  adapter stderr:\n"), "{out}");
        assert!(out.contains("(the adapter cannot observe them)"), "{out}");
    }

    #[test]
    fn failing_case_shows_location_spec_and_diff() {
        let mut bad = failing("search-file@grep", &["SEARCH-5", "RES-7"]);
        bad.stderr = Some("boot\ntraceback: boom\n".into());
        bad.fixture = Some("/tmp/toolpath-x".into());
        bad.unchecked = vec!["parent".into()];
        let out = render(
            &report("fake", vec![case("ok", Status::Pass, &[]), bad]),
            false,
        );
        assert!(
            !out.contains("cases/ok.yaml"),
            "passing cases get no block: {out}"
        );
        insta::assert_snapshot!(out);
    }

    #[test]
    fn colour_marks_diff_lines_and_is_off_by_default() {
        let r = report("fake", vec![failing("a", &[])]);
        let plain = render(&r, false);
        assert!(!plain.contains('\x1b'), "{plain}");
        let coloured = render(&r, true);
        assert!(
            coloured.contains("\x1b[32m+code: permission_denied\x1b[0m"),
            "{coloured}"
        );
        assert!(
            coloured.contains("\x1b[31m-code: not_found\x1b[0m"),
            "{coloured}"
        );
    }

    #[test]
    fn adapter_text_cannot_reach_the_terminal_raw() {
        let mut bad = with_reason(case("a", Status::AdapterError, &[]), "crashed");
        bad.stderr = Some("\x1b[2Jcleared".into());
        let out = render(&report("fake", vec![bad]), false);
        assert!(!out.contains('\x1b'), "{out}");
        assert!(out.contains("ADAPTER ERROR a"), "{out}");
        assert!(out.contains("reason: crashed"), "{out}");
    }

    #[test]
    fn unjudged_instances_are_grouped_by_reason() {
        let cases = vec![
            with_reason(case("a", Status::Skip, &[]), "needs root"),
            with_reason(case("b", Status::Skip, &[]), "needs root"),
            with_reason(case("c", Status::Unsupported, &[]), "no shell tool"),
            expected(case("d", Status::Xfail, &[]), "known bug"),
        ];
        let out = render(&report("fake", cases), false);
        assert!(out.contains("  skip            2 x needs root\n"), "{out}");
        assert!(
            out.contains("  unsupported     1 x no shell tool\n"),
            "{out}"
        );
        assert!(out.contains("  xfail           1 x known bug\n"), "{out}");
        assert!(!out.contains("cases/a.yaml"), "{out}");
    }

    #[test]
    fn xpass_points_at_the_stale_entry() {
        let out = render(
            &report("fake", vec![expected(case("a", Status::Xpass, &[]), "bug")]),
            false,
        );
        assert!(out.contains("XPASS a"), "{out}");
        assert!(
            out.contains(
                "expected to fail: bug (https://example.invalid/issues/7) -- but it passed"
            ),
            "{out}"
        );
    }

    #[test]
    fn totals_and_plain_closing_line() {
        let cases = vec![
            case("a", Status::Pass, &[]),
            case("b", Status::Pass, &[]),
            failing("c", &[]),
            case("d", Status::AdapterError, &[]),
            case("e", Status::Skip, &[]),
            case("f", Status::Xfail, &[]),
            case("g", Status::Xpass, &[]),
            case("h", Status::Unobserved, &[]),
        ];
        let mut r = report("fake", cases);
        let out = render(&r, true);
        let last = out.lines().last().unwrap();
        assert_eq!(
            last, "3 passed, 2 failed, 3 skipped",
            "not observable is never passed"
        );
        let plain = render(&r, false);
        assert!(
            plain.contains(
                "toolpath: 3 passed (2 pass, 1 xpass), 2 failed (1 fail, 1 adapter error), \
                 3 skipped (1 not observable, 1 skip, 1 xfail) in 0.41 s\n3 passed, 2 failed, 3 skipped\n"
            ),
            "{plain}"
        );
        r.strict = true;
        assert_eq!(closing_line(&r), "2 passed, 3 failed, 3 skipped");
        let strict = render(&r, false);
        assert!(
            strict.contains(
                "toolpath: 2 passed (2 pass), 3 failed (1 xpass, 1 fail, 1 adapter error), \
                 3 skipped (1 not observable, 1 skip, 1 xfail) in 0.41 s\n2 passed, 3 failed, 3 skipped\n"
            ),
            "the totals line counts a strict xpass as failed, like the closing line: {strict}"
        );
    }

    #[test]
    fn escapes_come_first_and_close_the_last_line() {
        use crate::report::ContainmentClass;
        use crate::report::render::sample_reports::{contained, escape};
        let mut known = expected(escape("b@ls", "answered ok"), "known");
        known.status = Status::Xfail;
        let cases = vec![
            case("a", Status::Pass, &[]),
            contained(failing("r", &["SEC-4"]), ContainmentClass::RefusedOtherCode),
            escape("e@grep", "answered ok"),
            known,
        ];
        let out = render(&report("fake", cases), false);
        let first_block = out.find("cases/r.yaml:3: FAIL").unwrap();
        let listed = out
            .find("  ESCAPE e@grep (cases/e.yaml:3): read: answered ok\n")
            .unwrap();
        assert!(listed < first_block, "{out}");
        assert!(
            out.contains(
                "  ESCAPE b@ls (cases/b.yaml:3): read: answered ok; expected (xfail): known\n"
            ),
            "a baseline entry never hides an escape: {out}"
        );
        assert!(
            out.contains(
                "containment: 2 escapes (read 2, list 0, resolve 0, exec 0, write 0; 1 expected), 0 refused, \
                 1 refused with another code, \
                 0 wording failures, 0 false refusals, 0 other errors, 0 accepted, 0 not observed\n"
            ),
            "{out}"
        );
        assert_eq!(
            out.lines().last().unwrap(),
            "1 passed, 2 failed, 1 skipped, 2 escapes"
        );
        let one = report("fake", vec![escape("e", "answered ok")]);
        assert_eq!(
            closing_line(&one),
            "0 passed, 1 failed, 0 skipped, 1 escapes"
        );
        let none = report("fake", vec![case("a", Status::Pass, &[])]);
        assert!(!render(&none, false).contains("containment:"));
    }

    #[test]
    fn rules_that_fail_are_listed_with_their_own_counts() {
        let r = varied();
        let out = render(&r, false);
        assert!(out.contains("\nrules: "), "{out}");
        assert!(
            out.contains("  FAIL OUT-5      1 failed, 0 passed, 0 not observable\n"),
            "{out}"
        );
        assert!(!out.contains("FAIL LS-4 "), "its own checks held: {out}");
    }

    /// Rules are listed by area, then by number as a number: `RES-2`
    /// before `RES-11`, which text order reverses.
    #[test]
    fn rules_are_listed_in_numeric_order() {
        let r = report(
            "fake",
            vec![
                failing("a", &["RES-11"]),
                failing("b", &["RES-2"]),
                failing("c", &["RES-1"]),
            ],
        );
        let out = render(&r, false);
        let at = |rule: &str| {
            out.find(&format!("  FAIL {rule:<10} "))
                .unwrap_or_else(|| panic!("{rule}: {out}"))
        };
        assert!(at("RES-1") < at("RES-2"), "{out}");
        assert!(at("RES-2") < at("RES-11"), "{out}");
    }

    /// A failing run ends with what to fix first, as `toolpath smoke`
    /// says it: escapes before wrong answers, then the rule failing most
    /// often (how to run it alone), the check most often wrong, and how
    /// to get the case files the blocks cite; nothing of it when all pass.
    #[test]
    fn a_failing_run_ends_with_what_to_fix_first() {
        let wrong = |id: &str, rule: &str, fields: &[Field]| {
            let mut case = failing(id, &[rule]);
            case.mismatches = fields
                .iter()
                .map(|f| crate::report::Mismatch {
                    field: (*f).into(),
                    expected: "x".into(),
                    actual: "y".into(),
                    rule: None,
                })
                .collect();
            case
        };
        let r = report(
            "fake",
            vec![
                wrong("a", "RES-2", &[Field::ErrorCode]),
                wrong("b", "RES-11", &[Field::ErrorCode, Field::Path]),
                wrong("c", "RES-11", &[Field::Path, Field::Path]),
                wrong("d", "RES-11", &[Field::Path]),
                crate::report::render::sample_reports::escape("e", "secret"),
            ],
        );
        let out = render(&r, false);
        let section = &out[out.find("\nfix first:\n").expect("a fix-first section")..];
        assert!(section.find("1 escape,").unwrap() < section.find("RES-11 fails").unwrap());
        assert!(
            section.contains(
                "  RES-11 fails 3 instances, the most of any rule: `toolpath run --spec RES-11` runs its cases alone.\n"
            ),
            "{section}"
        );
        assert!(
            section.contains("get wrong: `path`, in 3.\n"),
            "once per instance: {section}"
        );
        assert!(section.contains("`toolpath export DIR`"), "{section}");
        assert!(
            out.find("\nfix first:\n").unwrap() > out.rfind(": FAIL ").unwrap(),
            "after the blocks: {out}"
        );
        let all_pass = report("fake", vec![case("a", Status::Pass, &["RES-1"])]);
        assert!(!render(&all_pass, false).contains("fix first"));
    }

    /// Issue 34: a profile rule that applied to answers and matched none
    /// is a warning under the header; one that matched, one that applied
    /// to nothing and a default left unused are not.
    #[test]
    fn a_profile_rule_that_never_matched_is_a_warning() {
        use crate::report::profile_rules::RuleUse;
        let mut r = report("fake", vec![case("a", Status::Pass, &["RES-1"])]);
        let rule = |name: &str, applied, matched, fallback| RuleUse {
            applied,
            matched,
            ..RuleUse::new(name.into(), "errno ENOENT".into(), fallback)
        };
        r.profile_rules = vec![
            rule("errors.codes[0]", 10, 4, false),
            rule("errors.codes[1]", 10, 0, false),
            rule("tools.ls.result.entries", 0, 0, false),
            rule("errors.default", 10, 0, true),
        ];
        let out = render(&r, false);
        let warnings: Vec<&str> = out.lines().filter(|l| l.contains("WARNING")).collect();
        assert_eq!(
            warnings,
            [
                "  WARNING profile rule `errors.codes[1]` (errno ENOENT) matched none of the 10 answers it applied to"
            ],
            "{out}"
        );
    }

    #[test]
    fn partial_run_is_announced_loudly() {
        let mut r = report(
            "fake",
            vec![case("a", Status::Pass, &[]), case("b", Status::NotRun, &[])],
        );
        assert!(!render(&r, false).contains("PARTIAL"));
        r.partial = true;
        let out = render(&r, false);
        assert!(out.contains("PARTIAL RUN: see the end"), "{out}");
        assert!(
            out.contains("!!! PARTIAL RUN: 1 of 2 instances did not run; each says why."),
            "{out}"
        );
        assert_eq!(out.lines().last().unwrap(), "1 passed, 0 failed, 1 skipped");
    }

    #[test]
    fn progress_line_stays_short_and_handles_edges() {
        let last = case(&"x".repeat(100), Status::Fail, &[]);
        let line = progress_line(5, 10, &last);
        assert!(
            line.starts_with("[==========          ] 5/10 fail "),
            "{line}"
        );
        assert!(line.chars().count() <= 80, "{line}");
        assert!(progress_line(0, 0, &last).starts_with("[====================] 0/0"));
        assert!(progress_line(12, 10, &last).starts_with("[====================] 12/10"));
    }

    fn written(view: View, color: bool) -> io::Result<String> {
        super::super::written(|out| write(view, color, Detail::default(), out))
    }

    /// Variations of [`varied`] that change what the report shows: header
    /// lines, the banner, strict xpasses, and a run that judged nothing.
    fn variations() -> Vec<Report> {
        let mut plain = varied();
        plain.partial = false;
        plain.fixture_dir = None;
        plain.adapter = None;
        plain.strict = true;
        let unjudged = report(
            "none",
            vec![
                with_reason(case("a", Status::Skip, &[]), "needs root"),
                case("b", Status::Unsupported, &[]),
            ],
        );
        vec![varied(), plain, unjudged, report("empty", Vec::new())]
    }

    #[test]
    fn streamed_cases_render_as_in_memory_ones_in_one_pass() {
        for report in variations() {
            for color in [false, true] {
                let spool = CountedSpool::new(report.cases.clone());
                let header = head(&report);
                let streamed = written(View::streamed(&header, &spool), color).unwrap();
                assert_eq!(
                    streamed,
                    render(&report, color),
                    "{}",
                    report.implementation.name
                );
                let escapes = usize::from(report.containment.escapes > 0);
                assert_eq!(
                    spool.passes.get(),
                    1 + escapes,
                    "escapes first, then blocks"
                );
                assert_eq!(closing_lines(&header), closing_lines(&report));
            }
        }
        let out = render(&variations()[2], false);
        assert!(out.contains("nothing was judged"), "{out}");
    }

    #[test]
    fn a_spool_that_cannot_be_read_is_an_error() {
        let report = varied();
        let header = head(&report);
        let spool = CountedSpool::failing(report.cases.clone(), 1, 20);
        let err = written(View::streamed(&header, &spool), false).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
    }
}
