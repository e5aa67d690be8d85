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
mod brand_kit;
mod error;
mod generate;
mod inspiration;
pub mod input;
mod knowledge;
mod media;
mod planner;
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
}

impl Cx {
    pub fn new(client: Client) -> Cx {
        Cx { client, progress: Arc::new(Silent), wait_cap: None }
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
    /// For a pure read whose answer is the service's reply unchanged: that reply as the service sent it
    /// (JSON text, the status checked and a refusal an [`OpError`] as in [`run`](Self::run)), for a face
    /// that hands JSON on (an agent tool), so it is not decoded into types and encoded again. `None`
    /// (the default, and for an input that takes more than one request): the face uses `run`.
    fn text(_cx: &Cx, _input: &Self::Input) -> Option<TextFuture> {
        None
    }
}

pub type OpFuture = Pin<Box<dyn Future<Output = Result<Value, OpError>> + Send>>;
pub type TextFuture = Pin<Box<dyn Future<Output = Result<String, OpError>> + Send>>;
pub type ReplyFuture = Pin<Box<dyn Future<Output = Result<Reply, OpError>> + Send>>;

/// What an operation answers an agent: JSON it made, or the service's reply passed on as it came.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    Json(Value),
    /// The service's body, JSON text (from [`Operation::text`]).
    Text(String),
}

/// An operation with its types erased, as the faces hold it.
pub struct Entry {
    pub meta: Meta,
    make_schema: fn() -> Value,
    /// Made at first use (a shell command that never asks pays nothing; an agent's calls reuse it).
    schema: OnceLock<Value>,
    args: fn(clap::Command) -> clap::Command,
    from_matches: fn(Cx, &clap::ArgMatches) -> Result<OpFuture, clap::Error>,
    from_json: fn(Cx, Value, &Value) -> Result<ReplyFuture, OpError>,
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
                if let Some(text) = O::text(&cx, &input) {
                    return Ok(Box::pin(async move { text.await.map(Reply::Text) }));
                }
                Ok(Box::pin(async move { O::run(cx, input).await.map(Reply::Json) }))
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
        (self.args)(clap::Command::new(verb)).about(self.meta.summary).long_about(None::<&str>)
    }

    /// Runs it with the flags a shell parsed.
    pub fn run_matches(&self, cx: Cx, matches: &clap::ArgMatches) -> Result<OpFuture, clap::Error> {
        (self.from_matches)(cx, matches)
    }

    /// Runs it with an agent's JSON arguments (unknown fields are refused, naming them); a pure read
    /// answers with the service's reply as it came ([`Operation::text`]).
    pub fn run_json(&self, cx: Cx, args: Value) -> Result<ReplyFuture, OpError> {
        (self.from_json)(cx, args, self.schema())
    }
}

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
            Entry::of::<planner::CardCreate>(),
            Entry::of::<planner::CardUpdate>(),
            Entry::of::<planner::CardMove>(),
            // Planner: spaces, stages, publish, tags, archive, projects, connected accounts, inspiration.
            Entry::of::<planner::CardPublish>(),
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
    fn spending_operations_take_a_free_quote() {
        for e in catalogue().iter().filter(|e| e.meta.effect == Effect::Spend) {
            let schema = e.input_schema();
            assert!(schema["properties"]["getCost"].is_object(), "{} has no getCost", e.meta.tool);
            assert!(schema["properties"]["outputId"].is_object(), "{} has no outputId", e.meta.tool);
            assert!(e.command().get_arguments().any(|a| a.get_long() == Some("cost")), "{} has no --cost", e.meta.tool);
        }
    }
}
