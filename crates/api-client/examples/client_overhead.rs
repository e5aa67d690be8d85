//! Benchmark (b): what the typed client costs over raw reqwest. Both send GET /account/balance to the
//! same in-process sandbox, one request at a time, in alternating rounds so drift hits both alike, and
//! both decode the JSON into `Balance`. Prints the totals and the ratio (goal: at most 1.10).
//!
//! `client_overhead [--requests 10000] [--rounds 10]`
use api_types::Balance;
use contentdesk_api_client::{ApiKey, Client};
use contentdesk_sandbox::testing::TestSandbox;
use std::time::{Duration, Instant};

#[tokio::main]
async fn main() {
    let argv: Vec<String> = std::env::args().collect();
    let arg = |name: &str, default: usize| {
        argv.iter().position(|a| a == name).and_then(|i| argv.get(i + 1)).and_then(|v| v.parse().ok()).unwrap_or(default)
    };
    let requests = arg("--requests", 10_000);
    let rounds = arg("--rounds", 10).max(1);
    let per_round = requests / rounds;

    let sb = TestSandbox::start().await;
    let client = Client::new(sb.base_url(), ApiKey::new(sb.key.clone())).expect("client");
    let raw = reqwest::Client::new();
    let url = format!("{}/account/balance", sb.base_url());
    let auth = format!("Bearer {}", sb.key);

    // warm both paths (connections, caches)
    for _ in 0..200 {
        client.account().balance().await.expect("client balance");
        raw_balance(&raw, &url, &auth).await;
    }
    let (mut t_client, mut t_raw) = (Duration::ZERO, Duration::ZERO);
    for round in 0..rounds {
        // alternate which goes first
        for first in [round % 2 == 0, round % 2 != 0] {
            let start = Instant::now();
            if first {
                for _ in 0..per_round {
                    client.account().balance().await.expect("client balance");
                }
                t_client += start.elapsed();
            } else {
                for _ in 0..per_round {
                    raw_balance(&raw, &url, &auth).await;
                }
                t_raw += start.elapsed();
            }
        }
    }
    let n = per_round * rounds;
    println!("{n} GET /account/balance each, sequential, in-process sandbox, {rounds} alternating rounds");
    println!(
        "api-client: {:.3} s ({:.1} µs/request)\nraw reqwest: {:.3} s ({:.1} µs/request)",
        t_client.as_secs_f64(),
        t_client.as_secs_f64() * 1e6 / n as f64,
        t_raw.as_secs_f64(),
        t_raw.as_secs_f64() * 1e6 / n as f64
    );
    println!("ratio api-client/raw: {:.3} (goal <= 1.10)", t_client.as_secs_f64() / t_raw.as_secs_f64());
}

async fn raw_balance(raw: &reqwest::Client, url: &str, auth: &str) -> Balance {
    let resp = raw
        .get(url)
        .header("authorization", auth)
        .header("accept", "application/json")
        .send()
        .await
        .expect("raw send");
    assert!(resp.status().is_success());
    resp.json::<Balance>().await.expect("raw decode")
}
