//! Progress of long counts on stderr: an indicatif bar when stderr is a terminal, plain
//! `progress:` lines when it is not (a log file, a batch system), nothing for runs under a
//! second or when the caller turns it off (`--json`).
//!
//! The count runs on a scoped thread; this thread wakes a few times a second to draw, so
//! plain lines keep coming even while long work units are being counted.

use constmove::Progress;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Runs shorter than this show no progress at all.
const QUIET_START: Duration = Duration::from_secs(1);
/// How often the bar (or the check for a plain line) is refreshed.
const TICK: Duration = Duration::from_millis(200);

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
/// progress on stderr while it runs if `show` is set.
pub fn run<T: Send>(
    show: bool,
    units_total: usize,
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
        if show {
            report(&shared, &wait);
        }
        match counter.join() {
            Ok(result) => result,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// Draws until the count finishes.
fn report(shared: &Shared, wait: &mpsc::Receiver<()>) {
    let start = Instant::now();
    let terminal = std::io::stderr().is_terminal();
    let mut bar: Option<ProgressBar> = None;
    let mut next_line = QUIET_START;
    // Until the count reports that it finished (or its thread is gone).
    while let Err(RecvTimeoutError::Timeout) = wait.recv_timeout(TICK) {
        let elapsed = start.elapsed();
        if elapsed < QUIET_START {
            continue;
        }
        let now = shared.snapshot();
        let rate = now.nodes as f64 / elapsed.as_secs_f64();
        let message = format!("{} nodes, {:.1} Mnps", now.nodes, rate / 1e6);
        if terminal {
            let bar = bar.get_or_insert_with(|| new_bar(now.units_total));
            bar.set_length(now.units_total as u64);
            bar.set_position(now.units_done as u64);
            bar.set_message(message);
        } else if elapsed >= next_line {
            let eta = eta(elapsed, now)
                .map_or_else(|| "?".to_owned(), |eta| format!("{}s", eta.as_secs()));
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

/// A bar of `units` work units with nodes, speed and ETA.
fn new_bar(units: usize) -> ProgressBar {
    let style = ProgressStyle::with_template(
        "{elapsed_precise} [{wide_bar}] {pos}/{len} units, {msg}, ETA {eta}",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar())
    .progress_chars("=> ");
    ProgressBar::new(units as u64).with_style(style)
}

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
    fn runs_the_work_without_reporting() {
        assert_eq!(
            run(false, 3, |on_unit| {
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
