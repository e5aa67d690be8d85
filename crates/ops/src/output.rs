//! What each agent tool answers, as a JSON Schema: the tool's MCP `outputSchema`, made from the same
//! `api-types` types the handler serialises its reply from (schemars, serialize contract: a field skipped
//! when empty is optional), so the schema and the reply cannot drift apart without a test failing
//! (`crates/cli/tests`, `tests/mcp`: the official clients validate every structured result against it).
//!
//! The schema describes the structured result as `cdesk mcp` sends it: a reply that is not an object (a
//! bare list) sits under `items`, and a spending tool or a status read may answer instead that the render
//! is still going ([`NotFinished`]). A spending tool answers a quote (`getCost`), the submitted render or
//! the finished one, each with its `charge` ([`Charge`]: credits and the balance after, as `cdesk mcp`
//! adds them where the service's reply does not say).
use api_types::preflight::Report;
use api_types::*;
use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde_json::{json, Value};

/// A reply that is a bare list, as structured content (an object) carries it.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct Items<T> {
    items: Vec<T>,
}

/// The answer when a render is still going after the tool's wait (about 50 s): follow it with
/// `get_generation_status` and its `outputId` (no new charge).
#[derive(JsonSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct NotFinished {
    output_id: String,
    status: String,
    waited_seconds: u64,
    /// What to call next.
    next: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    charge: Option<Charge>,
}

#[derive(JsonSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct Finished {
    #[serde(flatten)]
    generation: Generation,
    #[serde(skip_serializing_if = "Option::is_none")]
    charge: Option<Charge>,
}

#[derive(JsonSchema)]
#[allow(dead_code)]
struct Generations {
    generations: Vec<Generation>,
}

#[derive(JsonSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct BrandKits {
    brand_kits: Vec<BrandKitSummary>,
}

#[derive(JsonSchema)]
#[allow(dead_code)]
struct Accounts<T> {
    accounts: Vec<T>,
}

#[derive(JsonSchema)]
#[allow(dead_code)]
struct Projects {
    projects: Vec<Project>,
}

#[derive(JsonSchema)]
#[allow(dead_code)]
struct Spaces {
    spaces: Vec<Space>,
}

#[derive(JsonSchema)]
#[allow(dead_code)]
struct Tags {
    tags: Vec<Tag>,
}

#[derive(JsonSchema)]
#[allow(dead_code)]
struct Knowledge {
    item: KnowledgeItem,
}

#[derive(JsonSchema)]
#[allow(dead_code)]
struct Matches {
    matches: Vec<KnowledgeMatch>,
}

#[derive(JsonSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct SectionArchived {
    archived: bool,
    brand_kit_id: String,
    key: String,
    section_id: String,
}

/// What `repeat_card` answers: the copies made, each an ordinary card with its own time.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct Repeated {
    cards: Vec<CardSummary>,
    count: usize,
}

/// A row of the file that a card made by an earlier import already holds (by its row key).
#[derive(JsonSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct ImportExisting {
    line: usize,
    key: String,
    title: String,
    card_id: String,
}

/// What `import_cards` answers (`crate::import`): what a dry run would create, or what was created, the
/// rows found already, the rows refused (line, field, why), the columns it did not read.
#[derive(JsonSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct Imported {
    dry_run: bool,
    format: String,
    file: String,
    space: Value,
    existing: Vec<ImportExisting>,
    refused: Vec<crate::import::Refused>,
    ignored_columns: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    would_create: Option<Vec<crate::import::Planned>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    created: Option<Vec<crate::import::Planned>>,
}

/// One type's schema, as the serialised reply reads (`$defs` at its root, no `$schema`).
fn of<T: JsonSchema>() -> Value {
    let schema = SchemaSettings::draft2020_12().for_serialize().into_generator().into_root_schema_for::<T>();
    let mut v = serde_json::to_value(schema).unwrap_or(Value::Null);
    if let Some(o) = v.as_object_mut() {
        o.remove("$schema");
    }
    v
}

