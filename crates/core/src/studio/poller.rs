//! The pollers: one task per running render, until it settles, fails, is cancelled or the app stops.
use super::*;

/// Failures after which a request is sent again (nothing answered, or the service failed), rather than
/// shown as the answer.
pub(super) fn kept_for_resend(e: &ApiError) -> bool {
    matches!(e, ApiError::Network { .. } | ApiError::Server { .. } | ApiError::RateLimited { .. })
}

/// What a failed generate request says about the render: only a refusal the service actually sent
/// (400/402/403 with a body), or a rule checked here before anything went out, means nothing was charged
/// and the job may go. Anything else leaves the job, because the render may exist and be charged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Failure {
    /// Refused: nothing was charged; the job is dropped (or failed, on a resend).
    Refused,
    /// Nothing (or a failure) answered: sent again with the same `outputId`.
    Resend,
    /// 401: the key was refused; the profile's pollers stop until a key is given.
    KeyRefused,
    /// Something answered that does not say whether it ran (an unreadable 2xx, a 404 or 409 from
    /// something in between, …): the job is kept and its status read.
    Unknown,
}

pub(super) fn failure(e: &ApiError) -> Failure {
    match e {
        _ if kept_for_resend(e) => Failure::Resend,
        ApiError::Unauthorized { .. } => Failure::KeyRefused,
        // An empty body: a rule checked here, before sending (nothing went out); else the service's 400.
        ApiError::Validation { .. } | ApiError::Config(_) => Failure::Refused,
        ApiError::InsufficientCredits { body, .. } | ApiError::MissingScope { body, .. } if !body.trim().is_empty() => {
            Failure::Refused
        }
        ApiError::LimitReached { status: 400 | 402 | 403, body, .. } if !body.trim().is_empty() => Failure::Refused,
        _ => Failure::Unknown,
    }
}

/// What a job of a profile whose key the service refused says while it waits.
pub const KEY_REFUSED: &str =
    "Paused: the service refused this profile's API key. Paste a current key in Settings; checking on this render resumes then.";

/// What a job of a profile that no longer exists says (it is kept, never polled).
pub const PROFILE_GONE: &str =
    "Not checked: the profile this render was started from no longer exists. The render stays listed here; the service may still have it.";

/// Stops every poller of a profile whose key the service refused (a 401): each of its unfinished jobs
/// says so and waits, unpolled, for a key ([`resume_profile`] after `key_set`).
pub(super) fn pause_profile(session: &impl WithStudio, profile: &str) {
    let studio = session.studio();
    for (output_id, owner) in studio.unfinished() {
        if owner != profile {
            continue;
        }
        stop_poller(session, &output_id);
        if let Some((_, mut job, _)) = studio.get(&output_id) {
            job.error = Some(KEY_REFUSED.into());
            job.next_poll_at = None;
            job.updated_at = now_ms();
            studio.save_live(&job);
        }
    }
    studio.paused.lock().unwrap_or_else(|e| e.into_inner()).insert(profile.to_string());
}

/// Starts again the pollers of a profile (a key was just given): its unfinished jobs are read at once.
pub fn resume_profile(session: &impl WithStudio, profile: &str) {
    session.studio().paused.lock().unwrap_or_else(|e| e.into_inner()).remove(profile);
    for (output_id, owner) in session.studio().unfinished() {
        if owner == profile {
            ensure_poller(session, &owner, &output_id);
        }
    }
}

/// Whether a profile's pollers are stopped until a key is given.
pub fn is_paused(session: &impl WithStudio, profile: &str) -> bool {
    session.studio().paused.lock().unwrap_or_else(|e| e.into_inner()).contains(profile)
}

pub(super) fn short(e: ApiError) -> String {
    let s = IpcError::from(e).message;
    s.chars().take(160).collect()
}

pub(super) fn apply_result(job: &mut StudioJob, r: &GenerateResult) {
    job.status = JobStatus::from_service(&r.status);
    if !job.status.is_terminal() {
        job.last_running_at = Some(now_ms());
    }
    job.idempotent_replay = job.idempotent_replay || r.idempotent_replay;
    if r.credits().is_some() {
        job.credits = r.credits();
    }
    job.output_urls = r.urls();
    job.error = None;
    job.updated_at = now_ms();
    if job.status.is_terminal() {
        job.completed_at = Some(job.updated_at);
    }
}

