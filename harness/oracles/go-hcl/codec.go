package main

// Conversion between cty values and the protocol's TypedValue form:
// {"type": T, "value": V, "unknown": [path, ...]}. T is cty's JSON type
// encoding. V follows cty's JSON value encoding, except that infinities are
// the strings "Infinity" and "-Infinity" and unknown parts are null, with
// their paths listed in "unknown". cty's own json package handles neither
// unknowns nor infinities, hence this walker.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// maxValueDepth bounds container nesting in both directions. encoding/json
// refuses documents nested deeper than 10000, so deeper results could not be
// written anyway.
const maxValueDepth = 9000

// Wire spellings of the infinities, which JSON numbers cannot express.
const (
	positiveInfinity = "Infinity"
	negativeInfinity = "-Infinity"
)

// maxPlainExponent is the binary exponent beyond which numbers are written in
// exponent notation: plain decimal text of 1e1000000000 would be a gigabyte.
// Both notations carry the same digits.
const maxPlainExponent = 4096

// maxReasonBytes bounds the library text quoted in an "unsupported" reason.
const maxReasonBytes = 200

// typedValueOut is the wire form of a result.
type typedValueOut struct {
	Type    json.RawMessage `json:"type"`
	Value   json.RawMessage `json:"value"`
	Unknown []valuePath     `json:"unknown,omitempty"`
}

// valuePath addresses part of a value: attribute names and map keys are
// strings, list, tuple and set positions are integers.
type valuePath []interface{}

// unsupportedError marks results that the protocol cannot carry.
type unsupportedError struct{ reason string }

func (e *unsupportedError) Error() string { return e.reason }

// decodeTypedValue decodes one scope variable.
func decodeTypedValue(raw json.RawMessage) (cty.Value, error) {
	var wire struct {
		Type    json.RawMessage `json:"type"`
		Value   json.RawMessage `json:"value"`
		Unknown json.RawMessage `json:"unknown"`
	}
	if err := json.Unmarshal(raw, &wire); err != nil {
		return cty.NilVal, fmt.Errorf("typed value must be an object: %v", err)
	}
	if wire.Type == nil {
		return cty.NilVal, errors.New("typed value has no type")
	}
	ty, err := ctyjson.UnmarshalType(wire.Type)
	if err != nil {
		return cty.NilVal, fmt.Errorf("invalid type: %v", err)
	}

	var value interface{}
	if wire.Value != nil {
		if err := decodeJSON(wire.Value, &value); err != nil {
			return cty.NilVal, fmt.Errorf("invalid value: %v", err)
		}
	}

	unknowns := &unknownTree{visited: true}
	if wire.Unknown != nil && !isJSONNull(wire.Unknown) {
		var paths [][]interface{}
		if err := decodeJSON(wire.Unknown, &paths); err != nil {
			return cty.NilVal, fmt.Errorf("unknown must be a list of paths: %v", err)
		}
		for _, p := range paths {
			if err := unknowns.add(p); err != nil {
				return cty.NilVal, err
			}
		}
	}

	val, err := decodeValue(value, ty, unknowns, valuePath{}, 0)
	if err != nil {
		return cty.NilVal, err
	}
	if p, ok := unknowns.firstUnvisited(valuePath{}); ok {
		return cty.NilVal, fmt.Errorf("unknown path %s does not address a part of the value", formatPath(p))
	}
	return val, nil
}

// encodeTypedValue renders a result, reporting its type as cty sees it.
func encodeTypedValue(v cty.Value) (*typedValueOut, error) {
	if v.ContainsMarked() {
		return nil, &unsupportedError{"result carries marks"}
	}
	tyJSON, err := ctyjson.MarshalType(v.Type())
	if err != nil {
		// Errors from deeply nested types repeat themselves per level.
		msg := err.Error()
		if len(msg) > maxReasonBytes {
			msg = msg[:maxReasonBytes] + "..."
		}
		return nil, &unsupportedError{"result type cannot be written: " + msg}
	}
	e := &valueEncoder{path: valuePath{}}
	if err := e.encode(v, 0); err != nil {
		return nil, err
	}
	return &typedValueOut{Type: tyJSON, Value: e.buf.Bytes(), Unknown: e.unknowns}, nil
}

