//! A closed-loop HTTP load generator for the benchmarks: C connections each send one request after
//! another for S seconds (after a short warm-up) and the run prints requests/s and latency percentiles
//! as one JSON line. The same program loads the sandbox and the Prism mock, so the ratio is fair.
//!
//! `loadgen --url URL --key KEY [--method GET|PATCH] [--body JSON] [--connections 16] [--seconds 10]`
use std::time::{Duration, Instant};

struct Args {
    url: String,
    key: String,
    method: reqwest::Method,
    body: Option<String>,
    connections: usize,
    seconds: f64,
    warmup: f64,
}

fn parse_args() -> Args {
    let mut a = Args {
        url: String::new(),
        key: String::new(),
        method: reqwest::Method::GET,
        body: None,
        connections: 16,
        seconds: 10.0,
        warmup: 2.0,
    };
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < argv.len() {
        let v = argv.get(i + 1).cloned().unwrap_or_default();
        match argv[i].as_str() {
            "--url" => a.url = v,
            "--key" => a.key = v,
            "--method" => a.method = v.parse().expect("method"),
            "--body" => a.body = Some(v),
            "--connections" => a.connections = v.parse().expect("connections"),
            "--seconds" => a.seconds = v.parse().expect("seconds"),
            "--warmup" => a.warmup = v.parse().expect("warmup"),
            other => panic!("unknown argument {other}"),
        }
        i += 2;
    }
    assert!(!a.url.is_empty(), "--url is required");
    a
}

#[tokio::main]
async fn main() {
    let args = parse_args();
    let client = reqwest::Client::builder().pool_max_idle_per_host(args.connections).build().unwrap();
    let warm_end = Instant::now() + Duration::from_secs_f64(args.warmup);
    let end = warm_end + Duration::from_secs_f64(args.seconds);
    let mut tasks = Vec::new();
    for _ in 0..args.connections {
        let client = client.clone();
        let (url, key, method, body) = (args.url.clone(), args.key.clone(), args.method.clone(), args.body.clone());
        tasks.push(tokio::spawn(async move {
            let mut lat = Vec::with_capacity(100_000);
            let mut errors = 0u64;
            loop {
                let start = Instant::now();
                if start >= end {
                    break;
                }
                let mut req = client.request(method.clone(), &url).bearer_auth(&key);
                if let Some(b) = &body {
                    req = req.header("content-type", "application/json").body(b.clone());
                }
                let ok = match req.send().await {
                    Ok(resp) => {
                        let good = resp.status().is_success();
                        let _ = resp.bytes().await;
                        good
                    }
                    Err(_) => false,
                };
                if start >= warm_end {
                    lat.push(start.elapsed());
                    if !ok {
                        errors += 1;
                    }
                }
            }
            (lat, errors)
        }));
    }
    let mut all = Vec::new();
    let mut errors = 0;
    for t in tasks {
        let (lat, e) = t.await.unwrap();
        all.extend(lat);
        errors += e;
    }
    all.sort();
    let pct = |p: f64| -> f64 {
        if all.is_empty() {
            return f64::NAN;
        }
        let idx = ((all.len() as f64 * p).ceil() as usize).clamp(1, all.len()) - 1;
        all[idx].as_secs_f64() * 1000.0
    };
    println!(
        "{{\"requests\":{},\"errors\":{},\"rps\":{:.1},\"p50_ms\":{:.3},\"p99_ms\":{:.3},\"max_ms\":{:.3}}}",
        all.len(),
        errors,
        all.len() as f64 / args.seconds,
        pct(0.50),
        pct(0.99),
        pct(1.0)
    );
}
