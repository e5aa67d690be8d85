//! The studio's commands (docs/ipc.md "Studio"): models, voices, quote, generate, the queue, attach.
use super::*;
pub use contentdesk_ops::account::ModelListInput;

/// The live registry's models of one content type, asked once per session (and profile).
/// Takes the catalogue's `ModelListInput` (as `cdesk model list` and `list_models`); the app always names
/// the content type.
pub async fn models_list(session: &impl WithStudio, args: ModelListInput) -> IpcResult<Vec<ModelInfo>> {
    let content_type = args.kind()?.ok_or_else(|| IpcError::validation("contentType", "Choose the kind of model: image, video or audio."))?;
    let profile = session.profile_id()?;
    let key = (profile, content_type);
    if args.refresh != Some(true) {
        if let Some(m) = session.studio().models.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return Ok(m.clone());
        }
    }
    let models = session.client().await?.models().list(Some(content_type)).await?;
    session.studio().models.lock().unwrap_or_else(|e| e.into_inner()).insert(key, models.clone());
    Ok(models)
}

/// The voices for speech and lip-sync, asked once per session (and profile).
pub async fn voices_list(session: &impl WithStudio) -> IpcResult<Vec<Voice>> {
    let profile = session.profile_id()?;
    if let Some(v) = session.studio().voices.lock().unwrap_or_else(|e| e.into_inner()).get(&profile) {
        return Ok(v.clone());
    }
    let voices = session.client().await?.voices().list().await?;
    session.studio().voices.lock().unwrap_or_else(|e| e.into_inner()).insert(profile, voices.clone());
    Ok(voices)
}

pub(super) async fn balance_of(session: &impl WithStudio, client: &Client, profile: &str) -> IpcResult<f64> {
    if let Some(b) = session.studio().cached_balance(profile) {
        return Ok(b);
    }
    let b = client.account().balance().await?.balance;
    session.studio().set_balance(profile, b, false);
    Ok(b)
}

/// Fetches the balance again (after a charge or a refund) and tells the UI.
pub(super) async fn refresh_balance(session: &impl WithStudio, client: &Client, profile: &str) {
    match client.account().balance().await {
        Ok(b) => session.studio().set_balance(profile, b.balance, true),
        Err(e) => tracing::info!(error = %e, "balance not refreshed"),
    }
}

/// The price of a form (`getCost: true`: nothing runs, nothing is charged), answered from this
/// session's copy when an identical form was priced already, with the balance after it.
pub async fn studio_quote(session: &impl WithStudio, args: StudioQuoteArgs) -> IpcResult<StudioQuote> {
    let profile = session.profile_id()?;
    let request = request_for(&args.form)?;
    let form_key = serde_json::to_string(&request).map_err(|e| IpcError::internal(e.to_string()))?;
    let key = (profile.clone(), form_key);
    let client = session.client().await?;
    let known = session.studio().quotes.lock().unwrap_or_else(|e| e.into_inner()).get(&key).copied();
    let (credits, cached) = match known {
        Some(c) => (c, true),
        None => {
            let c = request.quote(&client).await?.credits_estimate;
            session.studio().quotes.lock().unwrap_or_else(|e| e.into_inner()).insert(key, c);
            (c, false)
        }
    };
    let balance = balance_of(session, &client, &profile).await?;
    Ok(quote_view(credits, balance, cached))
}

pub fn quote_view(credits: f64, balance: f64, cached: bool) -> StudioQuote {
    let affordable = credits <= balance;
    StudioQuote {
        credits,
        balance,
        balance_after: balance - credits,
        affordable,
        reason: (!affordable).then(|| {
            format!(
                "This costs {} credits and the balance is {}: {} more are needed. Top up, or choose fewer outputs, a shorter length or a cheaper model.",
                fmt_num(credits),
                fmt_num(balance),
                fmt_num(credits - balance)
            )
        }),
        cached,
    }
}

