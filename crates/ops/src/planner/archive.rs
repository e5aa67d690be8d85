//! Archive and restore: cards, spaces, projects, brand kits and their sections (never a hard delete).
use crate::input::one_of;
use crate::{out, Cx, Effect, Meta, OpError, Operation};
use api_types::values::ARCHIVE_ASSET_TYPES;
use api_types::ArchiveRequest;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

fn asset_type_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "type": "string", "enum": ARCHIVE_ASSET_TYPES })
}

/// An archive or restore: `cdesk archive`, the agent tool `archive` and the app's `space_archive` and
/// `card_archive` take this one input and its rule ([`ArchiveInput::check`]).
#[derive(Debug, Clone, clap::Args, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
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
    #[ts(optional, as = "Option<bool>")]
    pub off: bool,
    /// The app's only (its outbox): the record's `updatedAt` as the board had it, the base of the change
    /// when it is kept offline. Not a flag nor an agent's field.
    #[arg(skip)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(skip)]
    #[ts(optional)]
    pub base_updated_at: Option<String>,
    /// The app's only: the record's title as the board had it (what the list of kept changes calls it).
    #[arg(skip)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(skip)]
    #[ts(optional)]
    pub title: Option<String>,
}

impl ArchiveInput {
    /// The rule of an archive, checked before anything is sent, in every face: a kind of record the
    /// service archives, and an id.
    pub fn check(&self) -> Result<(), OpError> {
        if !ARCHIVE_ASSET_TYPES.contains(&self.asset_type.as_str()) {
            return Err(OpError::usage("assetType", format!("unknown asset type `{}`: one of {}", self.asset_type, ARCHIVE_ASSET_TYPES.join(", "))));
        }
        if self.id.trim().is_empty() {
            return Err(OpError::usage("id", "Name the record to archive (its id)."));
        }
        Ok(())
    }

    /// Whether the record ends archived (`off`: restored).
    pub fn archived(&self) -> bool {
        !self.off
    }
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
        i.check()?;
        let req = ArchiveRequest { asset_type: i.asset_type, id: i.id, archived: i.off.then_some(false), extra: Default::default() };
        out(cx.client.archive(&req).await?)
    }
}
