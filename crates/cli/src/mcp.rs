//! `cdesk mcp`: the operations catalogue as Model Context Protocol tools over stdio (rmcp), plus each
//! brand kit's sections as resources and prompts that ground a post in a kit's voice.
//!
//! One tool per operation: its name, description (summary, then what it costs and when to use it),
//! input schema and annotations all come from the catalogue (`readOnlyHint` for reads, `destructiveHint`
//! for what deletes or archives, `idempotentHint` on a write that is; `openWorldHint` left at its default, true:
//! every tool reaches the service).
//! A refusal of the service is a tool result with `isError: true` and the caller's next step in it (the
//! scope to grant, need/have, when to retry, the current text of a conflict), never a protocol error; an
//! unknown tool is the protocol's invalid-params error. A render waits at most [`WAIT_CAP`], then answers
//! with its `outputId` to follow with `get_generation_status`. No tool takes or returns a key: the key
//! comes from the same ladder as the shell's, once, at start. stdout is the protocol; logs go to stderr.
use api_client::Client;
use contentdesk_ops::{Cx, Effect, FileAccess, OpError, Progress, ProgressEvent, Selection, Toolset};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, GetPromptRequestParams, GetPromptResponse,
    GetPromptResult, Implementation, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, ProgressToken, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, ServerCapabilities, ServerConfig, Tool,
};
use crate::mcp_schema::tool_of;
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, Peer, RoleServer, ServerHandler, ServiceExt};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

/// How long a tool waits for a render before it answers with the `outputId` (the official server's).
pub const WAIT_CAP: Duration = Duration::from_secs(50);

/// Finished images come back as image content too, at most this many and each at most this large (the
/// URLs are always in the JSON).
const PREVIEW_IMAGES: usize = 4;
const PREVIEW_MAX_BYTES: usize = 1024 * 1024;

/// The largest arguments object a tool call may carry (a whole brand-kit section fits many times over).
const MAX_ARGS_BYTES: usize = 2 * 1024 * 1024;

const INSTRUCTIONS: &str = "Tools over the Content Production Service API (ContentHero): plan cards, price and run renders, \
read and edit brand kits. Tools that spend credits take getCost: true for a free quote; send an outputId (a UUID) with a \
generate and send the same one again to retry: it is charged once. A render that takes longer than about 50 s returns \
its outputId: follow it with get_generation_status. Brand-kit sections are also resources (contentdesk://brand-kit/{id}/section/{key}).";

#[derive(Clone)]
pub struct Server {
    /// The stdio server's one client; `None` for the HTTP server, where each request carries its
    /// caller's (see [`Server::client`]).
    client: Option<Client>,
    /// The tools offered (`--toolsets`, `--read-only`): only these are listed and called.
    selection: Arc<Selection>,
    tools: Arc<Vec<Tool>>,
    /// `--confirm-spend-over N`: ask the user before a render above N credits and before publishing now
    /// ([`crate::mcp_confirm`]).
    confirm_over: Option<f64>,
}

impl Server {
    pub fn new(client: Client, selection: Selection) -> Server {
        Server::with(Some(client), selection)
    }

    /// A server with no credential of its own (`cdesk mcp --http`): every request acts as the user whose
    /// token the HTTP layer checked and put on it.
    pub fn per_request(selection: Selection) -> Server {
        Server::with(None, selection)
    }

    fn with(client: Option<Client>, selection: Selection) -> Server {
        let of = if client.is_some() { tool_of } else { crate::mcp_schema::hosted_tool_of };
        let tools = Arc::new(selection.tools().map(of).collect());
        Server { client, selection: Arc::new(selection), tools, confirm_over: None }
    }

    /// Asks before a render above `over` credits and before publishing now (`--confirm-spend-over`).
    pub fn confirming_over(mut self, over: Option<f64>) -> Server {
        self.confirm_over = over;
        self
    }

    /// The brand kits' sections as resources: with the brand-kit toolset.
    fn serves_resources(&self) -> bool {
        self.selection.has(Toolset::BrandKit)
    }

    /// The `draft_post` prompt reads a card and a kit's voice: with the planner and brand-kit toolsets.
    fn serves_prompts(&self) -> bool {
        self.selection.has(Toolset::Planner) && self.selection.has(Toolset::BrandKit)
    }

