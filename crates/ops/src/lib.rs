//! The catalogue of the API's operations, each declared once: its command path (`card list`), its agent
//! tool name (`list_cards`), a one-line summary, what it does to the account ([`Effect`]), its input as one
//! typed struct (clap flags for the shell, serde + JSON Schema for agents) and its handler over
//! `api-client`. The shell commands (`cdesk`, crates/cli) and the agent tools (`cdesk mcp`) are both made
//! from [`catalogue`]: a new operation is one `impl Operation` and one line in [`catalogue`].
//!
//! A handler returns the service's reply as JSON (the shapes the official CLI prints) or an [`OpError`],
//! which knows its exit code. Long work reports through [`Progress`]; how long a render is waited for is
//! the face's choice ([`Cx::wait_cap`]): the shell waits `--timeout`, an agent tool at most ~50 s.
use api_client::Client;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

mod account;
pub mod brand_kit;
pub mod calendar;
mod error;
mod generate;
pub mod import;
mod inspiration;
pub mod input;
pub mod knowledge;
mod media;
pub mod output;
pub mod planner;
mod projects;
mod save;
mod studio;

pub use error::OpError;

/// What an operation does to the account: agents and users are told before it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Effect {
    /// Reads only.
    Read,
    /// Creates or changes records; nothing is charged.
    Write,
    /// Spends credits (a render). Each such operation takes `--cost` / `getCost` for a free quote.
    Spend,
    /// Deletes or archives what a user may miss.
    Destroy,
}

/// An operation's description, the same for every face.
#[derive(Debug, Clone, Copy)]
pub struct Meta {
    /// The shell's command path: the noun words, then the verb (`["brand-kit", "section", "set"]`).
    pub path: &'static [&'static str],
    /// The agent tool's name (fact sheet 5.2 where one exists).
    pub tool: &'static str,
    /// One line: what it does.
    pub summary: &'static str,
    /// For an agent: when to use it, what it costs, what to do next. May be empty.
    pub details: &'static str,
    pub effect: Effect,
    /// Doing it twice with the same input leaves the same state (a read, a PATCH with the same fields, a
    /// generate with the same `outputId`).
    pub idempotent: bool,
    /// The key's scope the service asks for (spec §5.4); `None`: any valid key.
    pub scope: Option<&'static str>,
}

impl Meta {
    /// `card list`.
    pub fn command(&self) -> String {
        self.path.join(" ")
    }
}

/// What a handler has to work with.
#[derive(Clone)]
pub struct Cx {
    pub client: Client,
    pub progress: Arc<dyn Progress>,
    /// The longest this face waits for a render, whatever the input asks (agent tools: ~50 s, then the
    /// `outputId` to follow); `None`: the input's own timeout.
    pub wait_cap: Option<Duration>,
    /// Reads answer the reply as the service sent it, not the typed record (`cdesk --json`, so a script
    /// written for the official CLI sees what that CLI prints: a model's capabilities in the service's
    /// spelling, a project's `surface` and `revision`). Agent tools and the app keep the typed record.
    pub as_sent: bool,
    /// Where the posting queue's slots are (the app's data folder and the profile); `None`: this face has
    /// no profile, and `queue_card` says so.
    pub queue: Option<planner::QueuePlace>,
}

impl Cx {
    pub fn new(client: Client) -> Cx {
        Cx { client, progress: Arc::new(Silent), wait_cap: None, as_sent: false, queue: None }
    }
}

/// Progress of long work, for a face to show (a terminal's progress line; an agent's notifications).
pub trait Progress: Send + Sync {
    fn event(&self, event: ProgressEvent);
}

#[derive(Debug, Clone, PartialEq)]
pub enum ProgressEvent {
    /// A render was submitted under this id: the id to retry or follow with, known before any wait.
    Submitted { output_id: String },
    /// A status read: the service's status, time since submission, and when the next read is.
    Polled { output_id: String, status: String, elapsed: Duration, next_in: Option<Duration> },
    /// One more page of a list was fetched.
    Page { fetched: usize, total: Option<u64> },
    /// Bytes of an upload sent so far, of `total`.
    Bytes { done: u64, total: u64 },
    /// Items of a batch done so far (`what`: "created"), of `total`.
    Step { what: &'static str, done: usize, total: usize },
}

/// Shows nothing.
pub struct Silent;

impl Progress for Silent {
    fn event(&self, _: ProgressEvent) {}
}

/// One operation: its description, its input, its handler.
pub trait Operation: Send + Sync + 'static {
    /// Flags for the shell (clap), fields for agents (serde, camelCase) and a JSON Schema (schemars):
    /// one struct.
    type Input: clap::Args + clap::FromArgMatches + DeserializeOwned + schemars::JsonSchema + Send + 'static;
    const META: Meta;
    fn run(cx: Cx, input: Self::Input) -> impl Future<Output = Result<Value, OpError>> + Send;
}

