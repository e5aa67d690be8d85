//! `contentdesk-sandbox`: serve the local API, and manage its keys.
use api_types::scopes;
use clap::{Parser, Subcommand};
use contentdesk_sandbox::{auth, seed, AppState, Config, RateLimit, RenderTimes};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Parser)]
#[command(name = "contentdesk-sandbox", about = "A local Content Production Service API v1 for Content Desk")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the API on loopback (another address only with `--public`).
    Serve {
        /// The SQLite file (created when missing).
        #[arg(long, default_value = "sandbox.db")]
        db: PathBuf,
        /// A loopback address (`127.0.0.1:PORT`, `[::1]:PORT`, `localhost:PORT`); any other needs `--public`.
        #[arg(long, default_value = "127.0.0.1:8787")]
        addr: String,
        /// Serve on a non-loopback `--addr` on purpose: its files and upload URLs take no key, and anyone
        /// who can reach the address can try keys.
        #[arg(long)]
        public: bool,
        /// `demo`: seed the demo data (once per file) and print a fresh key with every scope.
        #[arg(long)]
        seed: Option<String>,
        /// Extra cards in the demo space (board benchmarks).
        #[arg(long, default_value_t = 0)]
        extra_cards: usize,
        /// Render time of every media kind, in milliseconds (default: a few seconds, video longer).
        #[arg(long)]
        render_ms: Option<u64>,
        /// How long a generate call waits for its render, in milliseconds.
        #[arg(long, default_value_t = 50_000)]
        smart_wait_ms: u64,
        /// Requests per key per minute; 0 turns the limit off.
        #[arg(long, default_value_t = 600)]
        rate_limit: u32,
        /// For scripts: once serving, print one JSON line `{"ready":true,"url":…,"key":…,"db":…}` instead
        /// of the sentences (`key` is null without `--seed demo`).
        #[arg(long)]
        ready_json: bool,
        /// How long an OAuth access token lives, in seconds (docs/api.md "OAuth").
        #[arg(long, env = "CONTENTDESK_OAUTH_ACCESS_TTL", default_value_t = 600)]
        oauth_access_ttl_secs: u64,
        /// Requests per client address per minute to the OAuth endpoints reached without a token
        /// (registration, the consent form, the token endpoint); 0 turns the limit off.
        #[arg(long, default_value_t = 60)]
        oauth_rate_limit: u32,
        /// A PEM file of one more certificate authority to trust when the authorization server fetches
        /// over https (a Client ID Metadata Document, a resource server's metadata): a test's throwaway CA
        /// for documents served on loopback.
        #[arg(long)]
        oauth_fetch_ca: Option<PathBuf>,
    },
    /// Manage API keys.
    Keys {
        #[command(subcommand)]
        command: KeysCommand,
    },
}

#[derive(Subcommand)]
enum KeysCommand {
    /// Mint a key; the secret is printed once.
    Create {
        #[arg(long, default_value = "sandbox.db")]
        db: PathBuf,
        /// Scopes, comma or space separated; `all` for every scope.
        #[arg(long, num_args = 1.., value_delimiter = ',', default_value = "all")]
        scopes: Vec<String>,
        /// Scopes to leave out of `--scopes` (e.g. `--scopes all --except brandkit:read`).
        #[arg(long, num_args = 1.., value_delimiter = ',')]
        except: Vec<String>,
        #[arg(long, default_value = "cli")]
        name: String,
        /// The account (default: the first one, created when there is none).
        #[arg(long, conflicts_with = "new_accounts")]
        account: Option<String>,
        /// Make N new accounts (demo credits, nothing else) and mint a key on each: N secrets, one a line
        /// (for tests of many users, e.g. `cdesk mcp --http`'s load test).
        #[arg(long, value_name = "N")]
        new_accounts: Option<u32>,
    },
    /// Revoke a key at once.
    Revoke {
        #[arg(long, default_value = "sandbox.db")]
        db: PathBuf,
        id: String,
    },
    /// List keys (never their secrets).
    List {
        #[arg(long, default_value = "sandbox.db")]
        db: PathBuf,
    },
}

