//! What the core's integration tests share: an app core on the embedded sandbox, in a fresh temp data
//! folder, with keys in memory (each test file is its own crate; not every file uses every helper).
#![allow(dead_code)]
use api_client::{ApiKey, Client};
use contentdesk_core::commands::{self as c, KeySetArgs, ProfileAddArgs, ProfileRefArgs};
use contentdesk_core::{AppState, CoreConfig, MemoryStore, Secrets};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A fresh data folder under the system temp folder, named after the test file.
pub fn temp_dir(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("contentdesk-{tag}-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The core with its embedded sandbox (demo seeded, its key minted), as the app starts with no account.
pub async fn embedded_app(tag: &str) -> AppState {
    AppState::start(CoreConfig {
        data_dir: temp_dir(tag),
        settings: None,
        secrets: Secrets::Store(Arc::new(MemoryStore::new())),
        embedded_sandbox: true,
        embedded_sandbox_config: Default::default(),
    })
    .await
    .expect("core starts")
}

/// The "remote" service: a sandbox on one database file that can go down and come back on its port.
pub struct Remote {
    pub state: sandbox::AppState,
    pub addr: SocketAddr,
    pub running: Option<sandbox::RunningSandbox>,
    pub key: String,
    pub db: PathBuf,
}

impl Remote {
    pub async fn start() -> Remote {
        Remote::start_with(sandbox::Config::for_tests()).await
    }
    pub async fn start_with(config: sandbox::Config) -> Remote {
        let db = std::env::temp_dir().join(format!("contentdesk-remote-{}.db", uuid::Uuid::new_v4()));
        let state = sandbox::AppState::open(&db, config).expect("open db");
        let seeded = sandbox::seed::seed_demo(&state, &Default::default()).expect("seed");
        let key = {
            let conn = state.db().lock();
            sandbox::auth::create_key(&conn, &seeded.account_id, "drafts test", api_types::scopes::ALL).expect("key").1
        };
        let running = sandbox::spawn(state.clone(), "127.0.0.1:0").await.expect("bind");
        Remote { addr: running.addr, state, running: Some(running), key, db }
    }
    pub fn base_url(&self) -> String {
        format!("http://{}{}", self.addr, api_types::API_PREFIX)
    }
    pub async fn stop(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop().await;
        }
    }
    pub async fn restart(&mut self) {
        let mut tries = 0;
        loop {
            match sandbox::spawn(self.state.clone(), &self.addr.to_string()).await {
                Ok(r) => {
                    self.running = Some(r);
                    return;
                }
                Err(e) if tries < 50 => {
                    tries += 1;
                    let _ = e;
                    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                }
                Err(e) => panic!("cannot bind {} again: {e}", self.addr),
            }
        }
    }
    /// Someone else, straight to the service.
    pub fn client(&self) -> Client {
        Client::new(self.base_url(), ApiKey::new(self.key.clone())).unwrap()
    }
}


impl Drop for Remote {
    fn drop(&mut self) {
        for ext in ["", "-wal", "-shm"] {
            let mut p = self.db.clone().into_os_string();
            p.push(ext);
            let _ = std::fs::remove_file(PathBuf::from(p));
        }
    }
}

pub async fn start_app(dir: &Path, store: &Arc<MemoryStore>) -> AppState {
    AppState::start(CoreConfig {
        data_dir: dir.to_path_buf(),
        settings: None,
        secrets: Secrets::Store(store.clone()),
        embedded_sandbox: false,
        embedded_sandbox_config: Default::default(),
    })
    .await
    .expect("core starts")
}

/// An app with one remote profile on `remote`, selected, with its key.
pub async fn app_on(remote: &Remote) -> (AppState, PathBuf, Arc<MemoryStore>) {
    let dir = temp_dir("remote");
    let store = Arc::new(MemoryStore::new());
    let app = start_app(&dir, &store).await;
    let p = c::profile_add(&app, ProfileAddArgs { name: "Work".into(), base_url: Some(remote.base_url()) }).await.unwrap();
    c::profile_select(&app, ProfileRefArgs { profile_id: p.id.clone() }).await.unwrap();
    c::key_set(&app, KeySetArgs { profile_id: p.id, key: remote.key.clone() }).await.unwrap();
    (app, dir, store)
}

/// A proxy in front of `upstream` that passes everything through, except that the answer to a request
/// starting with `drop_prefix` is swallowed and the connection closed: the request lands, its answer is
/// lost (what a timeout after the server acted looks like to the app). `sticky`: from that request on,
/// every answer on every connection is lost too (the network went away just after the request left),
/// until the returned switch is set (`healed.store(true)`). A real fault at the TCP layer: the sandbox
/// cannot lose its own answers.
#[allow(dead_code)]
pub async fn answer_losing_proxy(
    upstream: std::net::SocketAddr,
    drop_prefix: &'static str,
    sticky: bool,
) -> (std::net::SocketAddr, Arc<std::sync::atomic::AtomicBool>) {
    use std::sync::atomic::{AtomicBool, Ordering};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let healed = Arc::new(AtomicBool::new(false));
    let broken = Arc::new(AtomicBool::new(false));
    let switch = healed.clone();
    tokio::spawn(async move {
        loop {
            let Ok((client, _)) = listener.accept().await else { return };
            let (healed, broken) = (healed.clone(), broken.clone());
            tokio::spawn(async move {
                let Ok(server) = tokio::net::TcpStream::connect(upstream).await else { return };
                let (mut cr, mut cw) = client.into_split();
                let (mut sr, mut sw) = server.into_split();
                let drop_next = Arc::new(AtomicBool::new(false));
                let flag = drop_next.clone();
                let seen = broken.clone();
                let up = tokio::spawn(async move {
                    let mut buf = vec![0u8; 64 * 1024];
                    loop {
                        let n = match cr.read(&mut buf).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => n,
                        };
                        if buf[..n].starts_with(drop_prefix.as_bytes()) {
                            flag.store(true, Ordering::SeqCst);
                            if sticky {
                                seen.store(true, Ordering::SeqCst);
                            }
                        }
                        if sw.write_all(&buf[..n]).await.is_err() {
                            return;
                        }
                    }
                });
                let mut buf = vec![0u8; 64 * 1024];
                loop {
                    let n = match sr.read(&mut buf).await {
                        Ok(0) | Err(_) => break,
                        Ok(n) => n,
                    };
                    let lost = if sticky {
                        (drop_next.load(Ordering::SeqCst) || broken.load(Ordering::SeqCst)) && !healed.load(Ordering::SeqCst)
                    } else {
                        drop_next.load(Ordering::SeqCst)
                    };
                    if lost {
                        break; // the server answered; the app never hears it
                    }
                    if cw.write_all(&buf[..n]).await.is_err() {
                        break;
                    }
                }
                up.abort();
            });
        }
    });
    (addr, switch)
}