pub type OpFuture = Pin<Box<dyn Future<Output = Result<Value, OpError>> + Send>>;

/// A text written for both faces, as one face reads it. `{shell: …}` is for the shell only (flags,
/// `@file`, exit codes), `{agent: …}` for agent tools only (properties); each face keeps its own part's
/// words and drops the other's (with the space before it).
pub fn face_text(text: &str, shell: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        let (before, from) = rest.split_at(start);
        let tag = ["{shell: ", "{agent: "].into_iter().find(|t| from.starts_with(t));
        let Some(tag) = tag else {
            out.push_str(before);
            out.push('{');
            rest = &from[1..];
            continue;
        };
        // The marked part ends at its matching brace (JSON inside it keeps its own braces).
        let body = &from[tag.len()..];
        let mut depth = 0usize;
        let end = body.char_indices().find(|&(_, c)| match c {
            '{' => {
                depth += 1;
                false
            }
            '}' if depth == 0 => true,
            '}' => {
                depth -= 1;
                false
            }
            _ => false,
        });
        let Some((end, _)) = end else {
            out.push_str(rest);
            return out;
        };
        if (tag == "{shell: ") == shell {
            out.push_str(before);
            out.push_str(&body[..end]);
        } else {
            out.push_str(before.strip_suffix(' ').unwrap_or(before));
        }
        rest = &body[end + 1..];
    }
    out.push_str(rest);
    out
}

/// A text in the agents' words: [`face_text`], then each command named in backticks as its tool
/// (`` `model list --type video` `` is `` `list_models` (type video) ``), each `--flag` as its word.
pub fn agent_text(text: &str) -> String {
    let text = face_text(text, false);
    let mut out = String::with_capacity(text.len());
    let mut parts = text.split('`');
    if let Some(first) = parts.next() {
        out.push_str(first);
    }
    let mut inside = true;
    for part in parts {
        if inside {
            let words: Vec<&str> = part.split_whitespace().collect();
            let tool = (1..=words.len().min(3)).rev().find_map(|n| by_path(&words[..n]).map(|e| (e, n)));
            match tool {
                Some((e, n)) => {
                    out.push('`');
                    out.push_str(e.meta.tool);
                    out.push('`');
                    let rest: Vec<&str> = words[n..].iter().map(|w| w.trim_start_matches("--")).collect();
                    if !rest.is_empty() {
                        out.push_str(&format!(" ({})", rest.join(" ")));
                    }
                }
                None => {
                    out.push('`');
                    out.push_str(part);
                    out.push('`');
                }
            }
        } else {
            out.push_str(part);
        }
        inside = !inside;
    }
    out
}

