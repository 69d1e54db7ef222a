//! `hclspec serve`: the reference implementation behind the protocol, on
//! any reader and writer.

use std::io::{self, BufRead, Write};

use crate::engine::{Reference, EVAL_STACK_SIZE};
use crate::protocol::{ErrorBody, Outcome, Request, Response, Version};

/// Answers every request line of `input` on `output`, in order, flushing
/// each response, until end of input. Blank lines are skipped. Only an I/O
/// error ends it early.
pub fn serve(
    input: impl BufRead,
    mut output: impl Write,
    default_version: Version,
) -> io::Result<()> {
    let engine = Reference {
        default_version,
        // serve already runs on a thread with a large stack.
        own_thread: false,
    };
    let mut input = input;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            return Ok(());
        }
        let Some(response) = answer(&engine, &buf) else {
            continue;
        };
        let mut line = response.to_line();
        line.push('\n');
        output.write_all(line.as_bytes())?;
        output.flush()?;
    }
}

/// Serves stdin to stdout on a thread with a large stack.
pub fn serve_stdio(default_version: Version) -> io::Result<()> {
    let worker = std::thread::Builder::new()
        .name("hclspec-serve".into())
        .stack_size(EVAL_STACK_SIZE)
        .spawn(move || serve(io::stdin().lock(), io::stdout().lock(), default_version))?;
    match worker.join() {
        Ok(r) => r,
        Err(_) => Err(io::Error::other(MSG_SERVE_PANIC)),
    }
}

const MSG_SERVE_PANIC: &str = "the serve loop panicked";
const MSG_NOT_UTF8: &str = "the request line is not UTF-8";

/// The response to one raw line, or `None` for a blank line.
fn answer(engine: &Reference, raw: &[u8]) -> Option<Response> {
    let Ok(text) = std::str::from_utf8(raw) else {
        return Some(Response {
            id: None,
            outcome: Outcome::Error(ErrorBody::request(MSG_NOT_UTF8)),
        });
    };
    let text = text.trim_end_matches(['\n', '\r']);
    if text.trim().is_empty() {
        return None;
    }
    Some(match Request::parse_line(text) {
        Ok(req) => engine.respond(&req),
        Err(bad) => Response {
            id: bad.id,
            outcome: Outcome::Error(ErrorBody::request(bad.message)),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::ErrorPhase;

    fn run(input: &[u8]) -> Vec<Response> {
        let mut out = Vec::new();
        serve(input, &mut out, Version::V2_24).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| Response::parse_line(l).unwrap())
            .collect()
    }

    #[test]
    fn bad_lines_get_request_errors_in_order() {
        let input = b"\n{\"id\":\"a\"}\r\nnope\n   \n\xff\xfe\n{\"id\":\"b\",\"kind\":\"expression\",\"source\":\"1\",\"scope\":{\"v\":{\"type\":\"nope\",\"value\":1}}}";
        let rs = run(input);
        assert_eq!(rs.len(), 4, "{rs:?}");
        let phases: Vec<_> = rs
            .iter()
            .map(|r| match &r.outcome {
                Outcome::Error(e) => (r.id.clone(), e.phase),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            phases,
            [
                (Some("a".to_string()), ErrorPhase::Request),
                (None, ErrorPhase::Request),
                (None, ErrorPhase::Request),
                (Some("b".to_string()), ErrorPhase::Request),
            ]
        );
        let Outcome::Error(e) = &rs[3].outcome else {
            unreachable!()
        };
        assert!(e.summary.starts_with("scope.v.type"), "{}", e.summary);
    }
}
