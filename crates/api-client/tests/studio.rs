//! Generation (spec §4 "Generation", facts 3.1–3.3): quotes charge nothing, the `outputId` makes a retry
//! charge once, inline versus polled results, 402 charges nothing, output tokens chain as a start frame,
//! and `wait` with its deadline and cancel.
mod common;
use api_types::{
    scopes, BoardRequest, ContentType, GenerateRequest, GenerationStatus, ModelKind, References,
};
use common::*;
use contentdesk_api_client::{ApiError, CancellationToken, Client, WaitOptions};
use contentdesk_sandbox::{Config, RenderTimes};
use std::time::Duration;

async fn model(client: &Client, content_type: ContentType) -> api_types::ModelInfo {
    let models = ok(client.models().list(Some(content_type)).await);
    models
        .iter()
        .find(|m| m.kind == ModelKind::Generate && m.is_default == Some(true))
        .or_else(|| models.iter().find(|m| m.kind == ModelKind::Generate))
        .cloned()
        .unwrap_or_else(|| panic!("no {content_type:?} model in the registry"))
}

async fn image_request(client: &Client) -> GenerateRequest {
    let m = model(client, ContentType::Image).await;
    GenerateRequest {
        model_id: m.model_id,
        content_type: Some(ContentType::Image),
        prompt: Some("a lighthouse at dawn".into()),
        ..Default::default()
    }
}

fn fast_wait() -> WaitOptions {
    WaitOptions {
        initial: Some(Duration::from_millis(30)),
        cap: Duration::from_millis(100),
        ..WaitOptions::default()
    }
}

fn slow_renders(render: Duration) -> Config {
    Config {
        render: RenderTimes::all(render),
        smart_wait: Duration::from_millis(100),
        ..Config::for_tests()
    }
}

#[tokio::test]
async fn quote_returns_a_price_and_charges_nothing() {
    let (sb, client) = start().await;
    let before = sb.balance();
    let q = ok(client.studio().quote(&image_request(&client).await).await);
    assert!(q.credits_estimate > 0.0);
    assert!(q.get_cost);
    assert_eq!(sb.balance(), before, "a quote charges nothing");
}

#[tokio::test]
async fn generate_mints_an_output_id_when_none_is_given() {
    let (_sb, client) = start().await;
    let r = ok(client
        .studio()
        .generate(&image_request(&client).await)
        .await);
    assert!(
        uuid::Uuid::parse_str(&r.output_id).is_ok(),
        "{}",
        r.output_id
    );
    assert!(!r.idempotent_replay);
}

#[tokio::test]
async fn same_output_id_charges_once_and_replays() {
    let (sb, client) = start().await;
    let before = sb.balance();
    let id = uuid::Uuid::new_v4().to_string();
    let req = GenerateRequest {
        output_id: Some(id.clone()),
        ..image_request(&client).await
    };
    let first = ok(client.studio().generate(&req).await);
    assert_eq!(
        first.output_id, id,
        "the outputId sent is the generation's id"
    );
    assert!(!first.idempotent_replay);
    let after_first = sb.balance();
    assert!(after_first < before, "the first submit charges");
    let second = ok(client.studio().generate(&req).await);
    assert_eq!(second.output_id, id);
    assert!(second.idempotent_replay, "a resubmit is a replay");
    assert_eq!(sb.balance(), after_first, "a replay charges nothing more");
}

#[tokio::test]
async fn generate_finishes_inline_when_the_render_fits_the_smart_wait() {
    let (_sb, client) = start().await;
    let r = ok(client
        .studio()
        .generate(&image_request(&client).await)
        .await);
    assert_eq!(r.status, GenerationStatus::Completed, "{r:?}");
    assert!(!r.output_urls.is_empty());
}

#[tokio::test]
async fn generate_returns_an_output_id_to_poll_when_the_render_outlasts_the_smart_wait() {
    let sb = TestSandbox::start_with(slow_renders(Duration::from_millis(600))).await;
    let client = client(&sb, &sb.key);
    let r = ok(client
        .studio()
        .generate(&image_request(&client).await)
        .await);
    assert_eq!(r.status, GenerationStatus::Processing, "{r:?}");
    let polled = ok(client.studio().status(&r.output_id).await);
    assert!(matches!(
        polled.status.get(),
        Some(GenerationStatus::Pending | GenerationStatus::Processing)
    ));
    let done = ok(client.studio().wait(&r.output_id, fast_wait()).await);
    assert_eq!(done.generation.status, GenerationStatus::Completed);
    assert!(!done.generation.output_urls.is_empty());
    assert!(done.polls >= 2, "polled until done: {}", done.polls);
}

