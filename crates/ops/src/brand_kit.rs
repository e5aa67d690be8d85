//! Brand kits and their sections: list, get with the read modes (`--detail`, `--keys`, `--roles`,
//! `--tabs`, `--history`), and one section at a time: get, set (the whole body, with the version last
//! read; a stale one is a 409 naming the conflicting sections, exit 5, nothing written), add, archive,
//! revert. Writes go through `PATCH /brand-kits/{id}` with `sections` (spec §4 rules 1–8).
use crate::input::{help, one_of};
use crate::{out, Cx, Effect, Meta, OpError, Operation};
use api_client::{SectionFilter, SectionWriteExt};
use api_client::ApiError;
use api_types::values::{SECTION_NAME_MAX_CHARS, TABS, WIDTHS};
use api_types::{ArchiveRequest, BrandKit, BrandKitQuery, BrandKitSection, SectionWrite};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use serde_json::{json, Value};
use std::io::{IsTerminal, Read};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

fn enum_schema(values: Vec<&'static str>) -> schemars::Schema {
    schemars::json_schema!({ "type": "string", "enum": values })
}
fn tab_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    enum_schema(TABS.to_vec())
}
fn tabs_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "type": "array", "items": { "type": "string", "enum": TABS } })
}
fn roles_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "type": "array", "items": { "type": "string", "enum": api_types::roles() } })
}
fn width_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    enum_schema(WIDTHS.to_vec())
}

#[derive(Debug, Clone, Default, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BrandKitListInput {
    /// Only favourites.
    #[arg(long)]
    #[serde(default)]
    pub favorite: bool,
    /// The archived kits instead of the live ones.
    #[arg(long)]
    #[serde(default)]
    pub archived: bool,
}

pub struct BrandKitList;
impl Operation for BrandKitList {
    type Input = BrandKitListInput;
    const META: Meta = Meta {
        path: &["brand-kit", "list"],
        tool: "list_brand_kits",
        summary: "List the brand kits, the default first",
        details: "Free. Then get_brand_kit with detail: summary for a kit's section keys and versions.",
        effect: Effect::Read,
        idempotent: true,
        scope: Some(api_types::scopes::BRANDKIT_READ),
    };
    async fn run(cx: Cx, i: BrandKitListInput) -> Result<Value, OpError> {
        let kits = cx.client.brand_kits().list_filtered(i.favorite, i.archived).await?;
        Ok(json!({ "brandKits": crate::out(kits)? }))
    }
}

/// A kit read: `cdesk brand-kit get`, the agent tool `get_brand_kit` and the app's `brand_kit_sections`
/// (which reads sections by filter only: keys, roles or tabs) take this one input.
#[derive(Debug, Clone, Default, clap::Args, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BrandKitGetInput {
    /// The kit's id (`brand-kit list`).
    pub brand_kit_id: String,
    /// `summary`: sections without bodies (keys, versions, sizes, outlines); `full`: everything.
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub detail: Option<String>,
    /// Only these sections, by key {shell: (comma-separated)}{agent: (an array)}.
    #[arg(long, value_delimiter = ',')]
    #[serde(default, deserialize_with = "crate::input::list_or_csv", skip_serializing_if = "Vec::is_empty")]
    #[ts(optional, as = "Option<Vec<String>>")]
    pub keys: Vec<String>,
    /// Only these sections, by role {shell: (comma-separated)}{agent: (an array)}.
    #[arg(long, value_delimiter = ',', value_parser = one_of(api_types::roles()))]
    #[serde(default, deserialize_with = "crate::input::list_or_csv", skip_serializing_if = "Vec::is_empty")]
    #[schemars(schema_with = "roles_schema")]
    #[ts(optional, as = "Option<Vec<String>>")]
    pub roles: Vec<String>,
    /// Only the sections of these tabs {shell: (comma-separated)}{agent: (an array)}.
    #[arg(long, value_delimiter = ',', value_parser = one_of(TABS.iter().copied()))]
    #[serde(default, deserialize_with = "crate::input::list_or_csv", skip_serializing_if = "Vec::is_empty")]
    #[schemars(schema_with = "tabs_schema")]
    #[ts(optional, as = "Option<Vec<String>>")]
    pub tabs: Vec<String>,
    /// With each section's earlier versions (with a filter, or alone for every section).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(optional, as = "Option<bool>")]
    pub history: bool,
}

