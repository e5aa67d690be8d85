//! Submit, wait, reply: the job stored and charged in one transaction, the smart-wait, the status read.
use super::*;
use crate::tables::accounts;

pub(super) fn insert_job(
    conn: &Connection,
    id: &str,
    account_id: &str,
    plan: &Plan,
    ready_at_ms: i64,
) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO generations (id, account_id, source, job_kind, content_type, model_id, prompt, text, aspect_ratio,
             seconds, board_type, num_outputs, request, status, credits, ready_at_ms, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, 'processing', ?14, ?15, ?16)",
        params![
            id,
            account_id,
            plan.source,
            plan.kind.as_str(),
            content_type_str(plan.content_type),
            plan.model_id,
            plan.prompt,
            plan.text,
            plan.aspect_ratio,
            plan.seconds,
            plan.board_type,
            plan.num_outputs,
            plan.request,
            plan.credits,
            ready_at_ms,
            time::now_str(),
        ],
    )?;
    Ok(())
}

/// Whose job `id` is, if it exists.
pub(super) fn owner_of(conn: &Connection, id: &str) -> rusqlite::Result<Option<String>> {
    conn.cached_row(
        "SELECT account_id FROM generations WHERE id = ?1",
        [id],
        |r| r.get(0),
    )
    .optional()
}

/// The 409 for an `outputId` another account already used. Not a replay (that would hand over another
/// account's job) and not a 404 (the id is taken, so a retry with it can never succeed): a conflict that
/// tells the client to mint a fresh UUID.
pub(super) fn taken_elsewhere() -> ApiError {
    ApiError::Conflict(
        "This `outputId` is already used by another request; mint a new UUID for a new generation"
            .into(),
    )
}

/// Charges and stores the job in one transaction. `Ok((id, true))` when `outputId` named an existing job
/// of this account (nothing charged).
pub(super) fn submit(
    state: &AppState,
    account_id: &str,
    output_id: Option<String>,
    plan: &Plan,
) -> ApiResult<(String, bool)> {
    let id = output_id.unwrap_or_else(new_id);
    let ready_at = time::now_ms() + plan.kind.render_time(state).as_millis() as i64;
    state.db().tx(|tx| {
        // Checked again inside the transaction: two concurrent first submits of one outputId charge once.
        match owner_of(tx, &id)? {
            Some(owner) if owner == account_id => return Ok((id.clone(), true)),
            Some(_) => return Err(taken_elsewhere()),
            None => {}
        }
        accounts::charge(tx, account_id, plan.credits)?;
        insert_job(tx, &id, account_id, plan, ready_at)?;
        Ok((id.clone(), false))
    })
}

/// The generate/board reply: `GenerateResult`, plus `error` when the render failed within the wait.
#[derive(Debug, Serialize)]
pub(super) struct GenerateReply {
    #[serde(flatten)]
    pub(super) result: GenerateResult,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) error: Option<String>,
}

/// Waits for the job to finish, up to `Config.smart_wait`, in short sleeps without holding the database.
/// The key is checked on every step and before answering, so a key revoked mid-wait gets 401.
pub(super) async fn smart_wait(
    state: &AppState,
    caller: &Caller,
    id: &str,
    replay: bool,
) -> ApiResult<GenerateReply> {
    let deadline = Instant::now() + state.config().smart_wait;
    let job = loop {
        let job = {
            let conn = state.db().lock();
            settle(&conn, id)?;
            load_job(&conn, id)?
                .ok_or_else(|| ApiError::internal("job vanished during smart-wait"))?
        };
        caller.ensure_active(state)?;
        let now = Instant::now();
        if job.status.is_terminal() || now >= deadline {
            break job;
        }
        let until_ready = Duration::from_millis((job.ready_at_ms - time::now_ms()).max(5) as u64);
        let step = until_ready
            .min(Duration::from_millis(100))
            .min(deadline - now);
        tokio::time::sleep(step).await;
    };
    caller.ensure_active(state)?;
    let urls = {
        let conn = state.db().lock();
        output_urls(&conn, &state.origin(), id)?
    };
    let processing = !job.status.is_terminal();
    Ok(GenerateReply {
        result: GenerateResult {
            output_id: job.id.clone(),
            status: job.status.into(),
            credits_estimate: Some(job.credits),
            output_urls: urls,
            idempotent_replay: replay,
            outputs: Vec::new(),
            charge: None,
            poll_after_seconds: (processing && state.config().poll_hint)
                .then(|| poll_after(job.content_type, job.ready_at_ms)),
        },
        error: job.error.clone(),
    })
}

