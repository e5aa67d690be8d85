//! Generation over real HTTP: quotes, idempotency, smart-wait and polling, 402, output tokens as
//! references, scopes, revocation mid-wait, placeholder files, restart survival and the failure marker;
//! plus the model registry and voices.
mod common;
use api_types::scopes;
use common::{msg, Http, TestSandbox};
use contentdesk_sandbox::{AppState, Config, RenderTimes};
use serde_json::{json, Value};
use std::time::Duration;

fn image(prompt: &str) -> Value {
    json!({"modelId": "nano-banana-2", "prompt": prompt})
}

/// Test timings with every render taking `render` and a smart-wait of `wait`.
fn slow(render_ms: u64, wait_ms: u64) -> Config {
    Config {
        render: RenderTimes::all(Duration::from_millis(render_ms)),
        smart_wait: Duration::from_millis(wait_ms),
        ..Config::for_tests()
    }
}

fn generation_count(sb: &TestSandbox) -> i64 {
    let conn = sb.state().db().lock();
    conn.query_row("SELECT COUNT(*) FROM generations", [], |r| r.get(0))
        .unwrap()
}

/// A finished image of `key`'s account: its outputId.
async fn finished_image(http: &Http, key: &str) -> String {
    let (s, v) = http
        .post(key, "/studio/generate", image("a red bicycle"))
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["status"], "completed", "{v}");
    v["outputId"].as_str().unwrap().to_string()
}

/// Polls until the generation is terminal (or 5 s pass).
async fn poll_done(http: &Http, key: &str, id: &str) -> Value {
    for _ in 0..100 {
        let (s, v) = http.get(key, &format!("/studio/generate/{id}")).await;
        assert_eq!(s, 200, "{v}");
        if v["status"] == "completed" || v["status"] == "failed" {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("generation {id} did not finish");
}

async fn fetch(url: &str) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
    let resp = reqwest::get(url).await.expect("fetch");
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    (status, headers, resp.bytes().await.unwrap().to_vec())
}

#[tokio::test]
async fn get_cost_quotes_and_charges_nothing_and_stores_nothing() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let before = generation_count(&sb);
    let (s, v) = http
        .post(
            &sb.key,
            "/studio/generate",
            json!({"modelId": "nano-banana-2", "prompt": "x", "numImages": 3, "getCost": true}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["creditsEstimate"], 12.0);
    assert_eq!(v["getCost"], true);
    assert_eq!(v["modelId"], "nano-banana-2");
    assert_eq!(v["contentType"], "image");
    let (_, v) = http
        .post(&sb.key, "/studio/generate", json!({"modelId": "veo-3.1-fast", "prompt": "x", "duration": 8, "numGenerations": 2, "getCost": true}))
        .await;
    assert_eq!(
        v["creditsEstimate"], 80.0,
        "5 credits per second per generation"
    );
    let (_, v) = http
        .post(&sb.key, "/studio/reference-board", json!({"boardType": "character", "prompt": "a fox knight", "numImages": 2, "getCost": true}))
        .await;
    assert_eq!(v["creditsEstimate"], 12.0);
    assert_eq!(sb.balance(), 500.0);
    assert_eq!(generation_count(&sb), before);
}

#[tokio::test]
async fn same_output_id_twice_charges_once_and_replays() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let id = uuid::Uuid::new_v4().to_string();
    let body = json!({"modelId": "nano-banana-2", "prompt": "lighthouse", "outputId": id});
    let (s, first) = http.post(&sb.key, "/studio/generate", body.clone()).await;
    assert_eq!(s, 200, "{first}");
    assert_eq!(first["outputId"], id.as_str());
    assert_eq!(first["idempotentReplay"], false);
    assert_eq!(sb.balance(), 496.0);
    let (s, second) = http.post(&sb.key, "/studio/generate", body).await;
    assert_eq!(s, 200, "{second}");
    assert_eq!(second["outputId"], id.as_str());
    assert_eq!(second["idempotentReplay"], true);
    assert_eq!(second["outputUrls"], first["outputUrls"]);
    assert_eq!(sb.balance(), 496.0, "the replay charged nothing");
}

