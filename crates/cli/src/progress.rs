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
            ProgressEvent::Bytes { done, total } => {
                let pct = (done * 100).checked_div(total).unwrap_or(100);
                self.say(format!("uploaded {} of {} · {pct} %", size(done), size(total)));
            }
            ProgressEvent::Step { what, done, total } => self.say(format!("{what} {done} of {total}")),
        }
    }
}

/// A byte count as people read it (1 KB = 1000 bytes, as file managers show).
fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1_000_000_000 => format!("{:.1} GB", b as f64 / 1e9),
        b if b >= 1_000_000 => format!("{:.1} MB", b as f64 / 1e6),
        b if b >= 1_000 => format!("{:.0} KB", b as f64 / 1e3),
        b => format!("{b} B"),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn sizes_read_as_people_read_them() {
        assert_eq!(super::size(512), "512 B");
        assert_eq!(super::size(65_536), "66 KB");
        assert_eq!(super::size(5_242_880), "5.2 MB");
        assert_eq!(super::size(3_000_000_000), "3.0 GB");
    }
}