#[tokio::test]
async fn status_of_a_finished_generation_and_wait_returns_at_once() {
    let (_sb, client) = start().await;
    let r = ok(client
        .studio()
        .generate(&image_request(&client).await)
        .await);
    let done = ok(client
        .studio()
        .wait(&r.output_id, WaitOptions::default())
        .await);
    assert_eq!(done.polls, 1);
    assert_eq!(done.generation.output_id, r.output_id);
}

#[tokio::test]
async fn insufficient_credits_is_402_and_charges_nothing() {
    let (sb, client) = start().await;
    sb.set_balance(0.0);
    let e = client
        .studio()
        .generate(&image_request(&client).await)
        .await
        .unwrap_err();
    match &e {
        ApiError::InsufficientCredits {
            balance, required, ..
        } => {
            assert_eq!(*balance, Some(0.0));
            assert!(required.unwrap_or(0.0) > 0.0);
        }
        other => panic!("expected InsufficientCredits, got {other:?}"),
    }
    assert_eq!(sb.balance(), 0.0);
}

#[tokio::test]
async fn image_output_token_chains_as_video_start_frame() {
    let (_sb, client) = start().await;
    let image = ok(client
        .studio()
        .generate(&image_request(&client).await)
        .await);
    let image = ok(client.studio().wait(&image.output_id, fast_wait()).await).generation;
    let video_model = {
        let models = ok(client.models().list(Some(ContentType::Video)).await);
        models
            .into_iter()
            .find(|m| m.kind == ModelKind::Generate && m.capabilities.start_frame)
            .expect("a video model that takes a start frame")
    };
    let req = GenerateRequest {
        model_id: video_model.model_id,
        content_type: Some(ContentType::Video),
        prompt: Some("the light turns".into()),
        references: Some(References {
            start_frame: Some(format!("{}-1", image.output_id)),
            ..Default::default()
        }),
        ..Default::default()
    };
    let video = ok(client.studio().generate(&req).await);
    let done = ok(client.studio().wait(&video.output_id, fast_wait()).await);
    assert_eq!(done.generation.content_type, Some(ContentType::Video.into()));
}

#[tokio::test]
async fn a_raw_url_is_accepted_as_a_reference() {
    let (_sb, client) = start().await;
    let req = GenerateRequest {
        references: Some(References {
            images: vec!["https://example.com/ref.png".into()],
            ..Default::default()
        }),
        ..image_request(&client).await
    };
    let quote = ok(client.studio().quote(&req).await);
    assert!(quote.credits_estimate > 0.0, "{quote:?}");
    let done = ok(client.studio().generate(&req).await);
    assert!(!done.output_id.is_empty(), "a generation with a URL reference was made: {done:?}");
}

#[tokio::test]
async fn another_accounts_output_token_is_404() {
    let (sb, client) = start().await;
    let other = other_client(&sb, 100.0);
    let theirs = ok(other.studio().generate(&image_request(&other).await).await);
    let req = GenerateRequest {
        references: Some(References {
            images: vec![format!("{}-1", theirs.output_id)],
            ..Default::default()
        }),
        ..image_request(&client).await
    };
    let e = client.studio().generate(&req).await.unwrap_err();
    assert!(matches!(e, ApiError::NotFound { .. }), "{e:?}");
    let e = client.studio().status(&theirs.output_id).await.unwrap_err();
    assert!(matches!(e, ApiError::NotFound { .. }), "{e:?}");
}

#[tokio::test]
async fn unknown_model_is_400_naming_model_id() {
    let (_sb, client) = start().await;
    let req = GenerateRequest {
        model_id: "no-such-model".into(),
        prompt: Some("x".into()),
        ..Default::default()
    };
    let e = client.studio().generate(&req).await.unwrap_err();
    assert!(
        matches!(e, ApiError::Validation { field: Some(ref f), .. } if f == "modelId"),
        "{e:?}"
    );
}