// decodeJSON decodes one JSON document keeping numbers as their exact text.
func decodeJSON(raw []byte, into interface{}) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return dec.Decode(into)
}

// unknownTree records which parts of an incoming value are unknown, and which
// of those the decoder reached, so that stray paths are reported.
type unknownTree struct {
	whole    bool
	visited  bool
	children map[pathStep]*unknownTree
}

type pathStep struct {
	name    string
	index   int64
	isIndex bool
}

func (t *unknownTree) add(path []interface{}) error {
	if len(path) > maxValueDepth {
		return fmt.Errorf("unknown path is longer than %d steps", maxValueDepth)
	}
	node := t
	for _, raw := range path {
		step, err := parsePathStep(raw)
		if err != nil {
			return fmt.Errorf("unknown path %s: %v", formatPath(path), err)
		}
		if node.children == nil {
			node.children = map[pathStep]*unknownTree{}
		}
		next := node.children[step]
		if next == nil {
			next = &unknownTree{}
			node.children[step] = next
		}
		node = next
	}
	node.whole = true
	return nil
}

// child returns the subtree for one step, or nil when nothing below is
// unknown. A nil tree has no children.
func (t *unknownTree) child(step pathStep) *unknownTree {
	if t == nil {
		return nil
	}
	c := t.children[step]
	if c != nil {
		c.visited = true
	}
	return c
}

// firstUnvisited finds a recorded path that the decoder never reached, or a
// path that continues below an unknown value.
func (t *unknownTree) firstUnvisited(prefix valuePath) (valuePath, bool) {
	if !t.visited {
		return prefix, true
	}
	steps := make([]pathStep, 0, len(t.children))
	for s := range t.children {
		steps = append(steps, s)
	}
	sort.Slice(steps, func(i, j int) bool { return stepLess(steps[i], steps[j]) })
	for _, s := range steps {
		// Below an unknown value nothing is visited, so such paths show up.
		if p, ok := t.children[s].firstUnvisited(append(prefix, s.wire())); ok {
			return p, true
		}
	}
	return nil, false
}

func parsePathStep(raw interface{}) (pathStep, error) {
	switch s := raw.(type) {
	case string:
		return pathStep{name: s}, nil
	case json.Number:
		i, err := strconv.ParseInt(string(s), 10, 64)
		if err != nil || i < 0 {
			return pathStep{}, fmt.Errorf("index %s is not a non-negative integer", s)
		}
		return pathStep{index: i, isIndex: true}, nil
	default:
		return pathStep{}, errors.New("path steps must be strings or integers")
	}
}

func (s pathStep) wire() interface{} {
	if s.isIndex {
		return s.index
	}
	return s.name
}

func stepLess(a, b pathStep) bool {
	if a.isIndex != b.isIndex {
		return a.isIndex
	}
	if a.isIndex {
		return a.index < b.index
	}
	return a.name < b.name
}

func formatPath(p []interface{}) string {
	b, err := json.Marshal(p)
	if err != nil {
		return fmt.Sprint(p)
	}
	return string(b)
}

