//! What the core checks before a brand-kit write is sent.
use super::*;

pub(super) fn required(field: &str, v: &str, what: &str) -> IpcResult<String> {
    let v = v.trim();
    if v.is_empty() {
        return Err(IpcError::validation(field, format!("Give the {what}.")));
    }
    Ok(v.to_string())
}

pub(super) fn one_of(field: &str, v: &str, valid: &[&str], what: &str) -> IpcResult<String> {
    if valid.contains(&v) {
        return Ok(v.to_string());
    }
    Err(IpcError {
        valid_values: valid.iter().map(|s| s.to_string()).collect(),
        ..IpcError::validation(field, format!("“{v}” is not a {what}: use one of {}.", valid.join(", ")))
    })
}

pub(super) fn check_url(field: &str, raw: &str) -> IpcResult<String> {
    let raw = raw.trim();
    let ok = url::Url::parse(raw).is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host().is_some());
    if !ok {
        return Err(IpcError::validation(field, format!("“{raw}” is not a web address (http:// or https://).")));
    }
    Ok(raw.to_string())
}

/// What a save sends, checked: every entry names a section once, changes something, and says the
/// version it was read at.
pub(super) fn check_edits(edits: &[SectionEdit]) -> IpcResult<Vec<SectionWrite>> {
    if edits.is_empty() {
        return Err(IpcError::validation("sections", "Nothing to save: no section changed."));
    }
    let starter: HashSet<&str> = api_types::roles().into_iter().collect();
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(edits.len());
    for (i, e) in edits.iter().enumerate() {
        let at = |f: &str| format!("sections[{i}].{f}");
        let key = required(&at("key"), &e.key, "section's key")?;
        if !seen.insert(key.clone()) {
            return Err(IpcError::validation(at("key"), format!("Section “{key}” is named twice; send one entry per section.")));
        }
        if e.expected_version < 1 {
            return Err(IpcError::validation(at("expectedVersion"), "Give the version the section was read at (1 or more)."));
        }
        if let Some(role) = &e.role {
            if !(starter.contains(key.as_str()) && role == &key) {
                return Err(IpcError::validation(
                    at("role"),
                    "A section's role cannot be set or changed: roles belong to the eight starter sections.",
                ));
            }
        }
        let name = match &e.name {
            Some(n) => Some(required(&at("name"), n, "section's name")?),
            None => None,
        };
        let width = e.width.as_deref().map(|w| one_of(&at("width"), w, WIDTHS, "width")).transpose()?;
        let tab = e.tab.as_deref().map(|t| one_of(&at("tab"), t, TABS, "tab")).transpose()?;
        if e.body.is_none() && name.is_none() && width.is_none() && tab.is_none() {
            return Err(IpcError::validation(at("body"), format!("Section “{key}” has nothing to save.")));
        }
        out.push(SectionWrite {
            key: Some(key),
            section_name: name,
            tab,
            body: e.body.clone(),
            width,
            expected_version: Some(e.expected_version),
            revert_to: None,
            ..Default::default()
        });
    }
    Ok(out)
}
