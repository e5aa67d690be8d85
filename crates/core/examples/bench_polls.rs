//! Polls per completed render, and the delay between a render's completion and the app knowing, for
//! renders of 10 s, 60 s and 300 s (issue 5), all at once against in-process sandboxes over real HTTP.
//!
//! For each length and each smart-wait (the real service's 50 s, and none), three pollers watch one
//! video render each:
//! - Content Desk's render queue (`crates/core/src/studio/`) on a sandbox that sends `pollAfterSeconds`;
//! - the same queue on a sandbox that sends no hint: a first render (its own 5 s → ×1.5 → 15 s cadence),
//!   then a second of the same model, which waits for the time the first took (then 2 s → ×1.5);
//! - the peer: the official CLI's fixed 3 s interval (`waitForGeneration`'s default), measured here.
//!
//! The completion instant is the sandbox's own `ready_at_ms` for the job (read from its database); "the
//! app knows" is when the core's event saying `completed` arrives (for the peer: when its read says so).
//!
//!     cargo run --release -p contentdesk-core --example bench_polls [-- --scale 0.1]
//!
//! `--scale` multiplies every length (0.1: 1 s, 6 s, 30 s) for a quick look; the figures the issue asks
//! for are at scale 1 (about 10 minutes: the learned run follows the first).
use api_client::{ApiKey, Client};
use api_types::{GenerateRequest, GenerationStatus};
use contentdesk_core::commands::{self as c, *};
use contentdesk_core::{AppState, CoreConfig, MemoryStore, Secrets};
use std::sync::Arc;
use std::time::Duration;

struct Service {
    state: sandbox::AppState,
    _running: sandbox::RunningSandbox,
    base_url: String,
    key: String,
}

async fn service(render: Duration, smart_wait: Duration, hint: bool) -> Service {
    let db = std::env::temp_dir().join(format!("contentdesk-bench-polls-{}.db", uuid::Uuid::new_v4()));
    let mut config = sandbox::Config::for_tests();
    config.render.video = render;
    config.smart_wait = smart_wait;
    config.poll_hint = hint;
    let state = sandbox::AppState::open(&db, config).expect("open sandbox");
    let seeded = sandbox::seed::seed_demo(&state, &Default::default()).expect("seed");
    let key = {
        let conn = state.db().lock();
        sandbox::auth::create_key(&conn, &seeded.account_id, "bench", api_types::scopes::ALL).expect("key").1
    };
    let running = sandbox::spawn(state.clone(), "127.0.0.1:0").await.expect("bind");
    let base_url = format!("http://{}{}", running.addr, api_types::API_PREFIX);
    Service { state, _running: running, base_url, key }
}

fn ready_at(s: &Service, id: &str) -> i64 {
    let conn = s.state.db().lock();
    conn.query_row("SELECT ready_at_ms FROM generations WHERE id = ?1", [id], |r| r.get(0)).expect("job row")
}

fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64
}

#[derive(Debug, Clone)]
struct Figure {
    reads: u32,
    requests: u32,
    delay_ms: i64,
}

/// A core with one remote profile on `s`, selected.
async fn desk_app(s: &Service) -> AppState {
    let dir = std::env::temp_dir().join(format!("contentdesk-bench-polls-{}", uuid::Uuid::new_v4()));
    let app = AppState::start(CoreConfig {
        data_dir: dir,
        settings: None,
        secrets: Secrets::Store(Arc::new(MemoryStore::new())),
        embedded_sandbox: false,
        embedded_sandbox_config: Default::default(),
    })
    .await
    .expect("core");
    let p = c::profile_add(&app, ProfileAddArgs { name: "Bench".into(), base_url: Some(s.base_url.clone()) }).await.unwrap();
    c::profile_select(&app, ProfileRefArgs { profile_id: p.id.clone() }).await.unwrap();
    c::key_set(&app, KeySetArgs { profile_id: p.id, key: s.key.clone() }).await.unwrap();
    app
}

