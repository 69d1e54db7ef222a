package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
)

// Error phases reported in responses.
const (
	phaseRequest = "request"
	phaseParse   = "parse"
	phaseEval    = "eval"
)

// Request kinds.
const (
	kindExpression = "expression"
	kindTemplate   = "template"
	kindConvert    = "convert"
	kindBody       = "body"
	kindVariables  = "variables"
	kindBodyVars   = "body_variables"
	kindType       = "type"
	kindTraversal  = "traversal"
)

// The summary of a value that does not suit the type constraint of a
// convert request: what Terraform reports for an input variable's default
// that does not convert (HCL itself has no such diagnostic).
const invalidVariableValue = "Invalid default value for variable"

// The file name a convert request's type constraint is parsed under.
const typeFilename = "type.hcl"

// sourceFilename names the single in-memory source in diagnostics.
const sourceFilename = "case.hcl"

// response is one protocol answer; exactly one outcome field is set.
type response struct {
	ID          json.RawMessage `json:"id"`
	Result      *typedValueOut  `json:"result,omitempty"`
	Error       *errorOut       `json:"error,omitempty"`
	Unsupported string          `json:"unsupported,omitempty"`
	// Crash is our extension: the evaluation panicked inside the Go
	// libraries, which the harness must not confuse with an HCL error.
	Crash string `json:"crash,omitempty"`
}

type errorOut struct {
	Phase   string    `json:"phase"`
	Summary string    `json:"summary"`
	Detail  string    `json:"detail"`
	Range   *rangeOut `json:"range,omitempty"`
	// LibraryPanic is our extension: cty recovered a panic inside a function
	// and turned it into this error. Its detail then ends in a Go stack trace,
	// which we cut off because it differs from build to build.
	LibraryPanic bool `json:"library_panic,omitempty"`
}

type rangeOut struct {
	Start posOut `json:"start"`
	End   posOut `json:"end"`
}

type posOut struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

// request is a decoded, validated request line.
type request struct {
	kind   string
	source string
	// The type constraint of a convert request.
	typ string
	// The decoder spec of a body request.
	spec  specT
	scope map[string]cty.Value
}

// evaluator holds what every request shares.
type evaluator struct {
	funcs map[string]function.Function
	// The scope of the last request that had one, by its JSON text: the
	// requests of a batch often share a scope, and decoding it costs as
	// much as evaluating the expression. HCL never changes the variables
	// of an EvalContext, so the decoded map is shared.
	lastScopeText []byte
	lastScope     map[string]cty.Value
}

func newEvaluator() *evaluator {
	return &evaluator{funcs: functions()}
}

// handleLine answers one request line. It never panics: malformed requests
// become "request" errors and library panics become crash reports.
func (ev *evaluator) handleLine(line []byte) *response {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(line, &fields); err != nil {
		return requestError(nil, "request is not a JSON object: "+err.Error())
	}
	if fields == nil {
		return requestError(nil, "request is not a JSON object")
	}
	id, ok := fields["id"]
	if !ok {
		return requestError(nil, "request has no id")
	}
	// Only HCL2 is spoken here: another dialect (Terraform 0.11's
	// "hil-0.11") is not evaluated as if it were HCL2.
	if raw, ok := fields["dialect"]; ok && !isJSONNull(raw) {
		var dialect string
		if err := json.Unmarshal(raw, &dialect); err != nil {
			return requestError(id, "invalid dialect: "+err.Error())
		}
		if dialect != "hcl2" {
			return &response{ID: id, Unsupported: "the " + dialect + " dialect (this oracle is HCL 2.14)"}
		}
	}
	req, err := decodeRequest(fields, ev)
	if err != nil {
		return requestError(id, err.Error())
	}
	return ev.evaluate(id, req)
}

// decodeScope decodes a request's scope: a JSON object of typed values.
func decodeScope(raw json.RawMessage) (map[string]cty.Value, error) {
	var scope map[string]json.RawMessage
	if err := json.Unmarshal(raw, &scope); err != nil {
		return nil, fmt.Errorf("scope must be an object: %v", err)
	}
	// Sorted, so that the first bad variable reported is always the same.
	names := make([]string, 0, len(scope))
	for name := range scope {
		names = append(names, name)
	}
	sort.Strings(names)
	out := make(map[string]cty.Value, len(names))
	for _, name := range names {
		val, err := decodeTypedValue(scope[name])
		if err != nil {
			return nil, fmt.Errorf("scope variable %q: %v", name, err)
		}
		out[name] = val
	}
	return out, nil
}