    /// Who this request acts as: the stdio server's client, or the HTTP request's caller.
    fn client(&self, context: &RequestContext<RoleServer>) -> Result<Client, McpError> {
        match &self.client {
            Some(c) => Ok(c.clone()),
            None => crate::mcp_http::caller(context).ok_or_else(|| McpError::internal_error("this request carries no checked caller", None)),
        }
    }
}

/// Reports a render's id and status to the client as progress notifications (when it asked for them).
struct Notify {
    peer: Peer<RoleServer>,
    token: ProgressToken,
    step: std::sync::atomic::AtomicU64,
}

impl Progress for Notify {
    fn event(&self, event: ProgressEvent) {
        let message = match event {
            ProgressEvent::Submitted { output_id } => format!("submitted; outputId {output_id} (send it again to retry without a second charge)"),
            ProgressEvent::Polled { output_id, status, elapsed, .. } => format!("{status} after {} s ({output_id})", elapsed.as_secs()),
            ProgressEvent::Page { fetched, total } => match total {
                Some(t) => format!("fetched {fetched} of {t}"),
                None => format!("fetched {fetched}"),
            },
            ProgressEvent::Bytes { done, total } => format!("sent {done} of {total} bytes"),
            ProgressEvent::Step { what, done, total } => format!("{what} {done} of {total}"),
        };
        let progress = self.step.fetch_add(1, std::sync::atomic::Ordering::Relaxed) as f64 + 1.0;
        let param: Result<ProgressNotificationParam, _> = serde_json::from_value(json!({
            "progressToken": self.token, "progress": progress, "message": message,
        }));
        if let Ok(param) = param {
            let peer = self.peer.clone();
            tokio::spawn(async move {
                let _ = peer.notify_progress(param).await;
            });
        }
    }
}

/// The result an agent sees: short text a model reads ([`crate::mcp_text`]: the facts and ids, nothing
/// that says nothing, untrusted text fenced), and the whole reply as `structuredContent` for a client or
/// program that wants every field (numbers as the service sent them; a reply that is not an object, as
/// `list_models`' array, under `items`, since structured content is an object).
fn success(tool: &str, args: &Value, value: &Value) -> CallToolResult {
    let value = contentdesk_ops::js_numbers(value.clone());
    let text = if tool == "get_brand_kit" {
        let filtered = ["keys", "roles", "tabs"].iter().any(|k| args.get(k).and_then(Value::as_array).is_some_and(|a| !a.is_empty()))
            || args.get("detail").and_then(Value::as_str) == Some("full");
        crate::mcp_text::render_brand_kit(&value, filtered)
    } else {
        crate::mcp_text::render(tool, &value)
    };
    let structured = match value {
        Value::Object(_) => value,
        other => json!({ "items": other }),
    };
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(structured);
    result
}

/// A refusal or failure as a tool error result: the message, then the details as JSON text.
pub(crate) fn failure(e: &OpError) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(e.to_string()), ContentBlock::text(e.to_json().to_string())])
}

