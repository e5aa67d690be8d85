//! Wire-format checks: camelCase out, tolerant reads in, strict request bodies, TS generation.
use contentdesk_api_types::*;
use serde_json::json;
use ts_rs::TS;

#[test]
fn card_read_accepts_post_or_card_envelope_and_ignores_unknown_fields() {
    let card = json!({"id": "c1", "title": "T", "brandNewField": 1, "assets": [], "posts": []});
    let a: CardEnvelope<CardDetail> = serde_json::from_value(json!({ "post": card.clone() })).unwrap();
    let b: CardEnvelope<CardDetail> = serde_json::from_value(json!({ "card": card })).unwrap();
    assert_eq!(a.post.summary.id, "c1");
    assert_eq!(a, b);
}

#[test]
fn deprecated_asset_id_alias_is_read_as_content_id() {
    let asset: CardAsset =
        serde_json::from_value(json!({"id": "a1", "assetType": "inspiration", "assetId": "ct_9"})).unwrap();
    assert_eq!(asset.content_id_or_alias(), Some("ct_9"));
}

#[test]
fn request_bodies_are_camel_case_and_leave_out_none() {
    let body = serde_json::to_value(GenerateRequest {
        model_id: "m".into(),
        get_cost: Some(true),
        output_id: Some("u".into()),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(body, json!({"modelId": "m", "getCost": true, "outputId": "u"}));
}

#[test]
fn stage_bodies_are_snake_case_and_accept_camel_case() {
    let body = serde_json::to_value(UpdateStage {
        space_id: "s".into(),
        after_id: Some(None),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(body, json!({"space_id": "s", "after_id": null}));
    let read: UpdateStage = serde_json::from_value(json!({"spaceId": "s", "beforeId": "x"})).unwrap();
    assert_eq!(read.before_id, Some(Some("x".into())));
    assert_eq!(read.after_id, None);
}

#[test]
fn request_bodies_carry_unknown_fields_and_strict_parsing_names_them() {
    // The client: a field the service adds later travels in `extra`, and back out as written.
    let read: UpdateCard = serde_json::from_value(json!({"title": "x", "colour": "red"})).unwrap();
    assert_eq!(read.extra.0.get("colour"), Some(&json!("red")));
    assert_eq!(serde_json::to_value(&read).unwrap(), json!({"title": "x", "colour": "red"}));
    // The sandbox: the same body parsed strictly is refused, naming the field, also when nested.
    let err = open::strict(|| serde_json::from_value::<UpdateCard>(json!({"title": "x", "colour": "red"})))
        .unwrap_err();
    assert!(err.to_string().contains("colour"), "{err}");
    let err = open::strict(|| {
        serde_json::from_value::<GenerateRequest>(json!({"modelId": "m", "references": {"image": ["u"]}}))
    })
    .unwrap_err();
    assert!(err.to_string().contains("unknown field `image`"), "{err}");
}

#[test]
fn every_documented_generate_field_is_named() {
    let body = json!({
        "modelId": "veo-3.1-fast", "contentType": "video", "prompt": "p", "aspectRatio": "16:9",
        "resolution": "1080p", "quality": "high", "numImages": 1, "numGenerations": 2, "duration": 8.5,
        "keepInputLength": true, "audioEnabled": true, "negativePrompt": "n", "seed": 7, "upscaleFactor": "2x",
        "references": {"images": ["u"], "videos": ["v"], "audio": ["a"], "startFrame": "s", "endFrame": "e",
            "elements": [{"elementId": "el1"}, {"name": "hero", "description": "d", "images": ["i"]}]},
        "parameters": {"multiShot": true}, "text": "t", "voiceId": "v1", "voiceName": "Ava",
        "durationSeconds": 3.5, "promptInfluence": 0.4, "outputId": "o", "projectId": "p1",
        "placement": {"mode": "append"}, "playheadFrame": 12.5, "avatarId": "av", "getCost": true
    });
    let read: GenerateRequest = open::strict(|| serde_json::from_value(body.clone())).unwrap();
    assert_eq!(serde_json::to_value(&read).unwrap(), body);
}

#[test]
fn brand_kit_update_has_no_removed_inputs() {
    for (removed, _) in REMOVED_INPUTS {
        let err = open::strict(|| serde_json::from_value::<UpdateBrandKit>(json!({ *removed: "x" })));
        assert!(err.is_err(), "{removed} must not be a field of UpdateBrandKit");
    }
}

#[test]
fn typescript_bindings_generate() {
    let decls = [
        CardDetail::decl(&ts_rs::Config::default()),
        UpdateCard::decl(&ts_rs::Config::default()),
        GenerateRequest::decl(&ts_rs::Config::default()),
        BrandKit::decl(&ts_rs::Config::default()),
        ErrorBody::decl(&ts_rs::Config::default()),
        ProjectCreated::decl(&ts_rs::Config::default()),
    ];
    for d in decls {
        assert!(d.starts_with("type "), "{d}");
    }
    assert!(UpdateCard::decl(&ts_rs::Config::default()).contains("scheduledAt"));
}
