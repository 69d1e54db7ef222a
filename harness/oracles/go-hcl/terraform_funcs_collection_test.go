package main

import (
	"encoding/json"
	"testing"
)

// TestTerraformCollectionFuncs checks the collection and conversion
// wrappers against the examples of Terraform's function documentation and,
// for tostring(null), against Terraform's funcs.MakeToFunc (a null of the
// requested type, where cty's own MakeToFunc keeps the dynamic type).
func TestTerraformCollectionFuncs(t *testing.T) {
	cases := []struct{ source, want string }{
		{`coalesce("a", "b")`, `{"type":"string","value":"a"}`},
		{`coalesce("", "b")`, `{"type":"string","value":"b"}`},
		{`coalesce(1, 2)`, `{"type":"number","value":1}`},
		{`coalesce(["", "b"]...)`, `{"type":"string","value":"b"}`},
		{`coalesce(1, "hello")`, `{"type":"string","value":"1"}`},
		{`coalesce(true, "hello")`, `{"type":"string","value":"true"}`},
		{`coalesce({}, "hello")`, `error: Error in function call`},
		{`sum([10, 13, 6, 4.5])`, `{"type":"number","value":33.5}`},
		{`transpose({"a" = ["1", "2"], "b" = ["2", "3"]})`, `{"type":["map",["list","string"]],"value":{"1":["a"],"2":["a","b"],"3":["b"]}}`},
		{`tostring(null)`, `{"type":"string","value":null}`},
	}
	ev := newEvaluator()
	for _, c := range cases {
		line, _ := json.Marshal(map[string]string{"id": "t", "kind": "expression", "source": c.source})
		resp := ev.handleLine(line)
		var got string
		switch {
		case resp.Result != nil:
			out, _ := json.Marshal(resp.Result)
			got = string(out)
		case resp.Error != nil:
			got = "error: " + resp.Error.Summary
		default:
			got = string(resp.encode())
		}
		if got != c.want {
			t.Errorf("%s\n got: %s\nwant: %s", c.source, got, c.want)
		}
	}
}
