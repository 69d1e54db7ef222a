//! Interrupts: SIGINT (Ctrl-C) and SIGTERM during a run.
//!
//! A run that is interrupted stops sending requests, kills the engine's
//! process group, and still writes its report, with the cases it did not
//! finish marked `not-run`; the program then exits with 128 + the signal
//! (130 for SIGINT, 143 for SIGTERM). A second signal ends the program at
//! once.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// The signal received, or 0.
fn flag() -> &'static Arc<AtomicUsize> {
    static FLAG: OnceLock<Arc<AtomicUsize>> = OnceLock::new();
    FLAG.get_or_init(|| Arc::new(AtomicUsize::new(0)))
}

/// Starts watching for SIGINT and SIGTERM. Safe to call more than once.
pub fn install() -> std::io::Result<()> {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    if INSTALLED.get().is_some() {
        return Ok(());
    }
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGINT, SIGTERM};
        use signal_hook::flag;
        let caught = Arc::new(std::sync::atomic::AtomicBool::new(false));
        for sig in [SIGINT, SIGTERM] {
            // The second signal exits at once; the first is recorded.
            flag::register_conditional_shutdown(sig, 128 + sig, Arc::clone(&caught))?;
            flag::register(sig, Arc::clone(&caught))?;
            flag::register_usize(sig, Arc::clone(flag()), sig as usize)?;
        }
    }
    let _ = INSTALLED.set(());
    Ok(())
}

/// The signal that interrupted the run, if one did.
pub fn signal() -> Option<i32> {
    match flag().load(Ordering::Relaxed) {
        0 => None,
        s => Some(s as i32),
    }
}

/// The signal's name, for the report.
pub fn signal_name(sig: i32) -> &'static str {
    match sig {
        2 => "SIGINT",
        15 => "SIGTERM",
        _ => "a signal",
    }
}

/// Records an interrupt as if the signal had come (for tests).
pub fn simulate(sig: i32) {
    flag().store(sig as usize, Ordering::Relaxed);
}

/// How often a waiting engine driver looks at the flag.
pub const POLL: std::time::Duration = std::time::Duration::from_millis(100);
