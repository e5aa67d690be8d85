//! studio: lifecycle.
use super::*;

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

/// A request already past the gate (its job stored and charged) and waiting for the render, whose key is
/// revoked then, answers 401 at the wait's next step, not the render when the wait ends.
#[tokio::test]
async fn revoked_key_during_smart_wait_gets_401() {
    // The render takes two hours and the wait up to one: only the check at each step of the wait can
    // answer while the test still waits (the check after the wait would answer 401 too, but an hour
    // later: the guard below fails first). Broken on purpose once (the check in the wait's loop
    // removed): this test failed at its guard.
    let sb = TestSandbox::start_with(slow(2 * 3_600_000, 3_600_000)).await;
    let key = sb.key_with(&[scopes::GENERATE]);
    let http = Http::new(&sb);
    let request = {
        let key = key.clone();
        async move { http.post(&key, "/studio/generate", json!({"modelId": "veo-3.1-fast", "prompt": "x"})).await }
    };
    let before = generation_count(&sb);
    let handle = tokio::spawn(request);
    // Revoked only once the request is in flight past the gate: its job is stored.
    while generation_count(&sb) == before {
        assert!(!handle.is_finished(), "the request ended before its job was stored");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    sb.revoke(&key);
    // A guard, not a timing: the answer is due at the wait's next step (100 ms at most), not in an hour.
    let (s, v) = tokio::time::timeout(Duration::from_secs(60), handle)
        .await
        .expect("no answer while the wait went on: the key was not checked at the wait's next step")
        .unwrap();
    assert_eq!(s, 401, "{v}");
    assert_eq!(generation_count(&sb), before + 1, "the request that got 401 was past the gate");
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