#[tokio::test]
async fn an_output_id_of_another_account_is_a_409() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (_, other) = sb.other_account(100.0);
    let id = uuid::Uuid::new_v4().to_string();
    let (s, _) = http
        .post(
            &other,
            "/studio/generate",
            json!({"modelId": "nano-banana-2", "prompt": "a", "outputId": id}),
        )
        .await;
    assert_eq!(s, 200);
    let (s, v) = http
        .post(
            &sb.key,
            "/studio/generate",
            json!({"modelId": "nano-banana-2", "prompt": "a", "outputId": id}),
        )
        .await;
    assert_eq!(s, 409, "{v}");
    assert_eq!(sb.balance(), 500.0);
}

#[tokio::test]
async fn fast_render_returns_inline_completed_with_its_urls() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (s, v) = http
        .post(
            &sb.key,
            "/studio/generate",
            json!({"modelId": "nano-banana-2", "prompt": "cat", "numImages": 2}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["status"], "completed");
    assert_eq!(v["creditsEstimate"], 8.0);
    assert_eq!(v["outputUrls"].as_array().unwrap().len(), 2);
    assert!(v["pollAfterSeconds"].is_null());
    // `type` is accepted as an alias of contentType.
    let (s, v) = http
        .post(
            &sb.key,
            "/studio/generate",
            json!({"type": "image", "modelId": "flux-2-pro", "prompt": "dog"}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["creditsEstimate"], 8.0);
}

#[tokio::test]
async fn audio_finishes_inline() {
    let sb = TestSandbox::start_with(Config {
        render: RenderTimes {
            audio: Duration::ZERO,
            ..RenderTimes::all(Duration::from_secs(30))
        },
        smart_wait: Duration::from_millis(100),
        ..Config::for_tests()
    })
    .await;
    let http = Http::new(&sb);
    let text = "Hello from the sandbox. ".repeat(10); // 240 characters: 2 credits
    let (s, v) = http
        .post(
            &sb.key,
            "/studio/generate",
            json!({"modelId": "elevenlabs-tts", "text": text, "voiceId": "21m00Tcm4TlvDq8ikWAM"}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["status"], "completed");
    assert_eq!(v["creditsEstimate"], 2.0);
    let (s, v) = http
        .post(&sb.key, "/studio/generate", json!({"modelId": "elevenlabs-sound-effects", "prompt": "door creak", "durationSeconds": 3}))
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["status"], "completed");
    assert_eq!(v["creditsEstimate"], 2.0);
}

#[tokio::test]
async fn slow_render_returns_processing_then_polls_to_completed() {
    let sb = TestSandbox::start_with(slow(600, 100)).await;
    let http = Http::new(&sb);
    let (s, v) = http
        .post(
            &sb.key,
            "/studio/generate",
            json!({"modelId": "veo-3.1-fast", "prompt": "waves", "duration": 4}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["status"], "processing");
    // The hint is the time left (0.6 s render, 0.1 s smart-wait) plus 0.1 s, in tenths.
    let hint = v["pollAfterSeconds"].as_f64().unwrap();
    assert!(hint > 0.1 && hint <= 0.7, "{hint}");
    assert_eq!(v["outputUrls"], json!([]));
    let id = v["outputId"].as_str().unwrap().to_string();
    assert_eq!(sb.balance(), 480.0, "charged at submit");
    let (s, v) = http.get(&sb.key, &format!("/studio/generate/{id}")).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["status"], "processing");
    assert!(v["pollAfterSeconds"].as_f64().unwrap() <= hint, "the time left only shrinks: {v}");
    assert_eq!(v["contentType"], "video");
    assert_eq!(v["modelId"], "veo-3.1-fast");
    let done = poll_done(&http, &sb.key, &id).await;
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["outputUrls"].as_array().unwrap().len(), 1);
    assert_eq!(done["creditsCharged"], 20.0);
    assert!(done["completedAt"].is_string());
    assert!(done["pollAfterSeconds"].is_null());
    // An image in progress hints the time left too.
    let (_, v) = http
        .post(&sb.key, "/studio/generate", image("slow image"))
        .await;
    assert!(v["pollAfterSeconds"].as_f64().unwrap() <= 0.7, "{v}");
}

