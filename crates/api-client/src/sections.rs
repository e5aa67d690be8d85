//! Building brand-kit section writes (spec §4 "Rules for writing sections"): an entry with `key` edits
//! that section and carries the version last read; an entry without `key` adds one and needs a name and
//! a tab. `SectionWrite` lives in `api-types`; these constructors come with the `SectionWriteExt` trait
//! (`use contentdesk_api_client::SectionWriteExt;`, then `SectionWrite::edit(…)`).
use api_types::SectionWrite;

/// The width of a section's card on the brand page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SectionWidth {
    Full,
    Half,
}

impl SectionWidth {
    pub fn as_str(self) -> &'static str {
        match self {
            SectionWidth::Full => "full",
            SectionWidth::Half => "half",
        }
    }
}

pub trait SectionWriteExt: Sized {
    /// Replaces the whole body of `key`.
    fn edit(key: impl Into<String>, body: impl Into<String>, expected_version: i64) -> Self;
    /// Renames (the key never changes).
    fn rename(
        key: impl Into<String>,
        section_name: impl Into<String>,
        expected_version: i64,
    ) -> Self;
    fn set_width(key: impl Into<String>, width: SectionWidth, expected_version: i64) -> Self;
    /// Restores version `to` as a new version (so a revert can itself be reverted).
    fn revert(key: impl Into<String>, to: i64, expected_version: i64) -> Self;
    /// Adds a section to a tab (`overview`, `voice`, `visual`).
    fn add(
        section_name: impl Into<String>,
        tab: impl Into<String>,
        body: impl Into<String>,
    ) -> Self;
}

impl SectionWriteExt for SectionWrite {
    fn edit(key: impl Into<String>, body: impl Into<String>, expected_version: i64) -> Self {
        SectionWrite {
            key: Some(key.into()),
            body: Some(body.into()),
            expected_version: Some(expected_version),
            ..Default::default()
        }
    }

    fn rename(
        key: impl Into<String>,
        section_name: impl Into<String>,
        expected_version: i64,
    ) -> Self {
        SectionWrite {
            key: Some(key.into()),
            section_name: Some(section_name.into()),
            expected_version: Some(expected_version),
            ..Default::default()
        }
    }

    fn set_width(key: impl Into<String>, width: SectionWidth, expected_version: i64) -> Self {
        SectionWrite {
            key: Some(key.into()),
            width: Some(width.as_str().to_string()),
            expected_version: Some(expected_version),
            ..Default::default()
        }
    }

    fn revert(key: impl Into<String>, to: i64, expected_version: i64) -> Self {
        SectionWrite {
            key: Some(key.into()),
            revert_to: Some(to),
            expected_version: Some(expected_version),
            ..Default::default()
        }
    }

    fn add(
        section_name: impl Into<String>,
        tab: impl Into<String>,
        body: impl Into<String>,
    ) -> Self {
        SectionWrite {
            section_name: Some(section_name.into()),
            tab: Some(tab.into()),
            body: Some(body.into()),
            ..Default::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructors_write_the_wire_fields() {
        let json = |w: SectionWrite| serde_json::to_value(w).unwrap();
        assert_eq!(
            json(SectionWrite::edit("about", "# Hi", 3)),
            serde_json::json!({"key": "about", "body": "# Hi", "expectedVersion": 3})
        );
        assert_eq!(
            json(SectionWrite::revert("about", 1, 4)),
            serde_json::json!({"key": "about", "revertTo": 1, "expectedVersion": 4})
        );
        assert_eq!(
            json(SectionWrite::set_width("offer", SectionWidth::Half, 1)),
            serde_json::json!({"key": "offer", "width": "half", "expectedVersion": 1})
        );
        assert_eq!(
            json(SectionWrite::rename("offer", "What we sell", 1)),
            serde_json::json!({"key": "offer", "sectionName": "What we sell", "expectedVersion": 1})
        );
        assert_eq!(
            json(SectionWrite::add("Hooks", "voice", "- one")),
            serde_json::json!({"sectionName": "Hooks", "tab": "voice", "body": "- one"})
        );
    }
}