/// Every description of a schema in the agents' words ([`agent_text`]).
fn for_agents(schema: &mut Value) {
    match schema {
        Value::Object(o) => {
            for (k, v) in o.iter_mut() {
                match v {
                    Value::String(d) if k == "description" => *d = agent_text(d),
                    other => for_agents(other),
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(for_agents),
        _ => {}
    }
}

/// Every help text of a command in the shell's words ([`face_text`]).
fn for_shell(command: clap::Command) -> clap::Command {
    let command = match command.get_about().map(ToString::to_string) {
        Some(about) if about.contains('{') => command.about(face_text(&about, true)),
        _ => command,
    };
    command.mut_args(|a| {
        let help = a.get_help().map(ToString::to_string).filter(|h| h.contains('{'));
        let long = a.get_long_help().map(ToString::to_string).filter(|h| h.contains('{'));
        let a = match help {
            Some(h) => a.help(face_text(&h, true)),
            None => a,
        };
        match long {
            Some(h) => a.long_help(face_text(&h, true)),
            None => a,
        }
    })
}

/// Drops `"default": null` where the schema does not allow null (an optional field's absence is said by
/// `required`; strict validators refuse a default outside its own type).
fn no_null_defaults(schema: &mut Value) {
    match schema {
        Value::Object(o) => {
            let allows_null = match o.get("type") {
                Some(Value::String(t)) => t == "null",
                Some(Value::Array(ts)) => ts.iter().any(|t| t == "null"),
                _ => ["anyOf", "oneOf"].iter().any(|k| o.get(*k).and_then(Value::as_array).is_some_and(|a| a.iter().any(|s| s.get("type") == Some(&Value::from("null"))))),
            };
            if o.get("default") == Some(&Value::Null) && !allows_null {
                o.remove("default");
            }
            o.values_mut().for_each(no_null_defaults);
        }
        Value::Array(a) => a.iter_mut().for_each(no_null_defaults),
        _ => {}
    }
}

/// An operation with its types erased, as the faces hold it.
pub struct Entry {
    pub meta: Meta,
    make_schema: fn() -> Value,
    /// Made at first use (a shell command that never asks pays nothing; an agent's calls reuse it).
    schema: OnceLock<Value>,
    args: fn(clap::Command) -> clap::Command,
    from_matches: fn(Cx, &clap::ArgMatches) -> Result<OpFuture, clap::Error>,
    from_json: fn(Cx, Value, &Value) -> Result<OpFuture, OpError>,
}

impl Entry {
    fn of<O: Operation>() -> Entry {
        Entry {
            meta: O::META,
            make_schema: || {
                let mut schema = serde_json::to_value(schemars::schema_for!(O::Input)).unwrap_or(Value::Null);
                // schemars gives a flattened group's doc comment to the whole input ("What every render
                // takes…" on generate_image): the operation is described by its Meta, never by a group.
                if let Some(object) = schema.as_object_mut() {
                    object.remove("description");
                }
                no_null_defaults(&mut schema);
                for_agents(&mut schema);
                schema
            },
            schema: OnceLock::new(),
            args: |c| <O::Input as clap::Args>::augment_args(c),
            from_matches: |cx, m| {
                let input = <O::Input as clap::FromArgMatches>::from_arg_matches(m)?;
                Ok(Box::pin(O::run(cx, input)))
            },
            from_json: |cx, v, schema| {
                let input = input::from_json::<O::Input>(v, schema)?;
                Ok(Box::pin(O::run(cx, input)))
            },
        }
    }

    /// The input's JSON Schema (an object schema; `cdesk schema`, the agent tool's `inputSchema`).
    pub fn input_schema(&self) -> Value {
        self.schema().clone()
    }

    fn schema(&self) -> &Value {
        self.schema.get_or_init(self.make_schema)
    }

    /// The shell subcommand: its flags from the input, its help from the summary (set after the flags:
    /// clap gives a flattened group's doc comment to the command).
    pub fn command(&self) -> clap::Command {
        let verb = self.meta.path.last().copied().unwrap_or("run");
        let command = for_shell((self.args)(clap::Command::new(verb)).about(self.meta.summary).long_about(None::<&str>));
        if self.meta.tool == "import_cards" {
            return command.after_help(
                "Each row's key (its `key` column, else a hash of its fields) is kept as the last line of its card's notes \
                 (`cdesk-import-key: KEY`), so a second run creates nothing new. Exit 0 when every row imported or was there \
                 already, 6 when a row was refused (its line and field are in `refused`; the others were imported).",
            );
        }
        if self.meta.tool == "check_card" {
            return command.after_help(
                "Prints {\"findings\": [{platform, field, rule, limit, actual, severity, source}]} (a table at a terminal). \
                 Exit 0 when nothing blocks, 6 when a finding blocks (the platform would refuse the post).",
            );
        }
        if self.meta.tool == "publish_post" {
            return command.after_help(
                "Prints {cardId, results: [{success, platform, postId, url, error}], publishedCount, failedCount}. \
                 Exit 0 when at least one post went out, 1 when every post failed (each one's error is in results).",
            );
        }
        command
    }

    /// Runs it with the flags a shell parsed.
    pub fn run_matches(&self, cx: Cx, matches: &clap::ArgMatches) -> Result<OpFuture, clap::Error> {
        (self.from_matches)(cx, matches)
    }

    /// What the shell prints of this operation's reply: the part the official CLI prints (a list out of its
    /// envelope, a record out of its wrapper; [`PRINTED_PART`]), its numbers as JavaScript writes them; a
    /// list's other fields, when it says there is more, as `paging`.
    pub fn printed(&self, reply: Value) -> Printed {
        let whole = |reply: Value| Printed { data: js_numbers(reply), paging: None };
        let Some(field) = PRINTED_PART.iter().find(|(tool, _)| *tool == self.meta.tool).map(|(_, field)| *field) else {
            return whole(reply);
        };
        let Value::Object(mut envelope) = reply else { return whole(reply) };
        let Some(data) = envelope.remove(field) else { return whole(Value::Object(envelope)) };
        let more = envelope.get("hasMore").and_then(Value::as_bool).unwrap_or(false)
            || match (envelope.get("total").and_then(Value::as_u64), data.as_array()) {
                (Some(total), Some(items)) => {
                    let offset = envelope.get("offset").and_then(Value::as_u64).unwrap_or(0);
                    total > offset + items.len() as u64
                }
                _ => false,
            };
        let paging = (more && data.is_array()).then(|| {
            let mut rest = serde_json::Map::new();
            for (k, v) in envelope {
                rest.insert(k, js_numbers(v));
            }
            rest
        });
        Printed { data: js_numbers(data), paging }
    }

    /// The shell's exit code for a reply that came back: 0, or [`EXIT_BLOCKED`] (6) for a card check with
    /// a finding that blocks (`cdesk card check ID && cdesk card publish ID`) and for an import with a row
    /// refused (the other rows were imported).
    pub fn exit_code(&self, reply: &Value) -> u8 {
        let blocks = (self.meta.tool == "check_card"
            && reply.get("findings").and_then(Value::as_array).is_some_and(|f| f.iter().any(|f| f.get("severity").and_then(Value::as_str) == Some("blocks"))))
            || (self.meta.tool == "import_cards" && reply.get("refused").and_then(Value::as_array).is_some_and(|r| !r.is_empty()));
        // A publish where every post failed published nothing: an error for a script, though the reply
        // (each post's error) is printed.
        let nothing_published = self.meta.tool == "publish_post"
            && reply.get("publishedCount").and_then(Value::as_i64) == Some(0)
            && reply.get("failedCount").and_then(Value::as_i64).is_some_and(|n| n > 0);
        if blocks {
            EXIT_BLOCKED
        } else if nothing_published {
            1
        } else {
            0
        }
    }

    /// Whether this operation's reply is a document ([`DOCUMENTS`]): the shell writes it raw (stdout or
    /// `--output FILE`), never as JSON.
    pub fn makes_document(&self) -> bool {
        DOCUMENTS.contains(&self.meta.tool)
    }

    /// The document in this operation's reply, when it makes one.
    pub fn document<'a>(&self, reply: &'a Value) -> Option<Document<'a>> {
        document(self.meta.tool, reply)
    }

    /// Runs it with an agent's JSON arguments (unknown fields are refused, naming them).
    pub fn run_json(&self, cx: Cx, args: Value) -> Result<OpFuture, OpError> {
        (self.from_json)(cx, args, self.schema())
    }
}

/// Operations whose reply is a document to hand over as it is (a calendar file), not a record to print:
/// the reply holds `document` (the text), `mediaType` and `count` ([`Entry::document`]).
const DOCUMENTS: &[&str] = &["export_calendar"];

/// A reply's document ([`Entry::document`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Document<'a> {
    /// The text, whole (an ICS with its CRLFs, a CSV, a JSON array).
    pub text: &'a str,
    pub media_type: &'a str,
    /// How many records (events) it holds.
    pub count: u64,
}