pub(super) fn fmt_num(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

pub(super) fn check_uuid(field: &str, v: &str) -> IpcResult<String> {
    uuid::Uuid::parse_str(v.trim())
        .map(|u| u.hyphenated().to_string())
        .map_err(|_| IpcError::validation(field, "The outputId must be a UUID minted for this click."))
}

/// Starts a generation. The job is written to the queue first; then the request goes out with the
/// click's `outputId`. A render finished within the service's smart-wait comes back completed; a longer
/// one comes back `processing` and is polled here. A refused request (400/402/403) is taken off the
/// queue (nothing was charged) and returned as the error. A request nothing answered stays
/// `submitting` and is sent again, with the same `outputId`, until the service answers.
/// Calling this again with the same `outputId` (a retry of the click) never makes a second job.
pub async fn studio_generate(session: &impl WithStudio, args: StudioGenerateArgs) -> IpcResult<StudioJob> {
    let profile = session.profile_id()?;
    let output_id = check_uuid("outputId", &args.output_id)?;
    let studio = session.studio();
    if let Some((owner, job, _)) = studio.get(&output_id) {
        if owner != profile {
            return Err(IpcError::validation("outputId", "This outputId belongs to another profile's job; mint a new one."));
        }
        if job.status == JobStatus::Submitting {
            // A retry of a click whose request is not answered yet: send it again now.
            ensure_poller(session, &profile, &output_id);
        }
        return Ok(job);
    }
    let request = request_for(&args.form)?.with_output_id(&output_id);
    let client = session.client().await?;
    let now = now_ms();
    let mut job = StudioJob {
        output_id: output_id.clone(),
        form: args.form,
        model_id: request.model_id(),
        content_type: match &request {
            StoredRequest::Generate(r) => r.content_type.unwrap_or(ContentType::Image),
            StoredRequest::Board(_) => ContentType::Image,
        },
        status: JobStatus::Submitting,
        error: None,
        credits: None,
        output_urls: Vec::new(),
        idempotent_replay: false,
        polls: 0,
        created_at: now,
        updated_at: now,
        completed_at: None,
        next_poll_at: None,
        cleared: false,
        last_running_at: None,
        expected_ms: None,
    };
    // The estimate from what is known now (the library is not read here: that waits for the poller).
    job.expected_ms = studio
        .typical_duration(&profile, &job.model_id)
        .or_else(|| learned::learned_now(session, &profile, &job.model_id))
        .map(|d| d.as_millis() as i64);
    studio.insert(&profile, &job, &request)?;
    studio.emit(StudioEvent::Job { job: job.clone() });
    match request.send(&client).await {
        Ok(r) => {
            apply_result(&mut job, &r);
            // Cancelled while the service smart-waited: that choice stands.
            let live = studio.save_live(&job);
            if !job.idempotent_replay {
                refresh_balance(session, &client, &profile).await;
            }
            if live && !job.status.is_terminal() {
                start_poller(session, &profile, &output_id, Some(r.poll_after_seconds));
            }
            Ok(studio.get(&output_id).map(|(_, j, _)| j).unwrap_or(job))
        }
        Err(e) => match failure(&e) {
            Failure::Resend => {
                job.error = Some(format!("Not answered yet ({}); it is sent again with the same outputId, so it is never charged twice.", short(e)));
                job.updated_at = now_ms();
                if studio.save_live(&job) {
                    ensure_poller(session, &profile, &output_id);
                }
                Ok(job)
            }
            Failure::Refused => {
                // The service said no (or nothing went out): nothing was charged.
                studio.remove(&output_id);
                Err(IpcError::from(e))
            }
            Failure::KeyRefused => {
                // Kept, unsent: it goes out (same outputId) once a key is given.
                job.updated_at = now_ms();
                studio.save_live(&job);
                pause_profile(session, &profile);
                Err(IpcError::from(e))
            }
            Failure::Unknown => {
                // It may have started (an unreadable 2xx was charged): kept and its status read.
                let ok = e.status().is_some_and(|s| (200..300).contains(&s));
                job.status = JobStatus::Processing;
                let shown = IpcError::from(e);
                job.error = Some(format!(
                    "The service's answer could not be read ({}); this render is kept and its status checked, so nothing is lost or charged twice.",
                    shown.message.chars().take(160).collect::<String>()
                ));
                job.updated_at = now_ms();
                if studio.save_live(&job) {
                    ensure_poller(session, &profile, &output_id);
                }
                if ok {
                    Ok(job)
                } else {
                    Err(shown)
                }
            }
        },
    }
}

/// Every job of the selected profile, newest first (the queue and the gallery).
pub async fn studio_jobs(session: &impl WithStudio) -> IpcResult<Vec<StudioJob>> {
    Ok(session.studio().list(&session.profile_id()?))
}

pub(super) fn own_job(session: &impl WithStudio, output_id: &str) -> IpcResult<(String, StudioJob, StoredRequest)> {
    let profile = session.profile_id()?;
    match session.studio().get(output_id) {
        Some(found) if found.0 == profile => Ok(found),
        _ => Err(IpcError::new(IpcCode::NotFound, "That render is not in this profile's queue any more.")),
    }
}

/// Stops waiting for a job. The service cannot stop a render: it may still finish (and be charged);
/// it then shows in the service's library, not in this queue.
pub async fn studio_cancel(session: &impl WithStudio, args: StudioJobArgs) -> IpcResult<StudioJob> {
    let (_, mut job, _) = own_job(session, &args.output_id)?;
    if job.status.is_terminal() {
        return Ok(job);
    }
    stop_poller(session, &job.output_id);
    job.status = JobStatus::Cancelled;
    job.error = Some(if job.credits.is_some() {
        "Stopped waiting. The service may still finish this render; it was charged when it started.".into()
    } else {
        "Stopped waiting before the service answered; if the request had reached it, the render may still finish.".into()
    });
    job.next_poll_at = None;
    job.updated_at = now_ms();
    session.studio().save(&job);
    Ok(job)
}

/// A job again. A cancelled one resumes with its own `outputId`: its request is sent again and the
/// service answers with the render it already has (`idempotentReplay`), so nothing is charged twice
/// (and if it never reached the service, it starts now, once). A failed or abandoned one is a new job (a
/// new `outputId`, so a new charge: the failed one was refunded). A job still being sent is sent again
/// at once with its own `outputId`.
pub async fn studio_retry(session: &impl WithStudio, args: StudioJobArgs) -> IpcResult<StudioJob> {
    let (profile, mut job, _) = own_job(session, &args.output_id)?;
    if is_paused(session, &profile) && !job.status.is_terminal() {
        return Err(IpcError::from(ApiError::Unauthorized { message: String::new(), body: String::new() }));
    }
    match job.status {
        JobStatus::Submitting | JobStatus::Processing => {
            stop_poller(session, &job.output_id);
            ensure_poller(session, &profile, &job.output_id);
            Ok(job)
        }
        JobStatus::Completed => Err(IpcError::validation("outputId", "This render finished; generate again to make another.")),
        JobStatus::Cancelled => {
            stop_poller(session, &job.output_id);
            job.status = JobStatus::Submitting;
            job.error = Some(RESUMED.into());
            job.next_poll_at = None;
            job.completed_at = None;
            job.updated_at = now_ms();
            session.studio().save(&job);
            ensure_poller(session, &profile, &job.output_id);
            Ok(job)
        }
        JobStatus::Failed | JobStatus::Abandoned => {
            let fresh = uuid::Uuid::new_v4().to_string();
            studio_generate(session, StudioGenerateArgs { form: job.form, output_id: fresh }).await
        }
    }
}

/// What a cancelled job says when Retry resumes it.
pub const RESUMED: &str =
    "Resumed with the same outputId: the service answers with the render it already has, so it is not charged again.";

/// Takes finished jobs (completed, failed, cancelled) off the queue list; completed ones stay in the
/// gallery. Returns how many were cleared.
pub async fn studio_clear_finished(session: &impl WithStudio) -> IpcResult<u32> {
    let profile = session.profile_id()?;
    let mut n = 0;
    for mut job in session.studio().list(&profile) {
        if job.status.is_terminal() && !job.cleared {
            job.cleared = true;
            job.updated_at = now_ms();
            session.studio().save(&job);
            n += 1;
        }
    }
    Ok(n)
}

/// Appends an output to a card's assets by its token, through the declarative card edit (the whole
/// list, checked against the spec's rules first). An output rendered on this computer is named by its
/// prompt (as the gallery names it), so the card shows words, not the output's id.
pub async fn card_attach_output(session: &(impl crate::outbox::WithOutbox + WithStudio), args: CardAttachOutputArgs) -> IpcResult<api_types::CardDetail> {
    let token = args.token.trim();
    if !is_output_token(token) {
        return Err(IpcError::validation("token", "That is not an output token (<uuid>-<N>)."));
    }
    let card = session.client().await?.cards().get(&args.card_id).await?;
    let mut edit = api_client::CardEdit::from_card(&card);
    edit.add_output(token);
    if let (Some(name), Some(added)) = (output_name(session, token), edit.assets.last_mut()) {
        added.display_name = Some(name);
    }
    let update = api_types::UpdateCard { assets: Some(edit.assets), ..Default::default() };
    crate::planner::card_update(session, crate::planner::CardUpdateArgs { card_id: args.card_id, update }).await
}

/// The name of the output `token` names, from its render's prompt on this computer: the prompt's first
/// 60 characters on one line, and "(N)" when the render made several outputs. None for a render this
/// computer did not make, or one without a prompt (a board, an upscale).
fn output_name(session: &impl WithStudio, token: &str) -> Option<String> {
    let profile = session.profile_id().ok()?;
    let (id, n) = match token.get(36..).and_then(|rest| rest.strip_prefix('-')) {
        Some(n) => (&token[..36], n.parse::<usize>().ok()),
        None => (token, None),
    };
    let job = session.studio().list(&profile).into_iter().find(|j| j.output_id.eq_ignore_ascii_case(id))?;
    let prompt = job.form.prompt.as_deref()?.split_whitespace().collect::<Vec<_>>().join(" ");
    if prompt.is_empty() {
        return None;
    }
    let mut name: String = prompt.chars().take(60).collect();
    if prompt.chars().count() > 60 {
        name = format!("{}…", name.trim_end());
    }
    match n {
        Some(n) if job.output_urls.len() > 1 => Some(format!("{name} ({n})")),
        _ => Some(name),
    }
}