#[tokio::test]
async fn the_poll_hint_is_capped_per_kind_and_can_be_switched_off() {
    let sb = TestSandbox::start_with(slow(600_000, 100)).await;
    let http = Http::new(&sb);
    let (_, v) = http
        .post(&sb.key, "/studio/generate", json!({"modelId": "veo-3.1-fast", "prompt": "long", "duration": 4}))
        .await;
    assert_eq!(v["pollAfterSeconds"], 15.0, "video: at most 15 s");
    let (_, v) = http.post(&sb.key, "/studio/generate", image("long image")).await;
    assert_eq!(v["pollAfterSeconds"], 5.0, "images: at most 5 s");
    let bare = TestSandbox::start_with(Config { poll_hint: false, ..slow(600_000, 100) }).await;
    let http = Http::new(&bare);
    let (_, v) = http.post(&bare.key, "/studio/generate", image("no hint")).await;
    assert_eq!(v["status"], "processing");
    assert!(v["pollAfterSeconds"].is_null(), "{v}");
}

#[tokio::test]
async fn generation_status_of_another_account_is_404() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (_, other) = sb.other_account(100.0);
    let id = finished_image(&http, &other).await;
    let (s, v) = http.get(&sb.key, &format!("/studio/generate/{id}")).await;
    assert_eq!(s, 404, "{v}");
    let (s, v) = http.get(&sb.key, "/studio/generate/not-a-uuid").await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "outputId");
}

#[tokio::test]
async fn short_balance_is_402_with_nothing_charged_and_no_job() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    sb.set_balance(3.0);
    let before = generation_count(&sb);
    let id = uuid::Uuid::new_v4().to_string();
    let (s, v) = http
        .post(
            &sb.key,
            "/studio/generate",
            json!({"modelId": "nano-banana-2", "prompt": "x", "outputId": id}),
        )
        .await;
    assert_eq!(s, 402, "{v}");
    assert_eq!(v["balance"], 3.0);
    assert_eq!(v["required"], 4.0);
    assert_eq!(sb.balance(), 3.0);
    assert_eq!(generation_count(&sb), before);
    let (s, _) = http.get(&sb.key, &format!("/studio/generate/{id}")).await;
    assert_eq!(s, 404, "no job was created");
    let (s, _) = http
        .post(
            &sb.key,
            "/studio/reference-board",
            json!({"boardType": "pose", "prompt": "x"}),
        )
        .await;
    assert_eq!(s, 402);
}

#[tokio::test]
async fn output_tokens_are_accepted_as_references_in_every_form() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let id = finished_image(&http, &sb.key).await;
    for token in [
        format!("{id}-1"),
        id.clone(),
        id[..8].to_string(),
        format!("{}-1", &id[..8]),
    ] {
        let body = json!({"modelId": "nano-banana-2", "prompt": "variation", "references": {"images": [token]}, "getCost": true});
        let (s, v) = http.post(&sb.key, "/studio/generate", body).await;
        assert_eq!(s, 200, "{token}: {v}");
    }
    // An output number past the generation's outputs is not found.
    let (s, v) = http
        .post(&sb.key, "/studio/generate", json!({"modelId": "nano-banana-2", "prompt": "v", "references": {"images": [format!("{id}-2")]}}))
        .await;
    assert_eq!(s, 404, "{v}");
}

#[tokio::test]
async fn image_output_chains_as_a_video_start_frame() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let id = finished_image(&http, &sb.key).await;
    let (s, v) = http
        .post(
            &sb.key,
            "/studio/generate",
            json!({"modelId": "veo-3.1-fast", "prompt": "it rides away", "references": {"startFrame": format!("{id}-1")}}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["status"], "completed");
    // A video output cannot stand in for an image frame.
    let video = v["outputId"].as_str().unwrap();
    let (s, v) = http
        .post(
            &sb.key,
            "/studio/generate",
            json!({"modelId": "kling-3.0", "prompt": "x", "references": {"endFrame": video}}),
        )
        .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "references.endFrame");
}

#[tokio::test]
async fn another_accounts_token_is_404() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (_, other) = sb.other_account(100.0);
    let theirs = finished_image(&http, &other).await;
    for token in [format!("{theirs}-1"), theirs[..8].to_string()] {
        let (s, v) = http
            .post(&sb.key, "/studio/generate", json!({"modelId": "veo-3.1-fast", "prompt": "x", "references": {"startFrame": token}}))
            .await;
        assert_eq!(s, 404, "{v}");
        assert!(msg(&v).contains("Output not found"), "{v}");
    }
    assert_eq!(sb.balance(), 500.0);
}

