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

const path = require("node:path");
const { Broken, Rejected, parseAnswer, serve, templateHeredoc } = require(
  path.join(__dirname, "..", "node-common", "hclspec-adapter.js"),
);

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

// Go's "file:range: Summary; Detail", somewhere in the library's message.
const DIAGNOSTIC = /[^\s:]+:\d+,\d+-(?:\d+,)?\d+: ([^;\]]*)(?:; ([^\]]*))?/;

async function parseWith(fn, text) {
  try {
    await fn(FILENAME, text);
  } catch (e) {
    // Too deep for the JavaScript side of the bridge, or the Go program
    // has died: the engine failed, the input was not judged.
    if (e instanceof RangeError || goExit !== null) throw new Broken(String(e.message || e));
    const message = String(e.message || e);
    const diagnostic = DIAGNOSTIC.exec(message);
    throw new Rejected(message, diagnostic ? diagnostic[1] : undefined);
  }
  if (goExit !== null) throw new Broken(`the Go runtime exited with code ${goExit}`);
}

const expression = (text) => parseWith(hcl2json.getExpressionAst, text);
const parsers = {
  expression,
  template: (text) => expression(templateHeredoc(text)),
  body: (text) => parseWith(hcl2json.parse, text),
};

if (require.main === module) serve((request) => parseAnswer(request, parsers), "hcl2json");
