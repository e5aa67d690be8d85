//! The studio (docs/ipc.md, "Studio"): quotes, idempotent generation by `outputId`, the render queue in
//! SQLite that survives a restart of the core, events, the 402 path and attaching an output to a card,
//! against a real sandbox over HTTP with short render times (images 100 ms, video 1.5 s, a 500 ms
//! smart-wait, so an image comes back inline and a video goes through the queue).
mod common;
use api_types::GenerateRequest;
use common::{app_on, start_app, Remote};
use contentdesk_core::commands::{self as c, *};
use contentdesk_core::{ipc, AppState, IpcCode};
use std::time::Duration;

fn config() -> sandbox::Config {
    let mut config = sandbox::Config::for_tests();
    config.smart_wait = Duration::from_millis(500);
    config.render.image = Duration::from_millis(100);
    config.render.video = Duration::from_millis(1500);
    config
}

fn image(prompt: &str) -> StudioForm {
    serde_json::from_value(serde_json::json!({ "media": "image", "modelId": "nano-banana-2", "prompt": prompt })).unwrap()
}

fn video(prompt: &str) -> StudioForm {
    serde_json::from_value(serde_json::json!({ "media": "video", "modelId": "veo-3.1-fast", "prompt": prompt, "duration": 4 }))
        .unwrap()
}

fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

async fn balance(remote: &Remote) -> f64 {
    remote.client().account().balance().await.unwrap().balance
}

fn set_balance(remote: &Remote, credits: f64) {
    let conn = remote.state.db().lock();
    conn.execute("UPDATE accounts SET balance = ?1", [credits]).unwrap();
}

