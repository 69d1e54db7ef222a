//! An engine started afresh for every request: the request on its standard
//! input, then end of input; one response on its standard output.

use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use super::child::check_response;
use super::process::{Event, Process};
use super::{ChildError, Engine, Exchange};
use hclspec_protocol::Request;

pub struct OneShot {
    command: Vec<String>,
    timeout: Duration,
}

impl OneShot {
    pub fn new(command: &[String], timeout: Duration) -> OneShot {
        OneShot {
            command: command.to_vec(),
            timeout,
        }
    }

    /// Checks that the command starts at all (by running it on no input).
    pub fn check(&self) -> Result<(), ChildError> {
        let mut p = self.spawn()?;
        p.close_input();
        p.shutdown();
        Ok(())
    }

    fn spawn(&self) -> Result<Process, ChildError> {
        Process::spawn(&self.command).map_err(|source| ChildError::Spawn {
            command: self.command.join(" "),
            source,
        })
    }

    /// One process, one request. The answer is the one non-blank line the
    /// process writes before it closes its output; the exit status does
    /// not matter once there is an answer.
    pub fn answer(&self, req: &Request) -> Exchange {
        let start = Instant::now();
        let mut process = match self.spawn() {
            Ok(p) => p,
            Err(e) => return Exchange::failed(e),
        };
        let mut line = req.to_line().into_bytes();
        line.push(b'\n');
        process.send(line);
        process.close_input();
        let deadline = start + self.timeout;
        let mut stderr = Vec::new();
        let mut answers: Vec<Vec<u8>> = Vec::new();
        let failure = loop {
            if let Some(signal) = crate::interrupt::signal() {
                break Some(ChildError::Interrupted { signal });
            }
            let wait = deadline.saturating_duration_since(Instant::now());
            match process
                .events
                .recv_timeout(wait.min(crate::interrupt::POLL))
            {
                Err(RecvTimeoutError::Timeout) if Instant::now() < deadline => {}
                Ok(Event::Line(l)) => {
                    if !l.iter().all(u8::is_ascii_whitespace) {
                        answers.push(l);
                    }
                }
                Ok(Event::Stderr(l)) => stderr.push(l),
                Ok(Event::StderrClosed) => process.stderr_closed = true,
                Ok(Event::StdoutClosed) | Err(RecvTimeoutError::Disconnected) => break None,
                Ok(Event::ReadFailed(e)) => break Some(ChildError::Io(e)),
                Err(RecvTimeoutError::Timeout) => {
                    break Some(ChildError::TimedOut {
                        after: self.timeout,
                        stderr: String::new(),
                    })
                }
            }
        };
        let status = match failure {
            Some(_) => {
                process.abort(&mut stderr);
                None
            }
            None => process.finish(&mut stderr),
        };
        let result = match (failure, answers.as_slice()) {
            (Some(ChildError::TimedOut { after, .. }), _) => Err(ChildError::TimedOut {
                after,
                stderr: stderr.join("\n"),
            }),
            (Some(e), _) => Err(e),
            (None, []) => Err(ChildError::Crashed {
                status,
                stderr: stderr.join("\n"),
            }),
            (None, [one]) => check_response(one, req),
            (None, [_, second, ..]) => Err(ChildError::Protocol {
                line: String::from_utf8_lossy(second).into_owned(),
                reason: MSG_MORE_THAN_ONE.into(),
            }),
        };
        stderr.truncate(super::STDERR_MAX_LINES);
        Exchange {
            result,
            stderr,
            elapsed: start.elapsed(),
        }
    }
}

const MSG_MORE_THAN_ONE: &str = "more than one response line for one request";

impl Engine for OneShot {
    fn run(&mut self, requests: &[Request], done: &mut dyn FnMut(usize, Exchange)) {
        for (i, req) in requests.iter().enumerate() {
            if let Some(signal) = crate::interrupt::signal() {
                done(i, Exchange::failed(ChildError::Interrupted { signal }));
                continue;
            }
            done(i, self.answer(req));
        }
    }

    fn restarts(&self) -> u32 {
        0
    }
}