// decodeRequest validates the fields of a request object. Unknown fields
// (such as "hcl_version": this oracle is always HCL 2.14) are ignored.
func decodeRequest(fields map[string]json.RawMessage, ev *evaluator) (req *request, err error) {
	// cty's type constructors panic on some inconsistent inputs; those are
	// malformed requests, not oracle crashes.
	defer func() {
		if r := recover(); r != nil {
			req, err = nil, fmt.Errorf("invalid request: %v", r)
		}
	}()

	req = &request{scope: map[string]cty.Value{}}
	if err := decodeStrict(fields["kind"], &req.kind); err != nil {
		return nil, fmt.Errorf("invalid kind: %v", err)
	}
	switch req.kind {
	case kindExpression, kindTemplate, kindConvert, kindBody, kindVariables, kindBodyVars, kindType, kindTraversal:
	default:
		return nil, fmt.Errorf("kind must be %q, %q, %q, %q, %q, %q, %q or %q", kindExpression, kindTemplate,
			kindConvert, kindBody, kindVariables, kindBodyVars, kindType, kindTraversal)
	}
	if req.kind == kindBody || req.kind == kindBodyVars {
		var raw json.RawMessage
		if err := decodeStrict(fields["spec"], &raw); err != nil {
			return nil, fmt.Errorf("invalid spec: %v", err)
		}
		spec, err := decodeSpec(raw, "spec")
		if err != nil {
			return nil, err
		}
		req.spec = spec
	}
	if req.kind == kindConvert {
		if err := decodeStrict(fields["type"], &req.typ); err != nil {
			return nil, fmt.Errorf("invalid type: %v", err)
		}
	}
	if err := decodeStrict(fields["source"], &req.source); err != nil {
		return nil, fmt.Errorf("invalid source: %v", err)
	}

	if raw, ok := fields["scope"]; ok && !isJSONNull(raw) {
		if ev.lastScope != nil && bytes.Equal(raw, ev.lastScopeText) {
			req.scope = ev.lastScope
			return req, nil
		}
		scope, err := decodeScope(raw)
		if err != nil {
			return nil, err
		}
		req.scope = scope
		ev.lastScopeText = append(ev.lastScopeText[:0], raw...)
		ev.lastScope = scope
	}
	return req, nil
}

// evaluate parses and evaluates one request with the real libraries.
func (ev *evaluator) evaluate(id json.RawMessage, req *request) (resp *response) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "go-hcl-oracle: panic while evaluating request %s: %v\n%s", id, r, debug.Stack())
			text := fmt.Sprint(r)
			if text == "" { // an empty crash field would vanish from the JSON
				text = "panic with an empty value"
			}
			resp = &response{ID: id, Crash: text}
		}
	}()

	if req.kind == kindConvert {
		return ev.convert(id, req)
	}
	if req.kind == kindBody {
		return ev.body(id, req)
	}
	if req.kind == kindVariables || req.kind == kindBodyVars {
		return variables(id, req)
	}
	if req.kind == kindType {
		return typeString(id, req)
	}
	if req.kind == kindTraversal {
		return traversal(id, req)
	}
	start := hcl.Pos{Line: 1, Column: 1, Byte: 0}
	var expr hclsyntax.Expression
	var diags hcl.Diagnostics
	if req.kind == kindTemplate {
		expr, diags = hclsyntax.ParseTemplate([]byte(req.source), sourceFilename, start)
	} else {
		expr, diags = hclsyntax.ParseExpression([]byte(req.source), sourceFilename, start)
	}
	if r := failed(id, phaseParse, diags); r != nil {
		return r
	}

	ctx := &hcl.EvalContext{Variables: req.scope, Functions: ev.funcs}
	val, diags := expr.Value(ctx)
	if r := failed(id, phaseEval, diags); r != nil {
		return r
	}

	return encodeResult(id, val)
}

// encodeResult is the response carrying val.
func encodeResult(id json.RawMessage, val cty.Value) *response {
	out, err := encodeTypedValue(val)
	if err != nil {
		var unsupported *unsupportedError
		if errors.As(err, &unsupported) {
			return &response{ID: id, Unsupported: unsupported.Error()}
		}
		panic(err) // an encoder bug; reported as a crash by the caller's recover
	}
	return &response{ID: id, Result: out}
}