pub struct BrandKitGet;
impl Operation for BrandKitGet {
    type Input = BrandKitGetInput;
    const META: Meta = Meta {
        path: &["brand-kit", "get"],
        tool: "get_brand_kit",
        summary: "Read a brand kit: whole, as a summary of its sections, or only some sections",
        details: "Free. Read it with detail: summary first (no bodies: cheap), then only the sections needed. A section's version is what a write's expectedVersion wants.",
        effect: Effect::Read,
        idempotent: true,
        scope: Some(api_types::scopes::BRANDKIT_READ),
    };
    async fn run(cx: Cx, i: BrandKitGetInput) -> Result<Value, OpError> {
        Ok(cx.client.brand_kits().get_with(&i.brand_kit_id, &kit_query(&i)).await?)
    }
}

fn kit_query(i: &BrandKitGetInput) -> BrandKitQuery {
    let csv = |v: &[String]| (!v.is_empty()).then(|| v.join(","));
    BrandKitQuery { detail: i.detail.clone(), keys: csv(&i.keys), roles: csv(&i.roles), tabs: csv(&i.tabs), history: i.history.then_some(true), archived: None }
}

/// One section of a kit, read with its body (and history when asked); a key not in the kit is a usage
/// error naming the kit's keys.
async fn read_section(cx: &Cx, kit: &str, key: &str, history: bool) -> Result<BrandKitSection, OpError> {
    let mut filter = SectionFilter::keys([key]);
    filter.history = history;
    let view = cx.client.brand_kits().get_sections(kit, &filter).await?;
    if let Some(s) = view.sections.into_iter().find(|s| s.key == key) {
        return Ok(s);
    }
    let keys: Vec<String> = cx.client.brand_kits().get_summary(kit).await?.sections.into_iter().map(|s| s.key).collect();
    Err(OpError::usage("key", format!("no section `{key}` in brand kit {kit}; its keys: {}", keys.join(", "))))
}

/// The section `key` of a kit a write answered with.
fn section_of(kit: BrandKit, key: &str) -> Result<Value, OpError> {
    match kit.sections.into_iter().find(|s| s.key == key) {
        Some(s) => out(s),
        None => Err(OpError::Internal(format!("the write went through but the reply has no section `{key}`"))),
    }
}

#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SectionGetInput {
    /// The kit's id.
    pub brand_kit_id: String,
    /// The section's key (`brand-kit get <id> --detail summary` lists them).
    pub key: String,
    /// With its earlier versions (`revisions`, newest first).
    #[arg(long)]
    #[serde(default)]
    pub history: bool,
}

pub struct SectionGet;
impl Operation for SectionGet {
    type Input = SectionGetInput;
    const META: Meta = Meta {
        path: &["brand-kit", "section", "get"],
        tool: "get_brand_kit_section",
        summary: "Read one section of a brand kit: its Markdown body and version",
        details: "Free. The version is what update_brand_kit_section's expectedVersion wants.",
        effect: Effect::Read,
        idempotent: true,
        scope: Some(api_types::scopes::BRANDKIT_READ),
    };
    async fn run(cx: Cx, i: SectionGetInput) -> Result<Value, OpError> {
        out(read_section(&cx, &i.brand_kit_id, &i.key, i.history).await?)
    }
}

/// A section's Markdown body as a write takes it: `body` (`--body`), or in the shell `--file` (`-`:
/// stdin), or stdin itself where the operation says so ([`SectionBody::STDIN`]).
#[derive(Debug, Clone, clap::Args, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(concrete(B = AddBody))]
pub struct Body<B: SectionBody> {
    #[arg(long, conflicts_with = "file", help = help(B::TEXT))]
    #[schemars(description = B::TEXT)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub body: Option<String>,
    /// Read the body from this file (`-`: stdin).
    #[arg(long, value_name = "FILE")]
    #[serde(skip)]
    #[schemars(skip)]
    #[ts(skip)]
    pub file: Option<PathBuf>,
    /// Read stdin when neither --body nor --file is given: the shell only (agents always send `body`).
    #[arg(skip = B::STDIN)]
    #[serde(skip)]
    #[schemars(skip)]
    #[ts(skip)]
    stdin: bool,
    #[arg(skip)]
    #[serde(skip)]
    #[schemars(skip)]
    #[ts(skip)]
    kind: PhantomData<B>,
}

