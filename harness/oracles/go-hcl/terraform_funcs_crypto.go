package main

// TERRAFORM-SPECIFIC hash and UUID functions: Terraform defines these itself
// (internal/lang/funcs/crypto.go). Each reproduces Terraform's behaviour and
// error texts on top of the cty 1.12 API.

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"hash"

	"github.com/google/uuid"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// errUUIDNamespace is Terraform's text for a namespace uuidv5 cannot parse.
const errUUIDNamespace = "uuidv5() doesn't support namespace %s (%v)"

// Hashes of a string's UTF-8 bytes, hex or base64 encoded.
// Mirror Terraform's funcs.Md5Func, Sha1Func, Sha256Func, Sha512Func,
// Base64Sha256Func and Base64Sha512Func.
var (
	terraformMd5Func          = stringHashFunc(md5.New, hex.EncodeToString)
	terraformSha1Func         = stringHashFunc(sha1.New, hex.EncodeToString)
	terraformSha256Func       = stringHashFunc(sha256.New, hex.EncodeToString)
	terraformSha512Func       = stringHashFunc(sha512.New, hex.EncodeToString)
	terraformBase64Sha256Func = stringHashFunc(sha256.New, base64.StdEncoding.EncodeToString)
	terraformBase64Sha512Func = stringHashFunc(sha512.New, base64.StdEncoding.EncodeToString)
)

func stringHashFunc(newHash func() hash.Hash, encode func([]byte) string) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "str", Type: cty.String}},
		Type:   function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			h := newHash()
			h.Write([]byte(args[0].AsString()))
			return cty.StringVal(encode(h.Sum(nil))), nil
		},
	})
}

// terraformUUIDV5Func makes a name-based (SHA-1) UUID in a well-known or
// given namespace. Mirrors Terraform's funcs.UUIDV5Func.
var terraformUUIDV5Func = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "namespace", Type: cty.String},
		{Name: "name", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		var namespace uuid.UUID
		switch ns := args[0].AsString(); ns {
		case "dns":
			namespace = uuid.NameSpaceDNS
		case "url":
			namespace = uuid.NameSpaceURL
		case "oid":
			namespace = uuid.NameSpaceOID
		case "x500":
			namespace = uuid.NameSpaceX500
		default:
			var err error
			if namespace, err = uuid.Parse(ns); err != nil {
				return cty.UnknownVal(cty.String), fmt.Errorf(errUUIDNamespace, ns, err)
			}
		}
		return cty.StringVal(uuid.NewSHA1(namespace, []byte(args[1].AsString())).String()), nil
	},
})
