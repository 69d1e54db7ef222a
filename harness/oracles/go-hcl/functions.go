package main

import (
	"sort"

	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// functions is the table of functions that expressions may call, under
// Terraform's names. Most entries are go-cty's stdlib functions, used where
// Terraform itself uses them. Entries marked TERRAFORM-SPECIFIC are our own
// small wrappers (terraform_funcs.go) for functions Terraform implements
// itself. Terraform functions that cty does not provide, or whose cty
// counterpart behaves differently (coalesce, for one), are left out.
func functions() map[string]function.Function {
	return map[string]function.Function{
		// Numbers.
		"abs":      stdlib.AbsoluteFunc,
		"ceil":     stdlib.CeilFunc,
		"floor":    stdlib.FloorFunc,
		"log":      stdlib.LogFunc,
		"max":      stdlib.MaxFunc,
		"min":      stdlib.MinFunc,
		"parseint": stdlib.ParseIntFunc,
		"pow":      stdlib.PowFunc,
		"signum":   stdlib.SignumFunc,

		// Strings.
		"chomp":      stdlib.ChompFunc,
		"format":     stdlib.FormatFunc,
		"formatlist": stdlib.FormatListFunc,
		"indent":     stdlib.IndentFunc,
		"join":       stdlib.JoinFunc,
		"lower":      stdlib.LowerFunc,
		"regex":      stdlib.RegexFunc,
		"regexall":   stdlib.RegexAllFunc,
		"replace":    terraformReplaceFunc, // TERRAFORM-SPECIFIC: "/re/" selects a regex.
		"split":      stdlib.SplitFunc,
		"strrev":     stdlib.ReverseFunc, // cty's "reverse" of a string.
		"substr":     stdlib.SubstrFunc,
		"title":      stdlib.TitleFunc,
		"trim":       stdlib.TrimFunc,
		"trimprefix": stdlib.TrimPrefixFunc,
		"trimspace":  stdlib.TrimSpaceFunc,
		"trimsuffix": stdlib.TrimSuffixFunc,
		"upper":      stdlib.UpperFunc,

		// Collections.
		"chunklist":    stdlib.ChunklistFunc,
		"coalescelist": stdlib.CoalesceListFunc,
		"compact":      stdlib.CompactFunc,
		"concat":       stdlib.ConcatFunc,
		"contains":     stdlib.ContainsFunc,
		"distinct":     stdlib.DistinctFunc,
		"element":      stdlib.ElementFunc,
		"flatten":      stdlib.FlattenFunc,
		// TERRAFORM-SPECIFIC: position of a value in a list; cty's IndexFunc
		// is element access instead.
		"index": terraformIndexFunc,
		"keys":  stdlib.KeysFunc,
		// TERRAFORM-SPECIFIC: also counts the characters of a string, which
		// cty's LengthFunc refuses.
		"length": terraformLengthFunc,
		// cty's version needs all three arguments; Terraform's makes the
		// default optional.
		"lookup":          stdlib.LookupFunc,
		"merge":           stdlib.MergeFunc,
		"range":           stdlib.RangeFunc,
		"reverse":         stdlib.ReverseListFunc, // lists, unlike cty's "reverse".
		"setintersection": stdlib.SetIntersectionFunc,
		"setproduct":      stdlib.SetProductFunc,
		"setsubtract":     stdlib.SetSubtractFunc,
		"setunion":        stdlib.SetUnionFunc,
		"slice":           stdlib.SliceFunc,
		"sort":            stdlib.SortFunc,
		"values":          stdlib.ValuesFunc,
		"zipmap":          stdlib.ZipmapFunc,

		// Encodings and dates.
		"csvdecode":  stdlib.CSVDecodeFunc,
		"jsondecode": stdlib.JSONDecodeFunc,
		"jsonencode": stdlib.JSONEncodeFunc,
		"formatdate": stdlib.FormatDateFunc,
		"timeadd":    stdlib.TimeAddFunc,

		// Type conversions. The collection targets use a dynamic element
		// type so that cty picks the element type by unification.
		"tobool":   stdlib.MakeToFunc(cty.Bool),
		"tolist":   stdlib.MakeToFunc(cty.List(cty.DynamicPseudoType)),
		"tomap":    stdlib.MakeToFunc(cty.Map(cty.DynamicPseudoType)),
		"tonumber": stdlib.MakeToFunc(cty.Number),
		"toset":    stdlib.MakeToFunc(cty.Set(cty.DynamicPseudoType)),
		"tostring": stdlib.MakeToFunc(cty.String),

		// HCL's extension functions, which see their arguments' diagnostics.
		"can": tryfunc.CanFunc,
		"try": tryfunc.TryFunc,
	}
}

// functionNames lists the function table's names in sorted order.
func functionNames() []string {
	table := functions()
	names := make([]string, 0, len(table))
	for name := range table {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
