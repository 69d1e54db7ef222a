//! `hclspec serve`: the reference implementation behind the protocol, on
//! any reader and writer.

use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::sync::mpsc;
use std::time::Duration;

use crate::engine::{decode_scope, ScopeCache, Variables};
use crate::engine::{Reference, EVAL_STACK_SIZE};
use hclspec_protocol::{ErrorBody, Outcome, Request, Response, Version};
use hclspec_reference::eval::budget::Budget;

/// How `serve` treats its input.
#[derive(Clone, Copy, Debug)]
pub struct ServeOptions {
    /// The HCL version for requests that name none.
    pub default_version: Version,
    /// The longest request line read; a longer one is skipped and answered
    /// with a request error.
    pub max_line_bytes: usize,
    /// How long one request may take. A request still being evaluated then
    /// is answered `crash` and left to finish on its own thread; the next
    /// request goes to a fresh one. `None`: no limit (and no thread).
    pub timeout: Option<Duration>,
    /// How much work one evaluation may do.
    pub budget: Budget,
}

/// The default longest request line: 64 MiB.
pub const DEFAULT_MAX_LINE_BYTES: usize = 64 << 20;

impl ServeOptions {
    pub fn new(default_version: Version) -> ServeOptions {
        ServeOptions {
            default_version,
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
            timeout: None,
            budget: Budget::DEFAULT,
        }
    }
}

/// Answers every request line of `input` on `output`, in order, until end
/// of input. Blank lines are skipped. Answers are flushed whenever no
/// further complete request is already buffered, so a client that sends
/// one request at a time gets each answer at once, and one that sends many
/// ahead gets them in few writes. Only an I/O error ends it early.
pub fn serve(input: impl Read, output: impl Write, default_version: Version) -> io::Result<()> {
    serve_with(input, output, ServeOptions::new(default_version))
}

/// [`serve`] with options.
pub fn serve_with(input: impl Read, output: impl Write, options: ServeOptions) -> io::Result<()> {
    let mut answerer = match options.timeout {
        None => Answerer::Here(Box::new(Here::new(&options))),
        Some(limit) => Answerer::Worker(Worker::start(&options)?, limit),
    };
    let mut input = BufReader::with_capacity(BUFFER, input);
    let mut output = BufWriter::with_capacity(BUFFER, output);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let limit = options.max_line_bytes as u64 + 1;
        if (&mut input).take(limit).read_until(b'\n', &mut buf)? == 0 {
            return output.flush();
        }
        let response = if buf.len() > options.max_line_bytes && buf.last() != Some(&b'\n') {
            // The rest of the line is read and dropped.
            input.skip_until(b'\n')?;
            Some(Response {
                id: None,
                outcome: Outcome::Error(ErrorBody::request(format!(
                    "the request line is longer than {} bytes",
                    options.max_line_bytes
                ))),
            })
        } else {
            answerer.answer(std::mem::take(&mut buf), &options)?
        };
        if let Some(response) = response {
            let mut line = response.to_line();
            line.push('\n');
            output.write_all(line.as_bytes())?;
        }
        if !input.buffer().contains(&b'\n') {
            output.flush()?;
        }
    }
}

/// Where requests are evaluated.
enum Answerer {
    /// On the serving thread.
    Here(Box<Here>),
    /// On a worker thread, waited for at most the duration.
    Worker(Worker, Duration),
}

impl Answerer {
    fn answer(&mut self, line: Vec<u8>, options: &ServeOptions) -> io::Result<Option<Response>> {
        match self {
            Answerer::Here(here) => Ok(here.answer(&line)),
            Answerer::Worker(worker, limit) => {
                let id = request_id(&line);
                worker
                    .requests
                    .send(line)
                    .map_err(|_| io::Error::other(MSG_WORKER_GONE))?;
                match worker.answers.recv_timeout(*limit) {
                    Ok(answer) => Ok(answer),
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        // The worker finishes (or not) on its own; its
                        // channels are dropped with it.
                        *worker = Worker::start(options)?;
                        Ok(Some(Response {
                            id,
                            outcome: Outcome::Crash(format!(
                                "the request took longer than {} s (serve --timeout); it was abandoned",
                                limit.as_secs_f64()
                            )),
                        }))
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => {
                        Err(io::Error::other(MSG_WORKER_GONE))
                    }
                }
            }
        }
    }
}

