//! Projects (editor / canvas), created or imported, optionally linked to a card.
use crate::open::Extra;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A project. Its kind was called `kind`, then `surface`, then `type`, and the service emitted the older
/// names beside the newer one for a while, so a reply may carry two or three of them at once: the read
/// takes `type`, else `surface`, else `kind`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", from = "ProjectRead")]
pub struct Project {
    pub id: String,
    /// `editor | canvas`.
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

/// [`Project`] as read, with the kind under any of its three names.
#[derive(Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
struct ProjectRead {
    id: String,
    #[serde(default)]
    r#type: Option<String>,
    #[serde(default)]
    surface: Option<String>,
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    orientation: Option<String>,
    #[serde(default)]
    width: Option<i64>,
    #[serde(default)]
    height: Option<i64>,
    #[serde(default)]
    thumbnail_url: Option<String>,
    #[serde(default)]
    is_archived: bool,
    #[serde(default)]
    is_favorited: bool,
    #[serde(default)]
    brand_kit_id: Option<String>,
    #[serde(default)]
    linked_card_id: Option<String>,
    #[serde(default)]
    created_at: Option<String>,
    #[serde(default)]
    updated_at: Option<String>,
}

impl From<ProjectRead> for Project {
    fn from(p: ProjectRead) -> Project {
        Project {
            id: p.id,
            r#type: p.r#type.or(p.surface).or(p.kind).unwrap_or_else(|| "editor".into()),
            title: p.title,
            orientation: p.orientation,
            width: p.width,
            height: p.height,
            thumbnail_url: p.thumbnail_url,
            is_archived: p.is_archived,
            is_favorited: p.is_favorited,
            brand_kit_id: p.brand_kit_id,
            linked_card_id: p.linked_card_id,
            created_at: p.created_at,
            updated_at: p.updated_at,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ProjectList {
    #[serde(default)]
    pub projects: Vec<Project>,
}

/// The reply to a create or import. `linkedCardId` is given beside `project` (and inside it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
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
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

/// Where an imported project comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ImportProject {
    pub source: ImportSource,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_count: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card_id: Option<String>,
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}