#[tokio::test]
async fn a_bad_or_unfinished_token_is_400_naming_the_field() {
    let sb = TestSandbox::start_with(slow(5_000, 50)).await;
    let http = Http::new(&sb);
    let (s, v) = http
        .post(&sb.key, "/studio/generate", json!({"modelId": "veo-3.1-fast", "prompt": "x", "references": {"startFrame": "not a token"}}))
        .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "references.startFrame");
    let (s, v) = http
        .post(&sb.key, "/studio/generate", json!({"modelId": "nano-banana-2", "prompt": "x", "references": {"images": ["https://ok.example/a.png", "ftp://x"]}}))
        .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "references.images[1]");
    let (_, v) = http
        .post(&sb.key, "/studio/generate", image("still rendering"))
        .await;
    assert_eq!(v["status"], "processing");
    let pending = v["outputId"].as_str().unwrap();
    let (s, v) = http
        .post(&sb.key, "/studio/generate", json!({"modelId": "veo-3.1-fast", "prompt": "x", "references": {"startFrame": format!("{pending}-1")}}))
        .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "references.startFrame");
    assert!(msg(&v).contains("processing"), "{v}");
}

#[tokio::test]
async fn invalid_requests_are_400_naming_the_field() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let cases = [
        (
            json!({"modelId": "no-such-model", "prompt": "x"}),
            "modelId",
        ),
        (
            json!({"modelId": "nano-banana-2", "contentType": "video", "prompt": "x"}),
            "contentType",
        ),
        (json!({"modelId": "nano-banana-2"}), "prompt"),
        (
            json!({"modelId": "nano-banana-2", "prompt": "   "}),
            "prompt",
        ),
        (
            json!({"modelId": "nano-banana-2", "prompt": "x", "aspectRatio": "7:3"}),
            "aspectRatio",
        ),
        (
            json!({"modelId": "nano-banana-2", "prompt": "x", "resolution": "720p"}),
            "resolution",
        ),
        (
            json!({"modelId": "nano-banana-2", "prompt": "x", "numImages": 5}),
            "numImages",
        ),
        (
            json!({"modelId": "nano-banana-2", "prompt": "x", "numImages": 0}),
            "numImages",
        ),
        (
            json!({"modelId": "nano-banana-2", "prompt": "x", "numGenerations": 2}),
            "numGenerations",
        ),
        (
            json!({"modelId": "veo-3.1-fast", "prompt": "x", "duration": 30}),
            "duration",
        ),
        (
            json!({"modelId": "veo-3.1-fast", "prompt": "x", "numGenerations": 9}),
            "numGenerations",
        ),
        (
            json!({"modelId": "seedance-2-fast", "prompt": "x", "negativePrompt": "blur"}),
            "negativePrompt",
        ),
        (
            json!({"modelId": "elevenlabs-tts", "voiceId": "21m00Tcm4TlvDq8ikWAM"}),
            "text",
        ),
        (
            json!({"modelId": "elevenlabs-tts", "text": "hi"}),
            "voiceId",
        ),
        (
            json!({"modelId": "elevenlabs-tts", "text": "hi", "voiceId": "nobody"}),
            "voiceId",
        ),
        (
            json!({"modelId": "elevenlabs-tts", "text": "hi", "voiceId": "21m00Tcm4TlvDq8ikWAM", "prompt": "x"}),
            "prompt",
        ),
        (
            json!({"modelId": "elevenlabs-music", "prompt": "x", "durationSeconds": 1000}),
            "durationSeconds",
        ),
        (
            json!({"modelId": "topaz-image-upscale"}),
            "references.images",
        ),
        (
            json!({"modelId": "infinitalk", "references": {"images": ["https://a.example/p.png"]}}),
            "text",
        ),
        (
            json!({"modelId": "infinitalk", "references": {"images": ["https://a.example/p.png"], "audio": ["https://a.example/a.wav"]}}),
            "durationSeconds",
        ),
        (
            json!({"modelId": "nano-banana-2", "prompt": "x", "outputId": "abc"}),
            "outputId",
        ),
        (
            json!({"modelId": "nano-banana-2", "prompt": "x", "colour": "red"}),
            "colour",
        ),
        (json!({"modelId": "nano-banana-2", "prompt": 5}), "prompt"),
    ];
    for (body, field) in cases {
        let (s, v) = http.post(&sb.key, "/studio/generate", body.clone()).await;
        assert_eq!(s, 400, "{body}: {v}");
        assert_eq!(v["field"], field, "{body}: {v}");
        assert!(msg(&v).contains(field), "the message names {field}: {v}");
    }
    // The unknown-model error lists the valid ids.
    let (_, v) = http
        .post(
            &sb.key,
            "/studio/generate",
            json!({"modelId": "nope", "prompt": "x"}),
        )
        .await;
    assert!(
        msg(&v).contains("nano-banana-2") && msg(&v).contains("veo-3.1-fast"),
        "{v}"
    );
    assert_eq!(sb.balance(), 500.0);
}

