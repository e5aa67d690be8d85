//! Benchmark (a figure, not a test; issue 28 "Done when"): exporting a 5,000-post ICS, goal under 1 s.
//! Two figures:
//! - the writer: 5,000 posts (1,000 cards with 5 posts each, captions of 100 to 700 characters with
//!   emoji, CJK, commas and newlines) into events and an ICS document, best and median of `--runs`;
//! - the whole export against a local sandbox over HTTP (the cards made through the API first, not
//!   timed): every page of the space listed, the 1,000 cards read (4 at a time), the ICS written, as
//!   `cdesk calendar export` runs it (the catalogue's `export_calendar`).
//!
//!     cargo run --release -p contentdesk-ops --example export_bench [-- --cards 1000 --runs 9]
use contentdesk_ops::calendar::{events_in, ics, instant};
use contentdesk_sandbox::testing::TestSandbox;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const PLATFORMS: [&str; 5] = ["instagram", "x", "tiktok", "linkedin", "youtube"];

fn caption(i: usize) -> String {
    const PIECES: &[&str] = &["Launch day, finally; ", "see https://example.com/new ", "😀🎉 ", "新しいシリーズ ", "line\nbreak ", "#launch #studio "];
    let target = 100 + (i * 37) % 600;
    let mut s = String::new();
    let mut k = i;
    while s.len() < target {
        s.push_str(PIECES[k % PIECES.len()]);
        k += 1;
    }
    s
}

fn posts(i: usize) -> Value {
    Value::Array(
        PLATFORMS
            .iter()
            .enumerate()
            .map(|(j, p)| json!({ "platform": p, "scheduledAt": format!("2026-12-{:02}T{:02}:{:02}:00Z", 1 + (i % 28), j * 3, i % 60), "platformSpecificData": { "caption": caption(i * 5 + j) } }))
            .collect(),
    )
}

fn stats(mut runs: Vec<Duration>) -> (f64, f64) {
    runs.sort();
    (runs[0].as_secs_f64() * 1e3, runs[runs.len() / 2].as_secs_f64() * 1e3)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str, default: usize| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).and_then(|v| v.parse().ok()).unwrap_or(default);
    let (cards, runs) = (arg("--cards", 1000), arg("--runs", 9));
    let (from, to) = (instant("from", "2026-12-01").unwrap(), instant("to", "2027-01-01").unwrap());

    // (1) The writer alone.
    let details: Vec<api_types::CardDetail> = (0..cards)
        .map(|i| {
            let posts: Vec<Value> = posts(i).as_array().unwrap().iter().enumerate().map(|(j, p)| {
                json!({ "id": format!("p{i}-{j}"), "platform": p["platform"], "scheduledAt": p["scheduledAt"], "platformSettings": p["platformSpecificData"] })
            }).collect();
            serde_json::from_value(json!({ "id": format!("card-{i}"), "title": format!("Card {i}, part; one"), "updatedAt": "2026-11-20T08:00:00Z", "platforms": PLATFORMS, "posts": posts })).unwrap()
        })
        .collect();
    let mut times = Vec::new();
    let mut size = 0;
    let mut count = 0;
    for _ in 0..runs {
        let t = Instant::now();
        let events = events_in(&details, from, to);
        let doc = ics::calendar(&events, Some("Bench"));
        times.push(t.elapsed());
        size = doc.len();
        count = events.len();
    }
    let (best, median) = stats(times);
    println!("writer: {count} posts -> ICS of {:.1} MB: best {best:.1} ms, median {median:.1} ms ({runs} runs)", size as f64 / 1e6);

    // (2) The whole export against the sandbox over HTTP.
    let sb = TestSandbox::start().await;
    let client = api_client::Client::builder(api_client::ApiKey::new(sb.key.clone())).base_url(sb.base_url()).build().unwrap();
    let space = client.spaces().create(&serde_json::from_value(json!({ "name": "Bench export" })).unwrap()).await.unwrap().id;
    let made = Instant::now();
    for i in 0..cards {
        let req = serde_json::from_value(json!({ "title": format!("Card {i}, part; one"), "platform": "instagram", "spaceId": space, "posts": posts(i) })).unwrap();
        client.cards().create(&req).await.unwrap();
    }
    eprintln!("(made {cards} cards with {} posts in {:.1} s, not timed)", cards * PLATFORMS.len(), made.elapsed().as_secs_f64());
    let entry = contentdesk_ops::by_tool("export_calendar").unwrap();
    let mut times = Vec::new();
    let mut count = 0;
    for _ in 0..runs.min(5) {
        let cx = contentdesk_ops::Cx::new(client.clone());
        let t = Instant::now();
        let reply = entry.run_json(cx, json!({ "format": "ics", "from": "2026-12-01", "to": "2027-01-01", "spaceId": space })).unwrap().await.unwrap();
        times.push(t.elapsed());
        count = reply["count"].as_u64().unwrap();
    }
    let (best, median) = stats(times);
    println!("end to end (list {cards} cards, read them 4 at a time, write): {count} posts: best {best:.0} ms, median {median:.0} ms");
}
