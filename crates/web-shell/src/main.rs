//! `contentdesk-web-shell`: the app in a browser, for development and Playwright. Prints one line,
//! `web-shell ready: http://127.0.0.1:<port>/?token=<token>`, once it serves; with `--ready-json`, the
//! JSON line `{"ready":true,"url":…,"origin":…,"token":…}` instead (for scripts).
use clap::Parser;
use contentdesk_core::{AppState, CoreConfig, MemoryStore, Secrets};
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Parser)]
#[command(about = "Content Desk's UI and commands over HTTP on loopback (development and browser tests)")]
struct Args {
    /// Data folder (settings, the sandbox's SQLite file). Default: $CONTENTDESK_DATA_DIR, else
    /// ~/.local/share/contentdesk-web.
    #[arg(long)]
    data_dir: Option<PathBuf>,
    /// Loopback address to serve on.
    #[arg(long, default_value = "127.0.0.1:0")]
    addr: SocketAddr,
    /// The built UI.
    #[arg(long, default_value = "ui/dist")]
    ui_dist: PathBuf,
    /// Keep keys in memory for this run (tests) instead of the OS keyring.
    #[arg(long)]
    memory_secrets: bool,
    /// For scripts: print the ready line as JSON (`ready`, `url`, `origin`, `token`).
    #[arg(long)]
    ready_json: bool,
    /// How a page the app opens in a browser (the consent page of "Connect ContentHero") is opened:
    /// `system` (the desktop's way: xdg-open), or `print`: the JSON line `{"openUrl":…}` on stdout, for
    /// a browser test to open in its own page.
    #[arg(long, value_enum, default_value = "system")]
    open_urls: OpenUrls,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum OpenUrls {
    System,
    Print,
}

#[tokio::main]
async fn main() {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()))
        .with_writer(std::io::stderr)
        .init();
    let args = Args::parse();
    if !args.addr.ip().is_loopback() {
        eprintln!("error: web-shell serves on loopback only (127.0.0.1 or ::1); {} is not", args.addr.ip());
        std::process::exit(2);
    }
    if !args.ui_dist.join("index.html").is_file() {
        eprintln!("error: {} has no index.html: build the UI first (cd ui && npm ci && npm run build)", args.ui_dist.display());
        std::process::exit(2);
    }
    let data_dir = args
        .data_dir
        .or_else(|| std::env::var_os("CONTENTDESK_DATA_DIR").map(PathBuf::from))
        .unwrap_or_else(|| {
            let base = std::env::var_os("XDG_DATA_HOME")
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".local/share"));
            base.join("contentdesk-web")
        });
    let mut config = CoreConfig::from_env(&data_dir);
    if args.memory_secrets {
        config.secrets = Secrets::Store(Arc::new(MemoryStore::new()));
    }
    let core = match AppState::start(config).await {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {}", e.message);
            std::process::exit(1);
        }
    };
    if let OpenUrls::Print = args.open_urls {
        core.set_url_opener(std::sync::Arc::new(|url: &str| {
            let mut out = std::io::stdout().lock();
            writeln!(out, "{}", serde_json::json!({ "openUrl": url })).and_then(|_| out.flush()).map_err(|e| e.to_string())
        }));
    }
    // Offline edits kept in the outbox are sent when the service answers again.
    contentdesk_core::drafts::spawn_sync_loop(core.clone(), std::time::Duration::from_secs(10));
    let token = contentdesk_web_shell::new_token();
    let listener = match tokio::net::TcpListener::bind(args.addr).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: cannot bind {}: {e}", args.addr);
            std::process::exit(1);
        }
    };
    let addr = listener.local_addr().expect("bound address");
    let app = contentdesk_web_shell::router(core, &token, args.ui_dist, addr.port());
    if args.ready_json {
        let line = serde_json::json!({
            "ready": true, "url": format!("http://{addr}/?token={token}"), "origin": format!("http://{addr}"), "token": token,
        });
        println!("{line}");
    } else {
        println!("web-shell ready: http://{addr}/?token={token}");
    }
    let _ = std::io::stdout().flush();
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    if let Err(e) = axum::serve(listener, app).with_graceful_shutdown(shutdown).await {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