#[tokio::test]
async fn lip_sync_and_upscale_are_generations_of_their_model_kind() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let portrait = finished_image(&http, &sb.key).await;
    let (s, v) = http
        .post(
            &sb.key,
            "/studio/generate",
            json!({"modelId": "infinitalk", "references": {"images": [portrait]}, "text": "Hi, welcome back to the channel!", "voiceId": "pNInz6obpgDQGcFmaJgB"}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        v["creditsEstimate"], 18.0,
        "32 characters ≈ 3 s at 6 credits a second"
    );
    let (s, v) = http
        .post(
            &sb.key,
            "/studio/generate",
            json!({"modelId": "topaz-image-upscale", "references": {"images": [portrait]}}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["creditsEstimate"], 8.0);
}

#[tokio::test]
async fn reference_board_validates_and_renders_pngs() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (s, v) = http
        .post(
            &sb.key,
            "/studio/reference-board",
            json!({"boardType": "spaceship", "prompt": "x"}),
        )
        .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "boardType");
    assert!(v["validValues"]
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t == "character"));
    let (s, v) = http
        .post(
            &sb.key,
            "/studio/reference-board",
            json!({"boardType": "character"}),
        )
        .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "prompt");
    let (s, v) = http
        .post(
            &sb.key,
            "/studio/reference-board",
            json!({"boardType": "character", "prompt": "x", "numImages": 5}),
        )
        .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "numImages");
    let id = uuid::Uuid::new_v4().to_string();
    let body = json!({"boardType": "mascot", "prompt": "a cheerful otter", "numImages": 2, "boardName": "Otto", "outputId": id});
    let (s, v) = http
        .post(&sb.key, "/studio/reference-board", body.clone())
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["status"], "completed");
    assert_eq!(sb.balance(), 488.0);
    let urls = v["outputUrls"].as_array().unwrap();
    assert_eq!(urls.len(), 2);
    let (status, headers, bytes) = fetch(urls[1].as_str().unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(headers["content-type"], "image/png");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    // 3:4 at 512 on the long side.
    assert_eq!(u32::from_be_bytes(bytes[16..20].try_into().unwrap()), 384);
    assert_eq!(u32::from_be_bytes(bytes[20..24].try_into().unwrap()), 512);
    let (_, v) = http.post(&sb.key, "/studio/reference-board", body).await;
    assert_eq!(v["idempotentReplay"], true);
    assert_eq!(sb.balance(), 488.0);
    // A board accepts an output token as a reference image and then needs no prompt.
    let img = finished_image(&http, &sb.key).await;
    let (s, v) = http
        .post(
            &sb.key,
            "/studio/reference-board",
            json!({"boardType": "object", "referenceImages": [img]}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
}

#[tokio::test]
async fn generate_and_boards_need_the_generate_scope() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let key = sb.key_with(&[scopes::ASSETS_WRITE]);
    for (path, body) in [
        ("/studio/generate", image("x")),
        (
            "/studio/generate",
            json!({"modelId": "nano-banana-2", "prompt": "x", "getCost": true}),
        ),
        (
            "/studio/reference-board",
            json!({"boardType": "pose", "prompt": "x"}),
        ),
    ] {
        let (s, v) = http.post(&key, path, body).await;
        assert_eq!(s, 403, "{v}");
        assert!(msg(&v).contains("generate:*"), "{v}");
    }
    // Reading a generation needs no scope.
    let id = finished_image(&http, &sb.key).await;
    let (s, _) = http.get(&key, &format!("/studio/generate/{id}")).await;
    assert_eq!(s, 200);
    assert_eq!(sb.balance(), 496.0);
}

#[tokio::test]
async fn revoked_key_during_smart_wait_gets_401() {
    let sb = TestSandbox::start_with(slow(3_000, 2_000)).await;
    let key = sb.key_with(&[scopes::GENERATE]);
    let http = Http::new(&sb);
    let request = {
        let key = key.clone();
        async move {
            http.post(
                &key,
                "/studio/generate",
                json!({"modelId": "veo-3.1-fast", "prompt": "x"}),
            )
            .await
        }
    };
    let handle = tokio::spawn(request);
    tokio::time::sleep(Duration::from_millis(300)).await;
    sb.revoke(&key);
    let (s, v) = handle.await.unwrap();
    assert_eq!(s, 401, "{v}");
}

#[tokio::test]
async fn files_served_are_real_png_wav_and_mp4() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (_, v) = http
        .post(
            &sb.key,
            "/studio/generate",
            json!({"modelId": "nano-banana-2", "prompt": "x", "aspectRatio": "16:9"}),
        )
        .await;
    let (status, headers, bytes) = fetch(v["outputUrls"][0].as_str().unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(headers["content-type"], "image/png");
    assert_eq!(headers["x-sandbox-render"], "true");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    assert_eq!(u32::from_be_bytes(bytes[16..20].try_into().unwrap()), 512);
    assert_eq!(u32::from_be_bytes(bytes[20..24].try_into().unwrap()), 288);

    let (_, v) = http
        .post(
            &sb.key,
            "/studio/generate",
            json!({"modelId": "elevenlabs-music", "prompt": "lofi", "durationSeconds": 12}),
        )
        .await;
    let (status, headers, bytes) = fetch(v["outputUrls"][0].as_str().unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(headers["content-type"], "audio/wav");
    assert!(bytes.starts_with(b"RIFF") && &bytes[8..12] == b"WAVE");
    // 12 s of 16-bit mono at 16 kHz.
    assert_eq!(bytes.len(), 44 + 12 * 16_000 * 2);

    let (_, v) = http
        .post(
            &sb.key,
            "/studio/generate",
            json!({"modelId": "kling-3.0", "prompt": "x", "aspectRatio": "9:16"}),
        )
        .await;
    let url = v["outputUrls"][0].as_str().unwrap();
    assert!(url.ends_with(".mp4"));
    let (status, headers, bytes) = fetch(url).await;
    assert_eq!(status, 200);
    assert_eq!(headers["content-type"], "video/mp4");
    assert_eq!(headers["x-sandbox-render"], "true");
    assert_eq!(&bytes[4..8], b"ftyp");
    // Byte ranges, which video elements ask for.
    let resp = reqwest::Client::new()
        .get(url)
        .header("range", "bytes=0-7")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 206);
    assert_eq!(resp.bytes().await.unwrap().len(), 8);
    let (status, _, _) = fetch(&url.replace(".mp4", ".png")).await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn a_job_survives_a_restart() {
    let sb = TestSandbox::start_with(slow(700, 50)).await;
    let http = Http::new(&sb);
    let (_, v) = http
        .post(
            &sb.key,
            "/studio/generate",
            json!({"modelId": "veo-3.1-fast", "prompt": "x"}),
        )
        .await;
    assert_eq!(v["status"], "processing", "{v}");
    let id = v["outputId"].as_str().unwrap().to_string();
    // A second sandbox on the same file: nothing in memory carries the job, only the database.
    let second = AppState::open(sb.db_path(), slow(700, 50)).expect("reopen");
    let running = contentdesk_sandbox::spawn(second, "127.0.0.1:0")
        .await
        .unwrap();
    let mut http2 = Http::new(&sb);
    http2.base = running.base_url();
    let done = poll_done(&http2, &sb.key, &id).await;
    assert_eq!(done["status"], "completed", "{done}");
    let url = done["outputUrls"][0].as_str().unwrap();
    assert!(url.starts_with(&running.origin()), "{url}");
    let (status, _, bytes) = fetch(url).await;
    assert_eq!(status, 200);
    assert_eq!(&bytes[4..8], b"ftyp");
    running.stop().await;
}

#[tokio::test]
async fn the_failure_marker_fails_the_render_and_refunds() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (s, v) = http
        .post(
            &sb.key,
            "/studio/generate",
            image("a castle [sandbox:fail]"),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["status"], "failed");
    assert!(v["error"].as_str().unwrap().contains("[sandbox:fail]"));
    assert_eq!(sb.balance(), 500.0, "refunded");
    let id = v["outputId"].as_str().unwrap();
    let (_, v) = http.get(&sb.key, &format!("/studio/generate/{id}")).await;
    assert_eq!(v["status"], "failed");
    assert_eq!(v["creditsCharged"], 0.0);
    assert!(v["error"].is_string());
    assert_eq!(v["outputUrls"], json!([]));
    // A failed output is no reference.
    let (s, v) = http
        .post(
            &sb.key,
            "/studio/generate",
            json!({"modelId": "veo-3.1-fast", "prompt": "x", "references": {"startFrame": id}}),
        )
        .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "references.startFrame");
}

