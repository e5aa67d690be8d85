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

pub mod account;
pub mod brand_kit;
pub mod calendar;
mod error;
mod generate;
pub mod import;
pub mod inspiration;
pub mod input;
pub mod knowledge;
pub mod media;
pub mod output;
pub mod planner;
pub mod projects;
mod save;
mod studio;
mod texts;
mod days;
mod toolsets;
mod printed;
#[cfg(test)]
mod tests;

pub use printed::*;
pub use texts::*;
pub use days::{dates_in_local_time, day_start};
pub use toolsets::*;

pub use error::OpError;
pub use media::{sniffed_kinds, FileAccess, MAX_INLINE_BYTES, MAX_UPLOAD_BYTES};

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
    /// What an upload may read: any path (the shell, the app), a local media file only (an agent over
    /// stdio), or inline bytes only (a hosted agent server).
    pub files: FileAccess,
}

impl Cx {
    pub fn new(client: Client) -> Cx {
        Cx { client, progress: Arc::new(Silent), wait_cap: None, as_sent: false, queue: None, files: FileAccess::Trusted }
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
                "Prints {findings: [{platform, field, rule, limit, actual, severity, source}]} (a table at a terminal). \
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
            Entry::of::<brand_kit::SectionRestore>(),
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

/// Operations offered in the shell only, with why. None today: `upload_media` was (an agent could be
/// talked into sending any file the user can read); it now reads a path only in the stdio server and
/// only a media file there, and inline bytes only when hosted ([`media::FileAccess`]).
pub const SHELL_ONLY: &[(&str, &str)] = &[];

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
