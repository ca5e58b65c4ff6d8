//! The requirement IDs of `spec/README.md`, read from the text itself.
//!
//! The spec is the single source of requirement IDs: a rule is a list item
//! that opens with its bold ID (`- **RES-1** ...`). Reading them from the
//! document (embedded at build time) means a case can never cite an ID the
//! spec does not define, and a new rule without a case is caught by a test.

/// The normative spec text, embedded so an installed binary needs no checkout.
pub const SPEC_TEXT: &str = include_str!("../spec/README.md");

/// One requirement: its ID, its area prefix and the first sentence of its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Requirement {
    pub id: String,
    pub area: String,
    pub summary: String,
}

/// Every requirement of the embedded spec, in document order.
pub fn requirements() -> Vec<Requirement> {
    parse_requirements(SPEC_TEXT)
}

/// Whether `id` names a requirement of the embedded spec.
pub fn is_known(id: &str) -> bool {
    requirements().iter().any(|r| r.id == id)
}

/// Reads requirement list items (`- **AREA-N** text`) out of a Markdown spec.
pub fn parse_requirements(text: &str) -> Vec<Requirement> {
    let mut out = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(rest) = line.trim_start().strip_prefix("- **") else {
            continue;
        };
        let Some((id, body)) = rest.split_once("**") else {
            continue;
        };
        let Some((area, number)) = id.split_once('-') else {
            continue;
        };
        if area.is_empty()
            || !area.bytes().all(|b| b.is_ascii_uppercase())
            || number.parse::<u32>().is_err()
        {
            continue;
        }
        // The rule's text runs on over indented continuation lines.
        let mut text = body.trim().to_owned();
        while let Some(next) = lines.peek() {
            if next.starts_with("  ") && !next.trim().is_empty() {
                text.push(' ');
                text.push_str(next.trim());
                lines.next();
            } else {
                break;
            }
        }
        let summary = match text.find(". ") {
            Some(end) => text[..=end].to_owned(),
            None => text,
        };
        out.push(Requirement {
            id: id.to_owned(),
            area: area.to_owned(),
            summary,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_ids_areas_and_first_sentences() {
        let text = "# T\n\n- **RES-1** An empty path means none. More text\n  on two lines.\n- **ERR-12** Codes.\n- not a rule\n- **lower-1** no\n";
        let reqs = parse_requirements(text);
        let ids: Vec<_> = reqs
            .iter()
            .map(|r| (r.id.as_str(), r.area.as_str()))
            .collect();
        assert_eq!(ids, [("RES-1", "RES"), ("ERR-12", "ERR")]);
        assert_eq!(reqs[0].summary, "An empty path means none.");
    }

    #[test]
    fn embedded_spec_has_unique_ids_in_every_area() {
        let reqs = requirements();
        let mut ids: Vec<_> = reqs.iter().map(|r| r.id.clone()).collect();
        let total = ids.len();
        ids.sort();
        ids.dedup();
        assert_eq!(
            ids.len(),
            total,
            "duplicate requirement IDs in spec/README.md"
        );
        for area in [
            "RES", "SEARCH", "SHELL", "COMPAT", "ERR", "SEC", "OUT", "DESC",
        ] {
            assert!(reqs.iter().any(|r| r.area == area), "no {area} rules");
        }
    }
}