// decodeValue builds the cty value of type ty from its JSON form. Values of
// exactly the declared type are required; the only conversion is the one cty's
// JSON encoding implies for dynamic positions, where a non-null value arrives
// wrapped as {"value": V, "type": T}.
func decodeValue(raw interface{}, ty cty.Type, unk *unknownTree, path valuePath, depth int) (cty.Value, error) {
	if depth > maxValueDepth {
		return cty.NilVal, fmt.Errorf("at %s: value nests deeper than %d", formatPath(path), maxValueDepth)
	}
	if unk != nil && unk.whole {
		return decodeUnknown(raw, ty, path)
	}
	if raw == nil {
		return cty.NullVal(ty), nil
	}
	fail := func(format string, args ...interface{}) (cty.Value, error) {
		return cty.NilVal, fmt.Errorf("at %s: %s", formatPath(path), fmt.Sprintf(format, args...))
	}

	switch {
	case ty == cty.DynamicPseudoType:
		inner, innerRaw, err := unwrapDynamic(raw)
		if err != nil {
			return fail("%v", err)
		}
		return decodeValue(innerRaw, inner, unk, path, depth+1)

	case ty == cty.String:
		s, ok := raw.(string)
		if !ok {
			return fail("a string is required")
		}
		return cty.StringVal(s), nil

	case ty == cty.Number:
		return decodeNumber(raw, path)

	case ty == cty.Bool:
		b, ok := raw.(bool)
		if !ok {
			return fail("a bool is required")
		}
		return cty.BoolVal(b), nil

	case ty.IsListType(), ty.IsSetType():
		arr, ok := raw.([]interface{})
		if !ok {
			return fail("an array is required for %s", ty.FriendlyName())
		}
		ety := ty.ElementType()
		elems := make([]cty.Value, len(arr))
		for i, er := range arr {
			step := pathStep{index: int64(i), isIndex: true}
			ev, err := decodeValue(er, ety, unk.child(step), append(path, step.wire()), depth+1)
			if err != nil {
				return cty.NilVal, err
			}
			elems[i] = ev
		}
		if !sameTypes(elems) {
			return fail("elements of %s have differing types", ty.FriendlyName())
		}
		switch {
		case len(elems) == 0 && ty.IsListType():
			return cty.ListValEmpty(ety), nil
		case len(elems) == 0:
			return cty.SetValEmpty(ety), nil
		case ty.IsListType():
			return cty.ListVal(elems), nil
		default:
			return cty.SetVal(elems), nil
		}

	case ty.IsMapType():
		obj, ok := raw.(map[string]interface{})
		if !ok {
			return fail("an object is required for %s", ty.FriendlyName())
		}
		ety := ty.ElementType()
		elems := make(map[string]cty.Value, len(obj))
		list := make([]cty.Value, 0, len(obj))
		for k, er := range obj {
			step := pathStep{name: k}
			ev, err := decodeValue(er, ety, unk.child(step), append(path, k), depth+1)
			if err != nil {
				return cty.NilVal, err
			}
			elems[k] = ev
			list = append(list, ev)
		}
		if !sameTypes(list) {
			return fail("elements of %s have differing types", ty.FriendlyName())
		}
		if len(elems) == 0 {
			return cty.MapValEmpty(ety), nil
		}
		return cty.MapVal(elems), nil

	case ty.IsTupleType():
		arr, ok := raw.([]interface{})
		if !ok {
			return fail("an array is required for %s", ty.FriendlyName())
		}
		etys := ty.TupleElementTypes()
		if len(arr) != len(etys) {
			return fail("a tuple of %d elements is required, found %d", len(etys), len(arr))
		}
		if len(etys) == 0 {
			return cty.EmptyTupleVal, nil
		}
		elems := make([]cty.Value, len(arr))
		for i, er := range arr {
			step := pathStep{index: int64(i), isIndex: true}
			ev, err := decodeValue(er, etys[i], unk.child(step), append(path, step.wire()), depth+1)
			if err != nil {
				return cty.NilVal, err
			}
			elems[i] = ev
		}
		return cty.TupleVal(elems), nil

	case ty.IsObjectType():
		if len(ty.OptionalAttributes()) > 0 {
			return fail("object types with optional attributes are constraints, not value types")
		}
		obj, ok := raw.(map[string]interface{})
		if !ok {
			return fail("an object is required for %s", ty.FriendlyName())
		}
		atys := ty.AttributeTypes()
		for k := range obj {
			if _, ok := atys[k]; !ok {
				return fail("attribute %q is not part of the type", k)
			}
		}
		if len(atys) == 0 {
			return cty.EmptyObjectVal, nil
		}
		attrs := make(map[string]cty.Value, len(atys))
		for k, aty := range atys {
			ar, present := obj[k]
			if !present {
				return fail("attribute %q is missing", k)
			}
			step := pathStep{name: k}
			av, err := decodeValue(ar, aty, unk.child(step), append(path, k), depth+1)
			if err != nil {
				return cty.NilVal, err
			}
			attrs[k] = av
		}
		return cty.ObjectVal(attrs), nil

	default:
		return fail("type %s cannot be decoded", ty.FriendlyName())
	}
}

