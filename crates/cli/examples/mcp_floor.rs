//! A measuring device for scripts/bench_cli.py (d), not a server: the least any stdio MCP server can add to
//! a read tool call. It answers each JSON-RPC line with the service's reply as one text result (less than
//! `cdesk mcp` sends: its short text and the whole reply as `structuredContent`), and does no more than a
//! relay must: blocking reads and writes on one thread, one kept HTTP/1.1 connection written by
//! hand, no JSON parsing (the tool, its argument and the request id are found by string search), no
//! protocol checks, no retries, no TLS. Whatever `cdesk mcp` costs above this relay is its own; what this
//! relay costs above the raw GET is the price of a second process and a second pipe, which no stdio
//! server avoids.
//!
//! It knows the bench's three read tools (`get_balance`, `list_cards` with a limit, `get_brand_kit`) and
//! answers any other request with an empty result. Environment: `CONTENTHERO_BASE_URL` (http:// only) and
//! `CONTENTHERO_API_KEY`.
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;

/// The text after `"key":` (spaces allowed), up to the next `,`, `}` or closing quote.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let at = line.find(&format!("\"{key}\""))? + key.len() + 2;
    let rest = line[at..].trim_start().strip_prefix(':')?.trim_start();
    let (quoted, rest) = match rest.strip_prefix('"') {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let end = rest.find(|c: char| if quoted { c == '"' } else { c == ',' || c == '}' }).unwrap_or(rest.len());
    Some(rest[..end].trim())
}

fn escape(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
}

fn main() -> std::io::Result<()> {
    let key = std::env::var("CONTENTHERO_API_KEY").expect("CONTENTHERO_API_KEY");
    let base = std::env::var("CONTENTHERO_BASE_URL").expect("CONTENTHERO_BASE_URL");
    let rest = base.strip_prefix("http://").expect("an http:// base URL");
    let (authority, prefix) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let socket = TcpStream::connect(authority)?;
    socket.set_nodelay(true)?;
    let mut from_service = BufReader::new(socket.try_clone()?);
    let mut to_service = socket;
    let mut input = std::io::stdin().lock();
    let mut output = std::io::stdout().lock();
    let (mut line, mut header, mut reply) = (String::new(), String::new(), String::new());
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let Some(id) = field(&line, "id") else { continue }; // a notification
        let path = match field(&line, "name") {
            Some("get_balance") => "/account/balance".to_string(),
            Some("list_cards") => format!("/cards?limit={}", field(&line, "limit").unwrap_or("50")),
            Some("get_brand_kit") => format!("/brand-kits/{}", field(&line, "brandKitId").unwrap_or("")),
            _ => {
                writeln!(output, r#"{{"jsonrpc":"2.0","id":{id},"result":{{"protocolVersion":"2025-06-18","capabilities":{{"tools":{{}}}},"serverInfo":{{"name":"mcp_floor","version":"0"}},"tools":[]}}}}"#)?;
                output.flush()?;
                continue;
            }
        };
        write!(to_service, "GET {prefix}{path} HTTP/1.1\r\nhost: {authority}\r\nauthorization: Bearer {key}\r\naccept: application/json\r\n\r\n")?;
        let mut length = 0;
        loop {
            header.clear();
            from_service.read_line(&mut header)?;
            if header == "\r\n" || header.is_empty() {
                break;
            }
            if let Some(v) = header.to_ascii_lowercase().strip_prefix("content-length:") {
                length = v.trim().parse().unwrap_or(0);
            }
        }
        let mut body = vec![0; length];
        from_service.read_exact(&mut body)?;
        reply.clear();
        reply.push_str(r#"{"jsonrpc":"2.0","id":"#);
        reply.push_str(id);
        reply.push_str(r#","result":{"content":[{"type":"text","text":""#);
        escape(&String::from_utf8_lossy(&body), &mut reply);
        reply.push_str("\"}],\"isError\":false}}\n");
        output.write_all(reply.as_bytes())?;
        output.flush()?;
    }
}
