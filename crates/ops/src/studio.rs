//! Generation: every render takes a free quote (`--cost` / `getCost`), an idempotency key (`--output-id`
//! / `outputId`, minted when absent and reported before anything is sent, so a retry after a timeout
//! sends the same id and is never charged twice), and waits with the adaptive cadence of
//! `api_client::wait` (never a fixed 3 s) up to the input's timeout, or the face's cap.
use crate::input::help;
use crate::{out, save, Cx, Effect, Meta, OpError, Operation, ProgressEvent};
use api_client::{ApiError, WaitOptions};
use api_types::{BoardRequest, ContentType, CostEstimate, GenerateRequest, GenerateResult, Generation, References};
use std::path::PathBuf;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;
use std::marker::PhantomData;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn default_timeout() -> u64 {
    600
}

/// How every render is priced, retried and followed, as the end of its tool's details (one text for the
/// six; their fields' agent texts do not say it again: tools/list is read whole by the model).
macro_rules! render_terms {
    () => {
        "Price it first with getCost: true (free). Retry with the same outputId (a UUID): charged once. Still running after about 50 s, it returns the outputId for get_generation_status."
    };
}
pub(crate) use render_terms;

/// What every render takes besides its own fields.
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Spend {
    /// Only the price: nothing runs and nothing is charged.
    #[arg(long = "cost")]
    #[serde(default)]
    pub get_cost: bool,
    /// The idempotency key (a UUID){shell: : sending the same one again returns the same job and charges
    /// nothing more. Minted when absent, and reported first}{agent: , minted when absent}.
    #[arg(long)]
    #[serde(default)]
    pub output_id: Option<String>,
    #[command(flatten)]
    #[serde(flatten)]
    pub wait: Waiting<RenderWait>,
}

#[derive(Debug, Clone)]
pub struct RenderWait;
impl WaitHelp for RenderWait {
    const NO_WAIT: &str = "No polling after the submit: return its answer with the outputId{shell:  (follow it with `generation status`).
The submit itself can take up to about 50 s: the service holds it while the render may finish (its smart-wait)}.";
    const TIMEOUT: &str = "How long to keep polling after the submit answered, in seconds{shell: , read every 3 s or more (so the wait
can end a few seconds later); the submit's own smart-wait (up to about 50 s) comes before it}{agent:  (at most about
50 s in all)}.";
}

/// How a render is waited for and where its files go: a render's flags and `generation status`'s, each
/// with its own texts.
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Waiting<H: WaitHelp> {
    #[arg(long, help = help(H::NO_WAIT))]
    #[schemars(description = H::NO_WAIT)]
    #[serde(default)]
    pub no_wait: bool,
    #[arg(long, default_value_t = default_timeout(), value_name = "SECONDS", help = help(H::TIMEOUT))]
    #[schemars(description = H::TIMEOUT)]
    #[serde(default = "default_timeout")]
    pub timeout: u64,
    /// Download the finished files into this folder, as `<outputId>-<n>.<ext>` (the shell only).
    #[arg(long, value_name = "DIR")]
    #[serde(skip)]
    #[schemars(skip)]
    pub save: Option<PathBuf>,
    #[arg(skip)]
    #[serde(skip)]
    #[schemars(skip)]
    texts: PhantomData<H>,
}

/// The texts of [`Waiting`]'s flags for one operation.
pub trait WaitHelp: Send + Sync + 'static {
    const NO_WAIT: &str;
    const TIMEOUT: &str;
}

impl<H: WaitHelp> Waiting<H> {
    /// `--save DIR`: a render's files into the folder when it completed (else says why not); nothing
    /// when not asked.
    async fn save(&self, cx: &Cx, output_id: &str, urls: &[String], status: Option<api_types::GenerationStatus>) -> Result<(), OpError> {
        if let Some(dir) = &self.save {
            save::outputs(cx, output_id, urls, status == Some(api_types::GenerationStatus::Completed), dir).await?;
        }
        Ok(())
    }
}

/// What a render sends: a generate (image, video, audio, lip-sync, upscale) or a reference board, which
/// has an endpoint and a body of its own. [`render`] takes either.
#[derive(Debug, Clone)]
pub(crate) enum Job {
    Generate(Box<GenerateRequest>),
    Board(BoardRequest),
}

impl From<GenerateRequest> for Job {
    fn from(req: GenerateRequest) -> Job {
        Job::Generate(Box::new(req))
    }
}