// decodeUnknown handles a position listed in "unknown". Its JSON value is
// null, except that a dynamic position may name a more precise type through
// the {"value": null, "type": T} wrapper.
func decodeUnknown(raw interface{}, ty cty.Type, path valuePath) (cty.Value, error) {
	if raw == nil {
		return cty.UnknownVal(ty), nil
	}
	if ty == cty.DynamicPseudoType {
		inner, innerRaw, err := unwrapDynamic(raw)
		if err == nil && innerRaw == nil {
			return cty.UnknownVal(inner), nil
		}
	}
	return cty.NilVal, fmt.Errorf("at %s: the value of an unknown part must be null", formatPath(path))
}

// unwrapDynamic splits cty's {"value": V, "type": T} wrapper.
func unwrapDynamic(raw interface{}) (cty.Type, interface{}, error) {
	obj, ok := raw.(map[string]interface{})
	if !ok || len(obj) != 2 {
		return cty.NilType, nil, errors.New(`a non-null value at a dynamic position must be {"value": ..., "type": ...}`)
	}
	tyRaw, hasType := obj["type"]
	valRaw, hasValue := obj["value"]
	if !hasType || !hasValue {
		return cty.NilType, nil, errors.New(`a non-null value at a dynamic position must be {"value": ..., "type": ...}`)
	}
	tyJSON, err := json.Marshal(tyRaw)
	if err != nil {
		return cty.NilType, nil, err
	}
	ty, err := ctyjson.UnmarshalType(tyJSON)
	if err != nil {
		return cty.NilType, nil, fmt.Errorf("invalid type: %v", err)
	}
	return ty, valRaw, nil
}

func decodeNumber(raw interface{}, path valuePath) (cty.Value, error) {
	switch n := raw.(type) {
	case json.Number:
		// The same parser hclsyntax uses for number literals.
		v, err := cty.ParseNumberVal(string(n))
		if err != nil {
			return cty.NilVal, fmt.Errorf("at %s: %v", formatPath(path), err)
		}
		return v, nil
	case string:
		switch n {
		case positiveInfinity:
			return cty.PositiveInfinity, nil
		case negativeInfinity:
			return cty.NegativeInfinity, nil
		}
	}
	return cty.NilVal, fmt.Errorf("at %s: a number is required", formatPath(path))
}

// sameTypes reports whether all values share one type, as cty's collection
// constructors require (they panic otherwise).
func sameTypes(vals []cty.Value) bool {
	for i := 1; i < len(vals); i++ {
		if !vals[i].Type().Equals(vals[0].Type()) {
			return false
		}
	}
	return true
}

// valueEncoder writes a value against its own type, so no dynamic wrappers
// are ever needed: a dynamic-typed position holds only null or unknown.
type valueEncoder struct {
	buf      bytes.Buffer
	path     valuePath
	unknowns []valuePath
}

