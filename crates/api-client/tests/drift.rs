//! Contract drift: reply bodies shaped like the real service in each era the fact sheet describes (spec
//! era, the cards-era client before it, the newest SDK, and bodies with values and fields no era has),
//! decoded by the client's types; and the client against a fake "real-shaped" server (wiremock) that sends
//! no sandbox additions. Mocks here stand for the real service, which this machine cannot reach; the
//! sandbox cannot produce most of these shapes because it is the spec era's strict twin. Where it sends
//! the service's own shape (model capabilities nested with their `kind`, projects' `surface` and
//! `revision`), the last test holds it to the vocabulary the recorded bodies have.
use contentdesk_api_client::{ApiKey, CardEdit, Client, WaitOptions};
use api_types::*;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::Duration;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

/// Decodes `body` as the named type and writes it back as serde does (the value the app works with).
fn decode_as(name: &str, body: Value) -> Result<Value, String> {
    macro_rules! table {
        ($($n:literal => $t:ty),* $(,)?) => {
            match name {
                $($n => serde_json::from_value::<$t>(body)
                    .map_err(|e| e.to_string())
                    .and_then(|v| serde_json::to_value(v).map_err(|e| e.to_string())),)*
                other => Err(format!("no type named {other} in the drift table")),
            }
        };
    }
    table! {
        "ArchiveResult" => ArchiveResult,
        "Balance" => Balance,
        "BrandKit" => BrandKit,
        "BrandKitList" => BrandKitList,
        "BrandKitSectionsView" => BrandKitSectionsView,
        "BrandKitSummaryView" => BrandKitSummaryView,
        "CardEnvelopeDetail" => CardEnvelope<CardDetail>,
        "CardEnvelopeSummary" => CardEnvelope<CardSummary>,
        "CardList" => CardList,
        "ConnectedAccountEnvelope" => ConnectedAccountEnvelope,
        "ConnectedAccountList" => ConnectedAccountList,
        "ContentList" => ContentList,
        "CostEstimate" => CostEstimate,
        "Deleted" => Deleted,
        "ErrorBody" => ErrorBody,
        "GenerateResult" => GenerateResult,
        "Generation" => Generation,
        "ImportedMedia" => ImportedMedia,
        "KnowledgeAdded" => KnowledgeAdded,
        "KnowledgeEnvelope" => KnowledgeEnvelope,
        "KnowledgeList" => KnowledgeList,
        "KnowledgeSearch" => KnowledgeSearch,
        "MediaList" => MediaList,
        "ModelInfo" => ModelInfo,
        "ModelList" => ModelList,
        "ProjectCreated" => ProjectCreated,
        "ProjectList" => ProjectList,
        "PublishResult" => PublishResult,
        "SpaceEnvelope" => SpaceEnvelope,
        "SpaceList" => SpaceList,
        "StageDeleted" => StageDeleted,
        "StageList" => StageList,
        "StageUpdated" => StageUpdated,
        "TagList" => TagList,
        "UploadTicket" => UploadTicket,
        "UploadedMedia" => UploadedMedia,
        "VoiceList" => VoiceList,
    }
}

fn drift_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/drift")
}