// convert answers a convert request as Terraform computes the value of an
// input variable whose type constraint is req.typ and whose default is the
// value of req.source: the type's defaults applied unless the value is
// null, the result converted when the configuration loads, converted again
// when the variable is evaluated, with the defaults applied once more.
// Here with HCL 2.14.1's typeexpr and go-cty 1.12.1's convert.
func (ev *evaluator) convert(id json.RawMessage, req *request) *response {
	start := hcl.Pos{Line: 1, Column: 1, Byte: 0}
	expr, diags := hclsyntax.ParseExpression([]byte(req.source), sourceFilename, start)
	if r := failed(id, phaseParse, diags); r != nil {
		return r
	}
	tyExpr, diags := hclsyntax.ParseExpression([]byte(req.typ), typeFilename, start)
	if r := failed(id, phaseParse, diags); r != nil {
		return r
	}
	ty, defaults, diags := typeexpr.TypeConstraintWithDefaults(tyExpr)
	if r := failed(id, phaseParse, diags); r != nil {
		return r
	}
	ctx := &hcl.EvalContext{Variables: req.scope, Functions: ev.funcs}
	val, diags := expr.Value(ctx)
	if r := failed(id, phaseEval, diags); r != nil {
		return r
	}
	apply := func(v cty.Value) cty.Value {
		if defaults != nil && !v.IsNull() {
			return defaults.Apply(v)
		}
		return v
	}
	val, err := convert.Convert(apply(val), ty)
	if err == nil {
		val, err = convert.Convert(val, ty)
	}
	if err == nil {
		val, err = convert.Convert(apply(val), ty)
	}
	if err != nil {
		rng := expr.Range()
		return &response{ID: id, Error: diagnosticError(phaseEval, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  invalidVariableValue,
			Detail:   fmt.Sprintf("This default value is not compatible with the variable's type constraint: %s.", err),
			Subject:  &rng,
		})}
	}
	return encodeResult(id, val)
}

// failed is the error response for the first error diagnostic, if any.
func failed(id json.RawMessage, phase string, diags hcl.Diagnostics) *response {
	if d := firstError(diags); d != nil {
		return &response{ID: id, Error: diagnosticError(phase, d)}
	}
	return nil
}

// firstError returns the first error diagnostic; warnings never count.
func firstError(diags hcl.Diagnostics) *hcl.Diagnostic {
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			return d
		}
	}
	return nil
}

func diagnosticError(phase string, d *hcl.Diagnostic) *errorOut {
	out := &errorOut{Phase: phase, Summary: d.Summary}
	out.Detail, out.LibraryPanic = cutPanicStack(d.Detail)
	if d.Subject != nil {
		out.Range = &rangeOut{Start: toPosOut(d.Subject.Start), End: toPosOut(d.Subject.End)}
	}
	return out
}

// Markers of the text of cty's function.PanicError: its message, then the
// stack trace from runtime/debug.Stack.
const (
	libraryPanicMarker = "panic in function implementation: "
	stackTraceMarker   = "\ngoroutine "
)

// cutPanicStack removes the stack trace from a detail that reports a panic
// recovered by cty, keeping the sentence's final full stop.
func cutPanicStack(detail string) (string, bool) {
	at := strings.Index(detail, libraryPanicMarker)
	if at < 0 {
		return detail, false
	}
	stack := strings.Index(detail[at:], stackTraceMarker)
	if stack < 0 {
		return detail, true
	}
	cut := detail[:at+stack]
	if strings.HasSuffix(detail, ".") {
		cut += "."
	}
	return cut, true
}

func toPosOut(p hcl.Pos) posOut {
	return posOut{Line: p.Line, Column: p.Column, Byte: p.Byte}
}

func requestError(id json.RawMessage, summary string) *response {
	return &response{ID: id, Error: &errorOut{Phase: phaseRequest, Summary: summary}}
}

// encode renders the response as one line of JSON. HTML escaping is off so
// that strings read the same as cty's own JSON.
func (r *response) encode() []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		// Only a broken raw value could get here; report it rather than die.
		fallback, _ := json.Marshal(&response{ID: r.ID, Crash: "cannot encode response: " + err.Error()})
		return fallback
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// decodeStrict decodes a required JSON field, rejecting absence and null.
func decodeStrict(raw json.RawMessage, into interface{}) error {
	if raw == nil || isJSONNull(raw) {
		return errors.New("missing")
	}
	return json.Unmarshal(raw, into)
}

func isJSONNull(raw json.RawMessage) bool {
	return bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
}
