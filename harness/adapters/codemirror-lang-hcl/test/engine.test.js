"use strict";
const { test } = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const { parseLevelTests } = require("../../node-common/adapter-testing.js");

const c = parseLevelTests(path.join(__dirname, "..", "engine.js"));

test("a rejection gives Lezer's position in the wrapped source", async () => {
  const error = await c.rejected("1 +");
  assert.equal(error.summary, "No parse at 8");
});

test("rejects templates, escapes and for expressions that do not parse", async () => {
  await c.rejected("a ${b", "template");
  await c.rejected('"\\q"');
  await c.rejected("[for x in y: x if]");
  await c.parsed("[for x in y: x if x]");
  await c.parsed("a::b(1)");
});

test("the grammar needs no separator between object items, where HCL does", async () => {
  await c.parsed("{a = 1 b = 2}");
});

test("nesting deeper than Lezer's stack allows is a rejection, and the engine goes on", async () => {
  await c.parsed("[".repeat(1000) + "]".repeat(1000));
  await c.rejected("[".repeat(10000) + "]".repeat(10000));
  await c.parsed("[[1]]");
});