fn expand_scopes(given: &[String]) -> Result<Vec<&'static str>, String> {
    let mut out = Vec::new();
    for s in given.iter().flat_map(|s| s.split_whitespace()) {
        if s == "all" {
            out.extend_from_slice(scopes::ALL);
        } else if let Some(known) = scopes::ALL.iter().find(|k| **k == s) {
            out.push(*known);
        } else {
            return Err(format!("unknown scope `{s}`; known: {}", scopes::ALL.join(", ")));
        }
    }
    out.dedup();
    Ok(out)
}

/// `serve` binds loopback unless `--public` is given on purpose: the sandbox's files and upload URLs take
/// no key (they stand in for a CDN), so on another interface they are anyone's. Checked before anything
/// is opened or bound; every address the name resolves to must be loopback.
fn check_addr(addr: &str, public: bool) -> Result<(), String> {
    use std::net::ToSocketAddrs;
    let resolved: Vec<std::net::SocketAddr> = addr
        .to_socket_addrs()
        .map_err(|e| format!("--addr `{addr}` is not an address to serve on (HOST:PORT): {e}"))?
        .collect();
    let outside: Vec<String> =
        resolved.iter().filter(|a| !a.ip().is_loopback()).map(|a| a.ip().to_string()).collect();
    if outside.is_empty() || public {
        if !outside.is_empty() {
            eprintln!("warning: serving on {addr} ({}), reachable from other machines (--public)", outside.join(", "));
        }
        return Ok(());
    }
    Err(format!(
        "refusing to serve on {addr}: {} is not a loopback address, and the sandbox's files and upload URLs \
         take no key. Serve on 127.0.0.1 (the default), or add --public to serve on {addr} on purpose.",
        outside.join(", ")
    ))
}

// One worker thread: measured when every request went through one SQLite connection's mutex, where
// several workers contended for it and woke each other up (on 2 cores shared with the load generator, 16
// connections: GET /cards/{id} 13,300 req/s, p99 2.4 ms, with two workers; 25,400 req/s, p99 1.1 ms, with
// one; PATCH 11,200 → 16,900 req/s). Reads have their own pooled connections now (db.rs), and one worker
// still wins: measured again with the one-thread load generator (same minutes, load average ~4), two
// workers took 38-40 µs of CPU per GET (one: 33) and 62-63 per PATCH (one: 52) for the same req/s, and a
// worse PATCH p99. Render timers and blocking work still run. CONTENTDESK_SANDBOX_WORKERS sets another
// count, for benchmarks that compare them.
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let workers = std::env::var("CONTENTDESK_SANDBOX_WORKERS").ok().and_then(|w| w.parse().ok()).unwrap_or(1);
    tokio::runtime::Builder::new_multi_thread().worker_threads(workers).enable_all().build()?.block_on(serve_or_manage())
}