pub(super) fn apply_status(job: &mut StudioJob, g: &Generation) {
    job.status = JobStatus::of(g);
    if !job.status.is_terminal() {
        job.last_running_at = Some(now_ms());
    }
    job.output_urls = g.urls();
    job.error = g.error.clone();
    if g.credits().is_some() {
        job.credits = g.credits();
    }
    job.updated_at = now_ms();
    if job.status.is_terminal() {
        job.completed_at = Some(job.updated_at);
    }
}

/// Starts the pollers of every unfinished job of the profiles that exist (`profiles`). Called once when
/// the core starts. A job whose profile is gone is kept and says so, and is not polled (there is no key
/// to ask with); returns how many such jobs there are, for the start-up notice.
pub fn resume(session: &impl WithStudio, profiles: &[String]) -> usize {
    let mut orphans = 0;
    for (output_id, profile) in session.studio().unfinished() {
        if profiles.contains(&profile) {
            ensure_poller(session, &profile, &output_id);
        } else {
            orphans += 1;
            if let Some((_, mut job, _)) = session.studio().get(&output_id) {
                job.error = Some(PROFILE_GONE.into());
                job.next_poll_at = None;
                session.studio().save_live(&job);
            }
        }
    }
    orphans
}

pub(super) fn stop_poller(session: &impl WithStudio, output_id: &str) {
    if let Some((_, t)) = session.studio().pollers.lock().unwrap_or_else(|e| e.into_inner()).remove(output_id) {
        t.cancel();
    }
}

/// A poller that reads the job's state at once (on start-up, after a retry: how long it has been is
/// unknown).
pub(super) fn ensure_poller(session: &impl WithStudio, profile: &str, output_id: &str) {
    start_poller(session, profile, output_id, None);
}

/// `first`: the generate reply's hint, when the job was just submitted: the first read waits for it.
pub(super) fn start_poller(session: &impl WithStudio, profile: &str, output_id: &str, first: Option<Option<f64>>) {
    let studio = session.studio();
    let (id, token) = {
        let mut pollers = studio.pollers.lock().unwrap_or_else(|e| e.into_inner());
        if pollers.contains_key(output_id) {
            return;
        }
        let id = studio.next_poller.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let t = studio.shutdown.child_token();
        pollers.insert(output_id.to_string(), (id, t.clone()));
        (id, t)
    };
    let (session, profile, output_id) = (session.clone(), profile.to_string(), output_id.to_string());
    tokio::spawn(async move {
        drive(&session, &profile, &output_id, &token, first).await;
        let mut pollers = session.studio().pollers.lock().unwrap_or_else(|e| e.into_inner());
        if pollers.get(&output_id).is_some_and(|(i, _)| *i == id) {
            pollers.remove(&output_id);
        }
    });
}

/// How long to wait after a failure to reach the service: 2 s doubling to a minute.
pub(super) fn retry_delay(failures: u32) -> Duration {
    Duration::from_secs(2u64.saturating_mul(1 << failures.min(5)).min(60))
}

