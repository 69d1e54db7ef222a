//! A child process behind three pipes. Lines for its standard input go
//! through a writer thread, so a stalled engine never blocks the caller;
//! one reader thread turns its standard output and standard error into
//! events. On Unix the reader polls both pipes and drains stderr before
//! reading stdout, so a line an engine logs before it answers arrives
//! before the answer.

use std::io::{self, Read, Write};
use std::process::{ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;
use std::time::{Duration, Instant};

/// What the reader thread saw.
#[derive(Debug)]
pub(crate) enum Event {
    /// One line of standard output, without its line ending.
    Line(Vec<u8>),
    /// One line of standard error, without its line ending.
    Stderr(String),
    StdoutClosed,
    StderrClosed,
    ReadFailed(io::Error),
}

/// Bytes read from a pipe at a time, and the most the writer thread
/// gathers into one write.
const CHUNK: usize = 64 * 1024;

/// How long a process that closed its output gets to exit on its own.
const EXIT_GRACE: Duration = Duration::from_millis(500);

/// How long the reader gets to deliver the last stderr lines of a process
/// that is gone.
const STDERR_GRACE: Duration = Duration::from_millis(200);

pub(crate) struct Process {
    child: std::process::Child,
    input: Option<Sender<Vec<u8>>>,
    pub events: Receiver<Event>,
    /// The exit status, once the process has been waited for.
    status: Option<ExitStatus>,
    pub stderr_closed: bool,
}

impl Process {
    /// Starts `command` (program and arguments) in a process group of its
    /// own, so that killing it also kills what it started.
    pub fn spawn(command: &[String]) -> io::Result<Process> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "empty command"))?;
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd.spawn()?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");

        let (input, lines) = mpsc::channel();
        thread::Builder::new()
            .name("hclspec-engine-stdin".into())
            .spawn(move || write_lines(stdin, lines))?;
        let (tx, events) = mpsc::channel();
        spawn_readers(stdout, stderr, tx)?;
        Ok(Process {
            child,
            input: Some(input),
            events,
            status: None,
            stderr_closed: false,
        })
    }

    /// Queues one line (with its `\n`) for standard input. A process that
    /// stopped reading is noticed through its output, not here.
    pub fn send(&self, line: Vec<u8>) {
        if let Some(input) = &self.input {
            let _ = input.send(line);
        }
    }

    /// Closes standard input once the queued lines are written.
    pub fn close_input(&mut self) {
        self.input = None;
    }

    /// Waits up to `within` for the process to exit.
    pub fn wait_exit(&mut self, within: Duration) -> Option<ExitStatus> {
        let until = Instant::now() + within;
        // Most processes exit right after closing their output: look often
        // at first, then less.
        let mut pause = Duration::from_micros(20);
        loop {
            if let Some(s) = self.status {
                return Some(s);
            }
            match self.child.try_wait() {
                Ok(Some(s)) => self.status = Some(s),
                Ok(None) if Instant::now() < until => {
                    thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(5));
                }
                _ => return None,
            }
        }
    }

    /// Kills the process and its group, and reaps it.
    pub fn kill(&mut self) {
        if self.status.is_some() {
            return;
        }
        // The group id is the child's pid, reserved until it is reaped.
        #[cfg(unix)]
        {
            use rustix::process::{kill_process_group, Pid, Signal};
            let _ = kill_process_group(Pid::from_child(&self.child), Signal::KILL);
        }
        let _ = self.child.kill();
        self.status = self.child.wait().ok();
    }

    /// The end of a process that stopped answering: its exit status (killed
    /// if it does not exit soon) and the stderr lines still on their way.
    pub fn finish(&mut self, stderr: &mut Vec<String>) -> Option<ExitStatus> {
        self.close_input();
        let status = self.wait_exit(EXIT_GRACE);
        if status.is_none() {
            self.kill();
        }
        self.drain_stderr(stderr);
        status
    }

    /// Kills the process now and collects its last stderr lines.
    pub fn abort(&mut self, stderr: &mut Vec<String>) {
        self.close_input();
        self.kill();
        self.drain_stderr(stderr);
    }

    /// Closes standard input so a well-behaved engine exits, then makes
    /// sure it does.
    pub fn shutdown(mut self) {
        self.close_input();
        if self.wait_exit(Duration::from_millis(200)).is_none() {
            self.kill();
        }
    }

    /// Collects stderr lines until the pipe closes or a short grace ends;
    /// output lines are dropped, the process being finished.
    fn drain_stderr(&mut self, stderr: &mut Vec<String>) {
        let until = Instant::now() + STDERR_GRACE;
        while !self.stderr_closed {
            let left = until.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(left) {
                Ok(Event::Stderr(l)) => stderr.push(l),
                Ok(Event::StderrClosed) => self.stderr_closed = true,
                Ok(_) => {}
                Err(_) => break,
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.close_input();
        self.kill();
    }
}

/// Writes queued lines, gathering what is already queued into one write.
fn write_lines(mut stdin: ChildStdin, lines: Receiver<Vec<u8>>) {
    while let Ok(mut batch) = lines.recv() {
        while batch.len() < CHUNK {
            match lines.try_recv() {
                Ok(more) => batch.extend_from_slice(&more),
                Err(_) => break,
            }
        }
        if stdin.write_all(&batch).is_err() {
            return;
        }
    }
}

/// Splits complete lines off the front of `buf`.
fn take_lines(buf: &mut Vec<u8>, mut each: impl FnMut(Vec<u8>) -> bool) -> bool {
    let mut start = 0;
    while let Some(nl) = buf[start..].iter().position(|&b| b == b'\n') {
        let mut line = buf[start..start + nl].to_vec();
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        start += nl + 1;
        if !each(line) {
            return false;
        }
    }
    buf.drain(..start);
    true
}

fn stderr_line(bytes: Vec<u8>) -> Event {
    Event::Stderr(String::from_utf8_lossy(&bytes).into_owned())
}

/// The longest stderr line kept: the rest of a longer one is dropped.
pub const MAX_STDERR_LINE: usize = 64 * 1024;

/// A pipe's unfinished line, and whether the rest of an overlong line is
/// being dropped.
#[derive(Default)]
struct Partial {
    buf: Vec<u8>,
    dropping: bool,
}

/// Reads into `partial` and sends the complete lines; at end of file sends
/// the unterminated rest and `closed`. A line longer than `cap` bytes is
/// sent cut at `cap`, marked, and the rest of it dropped as it arrives.
/// Returns whether the pipe is still open, or `None` when nobody listens
/// any more.
fn pump(
    pipe: &mut dyn Read,
    partial: &mut Partial,
    chunk: &mut [u8],
    tx: &Sender<Event>,
    make: fn(Vec<u8>) -> Event,
    closed: fn() -> Event,
    cap: usize,
) -> Option<bool> {
    let buf = &mut partial.buf;
    match pipe.read(chunk) {
        Ok(0) => {
            if !buf.is_empty() {
                tx.send(make(std::mem::take(buf))).ok()?;
            }
            tx.send(closed()).ok()?;
            Some(false)
        }
        Ok(n) => {
            let mut data = &chunk[..n];
            if partial.dropping {
                match data.iter().position(|&b| b == b'\n') {
                    None => return Some(true),
                    Some(nl) => {
                        partial.dropping = false;
                        data = &data[nl + 1..];
                    }
                }
            }
            buf.extend_from_slice(data);
            if !take_lines(buf, |l| tx.send(make(l)).is_ok()) {
                return None;
            }
            if buf.len() > cap {
                let mut cut: Vec<u8> = buf.drain(..).take(cap).collect();
                cut.extend_from_slice(format!(" [line cut at {cap} bytes]").as_bytes());
                partial.dropping = true;
                tx.send(make(cut)).ok()?;
            }
            Some(true)
        }
        Err(e) if e.kind() == io::ErrorKind::Interrupted => Some(true),
        Err(e) => {
            let _ = tx.send(Event::ReadFailed(e));
            None
        }
    }
}

#[cfg(unix)]
fn spawn_readers(
    stdout: std::process::ChildStdout,
    stderr: std::process::ChildStderr,
    tx: Sender<Event>,
) -> io::Result<()> {
    thread::Builder::new()
        .name("hclspec-engine-output".into())
        .spawn(move || poll_both(stdout, stderr, tx))?;
    Ok(())
}

/// One thread for both pipes: stderr is always drained first.
#[cfg(unix)]
fn poll_both(
    stdout: std::process::ChildStdout,
    stderr: std::process::ChildStderr,
    tx: Sender<Event>,
) {
    use rustix::event::{poll, PollFd, PollFlags};
    let ready = PollFlags::IN | PollFlags::HUP | PollFlags::ERR | PollFlags::NVAL;
    let mut out = Some(stdout);
    let mut err = Some(stderr);
    let (mut out_buf, mut err_buf) = (Partial::default(), Partial::default());
    let mut chunk = vec![0u8; CHUNK];
    while out.is_some() || err.is_some() {
        let (err_ready, out_ready) = {
            let mut fds = Vec::with_capacity(2);
            if let Some(e) = &err {
                fds.push(PollFd::new(e, PollFlags::IN));
            }
            if let Some(o) = &out {
                fds.push(PollFd::new(o, PollFlags::IN));
            }
            match poll(&mut fds, None) {
                Ok(_) => {}
                Err(rustix::io::Errno::INTR) => continue,
                Err(e) => {
                    let _ = tx.send(Event::ReadFailed(e.into()));
                    return;
                }
            }
            let mut flags = fds.iter().map(|f| f.revents().intersects(ready));
            let e = err.is_some() && flags.next().unwrap_or(false);
            let o = out.is_some() && flags.next().unwrap_or(false);
            (e, o)
        };
        if err_ready {
            let pipe = err.as_mut().expect("polled");
            match pump(
                pipe,
                &mut err_buf,
                &mut chunk,
                &tx,
                stderr_line,
                || Event::StderrClosed,
                MAX_STDERR_LINE,
            ) {
                Some(true) => {}
                Some(false) => err = None,
                None => return,
            }
            // Look again: stderr keeps priority while it has data.
            continue;
        }
        if out_ready {
            let pipe = out.as_mut().expect("polled");
            match pump(
                pipe,
                &mut out_buf,
                &mut chunk,
                &tx,
                Event::Line,
                || Event::StdoutClosed,
                usize::MAX,
            ) {
                Some(true) => {}
                Some(false) => out = None,
                None => return,
            }
        }
    }
}

/// Without `poll`, one thread per pipe; the order of a stderr line and the
/// next answer is then only as good as the threads' timing.
#[cfg(not(unix))]
fn spawn_readers(
    mut stdout: std::process::ChildStdout,
    mut stderr: std::process::ChildStderr,
    tx: Sender<Event>,
) -> io::Result<()> {
    let tx2 = tx.clone();
    thread::Builder::new()
        .name("hclspec-engine-stdout".into())
        .spawn(move || {
            let (mut buf, mut chunk) = (Partial::default(), vec![0u8; CHUNK]);
            while let Some(true) = pump(
                &mut stdout,
                &mut buf,
                &mut chunk,
                &tx,
                Event::Line,
                || Event::StdoutClosed,
                usize::MAX,
            ) {}
        })?;
    thread::Builder::new()
        .name("hclspec-engine-stderr".into())
        .spawn(move || {
            let (mut buf, mut chunk) = (Partial::default(), vec![0u8; 4096]);
            while let Some(true) = pump(
                &mut stderr,
                &mut buf,
                &mut chunk,
                &tx2,
                stderr_line,
                || Event::StderrClosed,
                MAX_STDERR_LINE,
            ) {}
        })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn take_lines_keeps_the_partial_rest() {
        let mut buf = b"a\r\nb\n\ncd".to_vec();
        let mut got = Vec::new();
        assert!(take_lines(&mut buf, |l| {
            got.push(l);
            true
        }));
        assert_eq!(got, [b"a".to_vec(), b"b".to_vec(), b"".to_vec()]);
        assert_eq!(buf, b"cd");
    }

    #[cfg(unix)]
    #[test]
    fn stderr_before_the_answer_arrives_first() {
        let script = "read l; echo log >&2; echo out; echo tail; exit 4";
        let cmd = ["sh", "-c", script].map(String::from);
        let mut p = Process::spawn(&cmd).unwrap();
        p.send(b"go\n".to_vec());
        let mut seen = Vec::new();
        loop {
            match p.events.recv_timeout(Duration::from_secs(5)).unwrap() {
                Event::Line(l) => seen.push(format!("out:{}", String::from_utf8_lossy(&l))),
                Event::Stderr(l) => seen.push(format!("err:{l}")),
                Event::StdoutClosed => break,
                Event::StderrClosed => p.stderr_closed = true,
                Event::ReadFailed(e) => panic!("{e}"),
            }
        }
        assert_eq!(seen[..3], ["err:log", "out:out", "out:tail"]);
        let mut rest = Vec::new();
        let status = p.finish(&mut rest);
        assert_eq!(status.and_then(|s| s.code()), Some(4));
        assert!(rest.is_empty(), "{rest:?}");
    }

    #[test]
    fn an_overlong_stderr_line_is_cut_and_the_next_one_kept() {
        let (tx, rx) = std::sync::mpsc::channel();
        let mut partial = Partial::default();
        let mut chunk = vec![0u8; 8];
        let mut input: &[u8] = b"0123456789abcdef\nnext\n";
        while let Some(true) = pump(
            &mut input,
            &mut partial,
            &mut chunk,
            &tx,
            stderr_line,
            || Event::StderrClosed,
            10,
        ) {}
        let lines: Vec<String> = rx
            .try_iter()
            .filter_map(|e| match e {
                Event::Stderr(l) => Some(l),
                _ => None,
            })
            .collect();
        assert_eq!(lines, ["0123456789 [line cut at 10 bytes]", "next"]);
        assert!(partial.buf.len() <= 10);
    }
}
