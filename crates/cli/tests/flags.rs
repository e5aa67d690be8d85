//! The official CLI's flags of the spec era (fact sheet 4.6) that came last: `generate image|video|audio`
//! `--project --placement --playhead`, video `--element --multi-shot --shots`, `generation status` with
//! several ids. Each against the real sandbox as a separate process; what the sandbox stored is checked
//! against what was asked, and the sandbox's rules for them (a project that is not there is a 404 before
//! any charge; shots of 1 to 12 s, 15 s in all) refuse naming the field.
mod desk;
use contentdesk_sandbox::testing::TestSandbox;
use desk::*;
use serde_json::{json, Value};

fn id_of(v: &Value) -> String {
    v["outputId"].as_str().unwrap_or_else(|| panic!("an outputId: {v}")).to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_render_placed_on_a_project_sends_the_project_the_placement_and_the_playhead() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let project = desk.run(&["project", "create", "--title", "Cut"]).await.ok()["id"].as_str().unwrap().to_string();

    let image = desk.run(&["generate", "image", "a mug", "--project", &project, "--placement", "atPlayhead", "--playhead", "48", "--no-wait"]).await.ok();
    let sent = stored_request(&sb, &id_of(&image));
    assert_eq!((sent["projectId"].as_str(), sent["playheadFrame"].as_f64()), (Some(project.as_str()), Some(48.0)), "{sent}");
    assert_eq!(sent["placement"], json!({ "mode": "atPlayhead" }));

    let at = r#"{"mode":"at","startSeconds":4,"track":1}"#;
    let video = desk.run(&["generate", "video", "a mug turns", "--duration", "4", "--project", &project, "--placement", at, "--no-wait"]).await.ok();
    assert_eq!(stored_request(&sb, &id_of(&video))["placement"], json!({ "mode": "at", "startSeconds": 4, "track": 1 }));

    let sfx = desk.run(&["generate", "audio", "-m", "elevenlabs-sound-effects", "--prompt", "a door", "--project", &project, "--placement", "append"]).await.ok();
    assert_eq!(stored_request(&sb, &id_of(&sfx))["placement"], json!({ "mode": "append" }));

    // A project that is not there: the service's 404, and nothing charged.
    let before = sb.balance();
    let missing = desk.run(&["generate", "image", "a mug", "--project", "no-such-project"]).await.fails(1);
    assert!(missing["error"].as_str().unwrap().contains("no-such-project"), "{missing}");
    assert_eq!(sb.balance(), before);
    // A placement without a project is a usage error before any request.
    assert_eq!(desk.run(&["generate", "image", "a mug", "--placement", "append"]).await.code, 2);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_video_with_elements_and_shots_sends_them_and_the_sandbox_holds_the_shot_rules() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let hero = r#"{"name":"Hero","description":"a red fox","images":["https://example.com/fox.png"]}"#;
    let shots = r#"[{"prompt":"the fox wakes","duration":5},{"prompt":"it runs","duration":6}]"#;
    let video = desk
        .run(&["generate", "video", "a fox", "-m", "kling-3.0", "--element", "el_saved", "--element", hero, "--multi-shot", "--shots", shots, "--no-wait"])
        .await
        .ok();
    let sent = stored_request(&sb, &id_of(&video));
    assert_eq!(
        sent["references"]["elements"],
        json!([{ "elementId": "el_saved" }, { "name": "Hero", "description": "a red fox", "images": ["https://example.com/fox.png"] }]),
        "{sent}"
    );
    assert_eq!(sent["parameters"], json!({ "multiShot": true, "shots": [{"prompt":"the fox wakes","duration":5},{"prompt":"it runs","duration":6}] }));

    // The shot rules (fact sheet 3.1): each 1 to 12 s, 15 s in all.
    let long = desk.run(&["generate", "video", "a fox", "-m", "kling-3.0", "--shots", r#"[{"prompt":"a","duration":13}]"#, "--cost"]).await.fails(2);
    assert_eq!(long["field"], "parameters.shots[0].duration", "{long}");
    let total = desk.run(&["generate", "video", "a fox", "-m", "kling-3.0", "--shots", r#"[{"duration":8},{"duration":8}]"#, "--cost"]).await.fails(2);
    assert_eq!(total["field"], "parameters.shots", "{total}");
    assert!(total["error"].as_str().unwrap().contains("15"), "{total}");
    // Shots are for video models: an image model refuses them (sent raw, as an agent could).
    let refused = reqwest::Client::new()
        .post(format!("{}/studio/generate", sb.base_url()))
        .bearer_auth(&sb.key)
        .json(&json!({ "modelId": "nano-banana-2", "prompt": "x", "parameters": { "shots": [{"duration": 5}] }, "getCost": true }))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 400);
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["field"], "parameters.shots", "{body}");
    // An element neither saved nor named: the usage error names the field before any request.
    assert_eq!(desk.run(&["generate", "video", "a fox", "--element", "{\"description\":\"x\"}", "--cost"]).await.fails(2)["field"], "references.elements[0]");
}

#[tokio::test(flavor = "multi_thread")]
async fn generation_status_reads_several_renders() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let a = id_of(&desk.run(&["generate", "image", "one", "--no-wait"]).await.ok());
    let b = id_of(&desk.run(&["generate", "image", "two", "--no-wait"]).await.ok());
    let both = desk.run(&["generation", "status", &a, &b]).await.ok();
    let list = both["generations"].as_array().unwrap_or_else(|| panic!("{both}"));
    let ids: Vec<&str> = list.iter().map(|g| g["outputId"].as_str().unwrap()).collect();
    assert_eq!(ids, vec![a.as_str(), b.as_str()]);
    assert!(list.iter().all(|g| g["status"] == "completed"), "waited for each: {both}");
    // One id: the generation itself, as before.
    assert_eq!(desk.run(&["generation", "status", &a, "--no-wait"]).await.ok()["outputId"], a.as_str());
    // The agent tool takes them too.
    let schema = desk.run(&["schema", "generation", "status"]).await.ok();
    assert_eq!(schema["input"]["properties"]["moreOutputIds"]["type"], "array", "{schema}");
}

#[tokio::test(flavor = "multi_thread")]
async fn content_get_gives_the_transcript_as_text_or_segments_windowed_or_searched() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let list = desk.run(&["content", "list", "--limit", "100"]).await.ok();
    let posts = list["outliers"].as_array().unwrap_or_else(|| panic!("{list}"));
    let spoken = posts.iter().find(|p| p["durationSeconds"].is_number()).expect("a post with speech in the demo");
    let id = spoken["id"].as_str().unwrap();
    let title = spoken["title"].as_str().unwrap();

    // Without asking: no transcript, as before.
    assert!(desk.run(&["content", "get", id]).await.ok().get("transcript").is_none());

    let all = desk.run(&["content", "get", id, "--transcript", "segments"]).await.ok();
    let t = &all["transcript"];
    assert_eq!((t["status"].as_str(), t["language"].as_str()), (Some("complete"), Some("en")), "{all}");
    let segments = t["segments"].as_array().unwrap();
    assert!(segments.len() >= 3, "{t}");
    assert!(segments[0]["text"].as_str().unwrap().starts_with(title), "{t}");
    assert!(segments.windows(2).all(|w| w[0]["endMs"].as_i64() <= w[1]["startMs"].as_i64()), "in order: {t}");
    assert!(t.get("windowed").is_none());

    let text = desk.run(&["content", "get", id, "--transcript", "text"]).await.ok();
    assert!(text["transcript"]["text"].as_str().unwrap().starts_with(title), "{text}");
    assert!(text["transcript"].get("segments").is_none());

    // A window: only the segments that overlap it.
    let (from, to) = (segments[1]["startMs"].as_i64().unwrap(), segments[1]["endMs"].as_i64().unwrap());
    let window = desk.run(&["content", "get", id, "--transcript", "segments", "--start-ms", &from.to_string(), "--end-ms", &to.to_string()]).await.ok();
    assert_eq!(window["transcript"]["segments"], json!([segments[1]]), "{window}");
    assert_eq!(window["transcript"]["windowed"], true);
    // A search (case-insensitive), as text by default.
    let word = title.split_whitespace().max_by_key(|w| w.len()).unwrap().trim_matches(|c: char| !c.is_alphanumeric()).to_uppercase();
    let found = desk.run(&["content", "get", id, "--transcript-search", &word]).await.ok();
    let said = found["transcript"]["text"].as_str().unwrap_or_else(|| panic!("{found}"));
    assert!(said.to_uppercase().contains(&word) && said.len() < text["transcript"]["text"].as_str().unwrap().len(), "{found}");

    // A post with no speech has none; wrong values are 400s naming the field.
    if let Some(photo) = posts.iter().find(|p| p["durationSeconds"].is_null()) {
        let got = desk.run(&["content", "get", photo["id"].as_str().unwrap(), "--transcript", "text"]).await.ok();
        assert_eq!(got["transcript"]["status"], "not_applicable", "{got}");
    }
    assert_eq!(desk.run(&["content", "get", id, "--transcript", "words"]).await.fails(2)["field"], "transcript");
    assert_eq!(desk.run(&["content", "get", id, "--start-ms", "500", "--end-ms", "100"]).await.fails(2)["field"], "end_ms");
}
