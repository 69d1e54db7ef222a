#!/usr/bin/env node
// hcl2-parser (npm) as an hclspec engine, protocol v1, at the parse level.
//
// The library is Go compiled to JavaScript by GopherJS: tmccombs/hcl2json
// v0.3.3's convert.Bytes over hashicorp/hcl v2.10.0, which parses a whole
// file with hclsyntax.ParseConfig and then converts its body to JSON. Its
// one entry point, parseToString, reads a body, so expressions and
// templates are wrapped into one (README.md, "How a request reaches a
// library that reads files"). It returns Go's (string, error) pair as an
// array; a non-null error is a rejection. GopherJS hands the error over as
// an empty object, so the library's message is lost; and the conversion's
// own errors (it evaluates a unary operator applied to a literal, such as
// `-true`) come back the same way as a syntax error, so they are
// rejections too. A Go panic reaches JavaScript as a thrown Error: a crash.
"use strict";

const path = require("node:path");
const hcl2parser = require("hcl2-parser");
const { Rejected, parseAnswer, serve } = require(path.join(__dirname, "..", "node-common", "hclspec-adapter.js"));

const MSG_REJECTED = "hcl2-parser returned an error (GopherJS passes on no message)";

function parseBody(text) {
  const [, error] = hcl2parser.parseToString(text);
  if (error !== null) throw new Rejected(MSG_REJECTED);
}

if (require.main === module) serve((request) => parseAnswer(request, { body: parseBody }), "hcl2-parser");
