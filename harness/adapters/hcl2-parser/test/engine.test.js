"use strict";
const { test } = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const { parseLevelTests } = require("../../node-common/adapter-testing.js");

const c = parseLevelTests(path.join(__dirname, "..", "engine.js"));

test("rejects what hashicorp/hcl's parser rejects", async () => {
  await c.rejected("a ${b", "template");
  await c.rejected("%{ if c }d%{ endfor }", "template");
  await c.rejected("[for x in y x]");
  await c.parsed("[for x in y: x if x]");
  await c.parsed("a.b[0].*.c");
});

test("the library gives no message, and the answer says so", async () => {
  const error = await c.rejected("1 +");
  assert.match(error.summary, /no message/);
});

test("the conversion's errors after parsing are rejections", async () => {
  // hclsyntax parses `-true`; the conversion to JSON evaluates it and fails.
  await c.rejected("-true");
  await c.parsed("-1");
});

test("a Go panic in the library is a crash, and the engine goes on", async () => {
  // The conversion reads the null key as a string (go-cty: "value is null").
  const { crash } = await c.ask("{null = 1}");
  assert.match(crash, /value is null/);
  await c.parsed("{a = 1}");
});

test("an input too deep for the JavaScript stack is a crash, and the engine goes on", async () => {
  const { crash } = await c.ask("[".repeat(5000) + "]".repeat(5000));
  assert.match(crash, /RangeError/);
  await c.parsed("[[1]]");
  await c.rejected("[[1]");
});
