package main

// TERRAFORM-SPECIFIC collection and conversion functions: Terraform defines
// these itself (internal/lang/funcs) instead of taking go-cty's stdlib
// versions. Each reproduces Terraform's behaviour and error texts on top of
// the cty 1.12 API.

import (
	"errors"
	"fmt"
	"sort"
	"strconv"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
)

// Error texts of the collection wrappers, as Terraform words them.
const (
	errCoalesceTypes     = "all arguments must have the same type"
	errCoalesceNone      = "no non-null, non-empty-string arguments"
	errLookupArity       = "lookup() takes two or three arguments, got %d"
	errLookupNoAttr      = "the given object has no attribute %q"
	errLookupDefault     = "the default value must have the same type as the map elements"
	errLookupNotMap      = "lookup() requires a map as the first argument"
	errLookupNotFound    = "lookup failed to find key %q"
	errMatchkeysTypes    = "keys and searchset must be of the same type"
	errMatchkeysLengths  = "length of keys and values should be equal"
	errOneShape          = "must be a list, set, or tuple value with either zero or one elements"
	errSumNoniterable    = "cannot sum noniterable"
	errSumEmpty          = "cannot sum an empty list"
	errSumKind           = "argument must be list, set, or tuple. Received %s"
	errSumElements       = "argument must be list, set, or tuple of number values"
	errSumInfinities     = "can't compute sum of opposing infinities"
	errTransposeElements = "input must be a map of lists of strings"
)

// terraformAllTrueFunc is true when no element of a list of bools is false
// or null; an unknown element before any false one makes it unknown.
// Mirrors Terraform's funcs.AllTrueFunc.
var terraformAllTrueFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "list", Type: cty.List(cty.Bool)}},
	Type:   function.StaticReturnType(cty.Bool),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		for it := args[0].ElementIterator(); it.Next(); {
			_, v := it.Element()
			switch {
			case !v.IsKnown():
				return cty.UnknownVal(cty.Bool), nil
			case v.IsNull() || v.False():
				return cty.False, nil
			}
		}
		return cty.True, nil
	},
})

// terraformAnyTrueFunc is true when some element of a list of bools is true;
// nulls count as false, and unknowns make a result without a true element
// unknown.
// Mirrors Terraform's funcs.AnyTrueFunc.
var terraformAnyTrueFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "list", Type: cty.List(cty.Bool)}},
	Type:   function.StaticReturnType(cty.Bool),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		sawUnknown := false
		for it := args[0].ElementIterator(); it.Next(); {
			_, v := it.Element()
			switch {
			case !v.IsKnown():
				sawUnknown = true
			case !v.IsNull() && v.True():
				return cty.True, nil
			}
		}
		if sawUnknown {
			return cty.UnknownVal(cty.Bool), nil
		}
		return cty.False, nil
	},
})

// terraformCoalesceFunc returns the first argument that is neither null nor,
// when the arguments unify to string, the empty string.
// Mirrors Terraform's funcs.CoalesceFunc.
var terraformCoalesceFunc = function.New(&function.Spec{
	VarParam: &function.Parameter{
		Name:             "vals",
		Type:             cty.DynamicPseudoType,
		AllowUnknown:     true,
		AllowDynamicType: true,
		AllowNull:        true,
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		types := make([]cty.Type, len(args))
		for i, arg := range args {
			types[i] = arg.Type()
		}
		common, _ := convert.UnifyUnsafe(types)
		if common == cty.NilType {
			return cty.NilType, errors.New(errCoalesceTypes)
		}
		return common, nil
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		for _, arg := range args {
			// The type function found a conversion for every argument.
			v, _ := convert.Convert(arg, retType)
			switch {
			case !v.IsKnown():
				return cty.UnknownVal(retType), nil
			case v.IsNull():
				continue
			case retType == cty.String && v.RawEquals(cty.StringVal("")):
				continue
			}
			return v, nil
		}
		return cty.NilVal, errors.New(errCoalesceNone)
	},
})