/// The id of a request line, when it has one.
fn request_id(line: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(line).ok()?;
    match Request::parse_line_raw_scope(text.trim_end()) {
        Ok((req, _)) => Some(req.id),
        Err(bad) => bad.id,
    }
}

/// The evaluation state: the engine and its scope cache.
struct Here {
    engine: Reference,
    scopes: ScopeCache,
}

impl Here {
    fn new(options: &ServeOptions) -> Here {
        Here {
            engine: Reference {
                default_version: options.default_version,
                // serve runs on threads with a large stack.
                large_stack: false,
                budget: options.budget,
            },
            scopes: ScopeCache::default(),
        }
    }

    fn answer(&mut self, raw: &[u8]) -> Option<Response> {
        answer(&self.engine, &mut self.scopes, raw)
    }
}

/// A thread with a large stack that answers the lines it is sent.
struct Worker {
    requests: mpsc::Sender<Vec<u8>>,
    answers: mpsc::Receiver<Option<Response>>,
}

impl Worker {
    fn start(options: &ServeOptions) -> io::Result<Worker> {
        let options = *options;
        let (requests, inbox) = mpsc::channel::<Vec<u8>>();
        let (outbox, answers) = mpsc::channel();
        std::thread::Builder::new()
            .name("hclspec-serve-worker".into())
            .stack_size(EVAL_STACK_SIZE)
            .spawn(move || {
                let mut here = Here::new(&options);
                for line in inbox {
                    if outbox.send(here.answer(&line)).is_err() {
                        return;
                    }
                }
            })?;
        Ok(Worker { requests, answers })
    }
}

const MSG_WORKER_GONE: &str = "the evaluation thread stopped";

/// Input and output buffer size.
const BUFFER: usize = 64 * 1024;

/// Serves stdin to stdout on a thread with a large stack.
pub fn serve_stdio(options: ServeOptions) -> io::Result<()> {
    let worker = std::thread::Builder::new()
        .name("hclspec-serve".into())
        .stack_size(EVAL_STACK_SIZE)
        .spawn(move || serve_with(io::stdin().lock(), io::stdout().lock(), options))?;
    match worker.join() {
        Ok(r) => r,
        Err(_) => Err(io::Error::other(MSG_SERVE_PANIC)),
    }
}

const MSG_SERVE_PANIC: &str = "the serve loop panicked";
const MSG_NOT_UTF8: &str = "the request line is not UTF-8";

