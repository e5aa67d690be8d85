//! A closed-loop HTTP/1.1 load generator for the benchmarks: C keep-alive connections each send one
//! request after another for S seconds (after a short warm-up) and the run prints requests/s and latency
//! percentiles as one JSON line. The same program loads the sandbox and the Prism mock, so the ratio is fair.
//!
//! It shares the machine's cores with the server it measures, so it spends as little as it can: one thread
//! (a current-thread runtime), each request's bytes made once, the answer read straight off the socket
//! (status line, `Content-Length` or chunked body) with no HTTP client library in between. Before it, a
//! reqwest client on two threads took ~42 µs of CPU per request, about as much as the sandbox itself, and its
//! threads preempted the server's (the p99 of a run was mostly theirs).
//!
//! `loadgen --url URL --key KEY [--method GET|PATCH] [--body JSON] [--connections 16] [--seconds 10]`
use std::time::{Duration, Instant};
use tokio::net::TcpStream;

struct Args {
    url: String,
    key: String,
    method: String,
    body: Option<String>,
    connections: usize,
    seconds: f64,
    warmup: f64,
}

fn parse_args() -> Args {
    let mut a = Args {
        url: String::new(),
        key: String::new(),
        method: "GET".into(),
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
            "--method" => a.method = v.to_uppercase(),
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

/// `(host:port, path)` of an `http://` URL.
fn split_url(url: &str) -> (String, String) {
    let rest = url.strip_prefix("http://").expect("an http:// URL (the benchmarks run on loopback, no TLS)");
    match rest.find('/') {
        Some(i) => (rest[..i].to_string(), rest[i..].to_string()),
        None => (rest.to_string(), "/".to_string()),
    }
}

fn request_bytes(a: &Args, host: &str, path: &str) -> Vec<u8> {
    let mut r = format!("{} {path} HTTP/1.1\r\nhost: {host}\r\nauthorization: Bearer {}\r\naccept: */*\r\n", a.method, a.key);
    match &a.body {
        Some(b) => r.push_str(&format!("content-type: application/json\r\ncontent-length: {}\r\n\r\n{b}", b.len())),
        None => r.push_str("\r\n"),
    }
    r.into_bytes()
}

/// One connection's socket and read buffer.
struct Conn {
    stream: TcpStream,
    buf: Vec<u8>,
}

impl Conn {
    async fn open(host: &str) -> std::io::Result<Conn> {
        let stream = TcpStream::connect(host).await?;
        stream.set_nodelay(true)?;
        Ok(Conn { stream, buf: Vec::with_capacity(16 * 1024) })
    }

    async fn write_all(&mut self, mut bytes: &[u8]) -> std::io::Result<()> {
        while !bytes.is_empty() {
            match self.stream.try_write(bytes) {
                Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
                Ok(n) => bytes = &bytes[n..],
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => self.stream.writable().await?,
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Reads more bytes into the buffer; an error at the end of the stream.
    async fn fill(&mut self) -> std::io::Result<()> {
        let len = self.buf.len();
        self.buf.resize(len + 16 * 1024, 0);
        loop {
            match self.stream.try_read(&mut self.buf[len..]) {
                Ok(0) => {
                    self.buf.truncate(len);
                    return Err(std::io::ErrorKind::UnexpectedEof.into());
                }
                Ok(n) => {
                    self.buf.truncate(len + n);
                    return Ok(());
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    if let Err(e) = self.stream.readable().await {
                        self.buf.truncate(len);
                        return Err(e);
                    }
                }
                Err(e) => {
                    self.buf.truncate(len);
                    return Err(e);
                }
            }
        }
    }

    /// Reads one whole response; `(status, keep the connection)`.
    async fn response(&mut self) -> std::io::Result<(u16, bool)> {
        let head_end = loop {
            if let Some(i) = find(&self.buf, b"\r\n\r\n") {
                break i + 4;
            }
            self.fill().await?;
        };
        let head = std::str::from_utf8(&self.buf[..head_end]).map_err(|_| bad("a head that is not UTF-8"))?;
        let status: u16 = head.get(9..12).and_then(|s| s.parse().ok()).ok_or_else(|| bad("no status line"))?;
        let (mut length, mut chunked, mut keep) = (None, false, true);
        for line in head.split("\r\n").skip(1) {
            let Some((name, value)) = line.split_once(':') else { continue };
            let value = value.trim();
            if name.eq_ignore_ascii_case("content-length") {
                length = Some(value.parse::<usize>().map_err(|_| bad("a bad content-length"))?);
            } else if name.eq_ignore_ascii_case("transfer-encoding") {
                chunked = value.eq_ignore_ascii_case("chunked");
            } else if name.eq_ignore_ascii_case("connection") {
                keep = !value.eq_ignore_ascii_case("close");
            }
        }
        self.buf.drain(..head_end);
        if chunked {
            loop {
                let line_end = loop {
                    if let Some(i) = find(&self.buf, b"\r\n") {
                        break i;
                    }
                    self.fill().await?;
                };
                let size_text = std::str::from_utf8(&self.buf[..line_end]).map_err(|_| bad("a bad chunk size"))?;
                let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16)
                    .map_err(|_| bad("a bad chunk size"))?;
                // The size line, the chunk and its CRLF (the last chunk: no data, then the final CRLF).
                let whole = line_end + 2 + size + 2;
                while self.buf.len() < whole {
                    self.fill().await?;
                }
                self.buf.drain(..whole);
                if size == 0 {
                    break;
                }
            }
        } else {
            let length = length.ok_or_else(|| bad("neither content-length nor chunked"))?;
            while self.buf.len() < length {
                self.fill().await?;
            }
            self.buf.drain(..length);
        }
        Ok((status, keep))
    }
}

fn bad(what: &str) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, format!("the server sent {what}"))
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn main() {
    let args = parse_args();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    runtime.block_on(run(args));
}

async fn run(args: Args) {
    let (host, path) = split_url(&args.url);
    let request: std::rc::Rc<[u8]> = request_bytes(&args, &host, &path).into();
    let warm_end = Instant::now() + Duration::from_secs_f64(args.warmup);
    let end = warm_end + Duration::from_secs_f64(args.seconds);
    let local = tokio::task::LocalSet::new();
    let mut tasks = Vec::new();
    for _ in 0..args.connections {
        let (host, request) = (host.clone(), request.clone());
        tasks.push(local.spawn_local(async move {
            let mut lat = Vec::with_capacity(400_000);
            let mut errors = 0u64;
            let mut sent = 0u64;
            let mut conn: Option<Conn> = None;
            loop {
                let start = Instant::now();
                if start >= end {
                    break;
                }
                let outcome = async {
                    if conn.is_none() {
                        conn = Some(Conn::open(&host).await?);
                    }
                    let c = conn.as_mut().expect("opened above");
                    c.write_all(&request).await?;
                    c.response().await
                }
                .await;
                sent += 1;
                let ok = match outcome {
                    Ok((status, keep)) => {
                        if !keep {
                            conn = None;
                        }
                        (200..300).contains(&status)
                    }
                    Err(_) => {
                        conn = None;
                        false
                    }
                };
                if start >= warm_end {
                    lat.push(start.elapsed());
                    if !ok {
                        errors += 1;
                    }
                }
            }
            (lat, errors, sent)
        }));
    }
    let (all, errors, sent) = local
        .run_until(async {
            let mut all = Vec::new();
            let (mut errors, mut sent) = (0, 0);
            for t in tasks {
                let (lat, e, n) = t.await.expect("connection task");
                all.extend(lat);
                errors += e;
                sent += n;
            }
            (all, errors, sent)
        })
        .await;
    // This thread's CPU time over the whole run, warm-up included (the kernel's schedstat, in ns), per
    // request sent: what the load itself took from the cores it shares with the server.
    let cpu_us = thread_cpu_ns().map(|ns| ns as f64 / 1000.0 / sent.max(1) as f64);
    let mut all = all;
    all.sort();
    let pct = |p: f64| -> f64 {
        if all.is_empty() {
            return f64::NAN;
        }
        let idx = ((all.len() as f64 * p).ceil() as usize).clamp(1, all.len()) - 1;
        all[idx].as_secs_f64() * 1000.0
    };
    println!(
        "{{\"requests\":{},\"errors\":{},\"rps\":{:.1},\"p50_ms\":{:.3},\"p99_ms\":{:.3},\"max_ms\":{:.3},\"load_cpu_us\":{}}}",
        all.len(),
        errors,
        all.len() as f64 / args.seconds,
        pct(0.50),
        pct(0.99),
        pct(1.0),
        cpu_us.map(|c| format!("{c:.1}")).unwrap_or_else(|| "null".into())
    );
}

/// The CPU time of the calling thread so far, in ns (`/proc/thread-self/schedstat`, Linux).
fn thread_cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat").ok()?.split_whitespace().next()?.parse().ok()
}