async fn serve_or_manage() -> Result<(), Box<dyn std::error::Error>> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    match cli.command {
        Command::Serve { db, addr, public, seed: seed_name, extra_cards, render_ms, smart_wait_ms, rate_limit, ready_json, oauth_access_ttl_secs, oauth_rate_limit, oauth_fetch_ca } => {
            if let Err(why) = check_addr(&addr, public) {
                eprintln!("error: {why}");
                std::process::exit(2);
            }
            let mut config = Config { smart_wait: Duration::from_millis(smart_wait_ms), ..Config::default() };
            config.oauth_access_ttl = Duration::from_secs(oauth_access_ttl_secs.max(1));
            config.oauth_fetch_loopback = !public;
            if let Some(path) = oauth_fetch_ca {
                config.oauth_fetch_ca = Some(std::fs::read(&path).map_err(|e| format!("--oauth-fetch-ca {}: {e}", path.display()))?);
            }
            if let Some(ms) = render_ms {
                config.render = RenderTimes::all(Duration::from_millis(ms));
            }
            config.rate_limit =
                (rate_limit > 0).then(|| RateLimit { requests: rate_limit, window: Duration::from_secs(60) });
            config.oauth_rate_limit =
                (oauth_rate_limit > 0).then(|| RateLimit { requests: oauth_rate_limit, window: Duration::from_secs(60) });
            let state = AppState::open(&db, config)?;
            let mut key = None;
            match seed_name.as_deref() {
                None => {}
                Some("demo") => {
                    let seeded = seed::seed_demo(&state, &seed::DemoOptions { extra_cards })?;
                    let conn = state.db().lock();
                    let (_, secret) = auth::create_key(&conn, &seeded.account_id, "serve --seed demo", scopes::ALL)?;
                    key = Some(secret);
                }
                Some(other) => return Err(format!("unknown seed `{other}`; the only seed is `demo`").into()),
            }
            let running = contentdesk_sandbox::spawn(state, &addr).await?;
            if ready_json {
                let line = serde_json::json!({ "ready": true, "url": running.base_url(), "key": key, "db": db });
                println!("{line}");
            } else {
                println!("Content Desk sandbox serving {}", running.base_url());
                if let Some(key) = key {
                    println!("API key (every scope, shown once): {key}");
                }
                println!("Database: {}  (Ctrl+C to stop)", db.display());
            }
            use std::io::Write;
            let _ = std::io::stdout().flush();
            tokio::signal::ctrl_c().await?;
            running.stop().await;
        }
        Command::Keys { command } => match command {
            KeysCommand::Create { db, scopes: given, except, name, account: _, new_accounts: Some(n) } => {
                let left_out = expand_scopes(&except)?;
                let scopes: Vec<&str> = expand_scopes(&given)?.into_iter().filter(|s| !left_out.contains(s)).collect();
                let state = AppState::open(&db, Config::default())?;
                let conn = state.db().lock();
                for i in 1..=n {
                    let account_id = auth::create_account(&conn, &format!("Sandbox account {i}"), seed::DEMO_CREDITS)?;
                    let (_, secret) = auth::create_key(&conn, &account_id, &name, &scopes)?;
                    println!("{secret}");
                }
                eprintln!("{n} accounts, one key each: {}", scopes.join(" "));
            }
            KeysCommand::Create { db, scopes: given, except, name, account, new_accounts: None } => {
                let left_out = expand_scopes(&except)?;
                let scopes: Vec<&str> = expand_scopes(&given)?.into_iter().filter(|s| !left_out.contains(s)).collect();
                let state = AppState::open(&db, Config::default())?;
                let conn = state.db().lock();
                let account_id = match account {
                    Some(a) => a,
                    None => match auth::first_account(&conn)? {
                        Some(a) => a,
                        None => auth::create_account(&conn, "Sandbox account", seed::DEMO_CREDITS)?,
                    },
                };
                let (info, secret) = auth::create_key(&conn, &account_id, &name, &scopes)?;
                println!("{secret}");
                eprintln!("key {} ({}) for account {}: {}", info.id, info.name, info.account_id, info.scopes.join(" "));
                eprintln!("The secret is shown once; only its hash is stored.");
            }
            KeysCommand::Revoke { db, id } => {
                let state = AppState::open(&db, Config::default())?;
                let conn = state.db().lock();
                if auth::revoke_key(&conn, &id)? {
                    println!("revoked {id}");
                } else {
                    return Err(format!("no live key with id {id}").into());
                }
            }
            KeysCommand::List { db } => {
                let state = AppState::open(&db, Config::default())?;
                let conn = state.db().lock();
                for k in auth::list_keys(&conn)? {
                    println!(
                        "{}\t{}\t{}…\t{}\t{}",
                        k.id,
                        k.name,
                        k.prefix,
                        k.scopes.join(","),
                        k.revoked_at.map(|t| format!("revoked {t}")).unwrap_or_else(|| "live".into())
                    );
                }
            }
        },
    }
    Ok(())
}