/// One job's loop: send it (while `submitting`) or read its state, until it is terminal or stopped.
pub(super) async fn drive(session: &impl WithStudio, profile: &str, output_id: &str, stop: &CancellationToken, first: Option<Option<f64>>) {
    let studio = session.studio();
    let mut cadence = Cadence::default();
    let mut failures = 0u32;
    let mut first = first;
    let mut model_history: Option<Option<Duration>> = None;
    loop {
        if stop.is_cancelled() {
            return;
        }
        let Some((_, mut job, request)) = studio.get(output_id) else { return };
        if model_history.is_none() {
            // This computer's renders of the model first; else what the account's library says.
            let here = studio.typical_duration(profile, &job.model_id);
            model_history = Some(match here {
                Some(t) => Some(t),
                None => learned::library_duration(session, profile, &job.model_id).await,
            });
        }
        let typical = model_history.flatten();
        if job.expected_ms.is_none() {
            // The queue's estimate, once something was learned (saved with the job's next change):
            // this computer's renders, else the library's (without the poller's margin).
            job.expected_ms = studio
                .typical_duration(profile, &job.model_id)
                .or_else(|| learned::learned_now(session, profile, &job.model_id))
                .map(|d| d.as_millis() as i64);
        }
        let elapsed = Duration::from_millis((now_ms() - job.created_at).max(0) as u64);
        if let Some(hint) = first.take() {
            // Just submitted: the reply said when to look (or this model's history, or the kind's default).
            let wait = cadence.next_known(hint, first_interval(&job), elapsed, typical);
            if !pause(stop, wait, &mut job, studio).await {
                return;
            }
            continue;
        }
        if job.status.is_terminal() {
            return;
        }
        let client = match session.client_for(profile).await {
            Ok(c) => c,
            Err(e) if e.code == IpcCode::NoProfile => {
                // The profile was removed: nothing to ask with; the job stays listed, unpolled.
                job.error = Some(PROFILE_GONE.into());
                job.next_poll_at = None;
                studio.save_live(&job);
                return;
            }
            Err(e) if e.code == IpcCode::NoKey => {
                job.error = Some(KEY_REFUSED.into());
                job.next_poll_at = None;
                studio.save_live(&job);
                return;
            }
            Err(e) => {
                job.error = Some(format!("Waiting: {}", e.message));
                failures += 1;
                if !pause(stop, retry_delay(failures), &mut job, studio).await {
                    return;
                }
                continue;
            }
        };
        let hint = if job.status == JobStatus::Submitting {
            let sent = tokio::select! {
                biased;
                _ = stop.cancelled() => return,
                r = request.send(&client) => r,
            };
            match sent {
                Ok(r) => {
                    failures = 0;
                    apply_result(&mut job, &r);
                    if !job.idempotent_replay {
                        refresh_balance(session, &client, profile).await;
                    }
                    r.poll_after_seconds
                }
                Err(e) => match failure(&e) {
                    Failure::Resend => {
                        failures += 1;
                        job.error = Some(format!("Not answered yet ({}); sent again with the same outputId.", short(e)));
                        if !pause(stop, retry_delay(failures), &mut job, studio).await {
                            return;
                        }
                        continue;
                    }
                    Failure::KeyRefused => {
                        pause_profile(session, profile);
                        return;
                    }
                    Failure::Refused => {
                        // Refused on resend (e.g. the balance fell meanwhile): nothing was charged.
                        job.status = JobStatus::Failed;
                        job.error = Some(IpcError::from(e).message);
                        job.completed_at = Some(now_ms());
                        job.updated_at = now_ms();
                        studio.save_live(&job);
                        return;
                    }
                    Failure::Unknown => {
                        // It may have run: its status says (a 404 there: it did not).
                        failures += 1;
                        job.status = JobStatus::Processing;
                        job.error = Some(format!("The service's answer did not say whether this render started ({}); checking its status.", short(e)));
                        if !pause(stop, retry_delay(failures.min(1)), &mut job, studio).await {
                            return;
                        }
                        continue;
                    }
                },
            }
        } else {
            let api = client.studio();
            let read = tokio::select! {
                biased;
                _ = stop.cancelled() => return,
                r = api.status(output_id) => r,
            };
            job.polls += 1;
            match read {
                Ok(g) => {
                    failures = 0;
                    apply_status(&mut job, &g);
                    if job.status == JobStatus::Failed {
                        refresh_balance(session, &client, profile).await;
                    }
                    g.poll_after_seconds
                }
                Err(ApiError::Unauthorized { .. }) => {
                    pause_profile(session, profile);
                    return;
                }
                Err(ApiError::NotFound { .. }) => {
                    job.status = JobStatus::Failed;
                    job.error = Some("The service does not know this render (it never started, was deleted, or was made with another account's key); nothing was charged for it here.".into());
                    job.completed_at = Some(now_ms());
                    job.updated_at = now_ms();
                    studio.save_live(&job);
                    return;
                }
                Err(e) => {
                    failures += 1;
                    job.error = Some(format!("Lost contact while waiting ({}); still waiting.", short(e)));
                    if !pause(stop, retry_delay(failures), &mut job, studio).await {
                        return;
                    }
                    continue;
                }
            }
        };
        if job.status.is_terminal() {
            job.next_poll_at = None;
            studio.save_live(&job);
            return;
        }
        let elapsed = Duration::from_millis((now_ms() - job.created_at).max(0) as u64);
        let wait = cadence.next_known(hint, first_interval(&job), elapsed, typical);
        if !pause(stop, wait, &mut job, studio).await {
            return;
        }
    }
}

/// Records when the next read is due, tells the UI, and sleeps; `false` when stopped meanwhile.
pub(super) async fn pause(stop: &CancellationToken, wait: Duration, job: &mut StudioJob, studio: &Studio) -> bool {
    job.next_poll_at = Some(now_ms() + wait.as_millis() as i64);
    job.updated_at = now_ms();
    if !studio.save_live(job) {
        return false;
    }
    tokio::select! {
        biased;
        _ = stop.cancelled() => false,
        _ = tokio::time::sleep(wait) => true,
    }
}
