//! A protocol engine running as a child process: one request line out, one
//! response line back, with a time limit per request.

use std::collections::VecDeque;
use std::fmt;
use std::io::{self, BufRead, BufReader, Write};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use crate::protocol::{Request, Response};

/// How long one request may take unless the caller says otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// How many trailing stderr lines a crash report keeps.
const STDERR_TAIL_LINES: usize = 40;

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
}

impl fmt::Display for ChildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChildError::Spawn { command, source } => {
                write!(f, "could not start `{command}`: {source}")
            }
            ChildError::Crashed { status, stderr } => {
                match status {
                    Some(s) => write!(f, "the engine exited ({s})")?,
                    None => write!(f, "the engine closed its output")?,
                }
                write_stderr(f, stderr)
            }
            ChildError::TimedOut { after, stderr } => {
                write!(f, "the engine gave no answer within {after:?}")?;
                write_stderr(f, stderr)
            }
            ChildError::Protocol { line, reason } => {
                write!(f, "invalid response ({reason}): {}", truncate(line, 500))
            }
            ChildError::Io(e) => write!(f, "talking to the engine failed: {e}"),
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

/// A running engine process. A request that fails leaves the process
/// stopped; the next request starts a fresh one.
pub struct Child {
    command: Vec<String>,
    timeout: Duration,
    running: Option<Running>,
    restarts: u32,
}

struct Running {
    process: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: Receiver<io::Result<Vec<u8>>>,
    stderr: Arc<Mutex<VecDeque<String>>>,
}

impl Child {
    /// Starts `command` (program and arguments).
    pub fn spawn(command: &[String]) -> Result<Child, ChildError> {
        let mut child = Child {
            command: command.to_vec(),
            timeout: DEFAULT_TIMEOUT,
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

    pub fn command(&self) -> &[String] {
        &self.command
    }

    /// How many times the process was started again after a failure.
    pub fn restarts(&self) -> u32 {
        self.restarts
    }

    /// Sends one request and waits for its response.
    pub fn request(&mut self, req: &Request) -> Result<Response, ChildError> {
        if self.running.is_none() {
            self.running = Some(self.start()?);
            self.restarts += 1;
        }
        let result = self.exchange(req);
        if result.is_err() {
            // The stream may be out of step: never reuse it.
            if let Some(mut r) = self.running.take() {
                let _ = r.process.kill();
                let _ = r.process.wait();
            }
        }
        result
    }

    /// Stops the process now.
    pub fn stop(&mut self) {
        if let Some(r) = self.running.take() {
            r.shutdown();
        }
    }

    fn start(&self) -> Result<Running, ChildError> {
        let spawn_error = |source| ChildError::Spawn {
            command: self.command.join(" "),
            source,
        };
        let (program, args) = self.command.split_first().ok_or_else(|| {
            spawn_error(io::Error::new(io::ErrorKind::InvalidInput, "empty command"))
        })?;
        let mut process = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(spawn_error)?;
        let stdin = process.stdin.take().expect("piped stdin");
        let stdout = process.stdout.take().expect("piped stdout");
        let stderr_pipe = process.stderr.take().expect("piped stderr");

        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                match reader.read_until(b'\n', &mut line) {
                    Ok(0) => break,
                    Ok(_) => {
                        if tx.send(Ok(line)).is_err() {
                            break;
                        }
                    }
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        break;
                    }
                }
            }
        });

        // Drained continuously so a chatty engine never blocks on stderr.
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr);
        thread::spawn(move || {
            let mut reader = BufReader::new(stderr_pipe);
            let mut buf = Vec::new();
            while let Ok(n) = reader.read_until(b'\n', &mut buf) {
                if n == 0 {
                    break;
                }
                let mut t = tail.lock().unwrap_or_else(|e| e.into_inner());
                if t.len() == STDERR_TAIL_LINES {
                    t.pop_front();
                }
                t.push_back(String::from_utf8_lossy(&buf).trim_end().to_string());
                buf.clear();
            }
        });

        Ok(Running {
            process,
            stdin,
            lines,
            stderr,
        })
    }

    fn exchange(&mut self, req: &Request) -> Result<Response, ChildError> {
        let timeout = self.timeout;
        let r = self.running.as_mut().expect("started above");
        let mut line = req.to_line();
        line.push('\n');
        if let Err(e) = r
            .stdin
            .write_all(line.as_bytes())
            .and_then(|_| r.stdin.flush())
        {
            return Err(if e.kind() == io::ErrorKind::BrokenPipe {
                r.crashed()
            } else {
                ChildError::Io(e)
            });
        }
        let bytes = match r.lines.recv_timeout(timeout) {
            Ok(Ok(bytes)) => bytes,
            Ok(Err(e)) => return Err(ChildError::Io(e)),
            Err(RecvTimeoutError::Timeout) => {
                let _ = r.process.kill();
                let _ = r.process.wait();
                return Err(ChildError::TimedOut {
                    after: timeout,
                    stderr: r.stderr_tail(),
                });
            }
            Err(RecvTimeoutError::Disconnected) => return Err(r.crashed()),
        };
        let text = match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => {
                return Err(ChildError::Protocol {
                    line: String::from_utf8_lossy(e.as_bytes()).into_owned(),
                    reason: MSG_NOT_UTF8.into(),
                })
            }
        };
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
}

const MSG_NOT_UTF8: &str = "not UTF-8";
const MSG_WRONG_ID: &str = "the id is not the request's";

impl Running {
    /// The error for a process that stopped answering: waits briefly for
    /// its exit status and its last stderr lines.
    fn crashed(&mut self) -> ChildError {
        let mut status = None;
        for _ in 0..50 {
            match self.process.try_wait() {
                Ok(Some(s)) => {
                    status = Some(s);
                    break;
                }
                Ok(None) => thread::sleep(Duration::from_millis(10)),
                Err(_) => break,
            }
        }
        ChildError::Crashed {
            status,
            stderr: self.stderr_tail(),
        }
    }

    fn stderr_tail(&self) -> String {
        // Give the stderr reader a moment to catch up with a dying process.
        thread::sleep(Duration::from_millis(20));
        let t = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        t.iter().cloned().collect::<Vec<_>>().join("\n")
    }

    /// Closes stdin so a well-behaved engine exits, then makes sure it does.
    fn shutdown(self) {
        let Running {
            mut process, stdin, ..
        } = self;
        drop(stdin);
        for _ in 0..20 {
            if let Ok(Some(_)) = process.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        let _ = process.kill();
        let _ = process.wait();
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        self.stop();
    }
}
