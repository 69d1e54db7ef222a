package main

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// body answers a body request: the source parsed as a configuration body
// (hclsyntax.ParseConfig), its dynamic blocks expanded (dynblock.Expand) and
// the result decoded with the request's spec (hcldec.Decode), all with the
// scope and functions as the evaluation context. Syntax errors are of the
// parse phase, everything else of the eval phase.
func (ev *evaluator) body(id json.RawMessage, req *request) *response {
	file, diags := hclsyntax.ParseConfig([]byte(req.source), sourceFilename, hcl.Pos{Line: 1, Column: 1, Byte: 0})
	if r := failed(id, phaseParse, diags); r != nil {
		return r
	}
	ctx := &hcl.EvalContext{Variables: req.scope, Functions: ev.funcs}
	val, diags := hcldec.Decode(dynblock.Expand(file.Body, ctx), req.spec, ctx)
	if r := failed(id, phaseEval, diags); r != nil {
		return r
	}
	return encodeResult(id, val)
}

// decodeSpec reads the protocol's JSON form of a decoder spec (see
// docs/protocol.md) into an hcldec.Spec; at names the place for errors.
func decodeSpec(raw json.RawMessage, at string) (hcldec.Spec, error) {
	var outer map[string]json.RawMessage
	if err := json.Unmarshal(raw, &outer); err != nil || len(outer) != 1 {
		return nil, fmt.Errorf("%s: a spec is an object with one key", at)
	}
	for kind, body := range outer {
		at := at + "." + kind
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(body, &fields); err != nil {
			return nil, fmt.Errorf("%s: must be an object", at)
		}
		str := func(name string) (string, error) {
			var s string
			if err := decodeStrict(fields[name], &s); err != nil {
				return "", fmt.Errorf("%s.%s: a string is required", at, name)
			}
			return s, nil
		}
		flag := func(name string) (bool, error) {
			var b bool
			if fields[name] == nil {
				return false, nil
			}
			if err := json.Unmarshal(fields[name], &b); err != nil {
				return false, fmt.Errorf("%s.%s: a bool is required", at, name)
			}
			return b, nil
		}
		count := func(name string) (int, error) {
			var n uint32
			if fields[name] == nil {
				return 0, nil
			}
			if err := json.Unmarshal(fields[name], &n); err != nil {
				return 0, fmt.Errorf("%s.%s: a whole number is required", at, name)
			}
			return int(n), nil
		}
		nested := func() (hcldec.Spec, error) {
			if fields["body"] == nil {
				return nil, fmt.Errorf("%s.body: required", at)
			}
			return decodeSpec(fields["body"], at+".body")
		}
		switch kind {
		case "object":
			spec := hcldec.ObjectSpec{}
			names := make([]string, 0, len(fields))
			for name := range fields {
				names = append(names, name)
			}
			sort.Strings(names)
			for _, name := range names {
				child, err := decodeSpec(fields[name], at+"."+name)
				if err != nil {
					return nil, err
				}
				spec[name] = child
			}
			return spec, nil
		case "attr":
			name, err := str("name")
			if err != nil {
				return nil, err
			}
			required, err := flag("required")
			if err != nil {
				return nil, err
			}
			ty := cty.DynamicPseudoType
			if fields["type"] != nil {
				text, err := str("type")
				if err != nil {
					return nil, err
				}
				expr, diags := hclsyntax.ParseExpression([]byte(text), typeFilename, hcl.Pos{Line: 1, Column: 1})
				if diags.HasErrors() {
					return nil, fmt.Errorf("%s.type: %s", at, diags.Error())
				}
				ty, diags = typeexpr.TypeConstraint(expr)
				if diags.HasErrors() {
					return nil, fmt.Errorf("%s.type: %s", at, diags.Error())
				}
			}
			return &hcldec.AttrSpec{Name: name, Type: ty, Required: required}, nil
		case "block", "block_list", "block_set":
			typeName, err := str("type")
			if err != nil {
				return nil, err
			}
			body, err := nested()
			if err != nil {
				return nil, err
			}
			if kind == "block" {
				required, err := flag("required")
				if err != nil {
					return nil, err
				}
				return &hcldec.BlockSpec{TypeName: typeName, Nested: body, Required: required}, nil
			}
			min, err := count("min_items")
			if err != nil {
				return nil, err
			}
			max, err := count("max_items")
			if err != nil {
				return nil, err
			}
			if kind == "block_list" {
				return &hcldec.BlockListSpec{TypeName: typeName, Nested: body, MinItems: min, MaxItems: max}, nil
			}
			return &hcldec.BlockSetSpec{TypeName: typeName, Nested: body, MinItems: min, MaxItems: max}, nil
		case "label":
			name, err := str("name")
			if err != nil {
				return nil, err
			}
			index, err := count("index")
			if err != nil {
				return nil, err
			}
			return &hcldec.BlockLabelSpec{Name: name, Index: index}, nil
		default:
			return nil, fmt.Errorf("%s: unknown spec kind", at)
		}
	}
	return nil, fmt.Errorf("%s: a spec is an object with one key", at)
}

// specT is hcldec.Spec, named for the request struct.
type specT = hcldec.Spec
