//! When to send a request again, as one pure function (`decide`) with a table of tests. The sender
//! (`http.rs`) feeds it what happened and sleeps for what it answers; nothing here touches the network
//! or the clock, and the random jitter is passed in.
//!
//! The rules (docs/api.md, facts 1.5/1.6):
//! - 429: always retried (the server refused before doing anything). The wait is the body's
//!   `retryAfter`, else the `Retry-After` header, else backoff. A wait longer than `max_wait` is not
//!   slept: the caller gets `RateLimited` with the server's hint instead.
//! - 5xx: retried only for idempotent requests (GET, and generation calls that carry an `outputId`), so
//!   a write that may have landed is never sent twice.
//! - Network failures (connect, timeout, dropped connection): same rule as 5xx.
//! - Any other 4xx: never retried.
use std::time::{Duration, SystemTime};

#[derive(Debug, Clone, PartialEq)]
pub struct RetryConfig {
    /// Attempts in all, the first one included. 1 = never retry.
    pub max_attempts: u32,
    /// First backoff step.
    pub base: Duration,
    pub factor: f64,
    /// Largest backoff step (before jitter).
    pub cap: Duration,
    /// Longest single wait the client will sleep, whatever the server asks.
    pub max_wait: Duration,
}

impl Default for RetryConfig {
    fn default() -> Self {
        RetryConfig {
            max_attempts: 4,
            base: Duration::from_millis(250),
            factor: 2.0,
            cap: Duration::from_secs(8),
            max_wait: Duration::from_secs(30),
        }
    }
}

impl RetryConfig {
    /// One attempt, no retries.
    pub fn none() -> Self {
        RetryConfig {
            max_attempts: 1,
            ..RetryConfig::default()
        }
    }
}

/// What kind of network failure happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NetworkKind {
    /// The connection could not be made (nothing was sent).
    Connect,
    /// The request or the body read took longer than the timeout.
    Timeout,
    /// The connection broke while sending or reading.
    Dropped,
    Other,
}

/// What one attempt ended with.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// An HTTP status that is not a success, with the body's `retryAfter` (seconds) and the parsed
    /// `Retry-After` header.
    Status(u16, Option<f64>, Option<Duration>),
    Network(NetworkKind),
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Decision {
    Retry(Duration),
    GiveUp,
}

/// `attempt` is the 1-based number of the attempt that just ended; `jitter` is in `[0, 1)`.
pub fn decide(
    attempt: u32,
    outcome: &Outcome,
    idempotent: bool,
    cfg: &RetryConfig,
    jitter: f64,
) -> Decision {
    if attempt >= cfg.max_attempts {
        return Decision::GiveUp;
    }
    let wait = match outcome {
        Outcome::Status(429, body, header) => {
            server_hint(*body, *header).unwrap_or_else(|| backoff(attempt, cfg, jitter))
        }
        Outcome::Status(code, body, header) if (500..=599).contains(code) && idempotent => {
            // A 503 may say when to come back; other 5xx back off.
            server_hint(*body, *header).unwrap_or_else(|| backoff(attempt, cfg, jitter))
        }
        Outcome::Network(_) if idempotent => backoff(attempt, cfg, jitter),
        _ => return Decision::GiveUp,
    };
    if wait > cfg.max_wait {
        return Decision::GiveUp;
    }
    Decision::Retry(wait)
}

/// The body's `retryAfter` first (what the SDK reads), then the header.
fn server_hint(body: Option<f64>, header: Option<Duration>) -> Option<Duration> {
    body.filter(|s| s.is_finite() && *s >= 0.0)
        .map(Duration::from_secs_f64)
        .or(header)
}

/// Exponential backoff with full jitter: a uniform wait in `[0, min(cap, base · factor^(attempt-1)))`.
pub fn backoff(attempt: u32, cfg: &RetryConfig, jitter: f64) -> Duration {
    let exp = cfg.base.as_secs_f64() * cfg.factor.powi(attempt.saturating_sub(1).min(62) as i32);
    let step = exp.min(cfg.cap.as_secs_f64());
    Duration::from_secs_f64(step * jitter.clamp(0.0, 1.0))
}

