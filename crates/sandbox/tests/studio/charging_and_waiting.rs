//! studio: charging_and_waiting.
use super::*;

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
    // A lip-sync from a clip: `durationSeconds` prices it (6 a second); without it (issue 27: the official
    // client treats it as optional) it is priced on the stated 10 s estimate, not refused.
    let lip = |extra: Value| {
        let mut body = json!({"modelId": "infinitalk", "references": {"images": ["https://a.example/p.png"], "audio": ["https://a.example/a.wav"]}, "getCost": true});
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        body
    };
    let (s, v) = http.post(&sb.key, "/studio/generate", lip(json!({"durationSeconds": 4}))).await;
    assert_eq!((s, v["creditsEstimate"].as_f64()), (200, Some(24.0)), "{v}");
    let (s, v) = http.post(&sb.key, "/studio/generate", lip(json!({}))).await;
    assert_eq!((s, v["creditsEstimate"].as_f64()), (200, Some(60.0)), "{v}");
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
