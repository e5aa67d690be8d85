//! What the core checks before a brand-kit save is sent (an add's rules are the catalogue's,
//! `SectionAddInput::check`, whose words these reuse). The UI checks the same before it calls the core
//! (`ui/src/lib/brand-kit/brandKitRules.ts`); both run the cases of
//! `crates/api-types/fixtures/brand-kit-rules.json`, as does the sandbox's test of its own refusals.
use super::*;

pub(super) fn required(field: &str, v: &str, what: &str) -> IpcResult<String> {
    Ok(contentdesk_ops::brand_kit::required(field, v, what)?)
}

pub(super) fn one_of(field: &str, v: &str, valid: &[&str], what: &str) -> IpcResult<String> {
    Ok(contentdesk_ops::brand_kit::known(field, v, valid, what)?)
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
            Some(n) => Some(contentdesk_ops::brand_kit::section_name(&at("name"), n)?),
            None => None,
        };
        let width = e.width.as_deref().map(|w| one_of(&at("width"), w, WIDTHS, "width")).transpose()?;
        let tab = e.tab.as_deref().map(|t| one_of(&at("tab"), t, TABS, "tab")).transpose()?;
        let trimmed = |v: &Option<String>| v.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_string);
        let (after_id, before_id) = (trimmed(&e.after_id), trimmed(&e.before_id));
        let position = e.position.as_deref().map(|p| one_of(&at("position"), p, SECTION_POSITIONS, "position")).transpose()?;
        if [after_id.is_some(), before_id.is_some(), position.is_some()].iter().filter(|g| **g).count() > 1 {
            return Err(IpcError::validation(
                at("position"),
                "Place the section one way: after a section, before one, or at the top or bottom of its tab.",
            ));
        }
        let placed = after_id.is_some() || before_id.is_some() || position.is_some();
        if e.body.is_none() && name.is_none() && width.is_none() && tab.is_none() && !placed {
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
            after_id,
            before_id,
            position,
            ..Default::default()
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn fixture() -> Value {
        serde_json::from_str(include_str!("../../../api-types/fixtures/brand-kit-rules.json")).unwrap()
    }

    /// What the UI compares: the field, the message and the valid values, or null.
    fn outcome(r: IpcResult<Vec<SectionWrite>>) -> (Value, Option<Value>) {
        match r {
            Ok(writes) => (Value::Null, Some(serde_json::to_value(writes).unwrap())),
            Err(e) => {
                assert_eq!(e.code, IpcCode::Validation, "{e:?}");
                let mut got = json!({ "field": e.field, "message": e.message });
                if !e.valid_values.is_empty() {
                    got["validValues"] = json!(e.valid_values);
                }
                (got, None)
            }
        }
    }

    fn check(case: &Value, (got, sent): (Value, Option<Value>)) {
        let name = case["name"].as_str().unwrap();
        assert_eq!(got, case["expect"], "{name}");
        if let Some(sent) = sent {
            assert_eq!(sent, case["sends"], "{name}: what is sent");
        }
    }

    /// The add cases shared with the UI's `checkSectionAdd` and the sandbox: the app's JSON read as the
    /// catalogue's input, checked by its rules (`SectionAddInput::check`, as cdesk and agents are).
    #[test]
    fn the_shared_add_cases_give_the_same_field_and_message() {
        let cases = fixture()["add"].as_array().unwrap().clone();
        assert!(cases.len() >= 10);
        for case in &cases {
            let mut input = case["input"].clone();
            input["brandKitId"] = json!("kit-1");
            let args: SectionAddInput = serde_json::from_value(input).unwrap();
            check(case, outcome(args.check().map(|w| vec![w]).map_err(IpcError::from)));
        }
    }

    /// The save cases shared with the UI's `checkSectionEdits` and the sandbox.
    #[test]
    fn the_shared_save_cases_give_the_same_field_and_message() {
        let cases = fixture()["save"].as_array().unwrap().clone();
        assert!(cases.len() >= 20);
        for case in &cases {
            let edits: Vec<SectionEdit> = serde_json::from_value(case["sections"].clone()).unwrap();
            check(case, outcome(check_edits(&edits)));
        }
    }
}
