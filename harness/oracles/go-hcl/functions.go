package main

import (
	"sort"

	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	ctyyaml "github.com/zclconf/go-cty-yaml"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// functions is the table of functions that expressions may call, under
// Terraform's names. Most entries are go-cty's stdlib functions, used where
// Terraform itself uses them. Entries marked TERRAFORM-SPECIFIC are our own
// small wrappers (terraform_funcs*.go) for functions Terraform implements
// itself. Terraform functions that are not mapped yet are left out.
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
		"chomp":       stdlib.ChompFunc,
		"endswith":    terraformEndsWithFunc, // TERRAFORM-SPECIFIC.
		"format":      stdlib.FormatFunc,
		"formatlist":  stdlib.FormatListFunc,
		"indent":      stdlib.IndentFunc,
		"join":        stdlib.JoinFunc,
		"lower":       stdlib.LowerFunc,
		"regex":       stdlib.RegexFunc,
		"regexall":    stdlib.RegexAllFunc,
		"replace":     terraformReplaceFunc, // TERRAFORM-SPECIFIC: "/re/" selects a regex.
		"split":       stdlib.SplitFunc,
		"startswith":  terraformStartsWithFunc,  // TERRAFORM-SPECIFIC.
		"strcontains": terraformStrContainsFunc, // TERRAFORM-SPECIFIC.
		"strrev":      stdlib.ReverseFunc,       // cty's "reverse" of a string.
		"substr":      stdlib.SubstrFunc,
		"title":       stdlib.TitleFunc,
		"trim":        stdlib.TrimFunc,
		"trimprefix":  stdlib.TrimPrefixFunc,
		"trimspace":   stdlib.TrimSpaceFunc,
		"trimsuffix":  stdlib.TrimSuffixFunc,
		"upper":       stdlib.UpperFunc,

		// Collections.
		"alltrue":      terraformAllTrueFunc, // TERRAFORM-SPECIFIC
		"anytrue":      terraformAnyTrueFunc, // TERRAFORM-SPECIFIC
		"chunklist":    stdlib.ChunklistFunc,
		"coalesce":     terraformCoalesceFunc, // TERRAFORM-SPECIFIC: also skips empty strings.
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
		// TERRAFORM-SPECIFIC: the default is optional.
		"lookup":          terraformLookupFunc,
		"matchkeys":       terraformMatchkeysFunc, // TERRAFORM-SPECIFIC
		"merge":           stdlib.MergeFunc,
		"one":             terraformOneFunc, // TERRAFORM-SPECIFIC
		"range":           stdlib.RangeFunc,
		"reverse":         stdlib.ReverseListFunc, // lists, unlike cty's "reverse".
		"setintersection": stdlib.SetIntersectionFunc,
		"setproduct":      stdlib.SetProductFunc,
		"setsubtract":     stdlib.SetSubtractFunc,
		"setunion":        stdlib.SetUnionFunc,
		"slice":           stdlib.SliceFunc,
		"sort":            stdlib.SortFunc,
		"sum":             terraformSumFunc,       // TERRAFORM-SPECIFIC
		"transpose":       terraformTransposeFunc, // TERRAFORM-SPECIFIC
		"values":          stdlib.ValuesFunc,
		"zipmap":          stdlib.ZipmapFunc,

		// Encodings and dates.
		"csvdecode":  stdlib.CSVDecodeFunc,
		"jsondecode": stdlib.JSONDecodeFunc,
		"jsonencode": stdlib.JSONEncodeFunc,
		"formatdate": stdlib.FormatDateFunc,
		"timeadd":    stdlib.TimeAddFunc,
		"yamldecode": ctyyaml.YAMLDecodeFunc,
		"yamlencode": ctyyaml.YAMLEncodeFunc,

		// TERRAFORM-SPECIFIC encodings, hashes, dates and IP networks
		// (terraform_funcs_{encoding,crypto,datetime,cidr}.go).
		"base64decode":     terraformBase64DecodeFunc,
		"base64encode":     terraformBase64EncodeFunc,
		"base64gzip":       terraformBase64GzipFunc,
		"textdecodebase64": terraformTextDecodeBase64Func,
		"textencodebase64": terraformTextEncodeBase64Func,
		"urlencode":        terraformURLEncodeFunc,
		"base64sha256":     terraformBase64Sha256Func,
		"base64sha512":     terraformBase64Sha512Func,
		"md5":              terraformMd5Func,
		"sha1":             terraformSha1Func,
		"sha256":           terraformSha256Func,
		"sha512":           terraformSha512Func,
		"uuidv5":           terraformUUIDV5Func,
		"timecmp":          terraformTimeCmpFunc,
		"cidrhost":         terraformCidrHostFunc,
		"cidrnetmask":      terraformCidrNetmaskFunc,
		"cidrsubnet":       terraformCidrSubnetFunc,
		"cidrsubnets":      terraformCidrSubnetsFunc,

		// Type conversions, TERRAFORM-SPECIFIC: unlike cty's MakeToFunc,
		// unknowns and nulls of unknown type get the requested type. The
		// collection targets use a dynamic element type so that cty picks
		// the element type by unification.
		"tobool":   terraformToFunc(cty.Bool),
		"tolist":   terraformToFunc(cty.List(cty.DynamicPseudoType)),
		"tomap":    terraformToFunc(cty.Map(cty.DynamicPseudoType)),
		"tonumber": terraformToFunc(cty.Number),
		"toset":    terraformToFunc(cty.Set(cty.DynamicPseudoType)),
		"tostring": terraformToFunc(cty.String),

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