/// What a spending tool answers: a quote, the submitted render, the finished one, or one still going.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum Spend {
    Quote(CostEstimate),
    Submitted(GenerateResult),
    Finished(Finished),
    Going(NotFinished),
}

/// What `get_generation_status` answers: one render, several, or one still going.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum Status {
    One(Generation),
    Several(Generations),
    Going(NotFinished),
}

/// One of several object shapes (an untagged enum), said to be an object as MCP asks of an outputSchema.
fn any_of<T: JsonSchema>() -> Value {
    let mut v = of::<T>();
    v["type"] = json!("object");
    v
}

/// The output schema of an agent tool, `None` for a name this build does not know (a test holds every
/// tool of the catalogue to having one).
pub fn output_schema(tool: &str) -> Option<Value> {
    Some(match tool {
        "get_balance" => of::<Balance>(),
        "list_models" => of::<Items<ModelInfo>>(),
        "get_model" => of::<ModelInfo>(),
        "list_voices" => of::<Items<Voice>>(),
        "get_voice" => of::<Voice>(),
        "list_cards" => of::<CardList>(),
        "get_card" => of::<CardDetail>(),
        "check_card" => of::<Report>(),
        "create_card" | "update_card" | "move_card" | "duplicate_card" => of::<CardSummary>(),
        "repeat_card" => of::<Repeated>(),
        "queue_card" => of::<crate::planner::Queued>(),
        "import_cards" => of::<Imported>(),
        "publish_post" => of::<PublishResult>(),
        "export_calendar" => of::<crate::calendar::Export>(),
        "list_spaces" => of::<Spaces>(),
        "get_space" | "create_space" | "update_space" => of::<Space>(),
        "delete_space" | "delete_tag" | "remove_brand_knowledge" => of::<Deleted>(),
        "list_stages" => of::<StageList>(),
        "create_stage" => of::<Stage>(),
        "update_stage" => of::<StageUpdated>(),
        "delete_stage" => of::<StageDeleted>(),
        "list_tags" => of::<Tags>(),
        "create_tag" | "update_tag" => of::<Tag>(),
        "archive" => of::<ArchiveResult>(),
        "list_projects" => of::<Projects>(),
        "get_project" => of::<Project>(),
        "create_project" | "import_project" => of::<ProjectCreated>(),
        "list_connected_accounts" => of::<Accounts<ConnectedAccount>>(),
        "get_connected_account" => of::<ConnectedAccount>(),
        "list_accounts" => of::<Accounts<TrackedAccount>>(),
        "get_account" => of::<TrackedAccountDetail>(),
        "list_content" => of::<ContentList>(),
        "get_content" => of::<ContentDetail>(),
        "generate_image" | "generate_video" | "generate_audio" | "generate_board" | "generate_lip_sync" | "upscale" => any_of::<Spend>(),
        "get_generation_status" => any_of::<Status>(),
        "upload_media" => of::<UploadedMedia>(),
        "import_media" => of::<ImportedMedia>(),
        "list_media" => of::<MediaList>(),
        "list_brand_kits" => of::<BrandKits>(),
        // The service's own reply, whose shape follows `detail`, `keys`, `history` (a summary, sections
        // with bodies, their versions): an object, its fields as the service sends them.
        "get_brand_kit" => json!({ "type": "object", "description": "The brand kit as the service sends it for the detail asked" }),
        "get_brand_kit_section" | "update_brand_kit_section" | "add_brand_kit_section" | "revert_brand_kit_section" => of::<BrandKitSection>(),
        "archive_brand_kit_section" | "restore_brand_kit_section" => of::<SectionArchived>(),
        "list_brand_knowledge" => of::<KnowledgeList>(),
        "get_brand_knowledge" => of::<Knowledge>(),
        "search_brand_knowledge" => of::<Matches>(),
        "add_brand_knowledge" => of::<KnowledgeAdded>(),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_has_an_object_output_schema() {
        for e in crate::catalogue() {
            let schema = output_schema(e.meta.tool).unwrap_or_else(|| panic!("{}: no output schema", e.meta.tool));
            assert_eq!(schema["type"], "object", "{}: structured content is an object: {schema}", e.meta.tool);
        }
    }
}