fn recorded() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for era in std::fs::read_dir(drift_dir()).unwrap().flatten().filter(|e| e.path().is_dir()) {
        for f in std::fs::read_dir(era.path()).unwrap().flatten() {
            let p = f.path();
            if p.extension().is_some_and(|x| x == "json") {
                let rel = p.strip_prefix(drift_dir()).unwrap().display().to_string();
                let v: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap())
                    .unwrap_or_else(|e| panic!("{rel}: not JSON: {e}"));
                out.push((rel, v));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// JSON numbers compare by value (`12` and `12.0` are the same number).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

#[test]
fn every_recorded_body_decodes() {
    let all = recorded();
    let mut failures = Vec::new();
    let mut per_era = std::collections::BTreeMap::<String, usize>::new();
    for (rel, file) in &all {
        *per_era.entry(rel.split('/').next().unwrap().to_string()).or_default() += 1;
        let name = file["decodeAs"].as_str().unwrap_or_else(|| panic!("{rel}: no decodeAs"));
        match decode_as(name, file["body"].clone()) {
            Err(e) => failures.push(format!("{rel} ({name}): {e}")),
            Ok(decoded) => {
                for check in file["expect"].as_array().into_iter().flatten() {
                    let pointer = check["pointer"].as_str().unwrap();
                    let got = decoded.pointer(pointer).cloned().unwrap_or(Value::Null);
                    if !same(&got, &check["equals"]) {
                        failures.push(format!("{rel}: {pointer} is {got}, expected {}", check["equals"]));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {} bodies:\n{}", failures.len(), all.len(), failures.join("\n"));
    assert!(all.len() >= 40, "only {} recorded bodies", all.len());
    for era in ["spec", "cards-era", "newest", "extras"] {
        assert!(per_era.get(era).copied().unwrap_or(0) >= 8, "era {era}: {per_era:?}");
    }
}

#[test]
fn a_body_that_breaks_the_contract_is_caught() {
    // The table fails when a body does not decode (so a drifted type would show here).
    assert!(decode_as("Generation", json!({ "status": "completed" })).is_err());
    assert!(decode_as("NoSuchType", json!({})).is_err());
}

#[test]
fn unknown_values_are_kept_raw() {
    let m: ModelInfo = serde_json::from_value(json!({
        "modelId": "veo-4-extend", "displayName": "Veo 4 Extend", "contentType": "hologram", "kind": "video-extend"
    }))
    .unwrap();
    assert_eq!(m.kind, Open::Other("video-extend".into()));
    assert_eq!(m.kind.as_str(), "video-extend");
    assert_eq!(m.content_type.as_str(), "hologram");
    let g: Generation = serde_json::from_value(json!({ "outputId": "o", "status": "abandoned" })).unwrap();
    assert!(g.is_done());
    let g: Generation = serde_json::from_value(json!({ "outputId": "o", "status": "queued" })).unwrap();
    assert!(!g.is_done(), "an unknown status is polled on");
}

// ---------- the client against a real-shaped server ----------

fn client(server: &MockServer) -> Client {
    Client::new(format!("{}/api/v1", server.uri()), ApiKey::new("ch_live_drift".to_string())).unwrap()
}

/// A card read as the real service sends it: no `hasOwnSchedule`, each post with its effective time.
fn real_card() -> Value {
    json!({ "post": {
        "id": "card-1", "title": "Launch", "platform": "instagram", "stageId": "st-1",
        "scheduledAt": "2026-12-01T09:00:00.000Z", "revision": 3, "notes": "n",
        "assets": [{ "id": "as-1", "assetType": "image", "assetId": "m-1", "assetUrl": "https://cdn.example/a.png" }],
        "posts": [
            { "id": "p-ig", "platform": "instagram", "connectedAccountId": "ca-1", "scheduledAt": "2026-12-01T09:00:00.000Z",
              "platformSettings": { "caption": "hi" }, "status": "scheduled", "shortId": "p1", "appUrl": "https://app/p1" },
            { "id": "p-tt", "platform": "tiktok", "connectedAccountId": "ca-2", "scheduledAt": "2026-12-02T18:30:00.000Z",
              "platformSettings": null, "status": "scheduled" }
        ],
        "tags": [], "shortId": "c1", "appUrl": "https://app/c1"
    }})
}

#[tokio::test]
async fn post_time_survives_a_server_without_has_own_schedule() {
    let server = MockServer::start().await;
    Mock::given(method("GET")).and(path("/api/v1/cards/card-1")).respond_with(ResponseTemplate::new(200).set_body_json(real_card())).mount(&server).await;
    Mock::given(method("PATCH")).and(path("/api/v1/cards/card-1")).respond_with(ResponseTemplate::new(200).set_body_json(real_card())).mount(&server).await;
    let c = client(&server);
    let card = c.cards().get("card-1").await.unwrap();
    let mut edit = CardEdit::from_card(&card);
    edit.add_link("https://example.com/brief");
    c.cards().update("card-1", &edit.into_update()).await.unwrap();

    let sent: Vec<Value> = server
        .received_requests()
        .await
        .unwrap()
        .into_iter()
        .filter(|r| r.method.as_str() == "PATCH")
        .map(|r| serde_json::from_slice(&r.body).unwrap())
        .collect();
    assert_eq!(sent.len(), 1);
    let posts = sent[0]["posts"].as_array().expect("the whole post list is sent");
    let by = |p: &str| posts.iter().find(|x| x["platform"] == p).unwrap_or_else(|| panic!("post {p} kept"));
    assert_eq!(by("tiktok")["scheduledAt"], "2026-12-02T18:30:00.000Z", "the post's own time is kept");
    assert!(by("instagram").get("scheduledAt").is_none(), "a post on the card's time follows the card");
    assert_eq!(by("instagram")["connectedAccountId"], "ca-1");
    assert_eq!(by("instagram")["platformSpecificData"], json!({ "caption": "hi" }));
    assert!(posts.iter().all(|p| p.get("hasOwnSchedule").is_none()));
}

/// Answers a sequence of bodies, the last one from then on.
struct Sequence(Vec<Value>, std::sync::atomic::AtomicUsize);

impl Respond for Sequence {
    fn respond(&self, _: &Request) -> ResponseTemplate {
        let i = self.1.fetch_add(1, std::sync::atomic::Ordering::SeqCst).min(self.0.len() - 1);
        ResponseTemplate::new(200).set_body_json(self.0[i].clone())
    }
}

#[tokio::test]
async fn wait_honours_settled_false() {
    let server = MockServer::start().await;
    let base = json!({ "outputId": "g-1", "contentType": "image", "modelId": "nano-banana-2", "error": null });
    let with = |extra: Value| {
        let mut v = base.clone();
        v.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        v
    };
    let answers = vec![
        with(json!({ "status": "processing", "outputUrls": [] })),
        with(json!({ "status": "completed", "settled": false, "outputUrls": ["https://cdn.example/1.png"] })),
        with(json!({ "status": "completed", "settled": false, "outputUrls": ["https://cdn.example/1.png"] })),
        with(json!({ "status": "completed", "settled": true, "outputUrls": ["https://cdn.example/1.png"] })),
    ];
    Mock::given(method("GET"))
        .and(path("/api/v1/studio/generate/g-1"))
        .respond_with(Sequence(answers, Default::default()))
        .mount(&server)
        .await;
    let opts = WaitOptions {
        initial: Some(Duration::from_millis(10)),
        cap: Duration::from_millis(20),
        deadline: Duration::from_secs(10),
        ..Default::default()
    };
    let done = client(&server).studio().wait("g-1", opts).await.unwrap();
    assert_eq!(done.polls, 4, "completed but unsettled is not done");
    assert_eq!(done.generation.settled, Some(true));
}

#[tokio::test]
async fn newest_outputs_and_charge_are_read() {
    let server = MockServer::start().await;
    Mock::given(method("GET")).and(path("/api/v1/studio/generate/g-2")).respond_with(ResponseTemplate::new(200).set_body_json(json!({
        "outputId": "g-2", "shortId": "a1B2c3D4", "status": "completed", "contentType": "image", "modelId": "nano-banana-2",
        "outputs": [
            { "mediaId": "a1B2c3D4-1", "status": "succeeded", "url": "https://cdn.example/1.png", "appUrl": "https://app/m/1" },
            { "mediaId": "a1B2c3D4-2", "status": "failed", "url": null }
        ],
        "charge": { "credits": 4, "held": 0, "state": "charged", "balanceAfter": 96 }
    }))).mount(&server).await;
    let g = client(&server).studio().status("g-2").await.unwrap();
    assert_eq!(g.urls(), vec!["https://cdn.example/1.png".to_string()]);
    assert_eq!(g.credits(), Some(4.0));
}

/// Spec §4 "Knowledge base": "a response with `limitReached`". The sandbox answers a 402 with
/// `limitReached: true`; the spec's words also allow a 200 `{ "limitReached": true }` with no item. Both
/// are the same error; a 200 with an item and the flag is an add that filled the kit.
#[tokio::test]
async fn limit_reached_decodes_as_error_and_as_flag() {
    let server = MockServer::start().await;
    let add = |kit: &str| format!("/api/v1/brand-kits/{kit}/knowledge");
    Mock::given(method("POST")).and(path(add("capped-402"))).respond_with(ResponseTemplate::new(402).set_body_json(json!({
        "error": "This brand kit is at its plan's knowledge cap", "limitReached": true, "limit": 3, "current": 3
    }))).mount(&server).await;
    Mock::given(method("POST")).and(path(add("capped-200"))).respond_with(ResponseTemplate::new(200).set_body_json(json!({
        "limitReached": true
    }))).mount(&server).await;
    Mock::given(method("POST")).and(path(add("filled"))).respond_with(ResponseTemplate::new(200).set_body_json(json!({
        "item": { "id": "k-9", "title": "Notes", "sourceType": "text", "sourceUrl": null, "createdAt": null, "updatedAt": null },
        "limitReached": true
    }))).mount(&server).await;
    let c = client(&server);
    let input = AddKnowledge { source_type: "text".into(), text: Some("hello".into()), ..Default::default() };
    for kit in ["capped-402", "capped-200"] {
        let e = c.knowledge(kit).add(&input).await.unwrap_err();
        assert!(matches!(e, contentdesk_api_client::ApiError::LimitReached { .. }), "{kit}: {e:?}");
    }
    let filled = c.knowledge("filled").add(&input).await.unwrap();
    assert_eq!(filled.item.map(|i| i.id).as_deref(), Some("k-9"));
    assert!(filled.limit_reached);
}

/// Each recorded 402 body, sent with its status, reads as the error it is: credits short (the 0.3.x
/// `balance`/`required` and the newest `available`/`needed`, the spend cap by its `code`), or a plan cap
/// (`plan_limit`, `storage_full`) that no retry or top-up of credits fixes.
#[tokio::test]
async fn every_recorded_402_reads_as_the_error_it_is() {
    use contentdesk_api_client::ApiError;
    type Case<'a> = (&'a str, Option<(f64, f64)>, Option<&'a str>); // the fixture, (need, have), the reason code
    let cases: [Case; 5] = [
        ("cards-era/generation-submit-402-insufficient-credits.json", Some((3.0, 24.0)), None),
        ("newest/generation-submit-402-insufficient-credits.json", Some((12.0, 40.0)), Some("insufficient_credits")),
        ("newest/generation-submit-402-spend-cap.json", None, Some("spend_cap_reached")),
        ("newest/knowledge-add-402-plan-limit.json", None, Some("plan_limit")),
        ("newest/media-upload-402-storage-full.json", None, Some("storage_full")),
    ];
    for (file, short, code) in cases {
        let recorded: Value =
            serde_json::from_str(&std::fs::read_to_string(drift_dir().join(file)).unwrap()).unwrap();
        let server = MockServer::start().await;
        Mock::given(method("GET"))
            .and(path("/api/v1/account/balance"))
            .respond_with(ResponseTemplate::new(402).set_body_json(recorded["body"].clone()))
            .mount(&server)
            .await;
        let e = client(&server).account().balance().await.unwrap_err();
        assert_eq!(e.status(), Some(402), "{file}: {e:?}");
        assert!(e.to_string().contains(recorded["body"]["error"].as_str().unwrap()), "{file}: the message is the service's: {e}");
        match (code, &e) {
            (Some("plan_limit" | "storage_full"), ApiError::LimitReached { .. }) => {}
            (_, ApiError::InsufficientCredits { balance, required, code: got, .. }) if !matches!(code, Some("plan_limit" | "storage_full")) => {
                assert_eq!(got.as_deref(), code, "{file}");
                if let Some((have, need)) = short {
                    assert_eq!((*balance, *required), (Some(have), Some(need)), "{file}");
                } else {
                    assert_eq!(*required, Some(40.0), "{file}: the spend cap says what it needs");
                }
            }
            _ => panic!("{file}: read as {e:?}"),
        }
    }
}

/// Every key of a recorded body's objects at `path` (`*` walks a list), over the files whose body has it.
fn recorded_keys(path: &[&str]) -> std::collections::BTreeSet<String> {
    fn walk(v: &Value, path: &[&str], out: &mut std::collections::BTreeSet<String>) {
        match (path.first(), v) {
            (None, Value::Object(o)) => out.extend(o.keys().cloned()),
            (Some(&"*"), Value::Array(a)) => a.iter().for_each(|x| walk(x, &path[1..], out)),
            (Some(k), Value::Object(o)) => {
                if let Some(x) = o.get(*k) {
                    walk(x, &path[1..], out)
                }
            }
            _ => {}
        }
    }
    let mut out = std::collections::BTreeSet::new();
    for (_, file) in recorded() {
        walk(&file["body"], path, &mut out);
    }
    out
}

/// The sandbox speaks the service's vocabulary as the drift fixtures record it (issue 27): every key of
/// its models' capabilities and of its project replies is one a recorded service body has, and none of
/// the sandbox's old flat names is left. A key the sandbox invents, or a flat name sent again, fails here.
#[tokio::test(flavor = "multi_thread")]
async fn the_sandbox_sends_the_recorded_shapes() {
    let sb = contentdesk_sandbox::testing::TestSandbox::start().await;
    let get = |path: String| {
        let (url, key) = (format!("{}{path}", sb.base_url()), sb.key.clone());
        async move { reqwest::Client::new().get(url).bearer_auth(key).send().await.unwrap().json::<Value>().await.unwrap() }
    };
    let mut caps_vocabulary = recorded_keys(&["models", "*", "capabilities"]);
    caps_vocabulary.extend(recorded_keys(&["capabilities"]));
    let models = get("/models".into()).await;
    let models = models["models"].as_array().unwrap();
    assert!(models.len() >= 10, "{models:?}");
    for m in models {
        let caps = m["capabilities"].as_object().unwrap();
        assert_eq!(caps.get("kind"), m.get("kind"), "{m}");
        for k in caps.keys() {
            assert!(caps_vocabulary.contains(k), "{}: `{k}` is in no recorded service body ({caps_vocabulary:?})", m["modelId"]);
        }
        for flat in ["resolutions", "aspectRatios", "durationSeconds", "maxReferenceImages", "maxOutputs"] {
            assert!(!caps.contains_key(flat), "{}: the flat `{flat}`", m["modelId"]);
        }
        // What the client reads of it is what the sandbox's own registry says.
        let read: ModelInfo = serde_json::from_value(m.clone()).unwrap();
        assert!(!read.capabilities.input_types.is_empty(), "{m}");
    }
    let mut project_vocabulary = recorded_keys(&["projects", "*"]);
    project_vocabulary.extend(recorded_keys(&["project"]));
    let list = get("/projects".into()).await;
    let first = &list["projects"][0];
    let detail = get(format!("/projects/{}", first["id"].as_str().unwrap())).await;
    for p in [first, &detail["project"]] {
        for k in p.as_object().unwrap().keys() {
            assert!(project_vocabulary.contains(k), "project `{k}` is in no recorded service body");
        }
        assert_eq!((&p["surface"], &p["kind"]), (&p["type"], &p["type"]), "{p}");
    }
    assert!(detail["project"]["revision"].is_u64(), "a detail carries its revision: {detail}");
}