impl Job {
    async fn quote(&self, cx: &Cx) -> Result<CostEstimate, ApiError> {
        match self {
            Job::Generate(r) => cx.client.studio().quote(r).await,
            Job::Board(r) => cx.client.studio().quote_board(r).await,
        }
    }

    fn set_output_id(&mut self, id: String) {
        match self {
            Job::Generate(r) => r.output_id = Some(id),
            Job::Board(r) => r.output_id = Some(id),
        }
    }

    async fn submit(&self, cx: &Cx) -> Result<GenerateResult, ApiError> {
        match self {
            Job::Generate(r) => cx.client.studio().generate(r).await,
            Job::Board(r) => cx.client.studio().board(r).await,
        }
    }
}

/// Quote, or submit and wait: the one path every render takes (then `--save` downloads the files).
pub(crate) async fn render(cx: &Cx, mut job: Job, spend: &Spend) -> Result<Value, OpError> {
    if spend.get_cost {
        return out(job.quote(cx).await?);
    }
    let output_id = match spend.output_id.as_deref().map(str::trim) {
        Some(id) if !id.is_empty() => id.to_string(),
        _ => uuid::Uuid::new_v4().to_string(),
    };
    job.set_output_id(output_id.clone());
    cx.progress.event(ProgressEvent::Submitted { output_id: output_id.clone() });
    let started = Instant::now();
    let submitted = job.submit(cx).await.map_err(|error| unsent(&output_id, error))?;
    let done = submitted.status.get().is_some_and(|s| matches!(s, api_types::GenerationStatus::Completed | api_types::GenerationStatus::Failed));
    if spend.wait.no_wait || done {
        spend.wait.save(cx, &submitted.output_id, &submitted.urls(), submitted.status.get()).await?;
        return out(submitted);
    }
    let generation = wait(cx, &output_id, spend.wait.timeout, started).await?;
    spend.wait.save(cx, &generation.output_id, &generation.urls(), generation.status.get()).await?;
    out(generation)
}

/// A submit that ended in an error that does not prove the service refused it: the same `outputId` is
/// the safe retry, and the error says so.
fn unsent(output_id: &str, error: ApiError) -> OpError {
    match error.status() {
        Some(400 | 401 | 402 | 403 | 404 | 409) => OpError::Api(error),
        _ => OpError::Internal(format!(
            "{error}. The render may have started: retry with --output-id {output_id} (outputId), which is charged once"
        )),
    }
}

/// Waits for a render up to `timeout_s` (or the face's cap), reporting each read.
async fn wait(cx: &Cx, output_id: &str, timeout_s: u64, started: Instant) -> Result<Generation, OpError> {
    let mut deadline = Duration::from_secs(timeout_s);
    if let Some(cap) = cx.wait_cap {
        deadline = deadline.min(cap);
    }
    let progress = cx.progress.clone();
    let id = output_id.to_string();
    let last = Arc::new(std::sync::Mutex::new(None::<Generation>));
    let seen = last.clone();
    let opts = WaitOptions {
        deadline,
        on_poll: Some(Arc::new(move |g: &Generation, next: Option<Duration>| {
            progress.event(ProgressEvent::Polled {
                output_id: id.clone(),
                status: g.status.as_str().to_string(),
                elapsed: started.elapsed(),
                next_in: next,
            });
            *seen.lock().unwrap_or_else(|e| e.into_inner()) = Some(g.clone());
        })),
        ..WaitOptions::default()
    };
    match cx.client.studio().wait(output_id, opts).await {
        Ok(outcome) => Ok(outcome.generation),
        Err(ApiError::GenerationTimeout { .. }) => {
            let last = last.lock().unwrap_or_else(|e| e.into_inner()).clone();
            Err(OpError::NotFinished {
                output_id: output_id.to_string(),
                status: last.as_ref().map_or("processing".to_string(), |g| g.status.as_str().to_string()),
                waited: deadline,
                last: last.map(|g| serde_json::to_value(g).unwrap_or(Value::Null)).unwrap_or(Value::Null),
            })
        }
        Err(e) => Err(e.into()),
    }
}

