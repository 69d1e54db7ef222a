// Protocol v1 plumbing shared by the npm adapters of HCL parsers (the
// JavaScript counterpart of python-common/hclspec_adapter.py).
//
// An adapter supplies a function that parses one request kind's source with
// its library and throws Rejected when the library does not accept it; this
// module reads the requests, answers them, and wraps an expression or a bare
// template into a body for a library that reads only bodies (README.md says
// what the wrapping can not express). It has no dependencies: each adapter
// requires it by its path.
"use strict";

const UNSUPPORTED_DIALECT = "dialects other than HCL2";
const UNSUPPORTED_KIND = "request kinds other than expression, template, convert and body";
const UNSUPPORTED_TYPE_CONSTRAINT =
  "reading a type constraint: a parser accepts any expression in its place";
const MSG_NOT_UTF8 = "the request line is not UTF-8";

// The attribute name expressions are wrapped into.
const WRAP_ATTRIBUTE = "a";
// The heredoc marker templates are wrapped into (a fresh one is chosen when
// the template contains it).
const HEREDOC_MARKER = "HCLSPEC_TEMPLATE_END";

/** The library (or the wrapping) can not answer this request. */
class Unsupported extends Error {}

/** The library rejected the source: a parse error, with its message. */
class Rejected extends Error {
  /** `summary` defaults to the message's first line. */
  constructor(message, summary) {
    super(message);
    this.summary = summary ?? message.split("\n")[0];
  }
}

/**
 * The engine failed rather than answered about the input, and what the
 * library holds may be half-updated: the engine ends without answering, so
 * that hclspec charges the crash to this request and starts a fresh engine.
 */
class Broken extends Error {}

/**
 * The parse-level answer. `parsers` has a function per kind the library
 * reads itself: `expression(text)`, `template(text)` (a bare template) and
 * `body(text)`, each throwing Rejected for a source the library does not
 * accept. A library with `body` alone gets the others wrapped into bodies.
 */
async function parseAnswer(request, parsers) {
  if ((request.dialect ?? "hcl2") !== "hcl2") throw new Unsupported(UNSUPPORTED_DIALECT);
  const expression =
    parsers.expression ??
    (async (text) => {
      for (const body of expressionBodies(text)) await parsers.body(body);
    });
  const template = parsers.template ?? ((text) => parsers.body(templateBody(text)));
  switch (request.kind) {
    case "expression":
      await expression(request.source);
      break;
    case "template":
      await template(request.source);
      break;
    case "body":
      await parsers.body(request.source);
      break;
    case "convert":
      await expression(request.source);
      await expression(request.type);
      throw new Unsupported(UNSUPPORTED_TYPE_CONSTRAINT);
    default:
      throw new Unsupported(UNSUPPORTED_KIND);
  }
  return { parsed: true };
}

/**
 * The bodies an expression is wrapped into; it parses when all of them do.
 *
 * On one line, `a = <source>` reads the expression exactly as HCL's
 * ParseExpression would. Across lines it can not: inside a body a line break
 * ends the attribute, while ParseExpression reads line breaks as spaces.
 * Inside brackets HCL reads them as spaces too, so the expression is wrapped
 * in parentheses, and also in a tuple: a source that closes the parenthesis
 * itself (`1) + (2`) breaks the tuple's brackets, and one that closes the
 * tuple's bracket breaks the parentheses, so a source accepted by both
 * wrappings is one expression.
 */
function expressionBodies(source) {
  if (!source.includes("\n") && !source.includes("\r")) return [`${WRAP_ATTRIBUTE} = ${source}\n`];
  // The line break before the closing bracket ends a trailing comment; but
  // it would also end a heredoc whose closing marker is the source's last
  // line, which HCL rejects for want of that line break.
  const end = endsWithHeredocMarker(source) ? "" : "\n";
  return [`${WRAP_ATTRIBUTE} = (${source}${end})\n`, `${WRAP_ATTRIBUTE} = [${source}${end}]\n`];
}

/**
 * Whether the last line of `source` is the marker of a heredoc the source
 * opens (`<<EOT\nhi\nEOT`, with no line break after it).
 */