/// Waits (up to 20 s) until the job's queue entry reaches a terminal state.
async fn finished(app: &AppState, output_id: &str) -> StudioJob {
    for _ in 0..200 {
        let jobs = c::studio_jobs(app).await.unwrap();
        if let Some(j) = jobs.into_iter().find(|j| j.output_id == output_id) {
            if matches!(j.status, JobStatus::Completed | JobStatus::Failed) {
                return j;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("job {output_id} did not finish");
}

#[tokio::test]
async fn a_quote_charges_nothing_and_an_identical_form_is_not_asked_twice() {
    let remote = Remote::start_with(config()).await;
    let (app, _, _) = app_on(&remote).await;
    let before = balance(&remote).await;
    let mut events = app.studio().subscribe();
    let q = c::studio_quote(&app, StudioQuoteArgs { form: image("a fox") }).await.unwrap();
    // Reading the balance for a quote is no news: an event would make the UI ask the price again.
    assert!(events.try_recv().is_err(), "a quote sends no event");
    assert!(q.credits > 0.0 && q.affordable && !q.cached, "{q:?}");
    assert_eq!(q.balance, before);
    assert_eq!(q.balance_after, before - q.credits);
    let again = c::studio_quote(&app, StudioQuoteArgs { form: image("a fox") }).await.unwrap();
    assert!(again.cached);
    assert_eq!(again.credits, q.credits);
    // Whitespace-only differences are the same request.
    let spaced = c::studio_quote(&app, StudioQuoteArgs { form: image("  a fox ") }).await.unwrap();
    assert!(spaced.cached);
    let mut two = image("a fox");
    two.num_outputs = Some(2);
    let q2 = c::studio_quote(&app, StudioQuoteArgs { form: two }).await.unwrap();
    assert_eq!(q2.credits, 2.0 * q.credits);
    assert_eq!(balance(&remote).await, before, "quotes charge nothing");
    assert!(c::studio_jobs(&app).await.unwrap().is_empty(), "quotes make no job");
}

#[tokio::test]
async fn a_fast_render_comes_back_inline_and_the_same_output_id_charges_once() {
    let remote = Remote::start_with(config()).await;
    let (app, _, _) = app_on(&remote).await;
    let mut events = app.studio().subscribe();
    let before = balance(&remote).await;
    let id = new_id();
    let job = c::studio_generate(&app, StudioGenerateArgs { form: image("a red kite"), output_id: id.clone() }).await.unwrap();
    assert_eq!(job.status, JobStatus::Completed, "{job:?}");
    assert_eq!(job.output_id, id);
    assert_eq!(job.output_urls.len(), 1);
    assert_eq!(job.polls, 0, "inline: no status read");
    assert!(!job.idempotent_replay);
    let price = job.credits.unwrap();
    assert_eq!(balance(&remote).await, before - price);

    // The click retried: the same job, nothing sent, nothing charged.
    let again = c::studio_generate(&app, StudioGenerateArgs { form: image("a red kite"), output_id: id.clone() }).await.unwrap();
    assert_eq!(again.output_id, id);
    assert_eq!(balance(&remote).await, before - price);
    assert_eq!(c::studio_jobs(&app).await.unwrap().len(), 1);

    // The events told the UI: the job as written (submitting), then completed, then the balance.
    let mut seen = Vec::new();
    while let Ok(ev) = events.try_recv() {
        seen.push(ev);
    }
    assert!(matches!(&seen[0], StudioEvent::Job { job } if job.status == JobStatus::Submitting), "{seen:?}");
    assert!(seen.iter().any(|e| matches!(e, StudioEvent::Job { job } if job.status == JobStatus::Completed)));
    assert!(seen.iter().any(|e| matches!(e, StudioEvent::Balance { balance } if *balance == before - price)));
}

#[tokio::test]
async fn a_request_that_landed_but_whose_answer_was_lost_is_replayed_not_charged_again() {
    let remote = Remote::start_with(config()).await;
    let (app, _, _) = app_on(&remote).await;
    let id = new_id();
    // The request reached the service (charged) but the app never saw the answer.
    let direct = GenerateRequest {
        model_id: "nano-banana-2".into(),
        prompt: Some("a lighthouse".into()),
        output_id: Some(id.clone()),
        ..Default::default()
    };
    remote.client().studio().generate(&direct).await.unwrap();
    let after_first = balance(&remote).await;
    let job = c::studio_generate(&app, StudioGenerateArgs { form: image("a lighthouse"), output_id: id.clone() }).await.unwrap();
    assert!(job.idempotent_replay, "{job:?}");
    assert_eq!(job.status, JobStatus::Completed);
    assert_eq!(balance(&remote).await, after_first, "one charge for one outputId");
}

#[tokio::test]
async fn a_slow_render_is_polled_to_completion_with_events() {
    let remote = Remote::start_with(config()).await;
    let (app, _, _) = app_on(&remote).await;
    let mut events = app.studio().subscribe();
    let id = new_id();
    let job = c::studio_generate(&app, StudioGenerateArgs { form: video("waves at dusk"), output_id: id.clone() }).await.unwrap();
    assert_eq!(job.status, JobStatus::Processing, "{job:?}");
    assert!(job.credits.unwrap() > 0.0);
    let done = finished(&app, &id).await;
    assert_eq!(done.status, JobStatus::Completed, "{done:?}");
    assert_eq!(done.output_urls.len(), 1);
    assert!(done.polls >= 1 && done.polls <= 2, "waited for the server's hint before the first read: {} polls", done.polls);
    assert!(done.completed_at.is_some());
    let mut saw_next_poll = false;
    while let Ok(ev) = events.try_recv() {
        if let StudioEvent::Job { job } = ev {
            saw_next_poll |= job.status == JobStatus::Processing && job.next_poll_at.is_some();
        }
    }
    assert!(saw_next_poll, "the UI was told when the next check is due");
}

#[tokio::test]
async fn the_core_stopped_mid_render_finds_and_finishes_the_job_after_a_restart() {
    let remote = Remote::start_with(config()).await;
    let (app, dir, store) = app_on(&remote).await;
    let id = new_id();
    let job = c::studio_generate(&app, StudioGenerateArgs { form: video("a train at night"), output_id: id.clone() }).await.unwrap();
    assert_eq!(job.status, JobStatus::Processing);
    let charged = balance(&remote).await;
    // "Close the app": stop its pollers and drop it.
    app.studio().shutdown();
    drop(app);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let app = start_app(&dir, &store).await;
    let done = finished(&app, &id).await;
    assert_eq!(done.status, JobStatus::Completed, "{done:?}");
    assert_eq!(balance(&remote).await, charged, "nothing charged again");
}

#[tokio::test]
async fn a_request_nothing_answered_is_kept_and_sent_again_with_the_same_output_id() {
    let mut remote = Remote::start_with(config()).await;
    let (app, _, _) = app_on(&remote).await;
    let before = balance(&remote).await;
    remote.stop().await;
    let id = new_id();
    let job = c::studio_generate(&app, StudioGenerateArgs { form: image("offline kite"), output_id: id.clone() }).await.unwrap();
    assert_eq!(job.status, JobStatus::Submitting, "{job:?}");
    assert!(job.error.as_deref().unwrap_or("").contains("same outputId"), "{job:?}");
    remote.restart().await;
    let done = finished(&app, &id).await;
    assert_eq!(done.status, JobStatus::Completed, "{done:?}");
    assert_eq!(done.output_id, id);
    assert_eq!(balance(&remote).await, before - done.credits.unwrap(), "charged once");
}

#[tokio::test]
async fn short_credits_give_a_clear_error_charge_nothing_and_leave_no_job() {
    let remote = Remote::start_with(config()).await;
    let (app, _, _) = app_on(&remote).await;
    set_balance(&remote, 3.0);
    let q = c::studio_quote(&app, StudioQuoteArgs { form: image("gold") }).await.unwrap();
    assert!(!q.affordable, "{q:?}");
    assert!(q.reason.as_deref().unwrap().contains("more are needed"), "{q:?}");
    let e = c::studio_generate(&app, StudioGenerateArgs { form: image("gold"), output_id: new_id() }).await.unwrap_err();
    assert_eq!(e.code, IpcCode::InsufficientCredits, "{e:?}");
    assert_eq!(e.status, Some(402));
    assert!(e.message.contains("1 more are needed") && e.message.contains("Nothing was charged"), "{}", e.message);
    assert_eq!(balance(&remote).await, 3.0);
    assert!(c::studio_jobs(&app).await.unwrap().is_empty(), "a refused request leaves no job");
}

#[tokio::test]
async fn bad_fields_are_named_before_anything_is_sent() {
    let remote = Remote::start_with(config()).await;
    let (app, _, _) = app_on(&remote).await;
    let mut f = video("x");
    f.references = Some(api_types::References { start_frame: Some("nope".into()), ..Default::default() });
    let e = c::studio_quote(&app, StudioQuoteArgs { form: f }).await.unwrap_err();
    assert_eq!(e.field.as_deref(), Some("references.startFrame"));
    assert_eq!(e.status, None, "checked here: nothing went over the wire");
    // The service's own 400 names its field too (an aspect ratio this model lacks).
    let mut f = image("x");
    f.aspect_ratio = Some("7:3".into());
    let e = c::studio_quote(&app, StudioQuoteArgs { form: f }).await.unwrap_err();
    assert_eq!(e.code, IpcCode::Validation);
    assert_eq!(e.field.as_deref(), Some("aspectRatio"), "{e:?}");
    let e = c::studio_generate(&app, StudioGenerateArgs { form: image("x"), output_id: "not-a-uuid".into() }).await.unwrap_err();
    assert_eq!(e.field.as_deref(), Some("outputId"));
}

#[tokio::test]
async fn a_failed_render_is_refunded_and_retry_makes_a_new_job() {
    let remote = Remote::start_with(config()).await;
    let (app, _, _) = app_on(&remote).await;
    let before = balance(&remote).await;
    let id = new_id();
    let prompt = format!("storm {}", sandbox::routes::studio::FAIL_MARKER);
    let mut form = video(&prompt);
    form.duration = Some(4.0);
    c::studio_generate(&app, StudioGenerateArgs { form, output_id: id.clone() }).await.unwrap();
    let failed = finished(&app, &id).await;
    assert_eq!(failed.status, JobStatus::Failed);
    assert!(failed.error.as_deref().unwrap().contains("refunded"), "{failed:?}");
    assert_eq!(balance(&remote).await, before);
    let retried = c::studio_retry(&app, StudioJobArgs { output_id: id.clone() }).await.unwrap();
    assert_ne!(retried.output_id, id, "a retry of a failed render is a new generation");
    // Cancel stops waiting for it.
    let cancelled = c::studio_cancel(&app, StudioJobArgs { output_id: retried.output_id.clone() }).await.unwrap();
    assert_eq!(cancelled.status, JobStatus::Cancelled);
    assert!(cancelled.error.as_deref().unwrap().contains("may still finish"));
    // Clear finished: both off the queue list, still listed (the gallery shows completed ones).
    assert_eq!(c::studio_clear_finished(&app).await.unwrap(), 2);
    assert!(c::studio_jobs(&app).await.unwrap().iter().all(|j| j.cleared));
}

#[tokio::test]
async fn models_are_cached_per_session_and_an_output_attaches_to_a_card() {
    let remote = Remote::start_with(config()).await;
    let (app, _, _) = app_on(&remote).await;
    let models = c::models_list(&app, ModelListInput { content_type: Some("video".into()), refresh: None }).await.unwrap();
    assert!(models.iter().all(|m| m.content_type == api_types::ContentType::Video));
    assert!(!models.is_empty());
    let voices = c::voices_list(&app).await.unwrap();
    assert!(!voices.is_empty());

    let id = new_id();
    let job = c::studio_generate(&app, StudioGenerateArgs { form: image("cover art"), output_id: id.clone() }).await.unwrap();
    assert_eq!(job.status, JobStatus::Completed);
    let space = c::spaces_list(&app, SpaceListInput::default()).await.unwrap()[0].id.clone();
    let board = c::board_load(&app, BoardLoadArgs { filters: BoardFilters::space(space), ..Default::default() }).await.unwrap();
    let card = board.cards[0].id.clone();
    let token = format!("{id}-1");
    let detail = c::card_attach_output(&app, CardAttachOutputArgs { card_id: card.clone(), token: token.clone() }).await.unwrap();
    let json = serde_json::to_value(&detail).unwrap();
    let assets = json["assets"].as_array().unwrap();
    let attached = assets.iter().find(|a| a["outputId"].as_str().is_some_and(|o| o.starts_with(&id))).unwrap_or_else(|| panic!("{assets:?}"));
    // Named by its prompt (as the gallery names it), not captioned with its id.
    assert_eq!(attached["displayName"], "cover art", "{attached}");
    let e = c::card_attach_output(&app, CardAttachOutputArgs { card_id: card, token: "bogus".into() }).await.unwrap_err();
    assert_eq!(e.field.as_deref(), Some("token"));
}

#[tokio::test]
async fn the_studio_commands_are_dispatched_by_name() {
    let remote = Remote::start_with(config()).await;
    let (app, _, _) = app_on(&remote).await;
    let v = ipc::dispatch(&app, "studio_quote", serde_json::json!({ "form": { "media": "board", "boardType": "character", "prompt": "a knight" } }))
        .await
        .unwrap();
    assert!(v["credits"].as_f64().unwrap() > 0.0);
    let v = ipc::dispatch(&app, "models_list", serde_json::json!({ "contentType": "image" })).await.unwrap();
    assert!(v.as_array().unwrap().len() > 1);
    // The catalogue's ModelListInput: an unknown kind is named with the known ones; the app always names one.
    let e = ipc::dispatch(&app, "models_list", serde_json::json!({ "contentType": "gif" })).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("contentType")), "{e:?}");
    assert!(e.message.contains("image, video, audio"), "{}", e.message);
    let e = ipc::dispatch(&app, "models_list", serde_json::json!({})).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("contentType")), "{e:?}");
    let e = ipc::dispatch(&app, "studio_quote", serde_json::json!({ "form": { "media": "gif" } })).await.unwrap_err();
    assert_eq!(e.code, IpcCode::Validation);
    for name in ["studio_jobs", "studio_clear_finished", "voices_list"] {
        ipc::dispatch(&app, name, serde_json::Value::Null).await.unwrap();
    }
}

