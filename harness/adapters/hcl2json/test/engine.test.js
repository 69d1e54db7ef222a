"use strict";
// Starts engine.js as hclspec does and talks to it line by line.
const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const { spawn } = require("node:child_process");
const path = require("node:path");
const readline = require("node:readline");
const { templateHeredoc } = require("../engine.js");

let engine;
let answers;

before(() => {
  engine = spawn(process.execPath, [path.join(__dirname, "..", "engine.js")], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  answers = readline.createInterface({ input: engine.stdout })[Symbol.asyncIterator]();
});

after(() => engine.stdin.end());

async function ask(request) {
  engine.stdin.write(JSON.stringify({ id: "t", ...request }) + "\n");
  const { value } = await answers.next();
  const response = JSON.parse(value);
  assert.equal(response.id, "t");
  delete response.id;
  return response;
}

const expression = (source) => ask({ kind: "expression", source });
const template = (source) => ask({ kind: "template", source });

test("accepts an expression and rejects a missing operand", async () => {
  assert.deepEqual(await expression("1 + 2"), { parsed: true });
  const { error } = await expression("1 +");
  assert.equal(error.phase, "parse");
  assert.equal(error.summary, "Missing expression");
});

test("reads line breaks in an expression as HCL's ParseExpression does", async () => {
  assert.deepEqual(await expression("1 +\n2"), { parsed: true });
  assert.equal((await expression("1\nb = 2")).error.phase, "parse");
});

test("wraps templates into a heredoc", async () => {
  assert.deepEqual(await template("a ${b} %{ if c }d%{ endif }"), { parsed: true });
  assert.equal((await template("a ${b")).error.phase, "parse");
  assert.equal((await template("%{ if c }d%{ endfor }")).error.phase, "parse");
  assert.deepEqual(await template("HCLSPEC_TEMPLATE_END\nx"), { parsed: true });
  assert.equal(templateHeredoc("HCLSPEC_TEMPLATE_END"), "<<HCLSPEC_TEMPLATE_END_1\nHCLSPEC_TEMPLATE_END\nHCLSPEC_TEMPLATE_END_1\n");
});

test("parses bodies", async () => {
  assert.deepEqual(await ask({ kind: "body", source: 'b "l" {\n  x = 1\n}\n', spec: {} }), { parsed: true });
  const { error } = await ask({ kind: "body", source: "b {\n", spec: {} });
  assert.equal(error.summary, "Unclosed configuration block");
});

test("answers unsupported for type constraints and other dialects", async () => {
  assert.ok((await ask({ kind: "convert", source: "1", type: "number" })).unsupported);
  assert.equal((await ask({ kind: "convert", source: "1 +", type: "number" })).error.phase, "parse");
  assert.ok((await ask({ kind: "expression", source: "x", dialect: "hil-0.11" })).unsupported);
});

test("a malformed request is a request error", async () => {
  engine.stdin.write("not json\n");
  const response = JSON.parse((await answers.next()).value);
  assert.equal(response.id, null);
  assert.equal(response.error.phase, "request");
});

test("an input too deep for the engine ends it without an answer", async () => {
  const own = spawn(process.execPath, [path.join(__dirname, "..", "engine.js")], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  const lines = readline.createInterface({ input: own.stdout })[Symbol.asyncIterator]();
  let stderr = "";
  own.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => own.on("exit", (code) => resolve(code)));
  own.stdin.write(JSON.stringify({ id: "deep", kind: "expression", source: "-".repeat(100000) + "1" }) + "\n");
  own.stdin.write(JSON.stringify({ id: "next", kind: "expression", source: "1" }) + "\n");
  // Neither the deep request nor the one after it is answered (hclspec
  // charges the crash to the first and sends the second again), and the
  // reason is on stderr.
  assert.equal((await lines.next()).done, true);
  assert.notEqual(await exited, 0);
  assert.match(stderr, /^hcl2json: /m);
});
