package main

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestStringTestFuncs checks the startswith, endswith and strcontains
// wrappers on known, empty and unknown arguments.
func TestStringTestFuncs(t *testing.T) {
	cases := []struct {
		name string
		args []cty.Value
		want cty.Value
	}{
		{"startswith", []cty.Value{cty.StringVal("hello"), cty.StringVal("he")}, cty.True},
		{"startswith", []cty.Value{cty.StringVal("hello"), cty.StringVal("lo")}, cty.False},
		{"startswith", []cty.Value{cty.UnknownVal(cty.String), cty.StringVal("")}, cty.UnknownVal(cty.Bool)},
		{"endswith", []cty.Value{cty.StringVal("hello"), cty.StringVal("lo")}, cty.True},
		{"endswith", []cty.Value{cty.StringVal(""), cty.StringVal("a")}, cty.False},
		{"strcontains", []cty.Value{cty.StringVal("hello"), cty.StringVal("ell")}, cty.True},
		{"strcontains", []cty.Value{cty.StringVal("hello"), cty.StringVal("")}, cty.True},
		{"strcontains", []cty.Value{cty.StringVal("hello"), cty.StringVal("x")}, cty.False},
	}
	table := functions()
	for _, c := range cases {
		got, err := table[c.name].Call(c.args)
		if err != nil {
			t.Errorf("%s%#v: %s", c.name, c.args, err)
			continue
		}
		if !got.RawEquals(c.want) {
			t.Errorf("%s%#v = %#v, want %#v", c.name, c.args, got, c.want)
		}
	}
	if _, err := table["startswith"].Call([]cty.Value{cty.NullVal(cty.String), cty.StringVal("a")}); err == nil {
		t.Errorf("startswith(null, \"a\") succeeded")
	}
}