/// The exit code of `cdesk card check` when a finding blocks (beside [`OpError::exit_code`]'s 1-5).
pub const EXIT_BLOCKED: u8 = 6;

/// Every operation, in the order the shell's help lists them.
pub fn catalogue() -> &'static [Entry] {
    static CATALOGUE: OnceLock<Vec<Entry>> = OnceLock::new();
    CATALOGUE.get_or_init(|| {
        vec![
            Entry::of::<account::Balance>(),
            Entry::of::<account::ModelList>(),
            Entry::of::<account::ModelGet>(),
            Entry::of::<account::VoiceList>(),
            Entry::of::<planner::CardList>(),
            Entry::of::<planner::CardGet>(),
            Entry::of::<planner::CardCheck>(),
            Entry::of::<planner::CardCreate>(),
            Entry::of::<planner::CardUpdate>(),
            Entry::of::<planner::CardMove>(),
            Entry::of::<planner::CardDuplicate>(),
            Entry::of::<planner::CardRepeat>(),
            Entry::of::<planner::CardQueue>(),
            // Planner: spaces, stages, publish, tags, archive, projects, connected accounts, inspiration.
            Entry::of::<planner::CardPublish>(),
            Entry::of::<calendar::CalendarExport>(),
            Entry::of::<planner::SpaceList>(),
            Entry::of::<planner::SpaceGet>(),
            Entry::of::<planner::SpaceCreate>(),
            Entry::of::<planner::SpaceUpdate>(),
            Entry::of::<planner::SpaceDelete>(),
            Entry::of::<planner::StageList>(),
            Entry::of::<planner::StageCreate>(),
            Entry::of::<planner::StageUpdate>(),
            Entry::of::<planner::StageDelete>(),
            Entry::of::<planner::TagList>(),
            Entry::of::<planner::TagCreate>(),
            Entry::of::<planner::TagUpdate>(),
            Entry::of::<planner::TagRemove>(),
            Entry::of::<planner::Archive>(),
            Entry::of::<projects::ProjectList>(),
            Entry::of::<projects::ProjectGet>(),
            Entry::of::<projects::ProjectCreate>(),
            Entry::of::<projects::ProjectImport>(),
            Entry::of::<planner::ConnectedAccountList>(),
            Entry::of::<planner::ConnectedAccountGet>(),
            Entry::of::<inspiration::TrackedAccountList>(),
            Entry::of::<inspiration::TrackedAccountGet>(),
            Entry::of::<inspiration::ContentList>(),
            Entry::of::<inspiration::ContentGet>(),
            Entry::of::<studio::GenerateImage>(),
            Entry::of::<studio::GenerationStatus>(),
            // Studio, media and brand kits.
            Entry::of::<generate::GenerateVideo>(),
            Entry::of::<generate::GenerateAudio>(),
            Entry::of::<generate::GenerateBoard>(),
            Entry::of::<generate::GenerateLipSync>(),
            Entry::of::<generate::Upscale>(),
            Entry::of::<media::MediaUpload>(),
            Entry::of::<media::MediaList>(),
            Entry::of::<media::MediaImport>(),
            Entry::of::<brand_kit::BrandKitList>(),
            Entry::of::<brand_kit::BrandKitGet>(),
            Entry::of::<brand_kit::SectionGet>(),
            Entry::of::<brand_kit::SectionSet>(),
            Entry::of::<brand_kit::SectionAdd>(),
            Entry::of::<brand_kit::SectionArchive>(),
            Entry::of::<brand_kit::SectionRevert>(),
            Entry::of::<knowledge::KnowledgeList>(),
            Entry::of::<knowledge::KnowledgeGet>(),
            Entry::of::<knowledge::KnowledgeSearch>(),
            Entry::of::<knowledge::KnowledgeAdd>(),
            Entry::of::<knowledge::KnowledgeRemove>(),
            Entry::of::<import::CardImport>(),
            Entry::of::<account::VoiceGet>(),
        ]
    })
}

