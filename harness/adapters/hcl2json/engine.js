#!/usr/bin/env node
// @cdktf/hcl2json (npm: hashicorp/hcl v2.23.0 compiled to WebAssembly) as an
// hclspec engine, protocol v1, at the parse level.
//
// Expressions go to the library's getExpressionAst, which is hclsyntax's
// ParseExpression: no wrapping. A bare template is wrapped into a heredoc
// (`<<M\n<source>\nM\n`, with a marker the template does not contain) and
// parsed as an expression; a body goes to parse(), which reads a whole file.
// Any diagnostic is a rejection. Scopes are not read: nothing is evaluated.
"use strict";

const readline = require("node:readline");

// The library runs Go compiled to WebAssembly. When that Go program dies
// (a Go fatal error such as "malloc deadlock" after a deep input) its
// runtime only logs the exit code and node goes on, so every later call
// fails. Loading the runtime first and recording its exit lets an answer
// after that be a crash, and the process end, so that hclspec starts a
// fresh engine instead of taking each failure for a rejection.
require("@cdktf/hcl2json/wasm/bridge_wasm_exec.js");
let goExit = null;
{
  const GoRuntime = globalThis.Go;
  globalThis.Go = class extends GoRuntime {
    constructor() {
      super();
      this.exit = (code) => {
        goExit = code;
      };
    }
  };
}
const hcl2json = require("@cdktf/hcl2json");

const FILENAME = "source.hcl";
const HEREDOC_MARKER = "HCLSPEC_TEMPLATE_END";
const UNSUPPORTED_DIALECT = "dialects other than HCL2";
const UNSUPPORTED_KIND = "request kinds other than expression, template, convert and body";
const UNSUPPORTED_TYPE_CONSTRAINT =
  "reading a type constraint: a parser accepts any expression in its place";

class Rejected extends Error {}
class Unsupported extends Error {}

// Go's "file:range: Summary; Detail", somewhere in the library's message.
const DIAGNOSTIC = /[^\s:]+:\d+,\d+-(?:\d+,)?\d+: ([^;\]]*)(?:; ([^\]]*))?/;

// A failure of the engine rather than an answer about the input.
class Broken extends Error {}

async function parseWith(fn, text) {
  try {
    await fn(FILENAME, text);
  } catch (e) {
    // Too deep for the JavaScript side of the bridge, or the Go program
    // has died: the engine failed, the input was not judged.
    if (e instanceof RangeError || goExit !== null) throw new Broken(String(e.message || e));
    throw new Rejected(String(e.message || e));
  }
  if (goExit !== null) throw new Broken(`the Go runtime exited with code ${goExit}`);
}

function heredocMarker(source) {
  let marker = HEREDOC_MARKER;
  for (let n = 1; source.includes(marker); n++) marker = `${HEREDOC_MARKER}_${n}`;
  return marker;
}

function templateHeredoc(source) {
  const marker = heredocMarker(source);
  return `<<${marker}\n${source}\n${marker}\n`;
}

async function answer(request) {
  if ((request.dialect ?? "hcl2") !== "hcl2") throw new Unsupported(UNSUPPORTED_DIALECT);
  const expression = (text) => parseWith(hcl2json.getExpressionAst, text);
  switch (request.kind) {
    case "expression":
      await expression(request.source);
      break;
    case "template":
      await expression(templateHeredoc(request.source));
      break;
    case "body":
      await parseWith(hcl2json.parse, request.source);
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

async function respond(line) {
  const { request, error, id } = readRequest(line);
  if (!request) return { id, error: { phase: "request", summary: error } };
  try {
    return { id: request.id, ...(await answer(request)) };
  } catch (e) {
    if (e instanceof Unsupported) return { id: request.id, unsupported: e.message };
    if (e instanceof Rejected) return { id: request.id, error: parseError(e.message) };
    const broken = e instanceof Broken;
    return { id: request.id, crash: String(broken ? e.message : (e && e.stack) || e), broken };
  }
}

function parseError(message) {
  const m = DIAGNOSTIC.exec(message);
  const summary = m ? m[1] : message.split("\n")[0];
  return { phase: "parse", summary: summary.slice(0, 200), detail: message.slice(0, 2000) };
}

async function serve() {
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    const { broken, ...response } = await respond(line);
    if (broken) {
      // What the library holds may be half-updated: stop without an
      // answer. hclspec charges the crash to this request, the oldest
      // unanswered, and sends the ones after it to a fresh engine.
      process.stderr.write(`hcl2json: ${response.crash}\n`, () => process.exit(1));
      return;
    }
    process.stdout.write(JSON.stringify(response) + "\n");
  }
  // The WebAssembly Go runtime keeps the event loop alive.
  process.exit(0);
}

if (require.main === module) serve();

module.exports = { templateHeredoc, heredocMarker };