#[tokio::test]
async fn the_failure_marker_refunds_a_polled_render_too() {
    let sb = TestSandbox::start_with(slow(300, 50)).await;
    let http = Http::new(&sb);
    let (_, v) = http
        .post(
            &sb.key,
            "/studio/generate",
            json!({"modelId": "kling-3.0", "prompt": "[sandbox:fail] x", "duration": 5}),
        )
        .await;
    assert_eq!(v["status"], "processing");
    assert_eq!(sb.balance(), 475.0);
    let done = poll_done(&http, &sb.key, v["outputId"].as_str().unwrap()).await;
    assert_eq!(done["status"], "failed");
    assert_eq!(sb.balance(), 500.0);
}

#[tokio::test]
async fn the_demo_seed_has_a_finished_image_and_video() {
    let sb = TestSandbox::start().await;
    let conn = sb.state().db().lock();
    let kinds: Vec<(String, String)> = conn
        .prepare("SELECT content_type, status FROM generations WHERE account_id = ?1 ORDER BY content_type")
        .unwrap()
        .query_map([&sb.account_id], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(
        kinds,
        vec![
            ("image".into(), "completed".into()),
            ("video".into(), "completed".into())
        ]
    );
    let files: i64 = conn
        .query_row("SELECT COUNT(*) FROM generation_outputs", [], |r| r.get(0))
        .unwrap();
    assert_eq!(files, 2);
}

#[tokio::test]
async fn models_filter_by_content_type_and_an_unknown_model_is_404() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let key = sb.key_with(&[]);
    let (s, v) = http.get(&key, "/models").await;
    assert_eq!(s, 200, "{v}");
    let all = v["models"].as_array().unwrap();
    assert!(all.len() >= 14);
    for ct in ["image", "video", "audio"] {
        let (s, v) = http.get(&key, &format!("/models?contentType={ct}")).await;
        assert_eq!(s, 200);
        let models = v["models"].as_array().unwrap();
        assert!(!models.is_empty());
        assert!(models.iter().all(|m| m["contentType"] == ct));
        assert_eq!(
            models.iter().filter(|m| m["isDefault"] == true).count(),
            1,
            "{ct} has one default"
        );
    }
    let (_, v) = http.get(&key, "/models?content_type=audio").await;
    assert!(v["models"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["contentType"] == "audio"));
    let (s, v) = http.get(&key, "/models?contentType=hologram").await;
    assert_eq!(s, 400, "{v}");
    let (s, v) = http.get(&key, "/models/veo-3.1-fast").await;
    assert_eq!(s, 200);
    assert_eq!(v["capabilities"]["startFrame"], true);
    assert_eq!(v["capabilities"]["durationSeconds"]["max"], 8.0);
    assert!(v.get("price").is_none() && v.get("credits").is_none());
    let (_, v) = http.get(&key, "/models/infinitalk").await;
    assert_eq!(v["kind"], "lip-sync");
    let (s, _) = http.get(&key, "/models/no-such-model").await;
    assert_eq!(s, 404);
}

