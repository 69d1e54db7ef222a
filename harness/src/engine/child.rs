//! A protocol engine running as a persistent child process, with a time
//! limit per request. Requests are pipelined: up to a window of them are
//! written ahead of the answers, which come back in order.

use std::collections::VecDeque;
use std::fmt;
use std::io;
use std::process::ExitStatus;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use super::process::{Event, Process};
use super::{Engine, Exchange};
use hclspec_protocol::{Request, Response};

/// How long one request may take unless the caller says otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// How many requests may be in flight unless the caller says otherwise.
pub const DEFAULT_WINDOW: usize = 64;

/// The most stderr lines kept for one case; the rest are counted.
pub const STDERR_MAX_LINES: usize = 200;

/// Why a request got no valid response.
#[derive(Debug)]
pub enum ChildError {
    /// The program could not be started.
    Spawn { command: String, source: io::Error },
    /// The process exited (or closed its output) instead of answering.
    Crashed {
        status: Option<ExitStatus>,
        stderr: String,
    },
    /// No answer within the time limit; the process was killed.
    TimedOut { after: Duration, stderr: String },
    /// The answer is not a valid response to this request.
    Protocol { line: String, reason: String },
    /// Talking to the process failed.
    Io(io::Error),
    /// Not sent: the engine was restarted as often as allowed.
    GaveUp { restarts: u32 },
    /// Not finished: the run was interrupted by a signal.
    Interrupted { signal: i32 },
}

impl ChildError {
    /// The first line of the message, without the stderr tail.
    pub fn headline(&self) -> String {
        match self {
            ChildError::Crashed { status, .. } => crashed_headline(status),
            ChildError::TimedOut { after, .. } => format!("{MSG_TIMED_OUT} {after:?}"),
            other => other.to_string(),
        }
    }
}

const MSG_TIMED_OUT: &str = "the engine gave no answer within";

fn crashed_headline(status: &Option<ExitStatus>) -> String {
    match status {
        Some(s) => format!("the engine exited ({s}) instead of answering"),
        None => "the engine closed its output instead of answering".to_string(),
    }
}

impl fmt::Display for ChildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChildError::Spawn { command, source } => {
                write!(f, "could not start `{command}`: {source}")
            }
            ChildError::Crashed { status, stderr } => {
                f.write_str(&crashed_headline(status))?;
                write_stderr(f, stderr)
            }
            ChildError::TimedOut { after, stderr } => {
                write!(f, "{MSG_TIMED_OUT} {after:?}")?;
                write_stderr(f, stderr)
            }
            ChildError::Protocol { line, reason } => {
                write!(f, "invalid response ({reason}): {}", truncate(line, 500))
            }
            ChildError::Io(e) => write!(f, "talking to the engine failed: {e}"),
            ChildError::GaveUp { restarts } => write!(
                f,
                "not run: the engine was restarted {restarts} times, the most allowed"
            ),
            ChildError::Interrupted { signal } => write!(
                f,
                "not run: the run was interrupted by {}",
                crate::interrupt::signal_name(*signal)
            ),
        }
    }
}

fn write_stderr(f: &mut fmt::Formatter<'_>, stderr: &str) -> fmt::Result {
    if stderr.trim().is_empty() {
        Ok(())
    } else {
        write!(f, "; its stderr ends with:\n{stderr}")
    }
}

