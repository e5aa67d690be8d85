//! Money under faults (issue 12, point 3), each fault injected for real: the app killed (`SIGKILL`) in
//! the middle of a render, then Cancel and Retry on a restarted core (one charge); an unreadable 2xx to
//! a generate (the job is kept and polled, not dropped); a key revoked while a render is polled (the
//! poller stops and asks for a key, then resumes on a new key); a card create whose answer is lost (a
//! read shows it happened; nothing is created twice).
mod common;
use common::{answer_losing_proxy, start_app, temp_dir, Remote};
use contentdesk_core::commands::{self as c, *};
use contentdesk_core::{AppState, IpcCode, MemoryStore};
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;

fn config(video_ms: u64) -> sandbox::Config {
    let mut config = sandbox::Config::for_tests();
    config.smart_wait = Duration::from_millis(200);
    config.render.image = Duration::from_millis(100);
    config.render.video = Duration::from_millis(video_ms);
    config
}

fn video(prompt: &str) -> StudioForm {
    serde_json::from_value(json!({ "media": "video", "modelId": "veo-3.1-fast", "prompt": prompt, "duration": 4 })).unwrap()
}

async fn balance(remote: &Remote) -> f64 {
    remote.client().account().balance().await.unwrap().balance
}

async fn job_of(app: &AppState, id: &str) -> StudioJob {
    c::studio_jobs(app).await.unwrap().into_iter().find(|j| j.output_id == id).expect("job listed")
}