/// A group of agent tools a user may choose to serve (`cdesk mcp --toolsets planner,studio`): each
/// operation belongs to one, by the first word of its command path ([`Toolset::NOUNS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Toolset {
    Planner,
    Studio,
    BrandKit,
    Media,
    Inspiration,
    Account,
}

impl Toolset {
    pub const ALL: [Toolset; 6] = [Toolset::Planner, Toolset::Studio, Toolset::BrandKit, Toolset::Media, Toolset::Inspiration, Toolset::Account];

    /// The first words of the command paths of each toolset's operations.
    const NOUNS: &[(Toolset, &[&str])] = &[
        (Toolset::Planner, &["space", "stage", "card", "calendar", "tag", "archive", "connected-account"]),
        (Toolset::Studio, &["generate", "upscale", "generation", "model", "voice", "project"]),
        (Toolset::BrandKit, &["brand-kit", "knowledge"]),
        (Toolset::Media, &["media"]),
        (Toolset::Inspiration, &["content", "tracked-account"]),
        (Toolset::Account, &["account"]),
    ];

    /// Its name on the command line and in `--list-tools`.
    pub fn name(self) -> &'static str {
        match self {
            Toolset::Planner => "planner",
            Toolset::Studio => "studio",
            Toolset::BrandKit => "brand-kit",
            Toolset::Media => "media",
            Toolset::Inspiration => "inspiration",
            Toolset::Account => "account",
        }
    }

    /// What it holds, for `--help`.
    pub fn about(self) -> &'static str {
        match self {
            Toolset::Planner => "spaces, stages, cards, the calendar export, tags, archive, publishing and connected accounts",
            Toolset::Studio => "renders (image, video, audio, boards, lip-sync, upscale), their status, models, voices, projects",
            Toolset::BrandKit => "brand kits, their sections and knowledge (and the section resources)",
            Toolset::Media => "the media library",
            Toolset::Inspiration => "tracked accounts and their posts",
            Toolset::Account => "the credit balance",
        }
    }

    /// `brand-kit` → [`Toolset::BrandKit`].
    pub fn parse(name: &str) -> Option<Toolset> {
        Toolset::ALL.into_iter().find(|t| t.name().eq_ignore_ascii_case(name.trim()))
    }

    /// The toolset of a command path (`None`: a noun no toolset lists, refused by a test).
    fn of(path: &[&str]) -> Option<Toolset> {
        let noun = path.first()?;
        Toolset::NOUNS.iter().find(|(_, nouns)| nouns.contains(noun)).map(|(t, _)| *t)
    }
}

impl Meta {
    /// The toolset this operation belongs to.
    pub fn toolset(&self) -> Toolset {
        Toolset::of(self.path).unwrap_or(Toolset::Planner)
    }
}

/// Which agent tools a server offers: the toolsets chosen (all by default), and `read_only`, which wins
/// over every other choice: only operations whose effect is [`Effect::Read`] (the tools annotated
/// `readOnlyHint: true`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    pub toolsets: Vec<Toolset>,
    pub read_only: bool,
}

impl Default for Selection {
    fn default() -> Selection {
        Selection { toolsets: Toolset::ALL.to_vec(), read_only: false }
    }
}