fn truncate(s: &str, max: usize) -> &str {
    match s.char_indices().nth(max) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

impl std::error::Error for ChildError {}

/// A running engine process. A request that fails stops the process (its
/// output may be out of step); the next request starts a fresh one.
pub struct Child {
    command: Vec<String>,
    timeout: Duration,
    window: usize,
    max_restarts: u32,
    running: Option<Process>,
    restarts: u32,
}

impl Child {
    /// Starts `command` (program and arguments).
    pub fn spawn(command: &[String]) -> Result<Child, ChildError> {
        let mut child = Child {
            command: command.to_vec(),
            timeout: DEFAULT_TIMEOUT,
            window: DEFAULT_WINDOW,
            max_restarts: u32::MAX,
            running: None,
            restarts: 0,
        };
        child.running = Some(child.start()?);
        Ok(child)
    }

    pub fn with_timeout(mut self, timeout: Duration) -> Child {
        self.timeout = timeout;
        self
    }

    /// How many requests may be written ahead of their answers (at least 1).
    pub fn with_window(mut self, window: usize) -> Child {
        self.window = window.max(1);
        self
    }

    /// How many times the process may be started again after failures;
    /// once they are used up, requests fail with [`ChildError::GaveUp`].
    pub fn with_max_restarts(mut self, max: u32) -> Child {
        self.max_restarts = max;
        self
    }

    pub fn command(&self) -> &[String] {
        &self.command
    }

    /// How many times the process was started again after a failure.
    pub fn restarts(&self) -> u32 {
        self.restarts
    }

    /// Sends one request and waits for its response.
    pub fn request(&mut self, req: &Request) -> Result<Response, ChildError> {
        let mut out = None;
        self.run_requests(std::slice::from_ref(req), &mut |_, x| out = Some(x));
        out.expect("every request is answered").result
    }

    /// Stops the process now.
    pub fn stop(&mut self) {
        if let Some(p) = self.running.take() {
            p.shutdown();
        }
    }

    fn start(&self) -> Result<Process, ChildError> {
        Process::spawn(&self.command).map_err(|source| ChildError::Spawn {
            command: self.command.join(" "),
            source,
        })
    }

    /// Answers every request in order, each exactly once through `done`.
    ///
    /// Up to `window` requests are in flight; the time limit of the oldest
    /// runs from when the engine could start on it (its answer to the one
    /// before, or its sending). A failure is charged to the oldest request;
    /// the process is killed and the other requests in flight are sent
    /// again to a fresh one.
    ///
    /// Stderr lines belong to the request in flight when there is one. The
    /// first line that arrives with several in flight narrows the window
    /// to 1; such lines are placed once the requests in flight are
    /// answered: with the request that fails if one does (an engine's last
    /// words before dying), else with the oldest request in flight when
    /// they arrived.
    fn run_requests(&mut self, requests: &[Request], done: &mut dyn FnMut(usize, Exchange)) {
        // Each answer is passed on only when the next one arrives (or the
        // run ends), so that an engine that answers a request twice has the
        // second answer charged to that request, not to the next one.
        let held = std::cell::RefCell::new(Held::default());
        self.run_requests_held(requests, &held, &mut |i, x| {
            held.borrow_mut().push(i, x, done)
        });
        held.into_inner().flush(done);
    }

    fn run_requests_held(
        &mut self,
        requests: &[Request],
        held: &std::cell::RefCell<Held>,
        done: &mut dyn FnMut(usize, Exchange),
    ) {
        let n = requests.len();
        let mut next = 0;
        // Indices in flight, oldest first, with when each was sent.
        let mut flight: VecDeque<(usize, Instant)> = VecDeque::new();
        let mut head_since = Instant::now();
        let mut stderr = CaseStderr::default();
        let mut unplaced = Unplaced::default();
        let mut window = self.window;
        while next < n || !flight.is_empty() {
            if let Some(signal) = crate::interrupt::signal() {
                // Stop now: no more requests, the engine and what it started
                // killed, every unfinished request reported.
                if let Some(mut p) = self.running.take() {
                    let mut lines = stderr.take();
                    p.abort(&mut lines);
                }
                unplaced.failed(&mut Vec::new(), done);
                let unfinished: Vec<usize> =
                    flight.iter().map(|(i, _)| *i).chain(next..n).collect();
                for i in unfinished {
                    done(i, Exchange::failed(ChildError::Interrupted { signal }));
                }
                return;
            }
            if self.running.is_none() {
                debug_assert!(flight.is_empty() && unplaced.is_empty());
                if self.restarts >= self.max_restarts {
                    for i in next..n {
                        done(
                            i,
                            Exchange::failed(ChildError::GaveUp {
                                restarts: self.restarts,
                            }),
                        );
                    }
                    return;
                }
                self.restarts += 1;
                match self.start() {
                    Ok(p) => self.running = Some(p),
                    Err(e) => {
                        done(next, Exchange::failed(e));
                        next += 1;
                        continue;
                    }
                }
            }
            let process = self.running.as_mut().expect("started above");
            while flight.len() < window && next < n {
                let mut line = requests[next].to_line().into_bytes();
                line.push(b'\n');
                process.send(line);
                let now = Instant::now();
                if flight.is_empty() {
                    head_since = now;
                }
                flight.push_back((next, now));
                next += 1;
            }
            let (head, sent) = *flight.front().expect("window is at least 1");
            let started = sent.max(head_since);
            let deadline = started + self.timeout;
            let wait = deadline.saturating_duration_since(Instant::now());
            let event = process
                .events
                .recv_timeout(wait.min(crate::interrupt::POLL));
            if matches!(event, Err(RecvTimeoutError::Timeout)) && Instant::now() < deadline {
                // Only a pause to look for an interrupt.
                continue;
            }
            let (error, mut lines) = match event {
                Ok(Event::Stderr(line)) => {
                    if flight.len() > 1 {
                        unplaced.add(head, line);
                        window = 1;
                    } else {
                        stderr.push(line);
                    }
                    continue;
                }
                Ok(Event::StderrClosed) => {
                    process.stderr_closed = true;
                    continue;
                }
                Ok(Event::Line(bytes)) => {
                    if bytes.iter().all(u8::is_ascii_whitespace) {
                        continue;
                    }
                    let now = Instant::now();
                    head_since = now;
                    match check_response(&bytes, &requests[head]) {
                        Ok(response) => {
                            flight.pop_front();
                            let exchange = Exchange {
                                result: Ok(response),
                                stderr: stderr.take(),
                                elapsed: now - started,
                            };
                            unplaced.answered(head, exchange, flight.len() <= 1, &mut stderr, done);
                            continue;
                        }
                        Err(e) => {
                            if held.borrow_mut().answered_again(&bytes, requests) {
                                // In step again: the head's answer is next.
                                continue;
                            }
                            // The output may be out of step: never read it again.
                            let mut lines = stderr.take();
                            process.abort(&mut lines);
                            (e, lines)
                        }
                    }
                }
                Ok(Event::StdoutClosed) | Err(RecvTimeoutError::Disconnected) => {
                    let mut lines = stderr.take();
                    let status = process.finish(&mut lines);
                    let error = ChildError::Crashed {
                        status,
                        stderr: String::new(),
                    };
                    (error, lines)
                }
                Ok(Event::ReadFailed(e)) => {
                    let mut lines = stderr.take();
                    process.abort(&mut lines);
                    (ChildError::Io(e), lines)
                }
                Err(RecvTimeoutError::Timeout) => {
                    let mut lines = stderr.take();
                    process.abort(&mut lines);
                    let error = ChildError::TimedOut {
                        after: self.timeout,
                        stderr: String::new(),
                    };
                    (error, lines)
                }
            };
            flight.pop_front();
            unplaced.failed(&mut lines, done);
            let error = with_stderr(error, &lines);
            done(
                head,
                Exchange {
                    result: Err(error),
                    stderr: lines,
                    elapsed: started.elapsed(),
                },
            );
            // Send the requests still in flight again, to a new process.
            if let Some(&(first, _)) = flight.front() {
                next = first;
            }
            flight.clear();
            self.running = None;
        }
        debug_assert!(unplaced.is_empty());
    }
}

/// Puts a failed request's stderr lines into its error, whose message
/// shows them.
fn with_stderr(error: ChildError, lines: &[String]) -> ChildError {
    match error {
        ChildError::Crashed { status, .. } => ChildError::Crashed {
            status,
            stderr: lines.join("\n"),
        },
        ChildError::TimedOut { after, .. } => ChildError::TimedOut {
            after,
            stderr: lines.join("\n"),
        },
        other => other,
    }
}

/// The most stderr lines waiting to be placed; later ones are dropped.
const UNPLACED_MAX_LINES: usize = 4 * STDERR_MAX_LINES;

/// Stderr lines that arrived with several requests in flight, and the
/// answers held back until those lines are placed.
#[derive(Default)]
struct Unplaced {
    /// Each line with the oldest request in flight when it arrived.
    lines: Vec<(usize, String)>,
    dropped: usize,
    held: Vec<(usize, Exchange)>,
}

impl Unplaced {
    fn is_empty(&self) -> bool {
        self.lines.is_empty() && self.held.is_empty()
    }

    fn add(&mut self, head: usize, line: String) {
        if self.lines.len() < UNPLACED_MAX_LINES {
            self.lines.push((head, line));
        } else {
            self.dropped += 1;
        }
    }

    /// A request was answered. With lines waiting, its answer waits too,
    /// until at most one request is in flight (`settled`): then each line
    /// goes to the request that was oldest in flight when it arrived, or
    /// to the one still in flight.
    fn answered(
        &mut self,
        index: usize,
        exchange: Exchange,
        settled: bool,
        in_flight: &mut CaseStderr,
        done: &mut dyn FnMut(usize, Exchange),
    ) {
        if self.lines.is_empty() {
            debug_assert!(self.held.is_empty());
            done(index, exchange);
            return;
        }
        self.held.push((index, exchange));
        if !settled {
            return;
        }
        let dropped = self.dropped_note();
        for (head, line) in self.lines.drain(..).chain(dropped) {
            match self.held.iter_mut().find(|(i, _)| *i == head) {
                Some((_, x)) => x.stderr.push(line),
                None => in_flight.push(line),
            }
        }
        for (i, x) in self.held.drain(..) {
            done(i, x);
        }
    }

    /// A request failed: the waiting lines are its, before `lines`; the
    /// held answers go out first.
    fn failed(&mut self, lines: &mut Vec<String>, done: &mut dyn FnMut(usize, Exchange)) {
        let dropped = self.dropped_note();
        let mut mine: Vec<String> = self
            .lines
            .drain(..)
            .chain(dropped)
            .map(|(_, l)| l)
            .collect();
        mine.append(lines);
        *lines = mine;
        for (i, x) in self.held.drain(..) {
            done(i, x);
        }
    }

    fn dropped_note(&mut self) -> Option<(usize, String)> {
        let n = std::mem::take(&mut self.dropped);
        let head = self.lines.last().map_or(0, |(h, _)| *h);
        (n > 0).then(|| (head, format!("[{n} more lines not kept]")))
    }
}

/// The stderr lines of the request in flight, capped.
#[derive(Default)]
struct CaseStderr {
    lines: Vec<String>,
    dropped: usize,
}

impl CaseStderr {
    fn push(&mut self, line: String) {
        if self.lines.len() < STDERR_MAX_LINES {
            self.lines.push(line);
        } else {
            self.dropped += 1;
        }
    }

    fn take(&mut self) -> Vec<String> {
        let mut lines = std::mem::take(&mut self.lines);
        if self.dropped > 0 {
            lines.push(format!("[{} more lines not kept]", self.dropped));
            self.dropped = 0;
        }
        lines
    }
}

/// The last answered request, not yet passed on.
#[derive(Default)]
struct Held {
    last: Option<(usize, Exchange)>,
}

const MSG_ANSWERED_TWICE: &str = "the engine answered this request twice";

impl Held {
    fn push(&mut self, index: usize, exchange: Exchange, done: &mut dyn FnMut(usize, Exchange)) {
        if let Some((i, x)) = self.last.replace((index, exchange)) {
            done(i, x);
        }
    }

    fn flush(self, done: &mut dyn FnMut(usize, Exchange)) {
        if let Some((i, x)) = self.last {
            done(i, x);
        }
    }

    /// Whether `line` is a second answer to the held request, which then
    /// fails with the second answer as its error.
    fn answered_again(&mut self, line: &[u8], requests: &[Request]) -> bool {
        let Some((i, held)) = &mut self.last else {
            return false;
        };
        if !matches!(held.result, Ok(_)) || check_response(line, &requests[*i]).is_err() {
            return false;
        }
        held.result = Err(ChildError::Protocol {
            line: String::from_utf8_lossy(line).trim_end().to_string(),
            reason: MSG_ANSWERED_TWICE.into(),
        });
        true
    }
}

const MSG_NOT_UTF8: &str = "not UTF-8";
const MSG_WRONG_ID: &str = "the id is not the request's";

/// Parses an answer line and checks it answers `req`.
pub(crate) fn check_response(bytes: &[u8], req: &Request) -> Result<Response, ChildError> {
    let text = std::str::from_utf8(bytes).map_err(|_| ChildError::Protocol {
        line: String::from_utf8_lossy(bytes).into_owned(),
        reason: MSG_NOT_UTF8.into(),
    })?;
    let text = text.trim_end_matches(['\n', '\r']);
    let response = Response::parse_line(text).map_err(|e| ChildError::Protocol {
        line: text.to_string(),
        reason: e.0,
    })?;
    if response.id.as_deref() != Some(req.id.as_str()) {
        return Err(ChildError::Protocol {
            line: text.to_string(),
            reason: format!("{MSG_WRONG_ID} {:?}", req.id),
        });
    }
    Ok(response)
}

impl Engine for Child {
    fn run(&mut self, requests: &[Request], done: &mut dyn FnMut(usize, Exchange)) {
        self.run_requests(requests, done);
    }

    fn restarts(&self) -> u32 {
        self.restarts
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        self.stop();
    }
}
