// Test support for the npm adapters (the counterpart of
// python-common/adapter_testing.py): starts an engine as hclspec does and
// talks to it line by line, and registers the parse-level tests every
// adapter passes.
"use strict";

const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const { spawn } = require("node:child_process");
const readline = require("node:readline");
const { expressionBodies, templateHeredoc } = require("./hclspec-adapter.js");

/**
 * Starts `node engineFile`. Its standard error is inherited unless `stderr`
 * is "pipe" (then `stderr()` gives what it wrote so far).
 */
function startEngine(engineFile, { stderr = "inherit" } = {}) {
  const child = spawn(process.execPath, [engineFile], { stdio: ["pipe", "pipe", stderr] });
  const answers = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  let logged = "";
  if (stderr === "pipe") child.stderr.on("data", (chunk) => (logged += chunk));
  const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    exited,
    stderr: () => logged,
    /** Writes raw bytes (or text) to the engine's input. */
    write: (data) => child.stdin.write(data),
    /** The next response line, parsed; `null` once the engine closed its output. */
    async next() {
      const { value, done } = await answers.next();
      return done ? null : JSON.parse(value);
    },
    /** Sends one request (`id` "t", level "parse") and returns its response without the id. */
    async ask(request) {
      child.stdin.write(JSON.stringify({ id: "t", level: "parse", ...request }) + "\n");
      const response = await this.next();
      assert.ok(response, "the engine closed its output");
      assert.equal(response.id, "t");
      delete response.id;
      return response;
    },
    close: () => child.stdin.end(),
  };
}

/** The engine's answer to a request, judged at the parse level. */
function checks(engine) {
  const ask = (source, kind = "expression", fields = {}) => engine.ask({ kind, source, ...fields });
  return {
    ask,
    async parsed(source, kind, fields) {
      assert.deepEqual(await ask(source, kind, fields), { parsed: true }, source);
    },
    async rejected(source, kind, fields) {
      const response = await ask(source, kind, fields);
      assert.equal(response.error?.phase, "parse", `${JSON.stringify(source)}: ${JSON.stringify(response)}`);
      return response.error;
    },
    async unsupported(source, kind, fields) {
      const response = await ask(source, kind, fields);
      assert.equal(typeof response.unsupported, "string", `${JSON.stringify(source)}: ${JSON.stringify(response)}`);
    },
  };
}

/**
 * Registers the parse-level tests every adapter passes: they exercise the
 * wrapping of expressions and templates into bodies, and the answers for
 * what a parser can not tell. Returns the checks on the engine they share,
 * for the adapter's own tests.
 */
function parseLevelTests(engineFile) {
  let engine;
  const shared = {};
  before(() => {
    engine = startEngine(engineFile);
    Object.assign(shared, checks(engine), { engine });
  });
  after(() => engine.close());
  const c = shared;

  test("accepts an expression and rejects a missing operand", async () => {
    await c.parsed("1 + 2");
    await c.rejected("1 +");
  });

  test("reads an expression over lines as one expression", async () => {
    await c.parsed("[1,\n2]");
    await c.rejected("1\nb = 2");
    await c.rejected("1\n) + (2");
    await c.rejected("1\n], [2");
  });

  test("a heredoc needs a line break after its marker", async () => {
    await c.parsed("<<EOT\nhello\nEOT\n");
    // The wrapping adds none after a closing marker on the last line, and
    // one after a trailing comment.
    assert.deepEqual(expressionBodies("<<EOT\nhello\nEOT"), ["a = (<<EOT\nhello\nEOT)\n", "a = [<<EOT\nhello\nEOT]\n"]);
    assert.deepEqual(expressionBodies("[1, # one\n2] # two"), [
      "a = ([1, # one\n2] # two\n)\n",
      "a = [[1, # one\n2] # two\n]\n",
    ]);
  });

  test("wraps templates into a heredoc", async () => {
    await c.parsed("a ${b} %{ if c }d%{ endif }", "template");
    await c.parsed("HCLSPEC_TEMPLATE_END\nx", "template");
    assert.equal(
      templateHeredoc("HCLSPEC_TEMPLATE_END"),
      "<<HCLSPEC_TEMPLATE_END_1\nHCLSPEC_TEMPLATE_END\nHCLSPEC_TEMPLATE_END_1\n",
    );
  });

  test("parses bodies", async () => {
    await c.parsed('b "l" {\n  x = 1\n}\n', "body", { spec: { object: {} } });
    await c.rejected("b {\n  x = 1\n", "body", { spec: { object: {} } });
  });

  test("answers unsupported for type constraints and other dialects", async () => {
    await c.unsupported("1", "convert", { type: "number" });
    await c.rejected("1 +", "convert", { type: "number" });
    await c.unsupported("x", "expression", { dialect: "hil-0.11" });
  });

  test("a malformed request is a request error", async () => {
    engine.write("not json\n");
    const response = await engine.next();
    assert.equal(response.id, null);
    assert.equal(response.error.phase, "request");
    engine.write(Buffer.from('{"id": "t", "kind": "expression", "source": "\xff"}\n', "latin1"));
    const notUtf8 = await engine.next();
    assert.equal(notUtf8.error.phase, "request");
    assert.match(notUtf8.error.summary, /UTF-8/);
    await c.parsed("1");
  });

  return shared;
}

module.exports = { parseLevelTests, startEngine };
