package main

import (
	"encoding/json"
	"strconv"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// variables answers a variables request: the traversals an expression
// refers to (hclsyntax.Variables), or for body_variables those of a body
// under the request's spec, dynamic blocks included
// (dynblock.VariablesHCLDec), each written out by traversalText, as a set
// of strings. Only a syntax error is an error (of the parse phase): the
// walk reports nothing else.
func variables(id json.RawMessage, req *request) *response {
	start := hcl.Pos{Line: 1, Column: 1, Byte: 0}
	var found []hcl.Traversal
	if req.kind == kindBodyVars {
		file, diags := hclsyntax.ParseConfig([]byte(req.source), sourceFilename, start)
		if r := failed(id, phaseParse, diags); r != nil {
			return r
		}
		found = dynblock.VariablesHCLDec(file.Body, req.spec)
	} else {
		expr, diags := hclsyntax.ParseExpression([]byte(req.source), sourceFilename, start)
		if r := failed(id, phaseParse, diags); r != nil {
			return r
		}
		found = expr.Variables()
	}
	if len(found) == 0 {
		return encodeResult(id, cty.SetValEmpty(cty.String))
	}
	texts := make([]cty.Value, len(found))
	for i, t := range found {
		texts[i] = cty.StringVal(traversalText(t))
	}
	return encodeResult(id, cty.SetVal(texts))
}

// traversalText writes a traversal as the protocol does: the root name,
// then ".NAME" for an attribute step and "[KEY]" for an index step, a
// number key as its decimal text, a string key Go-quoted, true, false and
// null as themselves.
func traversalText(t hcl.Traversal) string {
	out := ""
	for _, step := range t {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			out += s.Name
		case hcl.TraverseAttr:
			out += "." + s.Name
		case hcl.TraverseIndex:
			out += "[" + keyText(s.Key) + "]"
		case hcl.TraverseSplat:
			out += ".*"
		}
	}
	return out
}

func keyText(key cty.Value) string {
	switch {
	case key.IsNull():
		return "null"
	case key.Type() == cty.Number:
		return key.AsBigFloat().Text('f', -1)
	case key.Type() == cty.String:
		return strconv.Quote(key.AsString())
	case key.Type() == cty.Bool:
		return strconv.FormatBool(key.True())
	}
	return key.GoString()
}

// typeString answers a type request: the source read as a type constraint
// (typeexpr.TypeConstraintWithDefaults, as for a convert request's type)
// and written back by typeexpr.TypeString. Every error is of the parse
// phase.
func typeString(id json.RawMessage, req *request) *response {
	start := hcl.Pos{Line: 1, Column: 1, Byte: 0}
	expr, diags := hclsyntax.ParseExpression([]byte(req.source), sourceFilename, start)
	if r := failed(id, phaseParse, diags); r != nil {
		return r
	}
	ty, _, diags := typeexpr.TypeConstraintWithDefaults(expr)
	if r := failed(id, phaseParse, diags); r != nil {
		return r
	}
	return encodeResult(id, cty.StringVal(typeexpr.TypeString(ty)))
}

// traversal answers a traversal request: the source parsed by
// hclsyntax.ParseTraversalAbs and written out by traversalText. Every
// error is of the parse phase.
func traversal(id json.RawMessage, req *request) *response {
	t, diags := hclsyntax.ParseTraversalAbs([]byte(req.source), sourceFilename, hcl.Pos{Line: 1, Column: 1, Byte: 0})
	if r := failed(id, phaseParse, diags); r != nil {
		return r
	}
	return encodeResult(id, cty.StringVal(traversalText(t)))
}