/// What one write says of its [`Body`], and whether the shell reads it from stdin.
pub trait SectionBody: Send + Sync + 'static {
    const TEXT: &str;
    const STDIN: bool;
}

impl<B: SectionBody> Body<B> {
    /// `--body`, else `--file`, else stdin (when the operation reads it); `None`: none given.
    fn read(self) -> Result<Option<String>, OpError> {
        if let Some(b) = self.body {
            return Ok(Some(b));
        }
        if let Some(path) = self.file {
            let text = if path == Path::new("-") {
                read_stdin()?
            } else {
                std::fs::read_to_string(&path).map_err(|e| OpError::usage("file", format!("cannot read {}: {e}", path.display())))?
            };
            return Ok(Some(text));
        }
        if self.stdin {
            if std::io::stdin().is_terminal() {
                return Err(OpError::usage("body", "give the section's Markdown with --file FILE, --body TEXT, or on stdin"));
            }
            let text = read_stdin()?;
            if text.is_empty() {
                return Err(OpError::usage("body", "stdin was empty; to empty a section, pass --body ''"));
            }
            return Ok(Some(text));
        }
        Ok(None)
    }
}

fn read_stdin() -> Result<String, OpError> {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).map_err(|e| OpError::usage("body", format!("cannot read stdin: {e}")))?;
    Ok(text)
}

#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SectionSetInput {
    /// The kit's id.
    pub brand_kit_id: String,
    /// The section's key.
    pub key: String,
    #[command(flatten)]
    #[serde(flatten)]
    pub body: Body<SetBody>,
    /// The version last read: if the section changed since, nothing is written and the current
    /// versions and bodies come back {shell: (exit 5)}{agent: (a conflict)}.
    #[arg(long)]
    pub expected_version: i64,
}

#[derive(Debug, Clone)]
pub struct SetBody;
impl SectionBody for SetBody {
    const TEXT: &str = "The whole new Markdown body {shell: (or --file FILE, or stdin)}.";
    const STDIN: bool = true;
}

pub struct SectionSet;
impl Operation for SectionSet {
    type Input = SectionSetInput;
    const META: Meta = Meta {
        path: &["brand-kit", "section", "set"],
        tool: "update_brand_kit_section",
        summary: "Replace a brand-kit section's Markdown body, if it has not changed since it was read",
        details: "Free. Send the whole body and the version you read. If the section changed since, nothing is written and the error carries its current version and body: merge your change into that body and send again with the new version.",
        effect: Effect::Write,
        idempotent: false,
        scope: Some(api_types::scopes::BRANDKIT_WRITE),
    };
    async fn run(cx: Cx, i: SectionSetInput) -> Result<Value, OpError> {
        let body = i.body.read()?.ok_or_else(|| OpError::usage("body", "the section's new Markdown body is required"))?;
        let reply = cx.client.brand_kits().write_sections(&i.brand_kit_id, vec![SectionWrite::edit(i.key.clone(), body, i.expected_version)]).await?;
        section_of(reply, &i.key)
    }
}

/// An added section: `cdesk brand-kit section add`, the agent tool `add_brand_kit_section` and the app's
/// `brand_kit_section_add` take this one input and its rules ([`SectionAddInput::check`]). A section you
/// add has no role (roles belong to the eight starter sections): the input has no such field, so every face
/// refuses one by name.
#[derive(Debug, Clone, clap::Args, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct SectionAddInput {
    /// The kit's id.
    pub brand_kit_id: String,
    /// The new section's name.
    #[arg(long = "name")]
    pub section_name: String,
    /// The tab it goes in.
    #[arg(long, value_parser = one_of(TABS.iter().copied()))]
    #[schemars(schema_with = "tab_schema")]
    pub tab: String,
    /// Its card's width (the service's default: full).
    #[arg(long, value_parser = one_of(WIDTHS.iter().copied()))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "width_schema")]
    #[ts(optional)]
    pub width: Option<String>,
    #[command(flatten)]
    #[serde(flatten)]
    pub body: Body<AddBody>,
    /// What the app sent that this input does not name (refused by `check`).
    #[arg(skip)]
    #[serde(flatten, skip_serializing)]
    #[schemars(skip)]
    #[ts(skip)]
    pub unknown: crate::input::Unknown,
}