function endsWithHeredocMarker(source) {
  const last = source.slice(source.lastIndexOf("\n") + 1).trim();
  if (!last) return false;
  return new RegExp(`<<-?${escapeRegExp(last)}\\r?\\n`).test(source);
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A heredoc marker that occurs nowhere in `source`. */
function heredocMarker(source) {
  let marker = HEREDOC_MARKER;
  for (let n = 1; source.includes(marker); n++) marker = `${HEREDOC_MARKER}_${n}`;
  return marker;
}

/**
 * A bare template as a heredoc expression: `<<M\n<source>\nM\n`. HCL reads a
 * heredoc's lines as it reads a bare template (no backslash escapes, `$${`
 * and `%%{` escape the sequences), so acceptance carries over; the value
 * gains a final line break, so only acceptance is asked.
 */
function templateHeredoc(source) {
  const marker = heredocMarker(source);
  return `<<${marker}\n${source}\n${marker}\n`;
}

/** A bare template wrapped into a body: `a = <<M\n<source>\nM\n`. */
function templateBody(source) {
  return `${WRAP_ATTRIBUTE} = ${templateHeredoc(source)}`;
}

/** The request of one line, or the request error it is answered with. */
function readRequest(line) {
  let request;
  try {
    request = JSON.parse(line);
  } catch (e) {
    return { error: `invalid JSON: ${e.message}`, id: null };
  }
  if (request === null || typeof request !== "object" || Array.isArray(request)) {
    return { error: "a request is a JSON object", id: null };
  }
  if (typeof request.id !== "string") return { error: "the request has no string id", id: null };
  for (const field of ["kind", "source"]) {
    if (typeof request[field] !== "string") {
      return { error: `the request has no string ${field}`, id: request.id };
    }
  }
  if (request.kind === "convert" && typeof request.type !== "string") {
    return { error: "a convert request has no string type", id: request.id };
  }
  return { request };
}

/** The response to one request line; `broken` is set for a Broken failure. */
async function respond(answer, line) {
  const { request, error, id } = readRequest(line);
  if (!request) return { id, error: { phase: "request", summary: error } };
  try {
    return { id: request.id, ...(await answer(request)) };
  } catch (e) {
    if (e instanceof Unsupported) return { id: request.id, unsupported: e.message };
    if (e instanceof Rejected) return { id: request.id, error: parseError(e) };
    const broken = e instanceof Broken;
    return { id: request.id, crash: String(broken ? e.message : (e && e.stack) || e), broken };
  }
}

function parseError(rejected) {
  return {
    phase: "parse",
    summary: rejected.summary.slice(0, 200),
    detail: rejected.message.slice(0, 2000),
  };
}

/**
 * Answers every request line of standard input until its end, then exits.
 * `answer(request)` returns the outcome (`{parsed: true}`) or throws
 * Unsupported, Rejected or Broken; anything else it throws is a `crash`.
 * `name` prefixes what is logged on standard error.
 */
async function serve(answer, name) {
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  for await (const bytes of lines(process.stdin)) {
    let line;
    try {
      line = utf8.decode(bytes);
    } catch {
      process.stdout.write(JSON.stringify({ id: null, error: { phase: "request", summary: MSG_NOT_UTF8 } }) + "\n");
      continue;
    }
    if (!line.trim()) continue;
    const { broken, ...response } = await respond(answer, line);
    if (broken) {
      // hclspec charges the crash to this request, the oldest unanswered,
      // and sends the ones after it to a fresh engine.
      process.stderr.write(`${name}: ${response.crash}\n`, () => process.exit(1));
      return;
    }
    process.stdout.write(JSON.stringify(response) + "\n");
  }
  // A library's runtime (Go's, compiled to WebAssembly) may keep the event
  // loop alive.
  process.exit(0);
}

/**
 * The lines of a byte stream, as bytes without their line break: a line is
 * decoded whole, so that one that is not UTF-8 is told apart rather than
 * read with replacement characters.
 */
async function* lines(input) {
  let pending = [];
  for await (const chunk of input) {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      pending.push(chunk.subarray(start, nl));
      yield Buffer.concat(pending);
      pending = [];
      start = nl + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length) yield Buffer.concat(pending);
}

module.exports = {
  Broken,
  Rejected,
  Unsupported,
  expressionBodies,
  heredocMarker,
  parseAnswer,
  serve,
  templateBody,
  templateHeredoc,
};
