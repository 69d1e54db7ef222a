"use strict";
const { test } = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const { parseLevelTests, startEngine } = require("../../node-common/adapter-testing.js");

const ENGINE = path.join(__dirname, "..", "engine.js");
const c = parseLevelTests(ENGINE);

test("gives Go's diagnostic summary", async () => {
  assert.equal((await c.rejected("1 +")).summary, "Missing expression");
  assert.equal((await c.rejected("b {\n", "body", { spec: {} })).summary, "Unclosed configuration block");
});

test("reads line breaks in an expression as HCL's ParseExpression does", async () => {
  await c.parsed("1 +\n2");
});

test("rejects templates that do not parse", async () => {
  await c.rejected("a ${b", "template");
  await c.rejected("%{ if c }d%{ endif", "template");
  await c.rejected("%{ if c }d%{ endfor }", "template");
});

test("an input too deep for the engine ends it without an answer", async () => {
  const own = startEngine(ENGINE, { stderr: "pipe" });
  own.write(JSON.stringify({ id: "deep", kind: "expression", source: "-".repeat(100000) + "1" }) + "\n");
  own.write(JSON.stringify({ id: "next", kind: "expression", source: "1" }) + "\n");
  // Neither the deep request nor the one after it is answered (hclspec
  // charges the crash to the first and sends the second again), and the
  // reason is on stderr.
  assert.equal(await own.next(), null);
  assert.notEqual(await own.exited, 0);
  assert.match(own.stderr(), /^hcl2json: /m);
});