impl Server {
    async fn call(&self, request: CallToolRequestParams, context: RequestContext<RoleServer>) -> Result<CallToolResult, McpError> {
        let Some(entry) = self.selection.tool(&request.name) else {
            return Err(McpError::invalid_params(format!("unknown tool `{}`: tools/list names the tools this server offers", request.name), None));
        };
        let args = request.arguments.map(Value::Object).unwrap_or(Value::Null);
        let given = args.clone();
        if encoded_len(&args) > MAX_ARGS_BYTES {
            return Ok(failure(&OpError::Usage { message: format!("the arguments are larger than {} MiB", MAX_ARGS_BYTES / (1024 * 1024)), field: None }));
        }
        let client = self.client(&context)?;
        if let Err(refused) = crate::mcp_confirm::confirm(self.confirm_over, entry, &args, &client, &context).await {
            return Ok(refused);
        }
        let mut cx = Cx::new(client.clone());
        cx.wait_cap = Some(WAIT_CAP);
        cx.queue = crate::keys::queue_place();
        cx.files = if self.client.is_some() { FileAccess::Media } else { FileAccess::Inline };
        if let Some(token) = context.meta.get_progress_token() {
            cx.progress = Arc::new(Notify { peer: context.peer.clone(), token, step: Default::default() });
        }
        let run = match entry.run_json(cx, args) {
            Ok(run) => run,
            Err(e) => return Ok(failure(&e)),
        };
        let outcome = tokio::select! {
            r = run => r,
            _ = context.ct.cancelled() => Err(OpError::Internal("cancelled by the client".into())),
        };
        Ok(match outcome {
            Ok(value) if entry.meta.effect == Effect::Spend || entry.meta.tool == "get_generation_status" => {
                let value = if entry.meta.effect == Effect::Spend { with_charge(&client, value, None).await } else { value };
                let previews = previews(&client, &value).await;
                let mut r = success(entry.meta.tool, &given, &value);
                r.content.extend(links(&render_urls(&value)));
                r.content.extend(previews);
                r
            }
            Ok(value) if entry.meta.tool == "list_media" => {
                let mut r = success(entry.meta.tool, &given, &value);
                let urls: Vec<&str> = value.get("media").and_then(Value::as_array).map(|a| a.iter().filter_map(|m| m.get("url").and_then(Value::as_str)).collect()).unwrap_or_default();
                r.content.extend(links(&urls));
                r
            }
            Ok(value) => success(entry.meta.tool, &given, &value),
            // Not a failure for an agent: the render goes on; here is how to follow it.
            Err(OpError::NotFinished { output_id, status, waited, last }) => {
                let still = json!({
                    "outputId": output_id,
                    "status": status,
                    "waitedSeconds": waited.as_secs(),
                    "next": format!("Still {status}: call get_generation_status with outputId {output_id} to keep waiting (no new charge)."),
                });
                let still = if entry.meta.effect == Effect::Spend { with_charge(&client, still, Some(&last)).await } else { still };
                success(entry.meta.tool, &given, &still)
            }
            Err(e) => failure(&e),
        })
    }
}

/// A render's result with what it cost (spending tools; a free quote is left as it is): `charge` holds
/// the service's own where it sent one (`credits`, `held`, `state`, `balanceAfter`), its `credits` else
/// from `creditsCharged` or the estimate it held, and `balanceAfter` read from the account when the
/// service did not say (null when the key may not read it). `last`: the render's last reply, for a
/// render still going.
async fn with_charge(client: &Client, mut value: Value, last: Option<&Value>) -> Value {
    let source = last.unwrap_or(&value).clone();
    let Value::Object(o) = &mut value else { return value };
    if !o.contains_key("outputId") {
        return value;
    }
    let mut charge: api_types::Charge = source.get("charge").cloned().and_then(|c| serde_json::from_value(c).ok()).unwrap_or(api_types::Charge {
        credits: None,
        held: None,
        state: None,
        balance_after: None,
    });
    if charge.credits.is_none() {
        charge.credits = ["creditsCharged", "creditsEstimate"].iter().find_map(|k| source.get(*k).and_then(Value::as_f64));
    }
    if charge.balance_after.is_none() {
        charge.balance_after = client.account().balance().await.ok().map(|b| b.balance);
    }
    o.insert("charge".into(), serde_json::to_value(charge).unwrap_or(Value::Null));
    value
}

/// How many bytes `value` takes as compact JSON, counted without writing them anywhere.
fn encoded_len(value: &Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

/// A finished render's file URLs (`outputUrls`, or each output's `url`); none before it completes.
fn render_urls(value: &Value) -> Vec<&str> {
    if value.get("status").and_then(Value::as_str) != Some("completed") {
        return Vec::new();
    }
    let urls: Vec<&str> = value.get("outputUrls").and_then(Value::as_array).map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
    if !urls.is_empty() {
        return urls;
    }
    value.get("outputs").and_then(Value::as_array).map(|a| a.iter().filter_map(|o| o.get("url").and_then(Value::as_str)).collect()).unwrap_or_default()
}

/// Files as MCP `resource_link` content (2025-06-18 on): each URL with its file name and MIME type, so a
/// client can fetch or show it as a file rather than a string in the text.
fn links(urls: &[&str]) -> Vec<ContentBlock> {
    urls.iter()
        .filter(|u| u.starts_with("https://") || u.starts_with("http://"))
        .map(|url| {
            let path = url.split(['?', '#']).next().unwrap_or(url);
            let name = path.rsplit('/').next().filter(|n| !n.is_empty()).unwrap_or(path).to_string();
            let mime = mime_of(&name);
            let link = rmcp::model::Resource::new(*url, name);
            ContentBlock::resource_link(match mime {
                Some(m) => link.with_mime_type(m),
                None => link,
            })
        })
        .collect()
}

/// The MIME type a file's extension says (the service's files are named `<id>-<n>.<ext>`).
fn mime_of(name: &str) -> Option<&'static str> {
    let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
    Some(match ext.as_str() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "webp" => "image/webp",
        "gif" => "image/gif",
        "mp4" => "video/mp4",
        "webm" => "video/webm",
        "mov" => "video/quicktime",
        "mp3" => "audio/mpeg",
        "wav" => "audio/wav",
        "m4a" => "audio/mp4",
        "ogg" => "audio/ogg",
        "pdf" => "application/pdf",
        _ => return None,
    })
}