#[tokio::test]
async fn voices_list_filter_and_lookup() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (s, v) = http.get(&sb.key, "/voices").await;
    assert_eq!(s, 200);
    let all = v["voices"].as_array().unwrap().len();
    let (_, v) = http.get(&sb.key, "/voices?favorited=true").await;
    let favs = v["voices"].as_array().unwrap();
    assert!(!favs.is_empty() && favs.len() < all);
    assert!(favs.iter().all(|v| v["isFavorited"] == true));
    let (s, v) = http.get(&sb.key, "/voices/21m00Tcm4TlvDq8ikWAM").await;
    assert_eq!(s, 200);
    assert_eq!(v["name"], "Rachel");
    let (s, _) = http.get(&sb.key, "/voices/nobody").await;
    assert_eq!(s, 404);
}

/// Fact sheet 3.1: every documented generate field is accepted and checked (a wrong value is a 400 naming
/// the field); the ones the sandbox can simulate change the price; a field no one documented is named.
#[tokio::test]
async fn documented_generate_fields_are_accepted_and_validated() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let key = &sb.key;
    let quote = |body: Value| {
        let http = &http;
        async move {
            let mut body = body;
            body["getCost"] = json!(true);
            http.post(key, "/studio/generate", body).await
        }
    };
    let source = finished_image(&http, key).await;
    // Upscale factor: 4x costs twice 2x.
    let up = |f: &str| json!({"modelId": "topaz-image-upscale", "references": {"images": [source.clone()]}, "upscaleFactor": f});
    let (s, two) = quote(up("2x")).await;
    assert_eq!(s, 200, "{two}");
    let (s, four) = quote(up("4x")).await;
    assert_eq!(s, 200, "{four}");
    assert_eq!(four["creditsEstimate"].as_f64().unwrap(), 2.0 * two["creditsEstimate"].as_f64().unwrap());
    let (s, v) = quote(up("3x")).await;
    assert_eq!((s, v["field"].as_str()), (400, Some("upscaleFactor")), "{v}");
    assert_eq!(v["validValues"], json!(["2x", "4x"]));
    // Sound on a video costs more.
    let video = |audio: bool| json!({"modelId": "veo-3.1-fast", "prompt": "waves", "audioEnabled": audio});
    let (s, quiet) = quote(video(false)).await;
    assert_eq!(s, 200, "{quiet}");
    let (s, loud) = quote(video(true)).await;
    assert_eq!(s, 200, "{loud}");
    assert!(loud["creditsEstimate"].as_f64() > quiet["creditsEstimate"].as_f64(), "{quiet} {loud}");
    // Accepted: quality, parameters, keepInputLength, elements, placement with a project, voiceName.
    let (s, v) = quote(json!({"modelId": "veo-3.1-fast", "prompt": "p", "quality": "high", "parameters": {"mode": "pro"},
        "keepInputLength": false, "references": {"elements": [{"name": "hero", "description": "a red kite"}]}})).await;
    assert_eq!(s, 200, "{v}");
    // Refused, each naming its field.
    for (body, field) in [
        (json!({"modelId": "nano-banana-2", "prompt": "p", "upscaleFactor": "2x"}), "upscaleFactor"),
        (json!({"modelId": "nano-banana-2", "prompt": "p", "audioEnabled": true}), "audioEnabled"),
        (json!({"modelId": "veo-3.1-fast", "prompt": "p", "parameters": "pro"}), "parameters"),
        (json!({"modelId": "elevenlabs-sound-effects", "prompt": "rain", "promptInfluence": 1.5}), "promptInfluence"),
        (json!({"modelId": "nano-banana-2", "prompt": "p", "promptInfluence": 0.5}), "promptInfluence"),
        (json!({"modelId": "nano-banana-2", "prompt": "p", "placement": {"mode": "append"}}), "placement"),
        (json!({"modelId": "nano-banana-2", "prompt": "p", "voiceName": "Ava"}), "voiceName"),
        (json!({"modelId": "veo-3.1-fast", "prompt": "p", "references": {"elements": [{"description": "no name"}]}}), "references.elements[0]"),
        (json!({"modelId": "nano-banana-2", "prompt": "p", "quality": 3}), "quality"),
        (json!({"modelId": "nano-banana-2", "prompt": "p", "brandNewField": 1}), "brandNewField"),
        (json!({"modelId": "nano-banana-2", "prompt": "p", "references": {"sketches": ["u"]}}), "references.sketches"),
    ] {
        let (s, v) = quote(body.clone()).await;
        assert_eq!(s, 400, "{body} → {v}");
        assert_eq!(v["field"], field, "{body} → {v}");
    }
}
