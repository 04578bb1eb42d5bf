//! Progress of long counts on stderr: an indicatif bar when stderr is a terminal, plain
//! `progress:` lines when it is not (a log file, a batch system), nothing for runs under a
//! second or when the caller turns it off (`--json`).
//!
//! The count runs on a scoped thread; this thread wakes a few times a second to draw, so
//! plain lines keep coming even while long work units are being counted. It also keeps
//! Ctrl-C's promise: if the count has not returned [`GRACE`] after a stop request (a deep
//! unit, a thread count far above the cores), the caller's `late` output is written and
//! the process exits without waiting for the workers or freeing the table.

use crate::interrupt;
use constmove::deep::Progress;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Runs shorter than this show no progress at all.
const QUIET_START: Duration = Duration::from_secs(1);
/// How often the bar (or the check for a plain line) is refreshed.
const TICK: Duration = Duration::from_millis(200);
/// How often the stop flag is looked at while the count runs.
const POLL: Duration = Duration::from_millis(25);
/// How long a stopped count may take to return before the process exits without it:
/// with the exit itself, Ctrl-C ends the run within a second.
pub const GRACE: Duration = Duration::from_millis(650);

/// The latest progress, written by the workers and read by the reporter.
#[derive(Default)]
struct Shared {
    units_done: AtomicUsize,
    units_total: AtomicUsize,
    nodes: AtomicU64,
}

impl Shared {
    /// Workers report out of order; the largest values are the newest.
    fn update(&self, progress: Progress) {
        self.units_done
            .fetch_max(progress.units_done, Ordering::Relaxed);
        self.units_total
            .store(progress.units_total, Ordering::Relaxed);
        self.nodes.fetch_max(progress.nodes, Ordering::Relaxed);
    }

    fn snapshot(&self) -> Progress {
        Progress {
            units_done: self.units_done.load(Ordering::Relaxed),
            units_total: self.units_total.load(Ordering::Relaxed),
            nodes: self.nodes.load(Ordering::Relaxed),
        }
    }
}

/// Runs `work`, handing it the progress callback to pass to the library, and reports its
/// progress on stderr while it runs if `show` is set. If a stop was requested and `work`
/// has not returned [`GRACE`] later, `late` writes what can be said (it gets the last
/// progress) and the process exits with the status it returns.
pub fn run<T: Send>(
    show: bool,
    units_total: usize,
    late: &dyn Fn(Progress) -> u8,
    work: impl FnOnce(&(dyn Fn(Progress) + Sync)) -> T + Send,
) -> T {
    let shared = Shared::default();
    shared.units_total.store(units_total, Ordering::Relaxed);
    let (finished, wait) = mpsc::channel::<()>();
    std::thread::scope(|scope| {
        let counter = scope.spawn(|| {
            let result = work(&|progress| shared.update(progress));
            // The reporter may be gone already (not shown); nothing to tell then.
            let _ = finished.send(());
            result
        });
        watch(show, &shared, &wait, late);
        match counter.join() {
            Ok(result) => result,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// Draws (if `show`) and watches the stop flag until the count finishes.
fn watch(show: bool, shared: &Shared, wait: &mpsc::Receiver<()>, late: &dyn Fn(Progress) -> u8) {
    let start = Instant::now();
    let terminal = std::io::stderr().is_terminal();
    let mut bar: Option<ProgressBar> = None;
    let mut next_line = QUIET_START;
    let mut next_draw = Duration::ZERO;
    let mut stop_seen: Option<Instant> = None;
    // Until the count reports that it finished (or its thread is gone).
    while let Err(RecvTimeoutError::Timeout) = wait.recv_timeout(POLL) {
        if interrupt::requested() {
            let since = *stop_seen.get_or_insert_with(Instant::now);
            if since.elapsed() >= GRACE {
                if let Some(bar) = &bar {
                    bar.finish_and_clear();
                }
                let status = late(shared.snapshot());
                std::process::exit(i32::from(status));
            }
        }
        let elapsed = start.elapsed();
        if !show || elapsed < QUIET_START || elapsed < next_draw {
            continue;
        }
        next_draw = elapsed + TICK;
        let now = shared.snapshot();
        let rate = now.nodes as f64 / elapsed.as_secs_f64();
        let message = format!("{} nodes, {:.1} Mnps", now.nodes, rate / 1e6);
        let eta =
            eta(elapsed, now).map_or_else(|| "?".to_owned(), |eta| format!("{}s", eta.as_secs()));
        if terminal {
            let bar = bar.get_or_insert_with(|| new_bar(now.units_total));
            bar.set_length(now.units_total as u64);
            bar.set_position(now.units_done as u64);
            bar.set_message(bar_message(&message, &eta));
        } else if elapsed >= next_line {
            // A closed stderr must not stop the count.
            let _ = writeln!(
                std::io::stderr(),
                "progress: {}/{} units, {message}, elapsed {}s, ETA {eta}",
                now.units_done,
                now.units_total,
                elapsed.as_secs(),
            );
            next_line = elapsed + line_interval(elapsed);
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
}

/// The bar's text after the units: our ETA, not indicatif's, which extrapolates from no
/// finished unit at all (`ETA 0s` at 0 of 8902 units).
fn bar_message(message: &str, eta: &str) -> String {
    format!("{message}, ETA {eta}")
}

/// A bar of `units` work units with nodes, speed and ETA (in the message).
fn new_bar(units: usize) -> ProgressBar {
    let style = ProgressStyle::with_template(BAR_TEMPLATE)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
    ProgressBar::new(units as u64).with_style(style)
}

/// The bar's layout; the ETA is part of the message (see [`bar_message`]).
const BAR_TEMPLATE: &str = "{elapsed_precise} [{wide_bar}] {pos}/{len} units, {msg}";

/// Plain lines every second at first, then less often, so a log of a long run stays short.
fn line_interval(elapsed: Duration) -> Duration {
    match elapsed.as_secs() {
        0..60 => Duration::from_secs(1),
        60..600 => Duration::from_secs(10),
        _ => Duration::from_secs(60),
    }
}

/// The remaining time if units keep finishing at the rate so far (units go largest first,
/// so this errs long).
fn eta(elapsed: Duration, now: Progress) -> Option<Duration> {
    if now.units_done == 0 {
        return None;
    }
    let left = now.units_total.saturating_sub(now.units_done) as f64;
    Some(elapsed.mul_f64(left / now.units_done as f64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eta_scales_with_units_left() {
        let now = Progress {
            units_done: 10,
            units_total: 30,
            nodes: 0,
        };
        assert_eq!(
            eta(Duration::from_secs(5), now),
            Some(Duration::from_secs(10))
        );
        let none_done = Progress {
            units_done: 0,
            ..now
        };
        assert_eq!(eta(Duration::from_secs(5), none_done), None);
    }

    #[test]
    fn the_bar_shows_no_eta_before_a_unit_is_done() {
        assert!(!BAR_TEMPLATE.contains("{eta"), "{BAR_TEMPLATE}");
        let none_done = Progress {
            units_done: 0,
            units_total: 8902,
            nodes: 0,
        };
        let eta = eta(Duration::from_secs(3), none_done)
            .map_or_else(|| "?".to_owned(), |eta| format!("{}s", eta.as_secs()));
        assert_eq!(bar_message("0 nodes", &eta), "0 nodes, ETA ?");
    }

    #[test]
    fn runs_the_work_without_reporting() {
        assert_eq!(
            run(false, 3, &|_| 0, |on_unit| {
                on_unit(Progress {
                    units_done: 1,
                    units_total: 3,
                    nodes: 5,
                });
                7
            }),
            7
        );
    }
}