impl Selection {
    /// From `--toolsets a,b` (`None` or `all`: every toolset) and `--read-only`; an unknown name is
    /// refused naming the known ones.
    pub fn parse(toolsets: Option<&str>, read_only: bool) -> Result<Selection, String> {
        let Some(list) = toolsets else { return Ok(Selection { read_only, ..Selection::default() }) };
        let mut chosen = Vec::new();
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            if name.eq_ignore_ascii_case("all") {
                chosen = Toolset::ALL.to_vec();
                continue;
            }
            let t = Toolset::parse(name).ok_or_else(|| {
                let known: Vec<&str> = Toolset::ALL.iter().map(|t| t.name()).collect();
                format!("unknown toolset `{name}`: the toolsets are {} (or all)", known.join(", "))
            })?;
            if !chosen.contains(&t) {
                chosen.push(t);
            }
        }
        if chosen.is_empty() {
            return Err("--toolsets names no toolset: give one or more of planner, studio, brand-kit, media, inspiration, account (or all)".into());
        }
        Ok(Selection { toolsets: chosen, read_only })
    }

    /// Whether this selection serves the operation.
    pub fn serves(&self, meta: &Meta) -> bool {
        self.toolsets.contains(&meta.toolset()) && (!self.read_only || meta.effect == Effect::Read)
    }

    /// Whether a toolset is chosen (for what is not a tool: the brand kit's section resources).
    pub fn has(&self, toolset: Toolset) -> bool {
        self.toolsets.contains(&toolset)
    }

    /// The agent tools this selection offers, in catalogue order.
    pub fn tools(&self) -> impl Iterator<Item = &'static Entry> + '_ {
        agent_catalogue().filter(|e| self.serves(&e.meta))
    }

    /// The agent tool of this name, when this selection offers it.
    pub fn tool(&self, name: &str) -> Option<&'static Entry> {
        self.tools().find(|e| e.meta.tool == name)
    }
}

/// Where the official CLI prints a part of the reply rather than the reply itself: the list inside the
/// service's envelope (`{"tags": […]}` → `[…]`), the record inside a wrapper (`{"project": {…}}` → `{…}`).
/// The official client unwraps these (contenthero-sdk 0.3.4, `packages/sdk/src/client.ts`); `cdesk --json`
/// prints the same ([`Entry::printed`]), so a script written for the official CLI (`… | jq '.[].name'`)
/// runs on cdesk. The lists cdesk has and the official CLI does not (cards, spaces, tracked accounts)
/// follow the same rule; a reply that is more than a list (`stage list`: the space and its
/// stages) is printed whole. `cdesk --envelope` prints every reply whole; agents get the whole reply.
const PRINTED_PART: &[(&str, &str)] = &[
    ("list_tags", "tags"),
    ("list_projects", "projects"),
    ("get_project", "project"),
    ("create_project", "project"),
    ("import_project", "project"),
    ("list_connected_accounts", "accounts"),
    ("list_brand_kits", "brandKits"),
    ("list_media", "media"),
    ("list_voices", "voices"),
    ("list_cards", "cards"),
    ("list_spaces", "spaces"),
    ("list_accounts", "accounts"),
];

/// What the shell prints of a reply ([`Entry::printed`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Printed {
    /// What goes to stdout: the part the official CLI prints, or the whole reply.
    pub data: Value,
    /// The rest of a list's envelope when it says there is more (`hasMore`, `total`, …): for the shell to
    /// say on stderr, never in `data`.
    pub paging: Option<serde_json::Map<String, Value>>,
}

/// A JSON value with its numbers written as JavaScript writes them (the official CLI is Node: every number
/// a double, `500.0` printed `500`): an integral float becomes an integer. What the service sent as `500`
/// and a typed read held as `f64` prints `500` again.
pub fn js_numbers(value: Value) -> Value {
    match value {
        Value::Number(n) if n.is_f64() => match n.as_f64() {
            // Integers a double holds exactly (|x| < 2^53).
            Some(f) if f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0 => Value::from(f as i64),
            _ => Value::Number(n),
        },
        Value::Array(a) => Value::Array(a.into_iter().map(js_numbers).collect()),
        Value::Object(o) => Value::Object(o.into_iter().map(|(k, v)| (k, js_numbers(v))).collect()),
        other => other,
    }
}

/// The nouns of the command paths, each with its help line (the shell's `cdesk <noun> --help`).
pub const NOUNS: &[(&str, &str)] = &[
    ("account", "The account's credits"),
    ("model", "The model registry"),
    ("voice", "Voices for speech and lip-sync"),
    ("space", "Spaces: the planner's boards"),
    ("stage", "Stages: the columns of a space"),
    ("card", "Cards on the planner board"),
    ("calendar", "The planner's calendar: export scheduled posts as ICS, CSV or JSON"),
    ("tag", "Tags for cards"),
    ("archive", "Archive or restore cards, spaces, projects, brand kits and sections"),
    ("project", "Editor and canvas projects"),
    ("brand-kit", "Brand kits and their Markdown sections"),
    ("section", "A brand kit's sections (versioned Markdown)"),
    ("knowledge", "A brand kit's knowledge: texts, files and pages to search"),
    ("content", "Inspiration content: posts of tracked accounts"),
    ("tracked-account", "Accounts tracked for inspiration or as the brand's own"),
    ("connected-account", "Social accounts connected for publishing"),
    ("media", "The media library: upload, import, list"),
    ("generate", "Render images, video and audio (spends credits; --cost quotes for free)"),
    ("upscale", "Upscale an image or video (spends credits)"),
    ("generation", "Follow a render"),
];

