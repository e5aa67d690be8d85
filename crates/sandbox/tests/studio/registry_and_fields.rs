//! studio: registry_and_fields.
use super::*;

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
    // As the service sends it (issue 27): nested, with the operation's kind.
    let caps = &v["capabilities"];
    assert_eq!(caps["kind"], "generate", "{v}");
    assert!(caps["inputTypes"].as_array().unwrap().contains(&"startFrame".into()), "{v}");
    assert_eq!(caps["duration"], serde_json::json!({ "mode": "range", "min": 4.0, "max": 8.0 }));
    assert_eq!(caps["resolution"]["supported"], serde_json::json!(["720p", "1080p"]));
    assert_eq!(caps["aspectRatio"]["supported"], serde_json::json!(["16:9", "9:16"]));
    assert_eq!((caps["maxImageRefs"].as_u64(), caps["generations"]["max"].as_u64()), (Some(3), Some(4)), "{v}");
    assert!(caps.get("durationSeconds").is_none() && caps.get("resolutions").is_none(), "no flat names: {v}");
    assert!(v.get("price").is_none() && v.get("credits").is_none());
    let (_, v) = http.get(&key, "/models/infinitalk").await;
    assert_eq!(v["kind"], "lip-sync");
    assert_eq!(v["capabilities"]["kind"], "lip-sync");
    // Speech found as the official client finds it: content type audio, kind generate, output audio,
    // and speaking in a voice (`features.voiceId`).
    let (_, v) = http.get(&key, "/models?contentType=audio").await;
    let speech: Vec<&str> = v["models"].as_array().unwrap().iter()
        .filter(|m| m["kind"] == "generate" && m["capabilities"]["outputType"] == "audio" && m["capabilities"]["features"]["voiceId"] == true)
        .map(|m| m["modelId"].as_str().unwrap())
        .collect();
    assert_eq!(speech, ["elevenlabs-tts"], "{v}");
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