/// A service that sends no `pollAfterSeconds`: the first render of a model on this computer is looked at
/// near its expected finish, learned from the account's library (a render of the same model made on
/// another computer, which took 4 s), not at the kind's default (2 s) and then growing (found done at
/// 5 s, on the second look). Counted in looks, not timed.
#[tokio::test]
async fn a_models_first_render_here_is_looked_at_when_the_library_says_it_finishes() {
    let mut config = config();
    config.poll_hint = false;
    config.smart_wait = Duration::from_millis(300);
    config.render.image = Duration::from_secs(4);
    let remote = Remote::start_with(config).await;
    // Another computer rendered with the model earlier: it took 4 s (made to have finished already, so
    // the test does not wait for it).
    let done = remote
        .client()
        .studio()
        .generate(&GenerateRequest { model_id: "flux-2-pro".into(), prompt: Some("a kiln".into()), ..Default::default() })
        .await
        .unwrap();
    {
        let conn = remote.state.db().lock();
        let now = sandbox::time::now_ms();
        conn.execute(
            "UPDATE generations SET ready_at_ms = ?2, created_at = ?3 WHERE id = ?1",
            rusqlite::params![done.output_id, now, sandbox::time::fmt_ms(now - 4000)],
        )
        .unwrap();
    }
    let g = remote.client().studio().status(&done.output_id).await.unwrap();
    assert_eq!(g.status.get(), Some(api_types::GenerationStatus::Completed), "{g:?}");

    let (app, _, _) = app_on(&remote).await;
    // Nothing rendered here yet: the first wait learns from the library (the app's start does the same
    // for the profiles it has; this one was added after the start).
    let id = new_id();
    let form: StudioForm =
        serde_json::from_value(serde_json::json!({ "media": "image", "modelId": "flux-2-pro", "prompt": "a vase" })).unwrap();
    let job = c::studio_generate(&app, StudioGenerateArgs { form, output_id: id.clone() }).await.unwrap();
    assert_eq!(job.status, JobStatus::Processing, "{job:?}");
    let done = finished(&app, &id).await;
    assert_eq!(done.status, JobStatus::Completed, "{done:?}");
    assert_eq!(done.polls, 1, "one look, just after the finish the library foretold: {} looks", done.polls);
}