impl SectionAddInput {
    /// The rules of an added section, checked before anything is sent, in every face, in this order (the
    /// cases of `crates/api-types/fixtures/brand-kit-rules.json`, which the UI's `checkSectionAdd` runs
    /// too): no field it does not name (`role` among them), a kit, a name of words and at most
    /// [`SECTION_NAME_MAX_CHARS`] characters, a known width when given, a known tab. Answers the write it
    /// sends (the name and tab trimmed; `body` as given, else empty).
    pub fn check(&self) -> Result<SectionWrite, OpError> {
        self.unknown.refuse()?;
        required("brandKitId", &self.brand_kit_id, "brand kit")?;
        let name = section_name("sectionName", &self.section_name)?;
        let width = self.width.as_deref().map(|w| known("width", w, WIDTHS, "width")).transpose()?;
        let tab = required("tab", &self.tab, "tab the section goes in")?;
        let tab = known("tab", &tab, TABS, "tab")?;
        let mut write = SectionWrite::add(name, tab, self.body.body.clone().unwrap_or_default());
        write.width = width;
        Ok(write)
    }
}

/// A value given, trimmed; blank is refused naming the field ("Give the brand kit.").
pub fn required(field: &str, v: &str, what: &str) -> Result<String, OpError> {
    let v = v.trim();
    if v.is_empty() {
        return Err(OpError::usage(field, format!("Give the {what}.")));
    }
    Ok(v.to_string())
}

/// A section's name as sent (added or renamed): trimmed, not blank, at most [`SECTION_NAME_MAX_CHARS`]
/// characters.
pub fn section_name(field: &str, v: &str) -> Result<String, OpError> {
    let name = required(field, v, "section's name")?;
    if name.chars().count() > SECTION_NAME_MAX_CHARS {
        return Err(OpError::usage(field, format!("The section's name is too long: at most {SECTION_NAME_MAX_CHARS} characters.")));
    }
    Ok(name)
}

/// One of the service's values, else refused naming the field and the valid values (as the service's own
/// 400 would, but before anything is sent: no status).
pub fn known(field: &str, v: &str, valid: &[&str], what: &str) -> Result<String, OpError> {
    if valid.contains(&v) {
        return Ok(v.to_string());
    }
    Err(OpError::Api(ApiError::Validation {
        message: format!("“{v}” is not a {what}: use one of {}.", valid.join(", ")),
        field: Some(field.to_string()),
        valid_values: valid.iter().map(|s| s.to_string()).collect(),
        code: None,
        body: String::new(),
    }))
}

/// The section an add made, in the kit a write answered with: a new section lands at its tab's end and
/// the reply lists sections in page order, so it is the last of its tab with its name and no role.
pub fn added_section(kit: BrandKit, write: &SectionWrite) -> Result<BrandKitSection, OpError> {
    kit.sections
        .into_iter()
        .rev()
        .find(|s| Some(&s.tab) == write.tab.as_ref() && Some(&s.section_name) == write.section_name.as_ref() && s.role.is_none())
        .ok_or_else(|| OpError::Internal("The section was added but the service's answer does not list it: read the kit again.".into()))
}

#[derive(Debug, Clone)]
pub struct AddBody;
impl SectionBody for AddBody {
    const TEXT: &str = "Its Markdown body {shell: (or --file FILE)}.";
    const STDIN: bool = false;
}

