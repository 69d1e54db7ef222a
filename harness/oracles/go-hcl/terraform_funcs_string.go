package main

// TERRAFORM-SPECIFIC string functions that cty's stdlib lacks. Each mirrors
// the Terraform function of the same name: a byte-wise test on two known
// strings (unknown arguments make an unknown result, as for any cty
// function whose parameters do not accept unknowns).

import (
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// stringTestFunc builds a function of two strings returning a bool.
func stringTestFunc(second string, test func(s, t string) bool) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "str", Type: cty.String},
			{Name: second, Type: cty.String},
		},
		Type: function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return cty.BoolVal(test(args[0].AsString(), args[1].AsString())), nil
		},
	})
}

// Mirrors Terraform's funcs.StartsWithFunc.
var terraformStartsWithFunc = stringTestFunc("prefix", strings.HasPrefix)

// Mirrors Terraform's funcs.EndsWithFunc.
var terraformEndsWithFunc = stringTestFunc("suffix", strings.HasSuffix)

// Mirrors Terraform's funcs.StrContainsFunc.
var terraformStrContainsFunc = stringTestFunc("substr", strings.Contains)