#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GenerateImageInput {
    #[command(flatten)]
    #[serde(flatten)]
    pub picture: Picture<ImageHelp>,
    /// How many images, 1 to 4.
    #[arg(short = 'n', long = "count", value_parser = clap::value_parser!(u32).range(1..=4))]
    #[serde(default)]
    pub num_images: Option<u32>,
    /// Reference images: URLs or output tokens (`<outputId>`, `<outputId>-<n>`){shell: ; repeat the flag}{agent: , as an array}.
    #[arg(long = "ref", value_name = "URL|TOKEN")]
    #[serde(default)]
    pub refs: Vec<String>,
    /// File the result as a look of this avatar.
    #[arg(long = "avatar")]
    #[serde(default)]
    pub avatar_id: Option<String>,
    #[command(flatten)]
    #[serde(flatten)]
    pub place: Place,
    #[command(flatten)]
    #[serde(flatten)]
    pub spend: Spend,
}

/// The image's texts for [`Picture`]'s fields.
#[derive(Debug, Clone)]
pub struct ImageHelp;
impl PictureHelp for ImageHelp {
    const PROMPT: &str = "What to render.";
    const MODEL: &str = "The model's id (`model list --type image`); the registry's first image model when absent.";
    const ASPECT: &str = "The aspect ratio, e.g. `1:1`, `16:9` or `9:16` (what the model takes: `model get`).";
    const RESOLUTION: &str = "The output resolution, as the model names it (`model get` lists what it takes).";
}

/// What an image or a video shows and how it is framed: the fields both take (first in their flags and
/// schemas), each with the operation's own texts.
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Picture<H: PictureHelp> {
    #[arg(help = help(H::PROMPT))]
    #[schemars(description = H::PROMPT)]
    #[serde(default)]
    pub prompt: Option<String>,
    #[arg(short = 'm', long = "model", help = help(H::MODEL))]
    #[schemars(description = H::MODEL)]
    #[serde(default)]
    pub model_id: Option<String>,
    #[arg(long = "aspect", help = help(H::ASPECT))]
    #[schemars(description = H::ASPECT)]
    #[serde(default)]
    pub aspect_ratio: Option<String>,
    #[arg(long, help = help(H::RESOLUTION))]
    #[schemars(description = H::RESOLUTION)]
    #[serde(default)]
    pub resolution: Option<String>,
    #[arg(skip)]
    #[serde(skip)]
    #[schemars(skip)]
    texts: PhantomData<H>,
}

/// The texts of [`Picture`]'s fields for one operation (`""`: none).
pub trait PictureHelp: Send + Sync + 'static {
    const PROMPT: &str;
    const MODEL: &str;
    const ASPECT: &str;
    const RESOLUTION: &str;
}

impl<H: PictureHelp> Picture<H> {
    /// Puts the prompt and the frame into a request; the model is the caller's to choose.
    pub fn apply(self, req: &mut GenerateRequest) {
        req.prompt = self.prompt;
        req.aspect_ratio = self.aspect_ratio;
        req.resolution = self.resolution;
    }
}

/// Where a result goes on an editor or canvas project (image, video, audio; fact sheet 3.1 `projectId`,
/// `placement`, `playheadFrame`).
#[derive(Debug, Clone, Default, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Place {
    /// Place the result onto this editor or canvas project (`project list`).
    #[arg(long = "project", value_name = "PROJECT_ID")]
    #[serde(default)]
    pub project_id: Option<String>,
    /// Where on the project: a timeline mode or an object, e.g. `append`, `atPlayhead`,
    /// `{"mode":"at","startSeconds":4,"track":1}` or `{"slideIndex":0,"fit":"cover"}` (on a canvas).
    #[arg(long, value_name = "MODE|JSON", value_parser = parse_placement, requires = "project_id")]
    #[serde(default)]
    #[schemars(schema_with = "crate::input::mode_or_object_schema")]
    pub placement: Option<Value>,
    /// The playhead's frame on the project's timeline (for `atPlayhead`).
    #[arg(long = "playhead", value_name = "FRAME")]
    #[serde(default)]
    pub playhead_frame: Option<f64>,
}

impl Place {
    /// Puts the placement into a request.
    pub fn apply(self, req: &mut GenerateRequest) {
        req.project_id = self.project_id;
        // A mode alone (`"append"`) as the shell's --placement reads it.
        req.placement = self.placement.map(|p| match p {
            Value::String(mode) => serde_json::json!({ "mode": mode }),
            other => other,
        });
        req.playhead_frame = self.playhead_frame;
    }
}