/// A noun's help line.
pub fn noun_about(noun: &str) -> Option<&'static str> {
    NOUNS.iter().find(|(n, _)| *n == noun).map(|(_, about)| *about)
}

/// The operation at a command path (`["card", "list"]`).
pub fn by_path(path: &[&str]) -> Option<&'static Entry> {
    catalogue().iter().find(|e| e.meta.path == path)
}

/// Operations offered in the shell only, with why: an agent tool that reads a local path could be talked
/// into sending any file the user can read to the service (an agent uploads by URL: `import_media`).
pub const SHELL_ONLY: &[(&str, &str)] = &[(
    "upload_media",
    "reads a file of this computer by its path: an agent could be led to send any file the user can read",
)];

/// The operations offered as agent tools: every one but [`SHELL_ONLY`].
pub fn agent_catalogue() -> impl Iterator<Item = &'static Entry> {
    catalogue().iter().filter(|e| !SHELL_ONLY.iter().any(|(t, _)| *t == e.meta.tool))
}

/// The document in a reply of `tool`, when `tool` makes one ([`DOCUMENTS`]).
pub fn document<'a>(tool: &str, reply: &'a Value) -> Option<Document<'a>> {
    if !DOCUMENTS.contains(&tool) {
        return None;
    }
    Some(Document {
        text: reply.get("document")?.as_str()?,
        media_type: reply.get("mediaType").and_then(Value::as_str).unwrap_or("text/plain"),
        count: reply.get("count").and_then(Value::as_u64).unwrap_or(0),
    })
}

/// The agent tool of this name (never a shell-only operation).
pub fn by_tool(tool: &str) -> Option<&'static Entry> {
    agent_catalogue().find(|e| e.meta.tool == tool)
}

