//! Benchmark (a figure, not a test; issue 28 "Done when"): importing 500 rows against the local sandbox,
//! goal under 10 s, with progress. A CSV of `--rows` rows (two or three platforms each, captions with
//! commas, quotes, emoji and CJK, half scheduled) imported into a new space through the catalogue's
//! `import_cards` as `cdesk card import` runs it, progress printed as it goes; then the same file again
//! (everything found by its key, nothing created).
//!
//!     cargo run --release -p contentdesk-ops --example import_bench [-- --rows 500]
use contentdesk_ops::{Cx, Progress, ProgressEvent};
use contentdesk_sandbox::testing::TestSandbox;
use serde_json::json;
use std::sync::Arc;
use std::time::Instant;

struct Stderr;
impl Progress for Stderr {
    fn event(&self, e: ProgressEvent) {
        if let ProgressEvent::Step { what, done, total } = e {
            if done % 100 == 0 || done == total {
                eprintln!("  {what} {done} of {total}");
            }
        }
    }
}

fn csv(rows: usize) -> String {
    const PLATFORMS: [&str; 4] = ["instagram;x", "tiktok;youtube;x", "linkedin;threads", "facebook;instagram;x"];
    let mut out = String::from("title,stage,platforms,scheduledAt,caption,notes\r\n");
    for i in 0..rows {
        let at = if i % 2 == 0 { format!("2026-12-{:02}T{:02}:00:00Z", 1 + i % 28, i % 24) } else { String::new() };
        let caption = format!("\"Post {i}: launch, \"\"quoted\"\" 😀 新しい {}\"", "words ".repeat(i % 30));
        out.push_str(&format!("Row {i},,{},{at},{caption},note {i}\r\n", PLATFORMS[i % PLATFORMS.len()]));
    }
    out
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rows = args.iter().position(|a| a == "--rows").and_then(|i| args.get(i + 1)).and_then(|v| v.parse().ok()).unwrap_or(500);
    let sb = TestSandbox::start().await;
    let client = api_client::Client::builder(api_client::ApiKey::new(sb.key.clone())).base_url(sb.base_url()).build().unwrap();
    let space = client.spaces().create(&serde_json::from_value(json!({ "name": "Bench import" })).unwrap()).await.unwrap().id;
    let text = csv(rows);
    let entry = contentdesk_ops::by_tool("import_cards").unwrap();
    let run = |label: &'static str| {
        let (client, text, space) = (client.clone(), text.clone(), space.clone());
        async move {
            let cx = Cx { progress: Arc::new(Stderr), ..Cx::new(client) };
            let t = Instant::now();
            let reply = entry.run_json(cx, json!({ "file": "bench.csv", "text": text, "spaceId": space })).unwrap().await.unwrap();
            let secs = t.elapsed().as_secs_f64();
            let n = |k: &str| reply[k].as_array().map_or(0, Vec::len);
            println!("{label}: {rows} rows -> {} created, {} existing, {} refused in {secs:.2} s (goal < 10 s)", n("created"), n("existing"), n("refused"));
        }
    };
    run("import").await;
    run("again (idempotent)").await;
}
