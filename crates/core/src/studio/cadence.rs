//! How often a running render is asked about: the service's hint, bounded, growing while it runs long.
use super::*;

/// The shortest wait between two reads, whatever the server hints.
pub const MIN_POLL: Duration = Duration::from_millis(250);
/// The longest a server hint is followed for; own intervals stop growing at [`OWN_CAP`].
pub const MAX_HINT: Duration = Duration::from_secs(30);
pub const OWN_CAP: Duration = Duration::from_secs(15);

/// The wait before the next read, in order of what is known:
/// 1. the server's `pollAfterSeconds` (clamped to [`MIN_POLL`, `MAX_HINT`]);
/// 2. with no hint, how long this model's renders took here before (`typical`, the shortest of the last
///    few): wait until then (at most [`MAX_HINT`] at a time), then look every [`AFTER_TYPICAL`] growing;
/// 3. else this app's own interval: the kind's default, growing ×1.5 to [`OWN_CAP`].
#[derive(Debug, Default, Clone)]
pub struct Cadence {
    pub(super) own: Option<Duration>,
    pub(super) past_typical: bool,
}

/// The first interval once a render has run past its model's typical time.
pub const AFTER_TYPICAL: Duration = Duration::from_secs(2);

impl Cadence {
    pub fn next(&mut self, hint: Option<f64>, first: Duration) -> Duration {
        self.next_known(hint, first, Duration::ZERO, None)
    }

    /// `elapsed`: since the job was made; `typical`: how long this model's renders took before.
    pub fn next_known(&mut self, hint: Option<f64>, first: Duration, elapsed: Duration, typical: Option<Duration>) -> Duration {
        if let Some(h) = hint.filter(|h| h.is_finite() && *h > 0.0) {
            return Duration::from_secs_f64(h).clamp(MIN_POLL, MAX_HINT);
        }
        let mut first = first;
        if let Some(t) = typical {
            if elapsed + MIN_POLL < t {
                return (t - elapsed).clamp(MIN_POLL, MAX_HINT);
            }
            if !self.past_typical {
                self.past_typical = true;
                self.own = None;
            }
            first = AFTER_TYPICAL;
        }
        let d = match self.own {
            None => first.min(OWN_CAP),
            Some(d) => next_interval(d, OWN_CAP),
        };
        self.own = Some(d);
        d
    }
}

pub(super) fn first_interval(job: &StudioJob) -> Duration {
    let g = Generation {
        output_id: job.output_id.clone(),
        status: GenerationStatus::Processing.into(),
        content_type: Some(job.content_type.into()),
        model_id: Some(job.model_id.clone()),
        output_urls: Vec::new(),
        error: None,
        created_at: None,
        completed_at: None,
        settled: None,
        poll_after_seconds: None,
        credits_charged: None,
        outputs: Vec::new(),
        charge: None,
    };
    default_interval(&g)
}
