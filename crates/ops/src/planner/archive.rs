//! Archive and restore: cards, spaces, projects, brand kits and their sections (never a hard delete).
use crate::input::one_of;
use crate::{out, Cx, Effect, Meta, OpError, Operation};
use api_types::values::ARCHIVE_ASSET_TYPES;
use api_types::ArchiveRequest;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

fn asset_type_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "type": "string", "enum": ARCHIVE_ASSET_TYPES })
}

#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ArchiveInput {
    /// What kind of record the id names.
    #[arg(value_parser = one_of(ARCHIVE_ASSET_TYPES.iter().copied()))]
    #[schemars(schema_with = "asset_type_schema")]
    pub asset_type: String,
    /// The record's id (a UUID). For a brand-kit section: the section's `id` (its UUID, as get_brand_kit
    /// shows it), not its `key` (`voice`, `design_guidelines`): the section by key is
    /// {shell: `brand-kit section archive <kit> <key>`}{agent: archive_brand_kit_section}.
    pub id: String,
    /// Restore it instead (unarchive).
    #[arg(long)]
    #[serde(default)]
    pub off: bool,
}

pub struct Archive;
impl Operation for Archive {
    type Input = ArchiveInput;
    const META: Meta = Meta {
        path: &["archive"],
        tool: "archive",
        summary: "Archive a card, space, project, brand kit or brand-kit section, or restore it with off",
        details: "Free and undoable: archiving hides the record from lists (list with archived to see it) and never deletes it; off restores it as it was (a scheduled card stays scheduled). Needs favorites:write.",
        effect: Effect::Destroy,
        idempotent: true,
        scope: Some("favorites:write"),
    };
    async fn run(cx: Cx, i: ArchiveInput) -> Result<Value, OpError> {
        if !ARCHIVE_ASSET_TYPES.contains(&i.asset_type.as_str()) {
            return Err(OpError::usage("assetType", format!("unknown asset type `{}`: one of {}", i.asset_type, ARCHIVE_ASSET_TYPES.join(", "))));
        }
        let req = ArchiveRequest { asset_type: i.asset_type, id: i.id, archived: i.off.then_some(false), extra: Default::default() };
        out(cx.client.archive(&req).await?)
    }
}
