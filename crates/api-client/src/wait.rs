//! Waiting for a render: poll `GET /studio/generate/{outputId}` with a growing interval until it is
//! done, the deadline passes or the caller cancels. Done is `completed` with `settled` not `false` (the
//! charge is final), `failed`, or the newest era's `abandoned`; a status this build does not know is
//! polled on like `processing`. The first interval is the reply's
//! `pollAfterSeconds` when it gives one (clients must not need it, facts 3.3), else a default per kind;
//! each next one is ×1.5 up to a cap. The deadline also cuts a status read in flight.
use crate::error::{ApiError, Result};
use crate::Client;
use api_types::{ContentType, Generation, GenerationStatus};
use std::time::Duration;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

/// Called after each status read with what was read and how long until the next read (`None`: done).
pub type OnPoll = std::sync::Arc<dyn Fn(&Generation, Option<Duration>) + Send + Sync>;

#[derive(Clone)]
pub struct WaitOptions {
    /// The first interval; `None`: `pollAfterSeconds`, else the default for the kind.
    pub initial: Option<Duration>,
    /// The longest interval.
    pub cap: Duration,
    /// How long to wait in all (the CLI's default is 600 s).
    pub deadline: Duration,
    pub cancel: CancellationToken,
    /// Progress: each read and the next interval (a terminal's progress line, an agent's notification).
    pub on_poll: Option<OnPoll>,
}

impl std::fmt::Debug for WaitOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WaitOptions")
            .field("initial", &self.initial)
            .field("cap", &self.cap)
            .field("deadline", &self.deadline)
            .field("on_poll", &self.on_poll.is_some())
            .finish_non_exhaustive()
    }
}

impl Default for WaitOptions {
    fn default() -> Self {
        WaitOptions {
            initial: None,
            cap: Duration::from_secs(15),
            deadline: Duration::from_secs(600),
            cancel: CancellationToken::new(),
            on_poll: None,
        }
    }
}

/// The finished generation and how many status reads it took.
#[derive(Debug, Clone)]
pub struct WaitOutcome {
    pub generation: Generation,
    pub polls: u32,
}

pub const GROWTH: f64 = 1.5;

/// The first interval when the server gives no hint: images and audio are quick, video, boards and
/// lip-sync are not.
pub fn default_interval(g: &Generation) -> Duration {
    let model = g.model_id.as_deref().unwrap_or("").to_ascii_lowercase();
    let slow_model = ["board", "lip-sync", "lipsync", "infinitalk", "avatar"]
        .iter()
        .any(|m| model.contains(m));
    match g.content_type.as_ref().and_then(|c| c.get()) {
        Some(ContentType::Video) => Duration::from_secs(5),
        _ if slow_model => Duration::from_secs(5),
        Some(ContentType::Image | ContentType::Audio) => Duration::from_secs(2),
        // A kind this build does not know: the slower default.
        None => Duration::from_secs(5),
    }
}

/// The interval after `current`.
pub fn next_interval(current: Duration, cap: Duration) -> Duration {
    current.mul_f64(GROWTH).min(cap)
}

pub(crate) async fn wait(
    client: &Client,
    output_id: &str,
    opts: WaitOptions,
) -> Result<WaitOutcome> {
    let deadline = Instant::now() + opts.deadline;
    let timeout = || ApiError::GenerationTimeout {
        output_id: output_id.to_string(),
    };
    let cancelled = || ApiError::Cancelled {
        output_id: output_id.to_string(),
    };
    let mut polls = 0u32;
    let studio = client.studio();
    let mut next_sleep: Option<Duration> = opts.initial;
    loop {
        if opts.cancel.is_cancelled() {
            return Err(cancelled());
        }
        let read = tokio::select! {
            biased;
            _ = opts.cancel.cancelled() => return Err(cancelled()),
            r = tokio::time::timeout_at(deadline, studio.status(output_id)) => match r {
                Ok(r) => r?,
                Err(_) => return Err(timeout()),
            },
        };
        polls += 1;
        if read.is_done() {
            if let Some(f) = &opts.on_poll {
                f(&read, None);
            }
            if read.status == GenerationStatus::Failed {
                return Err(ApiError::GenerationFailed {
                    output_id: output_id.to_string(),
                    error: read.error,
                });
            }
            // Completed and settled, or abandoned (terminal, not a failure: the caller reads the status).
            return Ok(WaitOutcome {
                generation: read,
                polls,
            });
        }
        let now = Instant::now();
        if now >= deadline {
            return Err(timeout());
        }
        let step = next_sleep
            .unwrap_or_else(|| {
                read.poll_after_seconds
                    .filter(|s| s.is_finite() && *s > 0.0)
                    .map(Duration::from_secs_f64)
                    .unwrap_or_else(|| default_interval(&read))
            })
            .min(opts.cap);
        next_sleep = Some(next_interval(step, opts.cap));
        let sleep_for = step.min(deadline - now);
        if let Some(f) = &opts.on_poll {
            f(&read, Some(sleep_for));
        }
        tokio::select! {
            biased;
            _ = opts.cancel.cancelled() => return Err(cancelled()),
            _ = tokio::time::sleep(sleep_for) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_grow_by_half_to_the_cap() {
        let cap = Duration::from_secs(15);
        let mut d = Duration::from_secs(2);
        let mut seen = vec![d.as_secs_f64()];
        for _ in 0..6 {
            d = next_interval(d, cap);
            seen.push(d.as_secs_f64());
        }
        assert_eq!(seen, vec![2.0, 3.0, 4.5, 6.75, 10.125, 15.0, 15.0]);
    }
}