pub struct SectionAdd;
impl Operation for SectionAdd {
    type Input = SectionAddInput;
    const META: Meta = Meta {
        path: &["brand-kit", "section", "add"],
        tool: "add_brand_kit_section",
        summary: "Add a section to a brand kit's tab",
        details: "Free. Returns the new section with the key the service gave it (the key to write it with). Each call adds another section.",
        effect: Effect::Write,
        idempotent: false,
        scope: Some(api_types::scopes::BRANDKIT_WRITE),
    };
    async fn run(cx: Cx, i: SectionAddInput) -> Result<Value, OpError> {
        let mut write = i.check()?;
        write.body = Some(i.body.read()?.unwrap_or_default());
        let reply = cx.client.brand_kits().write_sections(i.brand_kit_id.trim(), vec![write.clone()]).await?;
        out(added_section(reply, &write)?)
    }
}

/// A kit's section by its key: the app's section history and draft discard.
#[derive(Debug, Clone, clap::Args, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SectionKeyInput {
    /// The kit's id.
    pub brand_kit_id: String,
    /// The section's key.
    pub key: String,
}

/// A section archived or restored by its key: `cdesk brand-kit section archive` and `restore`, the agent
/// tools `archive_brand_kit_section` and `restore_brand_kit_section`, and the app's
/// `brand_kit_section_archive` and `brand_kit_section_restore` take this one input and its rule
/// ([`SectionArchiveInput::check`]).
#[derive(Debug, Clone, clap::Args, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SectionArchiveInput {
    /// The kit's id.
    pub brand_kit_id: String,
    /// The section's key.
    pub key: String,
    /// The section's id (`id`), when known: else found by its key, among the kit's sections to archive or
    /// among its archived ones to restore (a service that does not list archived sections needs the id).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub section_id: Option<String>,
}

/// A section to archive or restore, checked: the kit, the key and the id when given, trimmed.
#[derive(Debug, Clone, PartialEq)]
pub struct SectionRef {
    pub kit: String,
    pub key: String,
    pub id: Option<String>,
}

impl SectionArchiveInput {
    /// The rule of an archive or restore, checked before anything is sent, in every face: a kit and a key
    /// are named (a blank id counts as none given).
    pub fn check(&self) -> Result<SectionRef, OpError> {
        let kit = required("brandKitId", &self.brand_kit_id, "brand kit")?;
        let key = required("key", &self.key, "section's key")?;
        let id = self.section_id.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_string);
        Ok(SectionRef { kit, key, id })
    }

    /// `POST /archive` for the section with this id: archived, or restored (`archived: false`).
    pub fn request(id: &str, archived: bool) -> ArchiveRequest {
        ArchiveRequest { asset_type: "brand_kit_section".into(), id: id.to_string(), archived: Some(archived), ..Default::default() }
    }
}

pub struct SectionArchive;
impl Operation for SectionArchive {
    type Input = SectionArchiveInput;
    const META: Meta = Meta {
        path: &["brand-kit", "section", "archive"],
        tool: "archive_brand_kit_section",
        summary: "Archive a brand-kit section (it leaves the kit's pages; it can be restored)",
        details: "Free. Archiving is not deleting: the section and its versions are kept, and restore_brand_kit_section brings it back by its key.",
        effect: Effect::Destroy,
        idempotent: true,
        scope: Some(api_types::scopes::FAVORITES_WRITE),
    };
    async fn run(cx: Cx, i: SectionArchiveInput) -> Result<Value, OpError> {
        archive_section(cx, i, true).await
    }
}

pub struct SectionRestore;
impl Operation for SectionRestore {
    type Input = SectionArchiveInput;
    const META: Meta = Meta {
        path: &["brand-kit", "section", "restore"],
        tool: "restore_brand_kit_section",
        summary: "Restore an archived brand-kit section, with its versions, to its kit's pages",
        details: "Free. The key is the one the section had (get_brand_kit with detail: summary listed it before it was archived); it comes back with its body and versions.",
        effect: Effect::Write,
        idempotent: true,
        scope: Some(api_types::scopes::FAVORITES_WRITE),
    };
    async fn run(cx: Cx, i: SectionArchiveInput) -> Result<Value, OpError> {
        archive_section(cx, i, false).await
    }
}

