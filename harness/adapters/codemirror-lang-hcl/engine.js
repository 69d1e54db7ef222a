#!/usr/bin/env node
// codemirror-lang-hcl (npm) as an hclspec engine, protocol v1, at the parse
// level.
//
// The library is CodeMirror's HCL support: a Lezer grammar (ported from
// tree-sitter-hcl's) with its own tokenizers for templates and heredocs,
// run by @lezer/lr. Its only start rule is a configuration file, so
// expressions and templates are wrapped into a body (README.md, "How a
// request reaches a library that reads files"). In an editor Lezer recovers
// from every error and marks it with an error node; configured `strict`, as
// here, it throws a SyntaxError ("No parse at N") where it would have had to
// recover, which is a rejection.
"use strict";

const path = require("node:path");
const { hclLanguage } = require("codemirror-lang-hcl");
const { Rejected, parseAnswer, serve } = require(path.join(__dirname, "..", "node-common", "hclspec-adapter.js"));

const STRICT_PARSER = hclLanguage.parser.configure({ strict: true });

function parseBody(text) {
  try {
    STRICT_PARSER.parse(text);
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    throw new Rejected(`${e.message} (an offset in the wrapped source)`, e.message);
  }
}

if (require.main === module) serve((request) => parseAnswer(request, { body: parseBody }), "codemirror-lang-hcl");