async fn wait_for(app: &AppState, id: &str, what: &str, ok: impl Fn(&StudioJob) -> bool) -> StudioJob {
    for _ in 0..300 {
        let j = job_of(app, id).await;
        if ok(&j) {
            return j;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("job {id}: {what} never happened: {:?}", job_of(app, id).await);
}

/// An app process of its own (this test binary run again, see `child_app`), on `dir`, pointed at
/// `remote`: it starts a slow render and prints its outputId, then waits to be killed.
fn spawn_child(dir: &std::path::Path, remote: &Remote) -> (std::process::Child, String) {
    let started = dir.join("child-rendering");
    let child = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child_app", "--nocapture", "--test-threads=1"])
        .env("CD_CHILD_DIR", dir)
        .env("CD_CHILD_URL", remote.base_url())
        .env("CD_CHILD_KEY", &remote.key)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::inherit())
        .spawn()
        .unwrap();
    for _ in 0..300 {
        if let Ok(id) = std::fs::read_to_string(&started) {
            return (child, id.trim().to_string());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let mut child = child;
    let _ = child.kill();
    let _ = child.wait();
    panic!("the child app did not start a render");
}

/// Not a test of its own: the body of the child app `spawn_child` runs (does nothing without its
/// variables).
#[test]
fn child_app() {
    let Ok(dir) = std::env::var("CD_CHILD_DIR") else { return };
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async move {
        let store = Arc::new(MemoryStore::new());
        let app = start_app(std::path::Path::new(&dir), &store).await;
        let p = c::profile_add(&app, ProfileAddArgs { name: "Work".into(), base_url: std::env::var("CD_CHILD_URL").ok() }).await.unwrap();
        c::profile_select(&app, ProfileRefArgs { profile_id: p.id.clone() }).await.unwrap();
        c::key_set(&app, KeySetArgs { profile_id: p.id, key: std::env::var("CD_CHILD_KEY").unwrap() }).await.unwrap();
        let id = uuid::Uuid::new_v4().to_string();
        let job = c::studio_generate(&app, StudioGenerateArgs { form: video("killed mid-render"), output_id: id.clone() }).await.unwrap();
        assert_eq!(job.status, JobStatus::Processing, "{job:?}");
        std::fs::write(std::path::Path::new(&dir).join("child-rendering"), &id).unwrap();
        tokio::time::sleep(Duration::from_secs(120)).await;
    });
}

// Multi-threaded: the remote sandbox serves the child while this thread waits on its output.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_mid_render_then_cancel_and_retry_charges_exactly_one_price() {
    let remote = Remote::start_with(config(4000)).await;
    let dir = temp_dir("money-kill");
    let before = balance(&remote).await;
    let (mut child, id) = spawn_child(&dir, &remote);
    child.kill().unwrap(); // SIGKILL: no shutdown, no flush beyond what was already written
    let _ = child.wait();
    let charged = balance(&remote).await;
    let price = before - charged;
    assert!(price > 0.0, "the render was charged once when it started");

    // Restart on the same folder: the profile and the job are there.
    let store = Arc::new(MemoryStore::new());
    let app = start_app(&dir, &store).await;
    let view = c::profiles_list(&app).await.unwrap();
    let profile = view.profiles.iter().find(|p| p.name == "Work").expect("the profile survived the kill").id.clone();
    c::key_set(&app, KeySetArgs { profile_id: profile, key: remote.key.clone() }).await.unwrap();
    let job = job_of(&app, &id).await;
    assert!(matches!(job.status, JobStatus::Processing | JobStatus::Submitting), "{job:?}");

    let cancelled = c::studio_cancel(&app, StudioJobArgs { output_id: id.clone() }).await.unwrap();
    assert_eq!(cancelled.status, JobStatus::Cancelled);
    let retried = c::studio_retry(&app, StudioJobArgs { output_id: id.clone() }).await.unwrap();
    assert_eq!(retried.output_id, id, "Retry after Cancel resumes the same outputId");
    assert!(retried.error.as_deref().unwrap_or("").contains("not charged again"), "and says so: {retried:?}");
    let done = wait_for(&app, &id, "completed", |j| j.status == JobStatus::Completed).await;
    assert!(done.idempotent_replay, "the service replayed the render it had: {done:?}");
    assert_eq!(c::studio_jobs(&app).await.unwrap().len(), 1, "one job, not two");
    assert_eq!(before - balance(&remote).await, price, "balance delta = exactly one price");
    app.studio().shutdown();
}

#[tokio::test]
async fn an_unreadable_2xx_to_a_generate_keeps_the_job_and_polls_it() {
    use wiremock::matchers::{method, path, path_regex};
    use wiremock::{Mock, MockServer, ResponseTemplate};
    let server = MockServer::start().await;
    let ok = |v: serde_json::Value| ResponseTemplate::new(200).set_body_json(v);
    Mock::given(method("GET")).and(path("/api/v1/account/balance")).respond_with(ok(json!({ "balance": 100 }))).mount(&server).await;
    // The render was taken (and charged), but its answer arrives cut off.
    Mock::given(method("POST"))
        .and(path("/api/v1/studio/generate"))
        .respond_with(ResponseTemplate::new(200).set_body_string("{\"outputId\": \"cut off"))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path_regex(r"^/api/v1/studio/generate/[^/]+$"))
        .respond_with(ok(json!({ "outputId": "x", "status": "completed", "outputUrls": ["https://cdn.example/v.mp4"], "creditsCharged": 30, "pollAfterSeconds": 0.05 })))
        .mount(&server)
        .await;
    let store = Arc::new(MemoryStore::new());
    let app = start_app(&temp_dir("money-2xx"), &store).await;
    let p = c::profile_add(&app, ProfileAddArgs { name: "Real".into(), base_url: Some(format!("{}/api/v1", server.uri())) }).await.unwrap();
    c::profile_select(&app, ProfileRefArgs { profile_id: p.id.clone() }).await.unwrap();
    c::key_set(&app, KeySetArgs { profile_id: p.id, key: "ch_live_unreadable000000000000000".into() }).await.unwrap();
    let id = uuid::Uuid::new_v4().to_string();
    let job = c::studio_generate(&app, StudioGenerateArgs { form: video("cut off"), output_id: id.clone() }).await.expect("kept, not refused");
    assert_eq!(job.status, JobStatus::Processing, "{job:?}");
    let done = wait_for(&app, &id, "completed", |j| j.status == JobStatus::Completed).await;
    assert_eq!(done.output_urls, vec!["https://cdn.example/v.mp4".to_string()]);
    app.studio().shutdown();
}

