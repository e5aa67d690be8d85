//! The three read modes of `GET /brand-kits/{id}` (summary, filter with or without history, full) and their checks.
use super::*;

pub(super) enum ReadMode {
    Full,
    Summary(SectionFilter),
    /// `detail=summary&archived=true`: the archived sections, in summary form.
    Archived(SectionFilter),
    Filtered {
        filter: SectionFilter,
        history: bool,
    },
}

/// `keys`, `roles`, `tabs`: each a comma list; a section must match every list given (AND).
pub(super) struct SectionFilter {
    pub(super) keys: Option<Vec<String>>,
    pub(super) roles: Option<Vec<String>>,
    pub(super) tabs: Option<Vec<String>>,
}

impl SectionFilter {
    pub(super) fn matches(&self, s: &SectionRow) -> bool {
        let within = |list: &Option<Vec<String>>, v: Option<&str>| {
            list.as_ref()
                .is_none_or(|l| v.is_some_and(|v| l.iter().any(|x| x == v)))
        };
        within(&self.keys, Some(&s.key))
            && within(&self.roles, s.role.as_deref())
            && within(&self.tabs, Some(&s.tab))
    }

    pub(super) fn is_empty(&self) -> bool {
        self.keys.is_none() && self.roles.is_none() && self.tabs.is_none()
    }
}

/// A comma list; an empty parameter counts as not given.
pub(super) fn comma_list(s: &Option<String>) -> Option<Vec<String>> {
    let list: Vec<String> = s
        .as_deref()?
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    (!list.is_empty()).then_some(list)
}

pub(super) fn invalid(field: &str, message: String, valid: &[&str]) -> ApiError {
    ApiError::InvalidValue {
        message,
        field: field.into(),
        valid: valid.iter().map(|s| s.to_string()).collect(),
    }
}

/// Every value of `list` must be in `valid`: spec §4 "any unknown role or tab is refused with 400 naming
/// the valid values".
pub(super) fn check_all(field: &str, list: &Option<Vec<String>>, valid: &[&str]) -> ApiResult<()> {
    for v in list.iter().flatten() {
        if !valid.contains(&v.as_str()) {
            return Err(invalid(
                field,
                format!(
                    "Unknown {field} value \"{v}\": valid values are {}",
                    valid.join(", ")
                ),
                valid,
            ));
        }
    }
    Ok(())
}

impl ReadMode {
    pub(super) fn from_query(q: &BrandKitQuery) -> ApiResult<ReadMode> {
        let filter = SectionFilter {
            keys: comma_list(&q.keys),
            roles: comma_list(&q.roles),
            tabs: comma_list(&q.tabs),
        };
        check_all("roles", &filter.roles, &roles())?;
        check_all("tabs", &filter.tabs, TABS)?;
        let history = q.history.unwrap_or(false);
        let detail = q.detail.as_deref();
        if let Some(d) = detail {
            if !DETAILS.contains(&d) {
                return Err(invalid(
                    "detail",
                    format!(
                        "Unknown detail \"{d}\": valid values are {} (or leave it out)",
                        DETAILS.join(", ")
                    ),
                    DETAILS,
                ));
            }
        }
        if detail == Some("summary") && history {
            return Err(invalid(
                "history",
                "`history=true` reads bodies and earlier versions; a `detail=summary` read has no bodies: leave one out"
                    .into(),
                &["false"],
            ));
        }
        if q.archived.unwrap_or(false) && detail != Some("summary") {
            return Err(invalid(
                "archived",
                "`archived=true` lists the archived sections in summary form: add `detail=summary`".into(),
                &["summary"],
            ));
        }
        Ok(if detail == Some("summary") && q.archived.unwrap_or(false) {
            ReadMode::Archived(filter)
        } else if detail == Some("summary") {
            ReadMode::Summary(filter)
        } else if !filter.is_empty() || history {
            // An unfiltered history read is every section with its earlier versions.
            ReadMode::Filtered { filter, history }
        } else {
            ReadMode::Full
        })
    }
}

/// The section's own `## ` headings, in order; lines inside fenced code blocks are not headings.
pub fn outline(body: &str) -> Vec<String> {
    let mut in_fence = false;
    let mut out = Vec::new();
    for line in body.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        if let Some(h) = trimmed.strip_prefix("## ") {
            let h = h.trim().trim_end_matches('#').trim();
            if !h.is_empty() {
                out.push(h.to_string());
            }
        }
    }
    out
}
