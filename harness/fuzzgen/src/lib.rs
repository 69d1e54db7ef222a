//! Differential fuzzing for hclspec: a structure-aware generator of typed
//! HCL expressions, templates and scopes; oracles for the reference
//! implementation, the real Go HCL library (a persistent child process)
//! and hcl-rs (in process); the comparison through the harness's own
//! `compare`; an allow-list of known differences; minimization; and
//! triage cases in the corpus format.
//!
//! The cargo-fuzz targets in `fuzz/` are thin wrappers around
//! [`targets`]; the tests of this crate run the same code on fixed seeds.

pub mod allow;
pub mod config;
pub mod diff;
pub mod gen;
pub mod invariants;
pub mod minimize;
pub mod oracle;
pub mod runner;
pub mod tokens;
pub mod triage;

pub use config::{Construct, Profile, Swarm};
pub use diff::{Class, DiffResult, Divergence};
pub use oracle::{
    Answer, GoOracle, HclRsOracle, Oracle, OracleKind, ReferenceOracle, TerraformOracle,
};
pub use runner::{Mode, Runner, Target};

/// What the unit tests of several modules share.
#[cfg(test)]
pub(crate) mod test_support {
    use hclspec_protocol::{Kind, Request, Version};

    /// An HCL 2.14 expression request for `source` with an empty scope.
    pub(crate) fn req(source: &str) -> Request {
        Request {
            id: "0".into(),
            kind: Kind::Expression,
            source: source.into(),
            scope: Default::default(),
            hcl_version: Some(Version::V2_14),
            ..Default::default()
        }
    }
}

/// A fixed pseudo-random byte stream (splitmix64): the inputs of the
/// seeded tests, the same on every run.
pub fn seeded_bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut state = seed;
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        out.extend_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    out.truncate(len);
    out
}

/// The fuzz targets' bodies, each on one process-wide [`Runner`] built
/// from the environment (see `fuzz/README.md`).
pub mod targets {
    use std::sync::{Mutex, OnceLock};

    use crate::runner::Runner;

    fn runner() -> std::sync::MutexGuard<'static, Runner> {
        static RUNNER: OnceLock<Mutex<Runner>> = OnceLock::new();
        let m = RUNNER.get_or_init(|| {
            crate::oracle::install_panic_hook();
            Mutex::new(Runner::from_env())
        });
        // A divergence panics while the lock is held; the state is still
        // good for the next input.
        m.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn parse(data: &[u8]) {
        runner().run_parse(data);
    }

    pub fn eval(data: &[u8]) {
        runner().run_eval(data);
    }

    pub fn diff_go(data: &[u8]) {
        runner().run_diff_go(data);
    }

    pub fn hil(data: &[u8]) {
        runner().run_hil(data);
    }

    pub fn diff_hclrs(data: &[u8]) {
        runner().run_diff_hclrs(data);
    }

    pub fn diff_terraform(data: &[u8]) {
        runner().run_diff_terraform(data);
    }

    pub fn diff_hil(data: &[u8]) {
        runner().run_diff_hil(data);
    }
}