pub(crate) async fn generate(
    State(state): State<AppState>,
    caller: Caller,
    AppJson(req): AppJson<GenerateRequest>,
) -> ApiResult<Response> {
    let (output_id, quote) = (req.output_id.clone(), req.get_cost == Some(true));
    answer(&state, &caller, output_id, quote, |conn, account| plan_generation(conn, account, &req)).await
}

pub(crate) async fn reference_board(
    State(state): State<AppState>,
    caller: Caller,
    AppJson(req): AppJson<BoardRequest>,
) -> ApiResult<Response> {
    let (output_id, quote) = (req.output_id.clone(), req.get_cost == Some(true));
    answer(&state, &caller, output_id, quote, |conn, account| plan_board(conn, account, &req)).await
}

/// Both generation endpoints: a price only (`getCost`), the replay of an `outputId` already taken, or a
/// new job planned by `plan`, charged and smart-waited.
async fn answer(
    state: &AppState,
    caller: &Caller,
    output_id: Option<String>,
    quote: bool,
    plan: impl FnOnce(&Connection, &str) -> ApiResult<Plan>,
) -> ApiResult<Response> {
    caller.require(GENERATE)?;
    let output_id = output_id.as_deref().map(parse_output_id).transpose()?;
    // A resubmitted outputId returns its job whatever the body now says: the retry of a request that
    // went through must never fail or charge.
    if let (Some(id), false) = (&output_id, quote) {
        let owner = {
            let conn = state.db().lock();
            owner_of(&conn, id)?
        };
        match owner {
            Some(o) if o == caller.account_id => {
                return Ok(Json(smart_wait(state, caller, id, true).await?).into_response())
            }
            Some(_) => return Err(taken_elsewhere()),
            None => {}
        }
    }
    let plan = {
        let conn = state.db().lock();
        plan(&conn, &caller.account_id)?
    };
    if quote {
        return Ok(Json(CostEstimate {
            credits_estimate: plan.credits,
            get_cost: true,
            model_id: Some(plan.model_id),
            content_type: Some(plan.content_type.into()),
        })
        .into_response());
    }
    let (id, replay) = submit(state, &caller.account_id, output_id, &plan)?;
    Ok(Json(smart_wait(state, caller, &id, replay).await?).into_response())
}

pub(crate) async fn status(
    State(state): State<AppState>,
    caller: Caller,
    Path(raw): Path<String>,
) -> ApiResult<Json<Generation>> {
    let id = parse_output_id(&raw)?;
    let conn = state.db().lock();
    settle(&conn, &id)?;
    let job = load_job(&conn, &id)?
        .filter(|j| j.account_id == caller.account_id)
        .ok_or_else(|| ApiError::not_found("Generation"))?;
    let in_progress = !job.status.is_terminal();
    let output_urls = if job.status == GenerationStatus::Completed {
        output_urls(&conn, &state.origin(), &id)?
    } else {
        Vec::new()
    };
    Ok(Json(Generation {
        output_id: job.id,
        status: job.status.into(),
        content_type: Some(job.content_type.into()),
        model_id: Some(job.model_id),
        output_urls,
        outputs: Vec::new(),
        charge: None,
        error: job.error,
        created_at: Some(job.created_at),
        completed_at: job.completed_at,
        settled: Some(!in_progress),
        poll_after_seconds: (in_progress && state.config().poll_hint)
            .then(|| poll_after(job.content_type, job.ready_at_ms)),
        // A failed render was refunded: nothing stays charged.
        credits_charged: Some(if job.status == GenerationStatus::Failed {
            0.0
        } else {
            job.credits
        }),
    }))
}