/// An archive (`archived`) or a restore of a section: its id as given, else found by its key, among the
/// kit's live sections for an archive and among its archived ones for a restore.
async fn archive_section(cx: Cx, i: SectionArchiveInput, archived: bool) -> Result<Value, OpError> {
    let s = i.check()?;
    let id = match s.id {
        Some(id) => id,
        None if archived => read_section(&cx, &s.kit, &s.key, false).await?.id,
        None => archived_section_id(&cx, &s.kit, &s.key).await?,
    };
    let done = cx.client.archive(&SectionArchiveInput::request(&id, archived)).await?;
    Ok(json!({ "archived": done.archived, "brandKitId": s.kit, "key": s.key, "sectionId": id }))
}

/// The id of the kit's archived section `key`, as the service lists archived sections; a key not among
/// them is a usage error naming those that are.
async fn archived_section_id(cx: &Cx, kit: &str, key: &str) -> Result<String, OpError> {
    let archived = match cx.client.brand_kits().get_archived_sections(kit).await {
        Ok(view) => view.sections,
        Err(ApiError::Validation { .. }) => {
            return Err(OpError::usage(
                "sectionId",
                "this service does not list archived sections: give the section's id (sectionId), as the kit showed it before it was archived",
            ))
        }
        Err(e) => return Err(e.into()),
    };
    match archived.iter().find(|s| s.key == key) {
        Some(s) => Ok(s.id.clone()),
        None => {
            let keys: Vec<&str> = archived.iter().map(|s| s.key.as_str()).collect();
            let listed = if keys.is_empty() { "none".to_string() } else { keys.join(", ") };
            Err(OpError::usage("key", format!("no archived section `{key}` in brand kit {kit}; its archived sections: {listed}")))
        }
    }
}

/// A revert: `cdesk brand-kit section revert`, its agent tool and the app's `brand_kit_revert` take this one
/// input and its rules ([`SectionRevertInput::check`]).
#[derive(Debug, Clone, clap::Args, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SectionRevertInput {
    /// The kit's id.
    pub brand_kit_id: String,
    /// The section's key.
    pub key: String,
    /// The earlier version to bring back (it lands as a new version).
    #[arg(long = "to", value_name = "VERSION")]
    pub to: i64,
    /// The version last read; when absent, the current one is read first.
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub expected_version: Option<i64>,
}

impl SectionRevertInput {
    /// The rules of a revert, checked before anything is sent, in every face: a kit and a key are named,
    /// the version is 1 or more and is not the one read (that is the current one already).
    pub fn check(&self) -> Result<(), OpError> {
        if self.brand_kit_id.trim().is_empty() {
            return Err(OpError::usage("brandKitId", "Choose the brand kit."));
        }
        if self.key.trim().is_empty() {
            return Err(OpError::usage("key", "Choose the section's key."));
        }
        if self.to < 1 {
            return Err(OpError::usage("to", "Pick a version to bring back (1 or more)."));
        }
        if self.expected_version == Some(self.to) {
            return Err(OpError::usage("to", format!("Version {} is the current one already.", self.to)));
        }
        Ok(())
    }
}

pub struct SectionRevert;
impl Operation for SectionRevert {
    type Input = SectionRevertInput;
    const META: Meta = Meta {
        path: &["brand-kit", "section", "revert"],
        tool: "revert_brand_kit_section",
        summary: "Bring back an earlier version of a brand-kit section, as a new version",
        details: "Free. The earlier versions are listed by get_brand_kit_section with history. A revert is itself a version, so it can be reverted too.",
        effect: Effect::Write,
        idempotent: false,
        scope: Some(api_types::scopes::BRANDKIT_WRITE),
    };
    async fn run(cx: Cx, i: SectionRevertInput) -> Result<Value, OpError> {
        i.check()?;
        let expected = match i.expected_version {
            Some(v) => v,
            None => read_section(&cx, &i.brand_kit_id, &i.key, false).await?.version,
        };
        let reply = cx.client.brand_kits().write_sections(&i.brand_kit_id, vec![SectionWrite::revert(i.key.clone(), i.to, expected)]).await?;
        section_of(reply, &i.key)
    }
}
