package main

// TERRAFORM-SPECIFIC functions: Terraform implements these itself rather than
// taking them from cty's stdlib. Each is a thin layer over cty's stdlib that
// reproduces Terraform's documented behaviour, including its error texts.

import (
	"errors"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// Error texts of the wrappers, as Terraform words them.
const (
	errLengthArgument = "argument must be a string, a collection type, or a structural type"
	errIndexArgument  = "argument must be a list or tuple"
	errIndexEmpty     = "cannot search an empty list"
	errIndexNotFound  = "item not found"
)

// terraformReplaceFunc treats a substring wrapped in forward slashes as a
// regular expression and anything else literally.
// Mirrors Terraform's funcs.ReplaceFunc.
var terraformReplaceFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
		{Name: "substr", Type: cty.String},
		{Name: "replace", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		substr := args[1].AsString()
		if len(substr) > 1 && strings.HasPrefix(substr, "/") && strings.HasSuffix(substr, "/") {
			pattern := cty.StringVal(substr[1 : len(substr)-1])
			return stdlib.RegexReplace(args[0], pattern, args[2])
		}
		return stdlib.Replace(args[0], args[1], args[2])
	},
})

// terraformLengthFunc counts the grapheme clusters of a string, the elements
// of a collection, or the attributes or elements of a structural value.
// Mirrors Terraform's funcs.LengthFunc.
var terraformLengthFunc = function.New(&function.Spec{
	Params: []function.Parameter{{
		Name:             "value",
		Type:             cty.DynamicPseudoType,
		AllowDynamicType: true,
		AllowUnknown:     true,
	}},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		if ty == cty.String || ty == cty.DynamicPseudoType || ty.IsCollectionType() ||
			ty.IsTupleType() || ty.IsObjectType() {
			return cty.Number, nil
		}
		return cty.Number, errors.New(errLengthArgument)
	},
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v := args[0]
		ty := v.Type()
		switch {
		case ty == cty.DynamicPseudoType:
			return cty.UnknownVal(cty.Number), nil
		case ty.IsTupleType():
			// A structural type fixes the count even when the value is unknown.
			return cty.NumberIntVal(int64(len(ty.TupleElementTypes()))), nil
		case ty.IsObjectType():
			return cty.NumberIntVal(int64(len(ty.AttributeTypes()))), nil
		case ty == cty.String:
			return stdlib.Strlen(v)
		default:
			return v.Length(), nil
		}
	},
})

// terraformIndexFunc returns the position of the first element of a list or
// tuple that equals the given value.
// Mirrors Terraform's funcs.IndexFunc.
var terraformIndexFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "list", Type: cty.DynamicPseudoType},
		{Name: "value", Type: cty.DynamicPseudoType},
	},
	Type: function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		list, want := args[0], args[1]
		if !list.Type().IsListType() && !list.Type().IsTupleType() {
			return cty.NilVal, errors.New(errIndexArgument)
		}
		if list.LengthInt() == 0 {
			return cty.NilVal, errors.New(errIndexEmpty)
		}
		for it := list.ElementIterator(); it.Next(); {
			i, elem := it.Element()
			eq, err := stdlib.Equal(elem, want)
			if err != nil {
				return cty.NilVal, err
			}
			if !eq.IsKnown() {
				return cty.UnknownVal(cty.Number), nil
			}
			if eq.True() {
				return i, nil
			}
		}
		return cty.NilVal, errors.New(errIndexNotFound)
	},
})
