//! Ctrl-C: the first one asks the count to stop after the work units in progress (the
//! partial counts are then printed); a second one exits at once. The flag is the one piece
//! of process-wide state, and it lives here in the command, not in the library.

use std::sync::atomic::{AtomicBool, Ordering};

/// The exit status after an interruption (128 + SIGINT, as shells report it).
pub const EXIT_INTERRUPTED: u8 = 130;

static STOP: AtomicBool = AtomicBool::new(false);

/// Asks the count to stop as a first Ctrl-C does: for a failure that makes going on
/// pointless (a result that cannot be written).
pub fn stop_now() {
    STOP.store(true, Ordering::SeqCst);
}

/// Whether a stop was asked for (Ctrl-C, or [`stop_now`]).
pub fn requested() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// Installs the handler (once; later calls just return the flag) and returns the flag the
/// count polls.
pub fn install() -> &'static AtomicBool {
    // Failure (another handler already set) leaves Ctrl-C at its default, killing the
    // process: still a way to stop, just without the partial counts.
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(i32::from(EXIT_INTERRUPTED));
        }
    });
    &STOP
}