/// `--placement append` is `{"mode":"append"}`; a JSON object is taken as it is.
fn parse_placement(raw: &str) -> Result<Value, String> {
    let raw = raw.trim();
    if raw.starts_with('{') {
        let v: Value = serde_json::from_str(raw).map_err(|e| format!("not a JSON object: {e}"))?;
        return if v.is_object() { Ok(v) } else { Err("give a mode (append, atPlayhead) or a JSON object".into()) };
    }
    if raw.is_empty() || raw.contains(char::is_whitespace) {
        return Err("give a mode (append, atPlayhead) or a JSON object".into());
    }
    Ok(serde_json::json!({ "mode": raw }))
}

/// The model to use: the one named, else the registry's first of this content type.
pub(crate) async fn model_or_first(cx: &Cx, given: Option<String>, kind: ContentType) -> Result<String, OpError> {
    if let Some(m) = given.filter(|m| !m.trim().is_empty()) {
        return Ok(m);
    }
    let models = cx.client.models().list(Some(kind)).await?;
    models
        .into_iter()
        .next()
        .map(|m| m.model_id)
        .ok_or_else(|| OpError::usage("modelId", format!("no {} model in the registry: name one with --model", kind.as_str())))
}

pub struct GenerateImage;
impl Operation for GenerateImage {
    type Input = GenerateImageInput;
    const META: Meta = Meta {
        path: &["generate", "image"],
        tool: "generate_image",
        summary: "Render images from a prompt and reference images",
        details: concat!("Spends credits. ", render_terms!()),
        effect: Effect::Spend,
        idempotent: true,
        scope: Some(api_types::scopes::GENERATE),
    };
    async fn run(cx: Cx, mut i: GenerateImageInput) -> Result<Value, OpError> {
        let model_id = model_or_first(&cx, i.picture.model_id.take(), ContentType::Image).await?;
        let references = (!i.refs.is_empty()).then(|| References { images: i.refs, ..Default::default() });
        let mut req = GenerateRequest {
            model_id,
            content_type: Some(ContentType::Image),
            num_images: i.num_images,
            references,
            avatar_id: i.avatar_id,
            ..Default::default()
        };
        i.picture.apply(&mut req);
        i.place.apply(&mut req);
        render(&cx, req.into(), &i.spend).await
    }
}

#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatusInput {
    /// The render's outputId.
    pub output_id: String,
    /// More renders' outputIds: each is read (and waited for) in turn, and the answer is `{generations: [...]}`.
    #[arg(value_name = "MORE_OUTPUT_IDS")]
    #[serde(default)]
    pub more_output_ids: Vec<String>,
    #[command(flatten)]
    #[serde(flatten)]
    pub wait: Waiting<StatusWait>,
}

#[derive(Debug, Clone)]
pub struct StatusWait;
impl WaitHelp for StatusWait {
    const NO_WAIT: &str = "One read, no waiting.";
    const TIMEOUT: &str = "How long to wait, in seconds.";
}

/// One render's status (waited for unless `--no-wait`), its files saved with `--save`.
async fn status_of(cx: &Cx, output_id: &str, w: &Waiting<StatusWait>) -> Result<api_types::Generation, OpError> {
    let generation = if w.no_wait {
        cx.client.studio().status(output_id).await?
    } else {
        wait(cx, output_id, w.timeout, Instant::now()).await?
    };
    w.save(cx, &generation.output_id, &generation.urls(), generation.status.get()).await?;
    Ok(generation)
}

pub struct GenerationStatus;
impl Operation for GenerationStatus {
    type Input = StatusInput;
    const META: Meta = Meta {
        path: &["generation", "status"],
        tool: "get_generation_status",
        summary: "Read a render's status, waiting until it is done unless told not to",
        details: "Free. Waits with a growing interval until the render completes or fails (agents: at most about 50 s per call; call again with the same outputId to keep waiting).",
        effect: Effect::Read,
        idempotent: true,
        scope: None,
    };
    async fn run(cx: Cx, i: StatusInput) -> Result<Value, OpError> {
        if i.more_output_ids.is_empty() {
            return out(status_of(&cx, &i.output_id, &i.wait).await?);
        }
        // Several: one timeout for all of them, counted from the start.
        let started = Instant::now();
        let mut all = Vec::new();
        for id in std::iter::once(&i.output_id).chain(&i.more_output_ids) {
            let left = i.wait.timeout.saturating_sub(started.elapsed().as_secs());
            let one = Waiting { timeout: left, ..i.wait.clone() };
            all.push(status_of(&cx, id, &one).await?);
        }
        out(serde_json::json!({ "generations": all }))
    }
}
