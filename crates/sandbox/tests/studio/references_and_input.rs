//! studio: references_and_input.
use super::*;

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
