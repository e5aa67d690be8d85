//! Long work on stderr, at a terminal only (or with `--verbose`): a render's status, time so far and the
//! next check (the adaptive cadence, never a fixed 3 s); pages fetched. Piped, stderr stays quiet.
use contentdesk_ops::{Progress, ProgressEvent};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::time::Duration;

pub struct Line {
    bar: ProgressBar,
    /// Plain lines instead of a redrawn one (`--verbose` when stderr is not a terminal).
    plain: bool,
}

impl Line {
    /// `None`: nothing is shown.
    pub fn new(terminal: bool, verbose: bool) -> Option<Line> {
        if terminal {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.set_style(ProgressStyle::with_template("{spinner} {elapsed} {msg}").unwrap_or_else(|_| ProgressStyle::default_spinner()));
            bar.enable_steady_tick(Duration::from_millis(120));
            Some(Line { bar, plain: false })
        } else if verbose {
            Some(Line { bar: ProgressBar::hidden(), plain: true })
        } else {
            None
        }
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    fn say(&self, text: String) {
        if self.plain {
            eprintln!("{text}");
        } else {
            self.bar.set_message(text);
        }
    }
}

impl Progress for Line {
    fn event(&self, event: ProgressEvent) {
        match event {
            ProgressEvent::Submitted { output_id } => self.say(format!("submitted · outputId {output_id}")),
            ProgressEvent::Polled { output_id, status, elapsed, next_in } => {
                let next = next_in.map(|d| format!(" · next check in {:.0} s", d.as_secs_f64().ceil())).unwrap_or_default();
                // At a terminal the line's own clock shows the time; plain lines say it.
                let at = if self.plain { format!(" · {} s", elapsed.as_secs()) } else { String::new() };
                self.say(format!("{status}{at}{next} · {output_id}"));
            }
            ProgressEvent::Page { fetched, total } => match total {
                Some(t) => self.say(format!("fetched {fetched} of {t}")),
                None => self.say(format!("fetched {fetched}")),
            },
        }
    }
}