func (e *valueEncoder) encode(v cty.Value, depth int) error {
	if depth > maxValueDepth {
		return &unsupportedError{fmt.Sprintf("result nests deeper than %d", maxValueDepth)}
	}
	if !v.IsKnown() {
		e.unknowns = append(e.unknowns, append(valuePath{}, e.path...))
		e.buf.WriteString("null")
		return nil
	}
	if v.IsNull() {
		e.buf.WriteString("null")
		return nil
	}

	ty := v.Type()
	switch {
	case ty == cty.String:
		writeJSONString(&e.buf, v.AsString())
	case ty == cty.Number:
		writeNumber(&e.buf, v.AsBigFloat())
	case ty == cty.Bool:
		if v.True() {
			e.buf.WriteString("true")
		} else {
			e.buf.WriteString("false")
		}

	case ty.IsListType(), ty.IsSetType(), ty.IsTupleType():
		// Sets come out in cty's iteration order, which "unknown" paths share.
		e.buf.WriteByte('[')
		i := int64(0)
		for it := v.ElementIterator(); it.Next(); i++ {
			if i > 0 {
				e.buf.WriteByte(',')
			}
			_, ev := it.Element()
			if err := e.encodeAt(i, ev, depth); err != nil {
				return err
			}
		}
		e.buf.WriteByte(']')

	case ty.IsMapType():
		e.buf.WriteByte('{')
		first := true
		for it := v.ElementIterator(); it.Next(); {
			if !first {
				e.buf.WriteByte(',')
			}
			first = false
			kv, ev := it.Element()
			key := kv.AsString()
			writeJSONString(&e.buf, key)
			e.buf.WriteByte(':')
			if err := e.encodeAt(key, ev, depth); err != nil {
				return err
			}
		}
		e.buf.WriteByte('}')

	case ty.IsObjectType():
		names := make([]string, 0, len(ty.AttributeTypes()))
		for name := range ty.AttributeTypes() {
			names = append(names, name)
		}
		sort.Strings(names)
		e.buf.WriteByte('{')
		for i, name := range names {
			if i > 0 {
				e.buf.WriteByte(',')
			}
			writeJSONString(&e.buf, name)
			e.buf.WriteByte(':')
			if err := e.encodeAt(name, v.GetAttr(name), depth); err != nil {
				return err
			}
		}
		e.buf.WriteByte('}')

	default:
		return &unsupportedError{"result contains a value of type " + ty.FriendlyName()}
	}
	return nil
}

func (e *valueEncoder) encodeAt(step interface{}, v cty.Value, depth int) error {
	e.path = append(e.path, step)
	err := e.encode(v, depth+1)
	e.path = e.path[:len(e.path)-1]
	return err
}

// writeNumber writes the shortest decimal that identifies the number at its
// precision, as cty's JSON marshaller does.
func writeNumber(buf *bytes.Buffer, f *big.Float) {
	if f.IsInf() {
		if f.Sign() > 0 {
			writeJSONString(buf, positiveInfinity)
		} else {
			writeJSONString(buf, negativeInfinity)
		}
		return
	}
	if exp := f.MantExp(nil); exp > maxPlainExponent || exp < -maxPlainExponent {
		buf.WriteString(f.Text('e', -1))
		return
	}
	buf.WriteString(f.Text('f', -1))
}

// writeJSONString writes s as a JSON string without HTML escaping. Invalid
// UTF-8 becomes U+FFFD, as encoding/json does.
func writeJSONString(buf *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	buf.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				buf.WriteByte('\\')
				buf.WriteByte(c)
			case c == '\n':
				buf.WriteString(`\n`)
			case c == '\r':
				buf.WriteString(`\r`)
			case c == '\t':
				buf.WriteString(`\t`)
			case c < 0x20:
				buf.WriteString(`\u00`)
				buf.WriteByte(hex[c>>4])
				buf.WriteByte(hex[c&0xf])
			default:
				buf.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf.WriteString(`\ufffd`)
		} else {
			buf.WriteString(s[i : i+size])
		}
		i += size
	}
	buf.WriteByte('"')
}