#[tokio::test]
async fn a_401_while_polling_stops_the_poller_asks_for_a_key_and_a_new_key_resumes_it() {
    let remote = Remote::start_with(config(3000)).await;
    let (app, _, _) = common::app_on(&remote).await;
    let account_balance = || remote.state.db().lock().query_row("SELECT balance FROM accounts", [], |r| r.get::<_, f64>(0)).unwrap();
    let before = account_balance();
    let id = uuid::Uuid::new_v4().to_string();
    let job = c::studio_generate(&app, StudioGenerateArgs { form: video("revoked"), output_id: id.clone() }).await.unwrap();
    assert_eq!(job.status, JobStatus::Processing);
    // The key is revoked on the service meanwhile.
    {
        let conn = remote.state.db().lock();
        for k in sandbox::auth::list_keys(&conn).unwrap() {
            sandbox::auth::revoke_key(&conn, &k.id).unwrap();
        }
    }
    let paused = wait_for(&app, &id, "paused for a key", |j| j.error.as_deref().is_some_and(|e| e.contains("Paste a current key"))).await;
    assert_eq!(paused.status, JobStatus::Processing, "kept: it was charged");
    assert_eq!(paused.next_poll_at, None, "no next read is planned");
    // The poller stopped (no wait on a clock: its task is gone from the table and its token cancelled,
    // so no later read can happen), and the profile waits for a key.
    assert!(!app.studio().is_polling(&id), "the poller stopped");
    let profile = c::profiles_list(&app).await.unwrap().selected_id.unwrap();
    assert!(contentdesk_core::studio::is_paused(&app, &profile), "the profile waits for a key");
    for _ in 0..50 {
        tokio::task::yield_now().await;
    }
    assert_eq!(job_of(&app, &id).await.polls, paused.polls, "no read after it stopped");
    // Retry says the key is what is missing, in the code the UI already shows.
    let e = c::studio_retry(&app, StudioJobArgs { output_id: id.clone() }).await.unwrap_err();
    assert_eq!(e.code, IpcCode::Unauthorized, "{e:?}");
    // A new key: polling resumes and the render completes, charged once.
    let fresh = {
        let conn = remote.state.db().lock();
        let account = sandbox::auth::first_account(&conn).unwrap().unwrap();
        sandbox::auth::create_key(&conn, &account, "new", api_types::scopes::ALL).unwrap().1
    };
    c::key_set(&app, KeySetArgs { profile_id: profile, key: fresh }).await.unwrap();
    let done = wait_for(&app, &id, "completed", |j| j.status == JobStatus::Completed).await;
    assert_eq!(before - account_balance(), done.credits.unwrap(), "charged once");
    app.studio().shutdown();
}

#[tokio::test]
async fn a_card_create_whose_answer_is_lost_is_read_back_not_created_twice() {
    let remote = Remote::start_with(config(1000)).await;
    let (proxy, _) = answer_losing_proxy(remote.addr, "POST /api/v1/cards ", false).await;
    let store = Arc::new(MemoryStore::new());
    let app = start_app(&temp_dir("money-create"), &store).await;
    let base = format!("http://{proxy}{}", api_types::API_PREFIX);
    let p = c::profile_add(&app, ProfileAddArgs { name: "Work".into(), base_url: Some(base) }).await.unwrap();
    c::profile_select(&app, ProfileRefArgs { profile_id: p.id.clone() }).await.unwrap();
    c::key_set(&app, KeySetArgs { profile_id: p.id, key: remote.key.clone() }).await.unwrap();
    let space = c::spaces_list(&app, Default::default()).await.unwrap().remove(0);
    let board = c::board_load(&app, serde_json::from_value(json!({ "spaceId": space.id })).unwrap()).await.unwrap();
    let stage = board.stages[0].id.clone();
    let title = format!("Lost answer {}", uuid::Uuid::new_v4());
    let args = || -> contentdesk_core::commands::CardCreateInput {
        serde_json::from_value(json!({ "spaceId": space.id, "stage": stage, "title": title, "platform": "instagram" })).unwrap()
    };
    let card = c::card_create(&app, args()).await.expect("the read shows the create landed");
    assert_eq!(card.title, title);
    let count = || async {
        let q = api_types::CardQuery { search: Some(title.clone()), ..Default::default() };
        remote.client().cards().list(&q).await.unwrap().cards.into_iter().filter(|c| c.title == title).count()
    };
    assert_eq!(count().await, 1, "one card on the service");
}