/// Upscale (the spec's upscale operation: `POST /studio/generate` with an upscale model, one source in
/// `references`, `upscaleFactor`): priced like the other kinds (4x costs twice 2x), made, and found in the
/// account's library (the gallery) as an image.
#[tokio::test]
async fn an_output_is_upscaled_priced_first_and_lands_in_the_library() {
    let remote = Remote::start_with(config()).await;
    let (app, _, _) = app_on(&remote).await;
    let id = new_id();
    let source = c::studio_generate(&app, StudioGenerateArgs { form: image("a teapot"), output_id: id.clone() }).await.unwrap();
    let source = finished(&app, &source.output_id).await;
    assert_eq!(source.status, JobStatus::Completed);
    let upscale = |factor: &str| -> StudioForm {
        serde_json::from_value(serde_json::json!({
            "media": "upscale", "modelId": "topaz-image-upscale", "references": { "images": [format!("{id}-1")] }, "upscaleFactor": factor,
        }))
        .unwrap()
    };
    let two = c::studio_quote(&app, StudioQuoteArgs { form: upscale("2x") }).await.unwrap();
    let four = c::studio_quote(&app, StudioQuoteArgs { form: upscale("4x") }).await.unwrap();
    assert!(two.credits > 0.0, "{two:?}");
    assert_eq!(four.credits, two.credits * 2.0);
    let up = new_id();
    c::studio_generate(&app, StudioGenerateArgs { form: upscale("2x"), output_id: up.clone() }).await.unwrap();
    let done = finished(&app, &up).await;
    assert_eq!((done.status, done.content_type), (JobStatus::Completed, api_types::ContentType::Image), "{done:?}");
    let library = c::media_library(&app, MediaListInput::default()).await.unwrap();
    let listed = library.iter().find(|m| m.id == up).expect("the upscale is in the library");
    assert_eq!(listed.model.as_deref(), Some("topaz-image-upscale"));
}