/// One video generated through Content Desk's queue on `app`, watched through its events.
async fn desk(app: &AppState, s: &Service, secs: f64) -> Figure {
    let mut events = app.studio().subscribe();
    let form: StudioForm = serde_json::from_value(serde_json::json!({
        "media": "video", "modelId": "veo-3.1-fast", "prompt": format!("bench {secs} s {}", uuid::Uuid::new_v4()), "duration": 4
    }))
    .unwrap();
    let id = uuid::Uuid::new_v4().to_string();
    let started = {
        let app = app.clone();
        let id = id.clone();
        tokio::spawn(async move { c::studio_generate(&app, StudioGenerateArgs { form, output_id: id }).await })
    };
    let known = loop {
        match events.recv().await {
            Ok(StudioEvent::Job { job }) if job.output_id == id && job.status == JobStatus::Completed => break (job, now_ms()),
            Ok(_) => {}
            Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
            Err(e) => panic!("events: {e}"),
        }
    };
    started.await.unwrap().expect("generate");
    let (job, at) = known;
    Figure { reads: job.polls, requests: job.polls + 1, delay_ms: at - ready_at(s, &id) }
}

/// The peer: submit, then read every 3 s until completed (the CLI's `waitForGeneration` default).
async fn cli(s: &Service) -> Figure {
    let client = Client::new(&s.base_url, ApiKey::new(s.key.clone())).unwrap();
    let req = GenerateRequest {
        model_id: "veo-3.1-fast".into(),
        prompt: Some("bench peer".into()),
        duration: Some(4.0),
        ..Default::default()
    };
    let r = client.studio().generate(&req).await.expect("generate");
    let mut reads = 0;
    if r.status != GenerationStatus::Completed {
        loop {
            tokio::time::sleep(Duration::from_secs(3)).await;
            reads += 1;
            if client.studio().status(&r.output_id).await.expect("status").status == GenerationStatus::Completed {
                break;
            }
        }
    }
    let at = now_ms();
    Figure { reads, requests: reads + 1, delay_ms: at - ready_at(s, &r.output_id) }
}

#[tokio::main]
async fn main() {
    let scale: f64 = std::env::args()
        .skip_while(|a| a != "--scale")
        .nth(1)
        .and_then(|v| v.parse().ok())
        .unwrap_or(1.0);
    let lengths = [10.0, 60.0, 300.0].map(|s| s * scale);
    let waits = [50.0 * scale, 0.0];
    println!("renders of {:?} s, smart-wait {:?} s; all runs at once on this machine (2 cores)", lengths, waits);
    let mut runs = Vec::new();
    for &wait in &waits {
        for &len in &lengths {
            let render = Duration::from_secs_f64(len);
            let sw = Duration::from_secs_f64(wait);
            runs.push(tokio::spawn(async move {
                let hinted = service(render, sw, true).await;
                let bare = service(render, sw, false).await;
                let peer = service(render, sw, true).await;
                let (hinted_app, bare_app) = (desk_app(&hinted).await, desk_app(&bare).await);
                // With no hint: a first render (nothing known), then a second one of the same model,
                // which waits for the time the first took.
                let bare_runs = async {
                    let first = desk(&bare_app, &bare, len).await;
                    let learned = desk(&bare_app, &bare, len).await;
                    (first, learned)
                };
                let (a, (b, l), p) = tokio::join!(desk(&hinted_app, &hinted, len), bare_runs, cli(&peer));
                (wait, len, a, b, l, p)
            }));
        }
    }
    println!();
    println!(
        "{:>10} {:>8} | {:>24} | {:>24} | {:>24} | {:>24}",
        "smart-wait", "render", "Desk, server hint", "Desk, no hint, 1st", "Desk, no hint, learned", "peer: CLI fixed 3 s"
    );
    let head = "reads/req.    delay";
    println!("{:>10} {:>8} | {:>24} | {:>24} | {:>24} | {:>24}", "", "", head, head, head, head);
    for r in runs {
        let (wait, len, a, b, l, p) = r.await.expect("run");
        let cell = |f: &Figure| format!("{:>4} / {:<4} {:>8.2} s", f.reads, f.requests, f.delay_ms as f64 / 1000.0);
        println!("{:>9.0}s {:>7.0}s | {:>24} | {:>24} | {:>24} | {:>24}", wait, len, cell(&a), cell(&b), cell(&l), cell(&p));
    }
    println!();
    println!("reads: status reads (GET /studio/generate/{{id}}); requests: reads + the generate call.");
    println!("delay: from the render's completion (the sandbox's ready time) to the app knowing it.");
}