// terraformLookupFunc reads a map element or object attribute, falling back
// on an optional default.
// Mirrors Terraform's funcs.LookupFunc.
var terraformLookupFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "inputMap", Type: cty.DynamicPseudoType, AllowUnknown: true},
		{Name: "key", Type: cty.String, AllowUnknown: true},
	},
	VarParam: &function.Parameter{
		Name:             "default",
		Type:             cty.DynamicPseudoType,
		AllowUnknown:     true,
		AllowDynamicType: true,
		AllowNull:        true,
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		if len(args) > 3 {
			return cty.NilType, fmt.Errorf(errLookupArity, len(args))
		}
		ty := args[0].Type()
		switch {
		case ty.IsObjectType():
			if !args[1].IsKnown() {
				return cty.DynamicPseudoType, nil
			}
			key := args[1].AsString()
			if ty.HasAttribute(key) {
				return ty.AttributeType(key), nil
			}
			if len(args) == 3 {
				return args[2].Type(), nil
			}
			return cty.DynamicPseudoType, function.NewArgErrorf(0, errLookupNoAttr, key)
		case ty.IsMapType():
			if len(args) == 3 {
				if _, err := convert.Convert(args[2], ty.ElementType()); err != nil {
					return cty.NilType, function.NewArgErrorf(2, errLookupDefault)
				}
			}
			return ty.ElementType(), nil
		default:
			return cty.NilType, function.NewArgErrorf(0, errLookupNotMap)
		}
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		coll, key := args[0], args[1]
		if !coll.IsKnown() || !key.IsKnown() {
			return cty.UnknownVal(retType), nil
		}
		name := key.AsString()
		if coll.Type().IsObjectType() {
			if coll.Type().HasAttribute(name) {
				return coll.GetAttr(name), nil
			}
		} else if coll.HasIndex(key) == cty.True {
			return coll.Index(key), nil
		}
		if len(args) == 3 {
			return convert.Convert(args[2], retType)
		}
		return cty.DynamicVal, fmt.Errorf(errLookupNotFound, name)
	},
})

// terraformMatchkeysFunc keeps the elements of values whose counterpart in
// keys occurs in searchset.
// Mirrors Terraform's funcs.MatchkeysFunc.
var terraformMatchkeysFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "values", Type: cty.List(cty.DynamicPseudoType)},
		{Name: "keys", Type: cty.List(cty.DynamicPseudoType)},
		{Name: "searchset", Type: cty.List(cty.DynamicPseudoType)},
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		if common, _ := convert.UnifyUnsafe([]cty.Type{args[1].Type(), args[2].Type()}); common == cty.NilType {
			return cty.NilType, errors.New(errMatchkeysTypes)
		}
		return args[0].Type(), nil
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		values := args[0]
		ety := retType.ElementType()
		if values.LengthInt() != args[1].LengthInt() {
			return cty.NilVal, errors.New(errMatchkeysLengths)
		}
		common, _ := convert.UnifyUnsafe([]cty.Type{args[1].Type(), args[2].Type()})
		keys, _ := convert.Convert(args[1], common)
		search, _ := convert.Convert(args[2], common)
		if search.LengthInt() == 0 {
			return cty.ListValEmpty(ety), nil
		}
		if !values.IsWhollyKnown() || !keys.IsWhollyKnown() {
			return cty.UnknownVal(retType), nil
		}
		var kept []cty.Value
		for i, key := range keys.AsValueSlice() {
			for _, candidate := range search.AsValueSlice() {
				eq := key.Equals(candidate)
				if !eq.IsKnown() {
					return cty.ListValEmpty(ety), nil
				}
				if eq.True() {
					kept = append(kept, values.Index(cty.NumberIntVal(int64(i))))
					break
				}
			}
		}
		if len(kept) == 0 {
			return cty.ListValEmpty(ety), nil
		}
		return cty.ListVal(kept), nil
	},
})

// terraformOneFunc returns the only element of a zero- or one-element list,
// set or tuple, or null when there is none.
// Mirrors Terraform's funcs.OneFunc.
var terraformOneFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		switch {
		case ty.IsListType() || ty.IsSetType():
			return ty.ElementType(), nil
		case ty.IsTupleType() && len(ty.TupleElementTypes()) == 0:
			return cty.DynamicPseudoType, nil
		case ty.IsTupleType() && len(ty.TupleElementTypes()) == 1:
			return ty.TupleElementTypes()[0], nil
		}
		return cty.NilType, function.NewArgErrorf(0, errOneShape)
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		v := args[0]
		length := v.Length()
		if !length.IsKnown() {
			return cty.UnknownVal(retType), nil
		}
		switch v.LengthInt() {
		case 0:
			return cty.NullVal(retType), nil
		case 1:
			return v.AsValueSlice()[0], nil
		}
		return cty.NilVal, function.NewArgErrorf(0, errOneShape)
	},
})

