//! Projects (editor / canvas), created or imported, optionally linked to a card.
use serde::{Deserialize, Serialize};
use ts_rs::TS;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Project {
    pub id: String,
    /// `editor | canvas` (read from `surface` or `kind` too).
    #[serde(alias = "surface", alias = "kind")]
    pub r#type: String,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub orientation: Option<String>,
    #[serde(default)]
    pub width: Option<i64>,
    #[serde(default)]
    pub height: Option<i64>,
    #[serde(default)]
    pub thumbnail_url: Option<String>,
    #[serde(default)]
    pub is_archived: bool,
    #[serde(default)]
    pub is_favorited: bool,
    #[serde(default)]
    pub brand_kit_id: Option<String>,
    #[serde(default)]
    pub linked_card_id: Option<String>,
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default)]
    pub updated_at: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ProjectList {
    #[serde(default)]
    pub projects: Vec<Project>,
}

/// The reply to a create or import. `linkedCardId` is given beside `project` (and inside it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ProjectCreated {
    pub project: Project,
    #[serde(default)]
    pub linked_card_id: Option<String>,
}

impl ProjectCreated {
    /// The linked card, wherever the reply put it.
    pub fn linked_card(&self) -> Option<&str> {
        self.linked_card_id.as_deref().or(self.project.linked_card_id.as_deref())
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateProject {
    /// `editor` (default) or `canvas`; `surface` and `kind` are accepted aliases.
    #[serde(default, alias = "surface", alias = "kind", skip_serializing_if = "Option::is_none")]
    pub r#type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orientation: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub brand_kit_id: Option<String>,
    /// Link the new project to this card in the same call (needs `planner:write`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card_id: Option<String>,
}

/// Where an imported project comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum ImportSource {
    Pptx {
        #[serde(rename = "fileUrl")]
        file_url: String,
    },
    Canva {
        #[serde(rename = "designId")]
        design_id: String,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ImportProject {
    pub source: ImportSource,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_count: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card_id: Option<String>,
}