/// What a [`faulty_front`] answers itself: a status, a JSON body, and whether the request reaches the
/// sandbox first (it lands; only its answer is replaced, as a service failing after its write).
pub type FaultAnswer = (u16, serde_json::Value, bool);

/// The same sandbox (its state and database) served on a second port behind a rule that answers the
/// requests it picks itself, while `on` is set: what the sandbox cannot produce on demand (a 5xx that
/// persists after the client's retries, the 400 of a service that refuses a read it does not know).
/// Every other request is the sandbox's own answer, through its own router. Answers the front's address,
/// the switch (on at start), and how many requests the rule answered.
pub async fn faulty_front<R>(state: sandbox::AppState, rule: R) -> (SocketAddr, Arc<std::sync::atomic::AtomicBool>, Arc<std::sync::atomic::AtomicUsize>)
where
    R: Fn(&axum::http::Method, &axum::http::Uri) -> Option<FaultAnswer> + Clone + Send + Sync + 'static,
{
    use axum::response::IntoResponse;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let on = Arc::new(AtomicBool::new(true));
    let answered = Arc::new(AtomicUsize::new(0));
    let (on2, answered2) = (on.clone(), answered.clone());
    let router = sandbox::app(state).layer(axum::middleware::from_fn(move |req: axum::extract::Request, next: axum::middleware::Next| {
        let (rule, on, answered) = (rule.clone(), on2.clone(), answered2.clone());
        async move {
            if on.load(Ordering::SeqCst) {
                if let Some((status, body, lands)) = rule(req.method(), req.uri()) {
                    answered.fetch_add(1, Ordering::SeqCst);
                    if lands {
                        let _ = next.run(req).await;
                    }
                    let status = axum::http::StatusCode::from_u16(status).expect("a status");
                    return (status, axum::Json(body)).into_response();
                }
            }
            next.run(req).await
        }
    }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let _ = axum::serve(listener, router).await;
    });
    (addr, on, answered)
}

/// An app with one profile on `base` (a front such as [`faulty_front`] or a proxy), selected, with `key`.
pub async fn app_at(base: String, key: &str) -> (AppState, PathBuf) {
    let dir = temp_dir("front");
    let store = Arc::new(MemoryStore::new());
    let app = start_app(&dir, &store).await;
    let p = c::profile_add(&app, ProfileAddArgs { name: "Work".into(), base_url: Some(base) }).await.unwrap();
    c::profile_select(&app, ProfileRefArgs { profile_id: p.id.clone() }).await.unwrap();
    c::key_set(&app, KeySetArgs { profile_id: p.id, key: key.to_string() }).await.unwrap();
    (app, dir)
}

/// The kept changes in conflict (the user settles each with `drafts_resolve`).
pub fn conflicts(s: &contentdesk_core::commands::DraftsStatus) -> Vec<&contentdesk_core::commands::KeptChange> {
    s.changes.iter().filter(|c| c.conflict).collect()
}

/// The id of the kept change of a card's edit or move (what `drafts_resolve` takes).
pub fn edit_of(s: &contentdesk_core::commands::DraftsStatus, card_id: &str) -> String {
    use contentdesk_core::commands::KeptKind;
    s.changes
        .iter()
        .find(|c| c.card_id.as_deref() == Some(card_id) && matches!(c.kind, KeptKind::CardEdit | KeptKind::CardMove))
        .unwrap_or_else(|| panic!("no kept edit of {card_id}: {s:?}"))
        .id
        .clone()
}

/// The app's new card as its board sends it: a title and platform at the end of a stage of a space.
#[allow(dead_code)]
pub fn new_card(space_id: &str, stage_id: &str, title: &str, platform: &str) -> contentdesk_core::commands::CardCreateInput {
    serde_json::from_value(serde_json::json!({ "spaceId": space_id, "stage": stage_id, "title": title, "platform": platform })).unwrap()
}