// terraformSumFunc adds up a list, set or tuple of numbers.
// Mirrors Terraform's funcs.SumFunc.
var terraformSumFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}},
	Type:   function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (ret cty.Value, err error) {
		coll := args[0]
		if !coll.CanIterateElements() {
			return cty.NilVal, function.NewArgErrorf(0, errSumNoniterable)
		}
		if coll.LengthInt() == 0 {
			return cty.NilVal, function.NewArgErrorf(0, errSumEmpty)
		}
		ty := coll.Type()
		if !ty.IsListType() && !ty.IsSetType() && !ty.IsTupleType() {
			return cty.NilVal, function.NewArgErrorf(0, errSumKind, ty.FriendlyName())
		}
		if !coll.IsWhollyKnown() {
			return cty.UnknownVal(cty.Number), nil
		}
		// Adding opposite infinities makes big.Float panic.
		defer func() {
			if r := recover(); r != nil {
				ret, err = cty.NilVal, errors.New(errSumInfinities)
			}
		}()
		var total cty.Value
		for i, elem := range coll.AsValueSlice() {
			if elem.IsNull() {
				return cty.NilVal, function.NewArgErrorf(0, errSumElements)
			}
			n, convErr := convert.Convert(elem, cty.Number)
			if convErr != nil {
				return cty.NilVal, function.NewArgErrorf(0, errSumElements)
			}
			if i == 0 {
				total = n
			} else {
				total = total.Add(n)
			}
		}
		return total, nil
	},
})

// terraformTransposeFunc swaps the keys and values of a map of lists of
// strings; each new list is sorted.
// Mirrors Terraform's funcs.TransposeFunc.
var terraformTransposeFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "values", Type: cty.Map(cty.List(cty.String))}},
	Type:   function.StaticReturnType(cty.Map(cty.List(cty.String))),
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		in := args[0]
		if !in.IsWhollyKnown() {
			return cty.UnknownVal(retType), nil
		}
		swapped := map[string][]string{}
		for it := in.ElementIterator(); it.Next(); {
			key, list := it.Element()
			// A null list or element panics here, as in Terraform; cty turns
			// the panic into an error.
			for lit := list.ElementIterator(); lit.Next(); {
				_, elem := lit.Element()
				name := elem.AsString()
				swapped[name] = append(swapped[name], key.AsString())
			}
		}
		if len(swapped) == 0 {
			return cty.MapValEmpty(cty.List(cty.String)), nil
		}
		out := make(map[string]cty.Value, len(swapped))
		for name, keys := range swapped {
			sort.Strings(keys)
			vals := make([]cty.Value, len(keys))
			for i, k := range keys {
				vals[i] = cty.StringVal(k)
			}
			out[name] = cty.ListVal(vals)
		}
		return cty.MapVal(out), nil
	},
})

// terraformToFunc converts its argument to wantTy. Unlike cty's MakeToFunc,
// it also accepts unknown values and values of unknown type, so that
// tostring(null) is a null string and an unknown gives an unknown of wantTy.
// Mirrors Terraform's funcs.MakeToFunc.
func terraformToFunc(wantTy cty.Type) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{
			Name:             "v",
			Type:             cty.DynamicPseudoType,
			AllowNull:        true,
			AllowDynamicType: true,
			AllowUnknown:     true,
		}},
		Type: func(args []cty.Value) (cty.Type, error) {
			gotTy := args[0].Type()
			if gotTy.Equals(wantTy) || convert.GetConversionUnsafe(gotTy, wantTy) != nil {
				return wantTy, nil
			}
			return cty.NilType, function.NewArgErrorf(0, "cannot convert %s to %s", gotTy.FriendlyName(), wantTy.FriendlyNameForConstraint())
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			v := args[0]
			if !v.IsKnown() {
				return cty.UnknownVal(retType), nil
			}
			out, err := convert.Convert(v, retType)
			if err == nil {
				return out, nil
			}
			gotTy := v.Type()
			what := "string"
			if gotTy == cty.String && !v.IsNull() {
				what = strconv.Quote(v.AsString())
			}
			switch {
			case gotTy == cty.String && wantTy == cty.Bool:
				return cty.NilVal, function.NewArgErrorf(0, `cannot convert %s to bool; only the strings "true" or "false" are allowed`, what)
			case gotTy == cty.String && wantTy == cty.Number:
				return cty.NilVal, function.NewArgErrorf(0, `cannot convert %s to number; given string must be a decimal representation of a number`, what)
			}
			return cty.NilVal, function.NewArgErrorf(0, "cannot convert %s to %s", gotTy.FriendlyName(), wantTy.FriendlyNameForConstraint())
		},
	})
}