/// A finished render's images as MCP image content, so an agent sees what it made: the first few, each
/// small enough to pass; others (and every other kind) stay as URLs in the JSON.
async fn previews(client: &Client, value: &Value) -> Vec<ContentBlock> {
    use base64::Engine as _;
    let urls = render_urls(value);
    let mut blocks = Vec::new();
    for url in urls.into_iter().take(PREVIEW_IMAGES) {
        let Ok(file) = client.download(url).await else { continue };
        let mime = file.content_type.clone().unwrap_or_default();
        if mime.starts_with("image/") && mime != "image/svg+xml" && file.bytes.len() <= PREVIEW_MAX_BYTES {
            blocks.push(ContentBlock::image(base64::engine::general_purpose::STANDARD.encode(&file.bytes), mime));
        }
    }
    blocks
}

const SECTION_URI: &str = "contentdesk://brand-kit/{brandKitId}/section/{key}";

fn section_uri(kit: &str, key: &str) -> String {
    format!("contentdesk://brand-kit/{kit}/section/{key}")
}

/// `contentdesk://brand-kit/{id}/section/{key}` → (id, key).
fn parse_section_uri(uri: &str) -> Option<(String, String)> {
    let rest = uri.strip_prefix("contentdesk://brand-kit/")?;
    let (kit, key) = rest.split_once("/section/")?;
    (!kit.is_empty() && !key.is_empty() && !key.contains('/')).then(|| (kit.to_string(), key.to_string()))
}

fn from_json<T: serde::de::DeserializeOwned>(v: Value) -> Result<T, McpError> {
    serde_json::from_value(v).map_err(|e| McpError::internal_error(format!("could not build the reply: {e}"), None))
}

/// A service error where the protocol wants an error (resources, prompts): its message only.
fn service_error(e: api_client::ApiError) -> McpError {
    let message = OpError::from(e).to_string();
    McpError::internal_error(message, None)
}