/// Serialises a reply for output (every reply type of `api-types` serialises).
pub(crate) fn out<T: Serialize>(value: T) -> Result<Value, OpError> {
    serde_json::to_value(value).map_err(|e| OpError::Internal(format!("could not encode the reply: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::collections::HashSet;

    #[test]
    fn every_entry_is_unique_and_described() {
        let mut paths = HashSet::new();
        let mut tools = HashSet::new();
        for e in catalogue() {
            assert!(paths.insert(e.meta.path), "two operations at `{}`", e.meta.command());
            assert!(tools.insert(e.meta.tool), "two operations named `{}`", e.meta.tool);
            assert!(!e.meta.summary.is_empty() && !e.meta.summary.ends_with('.'), "{}: a one-line summary without a full stop", e.meta.tool);
            assert!(e.meta.tool.chars().all(|c| c.is_ascii_lowercase() || c == '_'), "{}: snake_case", e.meta.tool);
            let schema = e.input_schema();
            assert_eq!(schema["type"], "object", "{}: the input is an object", e.meta.tool);
            // The shell command builds (clap checks its own declarations in debug builds).
            e.command().debug_assert();
            for noun in &e.meta.path[..e.meta.path.len() - 1] {
                assert!(noun_about(noun).is_some(), "{}: the noun `{noun}` has no line in NOUNS", e.meta.tool);
            }
        }
    }

    #[test]
    fn an_operation_is_described_by_its_meta_not_by_a_flattened_group() {
        // clap and schemars both hand a flattened group's doc comment to the whole input (`generate
        // image` was "What every render takes besides its own fields", `account balance` "No input").
        for e in catalogue() {
            assert_eq!(e.command().get_about().map(|a| a.to_string()), Some(e.meta.summary.to_string()), "{}", e.meta.tool);
            assert_eq!(e.command().get_long_about(), None, "{}", e.meta.tool);
            assert!(e.input_schema().get("description").is_none(), "{}: {}", e.meta.tool, e.input_schema()["description"]);
        }
    }

    #[test]
    fn the_shell_prints_what_the_official_cli_prints() {
        for (tool, _) in PRINTED_PART {
            assert!(catalogue().iter().any(|e| e.meta.tool == *tool), "{tool}: no such operation");
        }
        let tags = by_tool("list_tags").unwrap();
        let p = tags.printed(json!({ "tags": [{ "id": "t1", "name": "a", "count": 2.0 }] }));
        assert_eq!(p.data, json!([{ "id": "t1", "name": "a", "count": 2 }]));
        assert_eq!(p.paging, None);
        let cards = by_tool("list_cards").unwrap();
        let p = cards.printed(json!({ "cards": [{ "id": "c1" }], "total": 3, "hasMore": true }));
        assert_eq!(p.data, json!([{ "id": "c1" }]));
        assert_eq!(p.paging.map(Value::Object), Some(json!({ "total": 3, "hasMore": true })));
        let p = cards.printed(json!({ "cards": [{ "id": "c1" }], "total": 1, "hasMore": false }));
        assert_eq!(p.paging, None, "nothing more: nothing to say");
        let project = by_tool("get_project").unwrap();
        assert_eq!(project.printed(json!({ "project": { "id": "p1" } })).data, json!({ "id": "p1" }));
        // Not an envelope (the service's own shape changed): printed whole, not lost.
        assert_eq!(tags.printed(json!([{ "id": "t1" }])).data, json!([{ "id": "t1" }]));
        let balance = by_tool("get_balance").unwrap();
        assert_eq!(balance.printed(json!({ "balance": 500.0, "rate": 0.5 })).data.to_string(), r#"{"balance":500,"rate":0.5}"#);
    }

    #[test]
    fn a_card_check_exits_6_only_when_a_finding_blocks() {
        let check = by_tool("check_card").unwrap();
        assert_eq!(check.meta.effect, Effect::Read);
        assert_eq!(check.meta.toolset(), Toolset::Planner);
        let blocking = json!({ "findings": [{ "severity": "warns" }, { "severity": "blocks" }] });
        assert_eq!(check.exit_code(&blocking), EXIT_BLOCKED);
        assert_eq!(check.exit_code(&json!({ "findings": [{ "severity": "warns" }] })), 0);
        assert_eq!(check.exit_code(&json!({ "findings": [] })), 0);
        assert_eq!(by_tool("get_card").unwrap().exit_code(&blocking), 0, "only the check says 6");
        assert!(check.command().get_after_help().is_some_and(|h| h.to_string().contains("6 when a finding blocks")), "--help says 6");
    }

    #[test]
    fn numbers_print_as_javascript_prints_them() {
        assert_eq!(js_numbers(json!([500.0, 0.5, -3.0, 1e300, 7])).to_string(), "[500,0.5,-3,1e+300,7]");
    }

    #[test]
    fn every_operation_is_in_one_toolset() {
        for e in catalogue() {
            let in_sets: Vec<Toolset> = Toolset::NOUNS.iter().filter(|(_, n)| n.contains(&e.meta.path[0])).map(|(t, _)| *t).collect();
            assert_eq!(in_sets.len(), 1, "{}: in toolsets {in_sets:?}", e.meta.tool);
        }
        for t in Toolset::ALL {
            assert_eq!(Toolset::parse(t.name()), Some(t));
            assert!(agent_catalogue().any(|e| e.meta.toolset() == t), "{}: no tool", t.name());
        }
    }

    #[test]
    fn read_only_wins_over_the_toolsets_chosen() {
        let all = Selection::default();
        assert_eq!(all.tools().count(), agent_catalogue().count());
        let read = Selection::parse(None, true).unwrap();
        assert!(read.tools().count() > 10);
        assert!(read.tools().all(|e| e.meta.effect == Effect::Read));
        assert_eq!(read.tools().count(), agent_catalogue().filter(|e| e.meta.effect == Effect::Read).count());
        let studio = Selection::parse(Some("studio"), true).unwrap();
        assert!(studio.tool("generate_image").is_none(), "a spending tool is not read-only");
        assert!(studio.tool("get_generation_status").is_some());
        assert!(studio.tool("list_cards").is_none(), "another toolset");
        let two = Selection::parse(Some("planner, brand-kit"), false).unwrap();
        assert!(two.tool("create_card").is_some() && two.tool("update_brand_kit_section").is_some());
        assert!(two.tool("generate_image").is_none() && two.tool("get_balance").is_none());
        assert_eq!(Selection::parse(Some("all"), false).unwrap(), all);
        assert!(Selection::parse(Some("planer"), false).unwrap_err().contains("planner, studio"));
        assert!(Selection::parse(Some(","), false).is_err());
    }

    #[test]
    fn spending_operations_take_a_free_quote() {
        for e in catalogue().iter().filter(|e| e.meta.effect == Effect::Spend) {
            let schema = e.input_schema();
            assert!(schema["properties"]["getCost"].is_object(), "{} has no getCost", e.meta.tool);
            assert!(schema["properties"]["outputId"].is_object(), "{} has no outputId", e.meta.tool);
            assert!(e.command().get_arguments().any(|a| a.get_long() == Some("cost")), "{} has no --cost", e.meta.tool);
        }
    }
}

#[cfg(test)]
mod face_tests {
    use super::face_text;

    #[test]
    fn each_face_keeps_its_own_words() {
        let t = "Tags {shell: comma-separated }(names or ids){agent: , as an array}. A JSON {a: 1} stays.";
        assert_eq!(face_text(t, true), "Tags comma-separated (names or ids). A JSON {a: 1} stays.");
        assert_eq!(face_text(t, false), "Tags(names or ids), as an array. A JSON {a: 1} stays.");
        assert_eq!(face_text("Posts {shell: (`@file` reads a file: [{\"platform\": \"x\"}])} as JSON", true), "Posts (`@file` reads a file: [{\"platform\": \"x\"}]) as JSON");
        assert_eq!(face_text("Posts {shell: (`@file` reads a file: [{\"platform\": \"x\"}])} as JSON", false), "Posts as JSON");
    }
}