/// The response to one raw line, or `None` for a blank line.
fn answer(engine: &Reference, scopes: &mut ScopeCache, raw: &[u8]) -> Option<Response> {
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
    Some(match Request::parse_line_raw_scope(text) {
        Ok((req, scope)) => {
            let variables = match scope {
                None => Ok(Variables::default()),
                Some(text) => scopes.get_or_decode(text, || {
                    Request::parse_scope(text)
                        .map_err(|m| Outcome::Error(ErrorBody::request(m)))
                        .and_then(|scope| decode_scope(&scope))
                }),
            };
            Response {
                id: Some(req.id.clone()),
                outcome: match variables {
                    Ok(v) => engine.evaluate_in(&req, Some(v)),
                    Err(error) => error,
                },
            }
        }
        Err(bad) => Response {
            id: bad.id,
            outcome: Outcome::Error(ErrorBody::request(bad.message)),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use hclspec_protocol::ErrorPhase;
    use std::cell::RefCell;
    use std::rc::Rc;

    fn run(input: &[u8]) -> Vec<Response> {
        run_with(input, ServeOptions::new(Version::V2_24))
    }

    fn run_with(input: &[u8], options: ServeOptions) -> Vec<Response> {
        let mut out = Vec::new();
        serve_with(input, &mut out, options).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| Response::parse_line(l).unwrap())
            .collect()
    }

    /// Input handed over in fixed pieces; notes how much output had been
    /// written when each piece was asked for.
    struct Pieces {
        pieces: Vec<Vec<u8>>,
        out: Rc<RefCell<Vec<Vec<u8>>>>,
        seen: Vec<usize>,
    }

    impl Read for Pieces {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.seen.push(self.out.borrow().len());
            if self.pieces.is_empty() {
                return Ok(0);
            }
            let p = self.pieces.remove(0);
            buf[..p.len()].copy_from_slice(&p);
            Ok(p.len())
        }
    }

    /// Records every write call.
    struct Writes(Rc<RefCell<Vec<Vec<u8>>>>);

    impl Write for Writes {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.borrow_mut().push(buf.to_vec());
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn answers_are_flushed_before_waiting_for_input() {
        let req =
            |id: &str| format!("{{\"id\":\"{id}\",\"kind\":\"expression\",\"source\":\"1\"}}\n");
        let out = Rc::new(RefCell::new(Vec::new()));
        let mut input = Pieces {
            pieces: vec![req("a").into_bytes(), (req("b") + &req("c")).into_bytes()],
            out: Rc::clone(&out),
            seen: Vec::new(),
        };
        serve(&mut input, Writes(Rc::clone(&out)), Version::V2_24).unwrap();
        // Before asking for more input, the answer to `a` was out; `b` and
        // `c`, read together, were answered in one write.
        assert_eq!(input.seen, [0, 1, 2]);
        let writes = out.borrow();
        assert!(String::from_utf8_lossy(&writes[0]).starts_with(r#"{"id":"a""#));
        let second = String::from_utf8_lossy(&writes[1]).into_owned();
        assert_eq!(second.lines().count(), 2, "{second}");
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

    #[test]
    fn overlong_lines_are_refused_and_skipped() {
        let mut input = format!(
            "{{\"id\":\"big\",\"kind\":\"expression\",\"source\":\"{}\"}}\n",
            "1".repeat(500)
        );
        input.push_str("{\"id\":\"after\",\"kind\":\"expression\",\"source\":\"2\"}\n");
        let options = ServeOptions {
            max_line_bytes: 100,
            ..ServeOptions::new(Version::V2_24)
        };
        let rs = run_with(input.as_bytes(), options);
        assert_eq!(rs.len(), 2);
        assert!(
            matches!(&rs[0].outcome, Outcome::Error(e) if e.phase == ErrorPhase::Request && e.summary.contains("longer than 100 bytes")),
            "{:?}",
            rs[0]
        );
        assert_eq!(rs[1].id.as_deref(), Some("after"));
        assert!(matches!(rs[1].outcome, Outcome::Result(_)));
    }

    #[test]
    fn a_request_over_the_time_limit_is_abandoned_and_the_next_answered() {
        // bcrypt at cost 12 takes a good fraction of a second.
        let input = "{\"id\":\"slow\",\"kind\":\"expression\",\"source\":\"length(bcrypt(\\\"x\\\", 12))\"}\n\
                     {\"id\":\"next\",\"kind\":\"expression\",\"source\":\"1 + 1\"}\n";
        let options = ServeOptions {
            timeout: Some(Duration::from_millis(20)),
            ..ServeOptions::new(Version::V2_24)
        };
        let rs = run_with(input.as_bytes(), options);
        assert_eq!(rs.len(), 2, "{rs:?}");
        assert_eq!(rs[0].id.as_deref(), Some("slow"));
        assert!(
            matches!(&rs[0].outcome, Outcome::Crash(m) if m.contains("--timeout")),
            "{:?}",
            rs[0]
        );
        assert_eq!(rs[1].id.as_deref(), Some("next"));
        assert!(matches!(rs[1].outcome, Outcome::Result(_)), "{:?}", rs[1]);
    }
}