/// Who this server is, with the app's icon (48 px PNG as a data URI: 2.3 KB, sent once at
/// `initialize`, never in tools/list) for clients that show servers by icon.
fn server_info() -> Implementation {
    use base64::Engine as _;
    let png = base64::engine::general_purpose::STANDARD.encode(include_bytes!("../../../icons/48x48.png"));
    let mut info = Implementation::new("cdesk", env!("CARGO_PKG_VERSION"));
    info.title = Some("Content Desk".into());
    info.icons = Some(vec![rmcp::model::Icon::new(format!("data:image/png;base64,{png}")).with_mime_type("image/png").with_sizes(vec!["48x48".into()])]);
    info
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        let mut capabilities = ServerCapabilities::builder().enable_tools().enable_resources().enable_prompts().build();
        if !self.serves_resources() {
            capabilities.resources = None;
        }
        if !self.serves_prompts() {
            capabilities.prompts = None;
        }
        ServerConfig::new(capabilities)
            .with_server_info(server_info())
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(&self, _: Option<PaginatedRequestParams>, _: RequestContext<RoleServer>) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(self.tools.as_ref().clone()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(&self, request: CallToolRequestParams, context: RequestContext<RoleServer>) -> Result<CallToolResponse, McpError> {
        self.call(request, context).await.map(CallToolResponse::from)
    }

    async fn list_resources(&self, _: Option<PaginatedRequestParams>, context: RequestContext<RoleServer>) -> Result<ListResourcesResult, McpError> {
        if !self.serves_resources() {
            return Ok(ListResourcesResult::with_all_items(Vec::new()));
        }
        let client = self.client(&context)?;
        let kits = client.brand_kits().list().await.map_err(service_error)?;
        let mut resources = Vec::new();
        for kit in kits.iter().filter(|k| !k.is_archived) {
            let view = client.brand_kits().get_summary(&kit.id).await.map_err(service_error)?;
            for s in view.sections {
                resources.push(from_json(json!({
                    "uri": section_uri(&kit.id, &s.key),
                    "name": format!("{} · {}", kit.name, s.section_name),
                    "title": format!("{}: {} ({} tab)", kit.name, s.section_name, s.tab),
                    "description": format!("Version {} of the “{}” section of the brand kit “{}”, Markdown, {} characters", s.version, s.section_name, kit.name, s.char_count),
                    "mimeType": "text/markdown",
                }))?);
            }
        }
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn list_resource_templates(&self, _: Option<PaginatedRequestParams>, _: RequestContext<RoleServer>) -> Result<ListResourceTemplatesResult, McpError> {
        if !self.serves_resources() {
            return Ok(ListResourceTemplatesResult::with_all_items(Vec::new()));
        }
        Ok(ListResourceTemplatesResult::with_all_items(vec![from_json(json!({
            "uriTemplate": SECTION_URI,
            "name": "brand-kit-section",
            "title": "A brand kit's section",
            "description": "One section of a brand kit, Markdown (list_brand_kits and get_brand_kit give the ids and keys)",
            "mimeType": "text/markdown",
        }))?]))
    }

    async fn read_resource(&self, request: ReadResourceRequestParams, context: RequestContext<RoleServer>) -> Result<ReadResourceResponse, McpError> {
        if !self.serves_resources() {
            return Err(McpError::resource_not_found(format!("no resource `{}`: this server does not serve the brand-kit toolset", request.uri), None));
        }
        let client = self.client(&context)?;
        let Some((kit, key)) = parse_section_uri(&request.uri) else {
            return Err(McpError::resource_not_found(format!("no resource `{}`: the form is {SECTION_URI}", request.uri), None));
        };
        let filter = api_client::SectionFilter { keys: vec![key.clone()], ..Default::default() };
        let view = match client.brand_kits().get_sections(&kit, &filter).await {
            Ok(v) => v,
            Err(api_client::ApiError::NotFound { .. }) => {
                return Err(McpError::resource_not_found(format!("no brand kit `{kit}`"), None))
            }
            Err(e) => return Err(service_error(e)),
        };
        let Some(section) = view.sections.into_iter().find(|s| s.key == key) else {
            return Err(McpError::resource_not_found(format!("the brand kit has no section `{key}`"), None));
        };
        let result: ReadResourceResult = from_json(json!({
            "contents": [{ "uri": request.uri, "mimeType": "text/markdown", "text": section.body }],
        }))?;
        Ok(ReadResourceResponse::from(result))
    }

    async fn list_prompts(&self, _: Option<PaginatedRequestParams>, _: RequestContext<RoleServer>) -> Result<ListPromptsResult, McpError> {
        if !self.serves_prompts() {
            return Ok(ListPromptsResult::with_all_items(Vec::new()));
        }
        Ok(ListPromptsResult::with_all_items(vec![from_json(json!({
            "name": "draft_post",
            "title": "Draft a post for a card in the brand's voice",
            "description": "Pulls the card (title, platform, notes, posts) and the brand kit's voice sections, and asks for a caption in that voice.",
            "arguments": [
                { "name": "cardId", "description": "The card to write for (list_cards gives ids)", "required": true },
                { "name": "brandKitId", "description": "The brand kit (default: the account's default kit)", "required": false },
            ],
        }))?]))
    }

    async fn get_prompt(&self, request: GetPromptRequestParams, context: RequestContext<RoleServer>) -> Result<GetPromptResponse, McpError> {
        let client = self.client(&context)?;
        if request.name != "draft_post" || !self.serves_prompts() {
            return Err(McpError::invalid_params(format!("unknown prompt `{}`: prompts/list names them", request.name), None));
        }
        let args = request.arguments.unwrap_or_default();
        let arg = |name: &str| args.get(name).and_then(Value::as_str).map(str::to_string).filter(|s| !s.trim().is_empty());
        let Some(card_id) = arg("cardId") else {
            return Err(McpError::invalid_params("draft_post needs cardId", None));
        };
        let card = client.cards().get(&card_id).await.map_err(service_error)?;
        let kits = client.brand_kits().list().await.map_err(service_error)?;
        let kit_id = match arg("brandKitId") {
            Some(id) => id,
            None => kits
                .iter()
                .find(|k| k.is_default)
                .or(kits.first())
                .map(|k| k.id.clone())
                .ok_or_else(|| McpError::invalid_params("the account has no brand kit: pass brandKitId", None))?,
        };
        let filter = api_client::SectionFilter { tabs: vec!["voice".into()], ..Default::default() };
        let voice = client.brand_kits().get_sections(&kit_id, &filter).await.map_err(service_error)?;
        let mut text = format!(
            "Write the caption for the card “{}” (platform: {}). Follow the brand's voice below; keep it to what the platform suits.\n\n",
            card.summary.title,
            card.summary.platform.as_deref().unwrap_or("any"),
        );
        if let Some(notes) = card.notes.as_deref().filter(|n| !n.trim().is_empty()) {
            text.push_str(&format!("## The card's notes\n{notes}\n\n"));
        }
        text.push_str(&format!("## The brand's voice ({})\n", voice.name));
        for s in &voice.sections {
            text.push_str(&format!("\n### {}\n{}\n", s.section_name, s.body));
        }
        let result: GetPromptResult = from_json(json!({
            "description": format!("A post for “{}” in the voice of {}", card.summary.title, voice.name),
            "messages": [{ "role": "user", "content": { "type": "text", "text": text } }],
        }))?;
        Ok(GetPromptResponse::from(result))
    }
}

/// Serves until the client closes stdin (tokio's stdin and stdout, as rmcp's stdio transport gives them).
pub async fn serve(client: Client, selection: Selection, confirm_over: Option<f64>) -> Result<(), String> {
    let service = Server::new(client, selection)
        .confirming_over(confirm_over)
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|e| format!("the MCP client did not initialize: {e}"))?;
    service.waiting().await.map_err(|e| e.to_string())?;
    Ok(())
}

/// `cdesk mcp --list-tools`: the table of the tools this selection offers.
pub fn tool_table(selection: &Selection) -> Value {
    Value::Array(
        selection
            .tools()
            .map(|e| {
                json!({
                    "tool": e.meta.tool,
                    "toolset": e.meta.toolset(),
                    "command": e.meta.command(),
                    "effect": e.meta.effect,
                    "readOnly": e.meta.effect == Effect::Read,
                    "destructive": e.meta.effect == Effect::Destroy,
                    "idempotent": e.meta.idempotent,
                    "summary": e.meta.summary,
                })
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_resource_links_with_their_mime_types() {
        let blocks = links(&["http://127.0.0.1:1/files/a-1.png", "https://cdn.example/v/b-2.MP4?sig=x", "javascript:alert(1)"]);
        let v: Vec<Value> = blocks.iter().map(|b| serde_json::to_value(b).unwrap()).collect();
        assert_eq!(v.len(), 2, "only http(s) files: {v:?}");
        assert_eq!(v[0], json!({ "type": "resource_link", "uri": "http://127.0.0.1:1/files/a-1.png", "name": "a-1.png", "mimeType": "image/png" }));
        assert_eq!((v[1]["name"].as_str(), v[1]["mimeType"].as_str()), (Some("b-2.MP4"), Some("video/mp4")));
        assert!(render_urls(&json!({ "status": "processing", "outputUrls": ["http://x/a.png"] })).is_empty());
    }

    #[test]
    fn section_uris_round_trip() {
        assert_eq!(parse_section_uri(&section_uri("k1", "voice-tone")), Some(("k1".into(), "voice-tone".into())));
        for bad in ["contentdesk://brand-kit//section/x", "contentdesk://brand-kit/k/section/", "file:///etc/passwd", "contentdesk://brand-kit/k/section/a/b"] {
            assert_eq!(parse_section_uri(bad), None, "{bad}");
        }
    }
}
