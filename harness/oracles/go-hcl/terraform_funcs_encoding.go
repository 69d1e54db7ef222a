package main

// TERRAFORM-SPECIFIC encoding functions: Terraform defines these itself
// (internal/lang/funcs/encoding.go) rather than taking them from cty's
// stdlib. Each reproduces Terraform's behaviour and error texts on top of the
// cty 1.12 API (without marks).

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"net/url"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"golang.org/x/text/encoding/ianaindex"
)

// Error texts of the encoding wrappers, as Terraform words them.
const (
	errBase64Decode      = "failed to decode base64 data %q"
	errBase64NotUTF8     = "the result of decoding the provided string is not valid UTF-8"
	errEncodingName      = "%q is not a supported IANA encoding name or alias in this Terraform version"
	errEncodingRepertory = "the given string contains characters that cannot be represented in %s"
	errEncodingSymbol    = "the given value is has an invalid base64 symbol at offset %d"
	errEncodingSource    = "invalid source string: %w"
	errEncodingUndefined = "the given string contains symbols that are not defined for %s"
	errGzipWrite         = "failed to write gzip raw data: %w"
	errGzipFlush         = "failed to flush gzip writer: %w"
	errGzipClose         = "failed to close gzip writer: %w"
)

// terraformBase64DecodeFunc decodes standard base64 into a UTF-8 string.
// Mirrors Terraform's funcs.Base64DecodeFunc.
var terraformBase64DecodeFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "str", Type: cty.String, AllowUnknown: true}},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		if !args[0].IsKnown() {
			return cty.UnknownVal(cty.String), nil
		}
		s := args[0].AsString()
		dec, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf(errBase64Decode, s)
		}
		if !utf8.Valid(dec) {
			return cty.UnknownVal(cty.String), fmt.Errorf(errBase64NotUTF8)
		}
		return cty.StringVal(string(dec)), nil
	},
})

// terraformBase64EncodeFunc encodes a string's UTF-8 bytes as standard base64.
// Mirrors Terraform's funcs.Base64EncodeFunc.
var terraformBase64EncodeFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "str", Type: cty.String}},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.StringVal(base64.StdEncoding.EncodeToString([]byte(args[0].AsString()))), nil
	},
})

// terraformBase64GzipFunc gzips a string (Go's compress/gzip, default level)
// and encodes the result as standard base64.
// Mirrors Terraform's funcs.Base64GzipFunc.
var terraformBase64GzipFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "str", Type: cty.String}},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		var b bytes.Buffer
		gz := gzip.NewWriter(&b)
		if _, err := gz.Write([]byte(args[0].AsString())); err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf(errGzipWrite, err)
		}
		if err := gz.Flush(); err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf(errGzipFlush, err)
		}
		if err := gz.Close(); err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf(errGzipClose, err)
		}
		return cty.StringVal(base64.StdEncoding.EncodeToString(b.Bytes())), nil
	},
})

// terraformURLEncodeFunc escapes a string for use in a URL query.
// Mirrors Terraform's funcs.URLEncodeFunc.
var terraformURLEncodeFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "str", Type: cty.String}},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.StringVal(url.QueryEscape(args[0].AsString())), nil
	},
})

// terraformTextEncodeBase64Func encodes a string in a named character
// encoding and then as standard base64.
// Mirrors Terraform's funcs.TextEncodeBase64Func.
var terraformTextEncodeBase64Func = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "string", Type: cty.String},
		{Name: "encoding", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		encoding, err := ianaindex.IANA.Encoding(args[1].AsString())
		if err != nil || encoding == nil {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(1, errEncodingName, args[1].AsString())
		}
		encName, err := ianaindex.IANA.Name(encoding)
		if err != nil {
			encName = args[1].AsString()
		}
		encoded, err := encoding.NewEncoder().Bytes([]byte(args[0].AsString()))
		if err != nil {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, errEncodingRepertory, encName)
		}
		return cty.StringVal(base64.StdEncoding.EncodeToString(encoded)), nil
	},
})

// terraformTextDecodeBase64Func decodes standard base64 and then the bytes
// from a named character encoding.
// Mirrors Terraform's funcs.TextDecodeBase64Func.
var terraformTextDecodeBase64Func = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "source", Type: cty.String},
		{Name: "encoding", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		encoding, err := ianaindex.IANA.Encoding(args[1].AsString())
		if err != nil || encoding == nil {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(1, errEncodingName, args[1].AsString())
		}
		encName, err := ianaindex.IANA.Name(encoding)
		if err != nil {
			encName = args[1].AsString()
		}
		raw, err := base64.StdEncoding.DecodeString(args[0].AsString())
		if err != nil {
			if corrupt, ok := err.(base64.CorruptInputError); ok {
				return cty.UnknownVal(cty.String), function.NewArgErrorf(0, errEncodingSymbol, int(corrupt))
			}
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, errEncodingSource, err)
		}
		decoded, err := encoding.NewDecoder().Bytes(raw)
		if err != nil || bytes.ContainsRune(decoded, utf8.RuneError) {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, errEncodingUndefined, encName)
		}
		return cty.StringVal(string(decoded)), nil
	},
})
