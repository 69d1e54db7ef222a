//! `hclspec-hclrs`: serves hcl-rs as an hclspec engine (protocol v1) on
//! standard input and output.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::thread;

use hclspec_adapter_hclrs::{answer_line, install_quiet_panic_hook};
use hclspec_protocol::{ErrorBody, Outcome, Response};

/// Stack for the serving thread: evaluation recursion is bounded by
/// hcl-edit's nesting limits, this leaves a wide margin on top.
const STACK_SIZE: usize = 256 * 1024 * 1024;

const MSG_NOT_UTF8: &str = "the request line is not UTF-8";

fn main() -> ExitCode {
    install_quiet_panic_hook();
    let worker = thread::Builder::new()
        .name("hclspec-hclrs".into())
        .stack_size(STACK_SIZE)
        .spawn(serve);
    match worker.map(|w| w.join()) {
        Ok(Ok(Ok(()))) => ExitCode::SUCCESS,
        Ok(Ok(Err(e))) => {
            eprintln!("hclspec-hclrs: {e}");
            ExitCode::FAILURE
        }
        Ok(Err(_)) => {
            eprintln!("hclspec-hclrs: the serving thread panicked");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("hclspec-hclrs: can not start the serving thread: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Answers every request line in order, flushing after each answer.
fn serve() -> io::Result<()> {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut output = io::stdout().lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        let text = line.strip_suffix(b"\n").unwrap_or(&line);
        let response = match std::str::from_utf8(text) {
            Ok(text) => answer_line(text),
            Err(_) => Some(Response {
                id: None,
                outcome: Outcome::Error(ErrorBody::request(MSG_NOT_UTF8)),
            }),
        };
        if let Some(response) = response {
            writeln!(output, "{}", response.to_line())?;
            output.flush()?;
        }
    }
}
