//! `cdesk mcp --confirm-spend-over N`: before a render priced above N credits, and before publishing a
//! card now, the server asks the user through the client (MCP elicitation, a form with one yes/no field)
//! and goes on only on an explicit yes. The price is the free quote of the same call (`getCost: true`,
//! one more request). Declined, cancelled or unanswered: nothing is spent or published, and the result
//! (`isError: true`) says so. A client that declares no elicitation capability cannot ask: those calls
//! are refused the same way, saying why, since the user chose to be asked (a quote, a cheaper render and
//! scheduling a post with update_card still work).
use api_client::Client;
use contentdesk_ops::{Cx, Effect, Entry};
use rmcp::model::{CallToolResult, ContentBlock, ElicitRequestParams, ElicitationAction};
use rmcp::service::RequestContext;
use rmcp::RoleServer;
use serde_json::{json, Value};

/// What the call would do that the user asked to confirm, or `None` when it needs no asking.
async fn at_stake(entry: &Entry, args: &Value, client: &Client, over: f64) -> Result<Option<String>, CallToolResult> {
    if entry.meta.tool == "publish_post" {
        let card = args.get("cardId").and_then(Value::as_str).unwrap_or("?");
        let posts = match args.get("platform").and_then(Value::as_str) {
            Some(p) => format!("its {p} post"),
            None => "every post".into(),
        };
        return Ok(Some(format!("publish_post will publish {posts} of card {card} now, publicly; this cannot be undone.")));
    }
    if entry.meta.effect != Effect::Spend || args.get("getCost").and_then(Value::as_bool) == Some(true) {
        return Ok(None);
    }
    let mut quote_args = match args {
        Value::Object(o) => o.clone(),
        _ => Default::default(),
    };
    quote_args.insert("getCost".into(), Value::Bool(true));
    let quoted = match entry.run_json(Cx::new(client.clone()), Value::Object(quote_args)) {
        Ok(run) => run.await,
        Err(e) => Err(e),
    };
    // A call the quote refuses is refused as it stands (the same input would fail the same way).
    let quote = quoted.map_err(|e| super::mcp::failure(&e))?;
    let credits = quote.get("creditsEstimate").and_then(Value::as_f64).unwrap_or(f64::INFINITY);
    Ok((credits > over).then(|| format!("{} will spend {credits} credits (more than the {over} set with --confirm-spend-over).", entry.meta.tool)))
}

fn refused(message: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message.clone()), ContentBlock::text(json!({ "confirmed": false, "error": message }).to_string())])
}

/// `Ok(())`: go on (nothing to ask, or the user said yes); `Err(result)`: the answer to give instead.
pub async fn confirm(over: Option<f64>, entry: &Entry, args: &Value, client: &Client, context: &RequestContext<RoleServer>) -> Result<(), CallToolResult> {
    let Some(over) = over else { return Ok(()) };
    let Some(what) = at_stake(entry, args, client, over).await? else { return Ok(()) };
    let asks = context.peer.peer_info().is_some_and(|info| info.capabilities.elicitation.is_some());
    if !asks {
        return Err(refused(format!(
            "Not done: {what} This server asks the user first (--confirm-spend-over), and this client cannot ask (it declares no elicitation): nothing was spent or published."
        )));
    }
    let params: ElicitRequestParams = serde_json::from_value(json!({
        "mode": "form",
        "message": format!("{what} Go ahead?"),
        "requestedSchema": {
            "type": "object",
            "properties": { "confirm": { "type": "boolean", "title": "Go ahead", "description": "Yes to go ahead; no and nothing is done" } },
            "required": ["confirm"],
        },
    }))
    .map_err(|e| refused(format!("Not done: could not ask the user ({e}).")))?;
    match context.peer.create_elicitation(params).await {
        Ok(r) if r.action == ElicitationAction::Accept && r.content.as_ref().and_then(|c| c.get("confirm")).and_then(Value::as_bool) == Some(true) => Ok(()),
        Ok(r) => Err(refused(format!("Not done: the user did not confirm ({}): {what} Nothing was spent or published.", action_word(&r.action)))),
        Err(e) => Err(refused(format!("Not done: the user could not be asked ({e}): nothing was spent or published."))),
    }
}

fn action_word(a: &ElicitationAction) -> &'static str {
    match a {
        ElicitationAction::Accept => "accepted with no",
        ElicitationAction::Decline => "declined",
        ElicitationAction::Cancel => "cancelled",
        _ => "did not accept",
    }
}