/// `Retry-After` as whole seconds or an HTTP date (relative to `now`); a date in the past is zero.
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    if let Ok(secs) = value.parse::<f64>() {
        return (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;
    use Decision::*;
    use NetworkKind::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn decision_table() {
        let cfg = RetryConfig::default();
        let s = |code| Outcome::Status(code, None, None);
        // (name, attempt, outcome, idempotent, jitter, expected)
        let rows: Vec<(&str, u32, Outcome, bool, f64, Decision)> = vec![
            // 429: always retried, the body's retryAfter first
            (
                "429 body retryAfter",
                1,
                Outcome::Status(429, Some(1.5), Some(ms(4000))),
                false,
                0.5,
                Retry(ms(1500)),
            ),
            (
                "429 header only",
                1,
                Outcome::Status(429, None, Some(ms(3000))),
                false,
                0.5,
                Retry(ms(3000)),
            ),
            (
                "429 no hint backs off",
                1,
                s(429),
                false,
                0.5,
                Retry(ms(125)),
            ),
            (
                "429 no hint, attempt 3",
                3,
                s(429),
                true,
                0.5,
                Retry(ms(500)),
            ),
            (
                "429 zero retryAfter",
                1,
                Outcome::Status(429, Some(0.0), None),
                false,
                0.9,
                Retry(ms(0)),
            ),
            (
                "429 negative retryAfter ignored",
                1,
                Outcome::Status(429, Some(-1.0), Some(ms(2000))),
                false,
                0.5,
                Retry(ms(2000)),
            ),
            (
                "429 asks longer than max_wait",
                1,
                Outcome::Status(429, Some(120.0), None),
                true,
                0.5,
                GiveUp,
            ),
            (
                "429 on the last attempt",
                4,
                Outcome::Status(429, Some(1.0), None),
                true,
                0.5,
                GiveUp,
            ),
            // 5xx: only idempotent requests
            ("500 GET", 1, s(500), true, 0.5, Retry(ms(125))),
            ("502 GET attempt 2", 2, s(502), true, 0.5, Retry(ms(250))),
            (
                "503 GET with retryAfter",
                1,
                Outcome::Status(503, Some(2.0), None),
                true,
                0.5,
                Retry(ms(2000)),
            ),
            ("504 GET", 1, s(504), true, 0.0, Retry(ms(0))),
            ("500 POST without outputId", 1, s(500), false, 0.5, GiveUp),
            (
                "503 POST without outputId",
                1,
                Outcome::Status(503, Some(1.0), None),
                false,
                0.5,
                GiveUp,
            ),
            ("500 GET last attempt", 4, s(500), true, 0.5, GiveUp),
            // other 4xx: never
            ("400", 1, s(400), true, 0.5, GiveUp),
            ("401", 1, s(401), true, 0.5, GiveUp),
            ("402", 1, s(402), true, 0.5, GiveUp),
            ("403", 1, s(403), true, 0.5, GiveUp),
            ("404", 1, s(404), true, 0.5, GiveUp),
            ("408", 1, s(408), true, 0.5, GiveUp),
            ("409", 1, s(409), true, 0.5, GiveUp),
            ("413", 1, s(413), true, 0.5, GiveUp),
            // network: only idempotent requests
            (
                "connect GET",
                1,
                Outcome::Network(Connect),
                true,
                0.5,
                Retry(ms(125)),
            ),
            (
                "timeout GET",
                2,
                Outcome::Network(Timeout),
                true,
                0.5,
                Retry(ms(250)),
            ),
            (
                "dropped GET",
                3,
                Outcome::Network(Dropped),
                true,
                0.5,
                Retry(ms(500)),
            ),
            (
                "other network GET",
                1,
                Outcome::Network(Other),
                true,
                0.5,
                Retry(ms(125)),
            ),
            (
                "connect POST",
                1,
                Outcome::Network(Connect),
                false,
                0.5,
                GiveUp,
            ),
            (
                "dropped POST",
                1,
                Outcome::Network(Dropped),
                false,
                0.5,
                GiveUp,
            ),
            (
                "network last attempt",
                4,
                Outcome::Network(Dropped),
                true,
                0.5,
                GiveUp,
            ),
        ];
        for (name, attempt, outcome, idempotent, jitter, expected) in rows {
            assert_eq!(
                decide(attempt, &outcome, idempotent, &cfg, jitter),
                expected,
                "row: {name}"
            );
        }
    }

    #[test]
    fn backoff_grows_by_the_factor_and_stops_at_the_cap() {
        let cfg = RetryConfig {
            max_attempts: 100,
            ..RetryConfig::default()
        };
        // jitter just under 1 shows the ceiling of each step
        let steps: Vec<u128> = (1..=8)
            .map(|a| backoff(a, &cfg, 0.999_999).as_millis())
            .collect();
        assert_eq!(steps, vec![249, 499, 999, 1999, 3999, 7999, 7999, 7999]);
        assert_eq!(backoff(40, &cfg, 0.5), ms(4000));
        assert_eq!(backoff(1, &cfg, 0.0), ms(0));
    }

    #[test]
    fn max_attempts_is_configurable() {
        let one = RetryConfig::none();
        assert_eq!(
            decide(1, &Outcome::Status(429, Some(0.1), None), true, &one, 0.5),
            GiveUp
        );
        let six = RetryConfig {
            max_attempts: 6,
            ..RetryConfig::default()
        };
        assert_eq!(
            decide(5, &Outcome::Status(500, None, None), true, &six, 0.5),
            Retry(backoff(5, &six, 0.5))
        );
        assert_eq!(
            decide(6, &Outcome::Status(500, None, None), true, &six, 0.5),
            GiveUp
        );
    }

    #[test]
    fn retry_after_header_parses_seconds_and_dates() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(784_111_777); // Sun, 06 Nov 1994 08:49:37 GMT
        assert_eq!(parse_retry_after("3", now), Some(ms(3000)));
        assert_eq!(parse_retry_after(" 0 ", now), Some(ms(0)));
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:49:47 GMT", now),
            Some(ms(10_000))
        );
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:49:00 GMT", now),
            Some(ms(0))
        );
        assert_eq!(parse_retry_after("soon", now), None);
    }
}