#[tokio::test]
async fn generate_needs_the_generate_scope() {
    let (sb, client) = start().await;
    let req = image_request(&client).await;
    let c = client_with(&sb, &[scopes::ASSETS_WRITE]);
    let e = c.studio().generate(&req).await.unwrap_err();
    assert!(
        matches!(e, ApiError::MissingScope { scope: Some(ref s), .. } if s == "generate:*"),
        "{e:?}"
    );
}

#[tokio::test]
async fn wait_stops_at_the_deadline_with_the_output_id() {
    let sb = TestSandbox::start_with(slow_renders(Duration::from_secs(30))).await;
    let client = client(&sb, &sb.key);
    let r = ok(client
        .studio()
        .generate(&image_request(&client).await)
        .await);
    let opts = WaitOptions {
        deadline: Duration::from_millis(300),
        ..fast_wait()
    };
    let e = client.studio().wait(&r.output_id, opts).await.unwrap_err();
    assert!(
        matches!(e, ApiError::GenerationTimeout { ref output_id } if *output_id == r.output_id),
        "{e:?}"
    );
    assert_eq!(e.pending_output_id(), Some(r.output_id.as_str()));
}

#[tokio::test]
async fn wait_stops_when_cancelled() {
    let sb = TestSandbox::start_with(slow_renders(Duration::from_secs(30))).await;
    let client = client(&sb, &sb.key);
    let r = ok(client
        .studio()
        .generate(&image_request(&client).await)
        .await);
    let cancel = CancellationToken::new();
    let opts = WaitOptions {
        cancel: cancel.clone(),
        ..fast_wait()
    };
    let canceller = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(150)).await;
        cancel.cancel();
    });
    let started = std::time::Instant::now();
    let e = client.studio().wait(&r.output_id, opts).await.unwrap_err();
    canceller.await.unwrap();
    assert!(matches!(e, ApiError::Cancelled { .. }), "{e:?}");
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[tokio::test]
async fn wait_uses_poll_after_seconds_or_the_default_and_counts_polls() {
    // 1.2 s render, no initial interval given: the first sleep is the server's hint or the 2 s image
    // default, so it takes 2 polls (one before, one after).
    let sb = TestSandbox::start_with(slow_renders(Duration::from_millis(1200))).await;
    let client = client(&sb, &sb.key);
    let r = ok(client
        .studio()
        .generate(&image_request(&client).await)
        .await);
    let done = ok(client
        .studio()
        .wait(&r.output_id, WaitOptions::default())
        .await);
    assert!(done.polls >= 2 && done.polls <= 3, "{}", done.polls);
}

#[tokio::test]
async fn board_quote_charges_nothing_and_board_generates() {
    let (sb, client) = start().await;
    let req = BoardRequest {
        board_type: "character".into(),
        prompt: Some("a fox knight".into()),
        ..Default::default()
    };
    let before = sb.balance();
    let q = ok(client.studio().quote_board(&req).await);
    assert!(q.credits_estimate > 0.0);
    assert_eq!(sb.balance(), before);
    let r = ok(client.studio().board(&req).await);
    let done = ok(client.studio().wait(&r.output_id, fast_wait()).await);
    assert_eq!(done.generation.status, GenerationStatus::Completed);
}

#[tokio::test]
async fn wait_ends_with_generation_failed_when_the_render_fails_and_the_credits_come_back() {
    let (sb, client) = start().await;
    let before = sb.balance();
    let req = GenerateRequest {
        prompt: Some(format!(
            "anything {}",
            contentdesk_sandbox::routes::studio::FAIL_MARKER
        )),
        ..image_request(&client).await
    };
    let r = ok(client.studio().generate(&req).await);
    let e = client
        .studio()
        .wait(&r.output_id, fast_wait())
        .await
        .unwrap_err();
    match &e {
        ApiError::GenerationFailed { output_id, error } => {
            assert_eq!(*output_id, r.output_id);
            assert!(error.is_some());
        }
        other => panic!("expected GenerationFailed, got {other:?}"),
    }
    assert_eq!(
        e.pending_output_id(),
        None,
        "a failure will not change: nothing to poll"
    );
    assert_eq!(sb.balance(), before, "a failed render is refunded");
}
