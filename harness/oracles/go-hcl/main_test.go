package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"
)

// TestHandleLine checks whole request/response lines, covering the value
// encoding, both error phases, malformed requests and the wrappers.
func TestHandleLine(t *testing.T) {
	cases := []struct{ in, want string }{
		{
			`{"id":"sum","kind":"expression","source":"1 + 2"}`,
			`{"id":"sum","result":{"type":"number","value":3}}`,
		},
		{
			`{"id":"inf","kind":"expression","source":"-1/0"}`,
			`{"id":"inf","result":{"type":"number","value":"-Infinity"}}`,
		},
		{
			`{"id":"big","kind":"expression","source":"x * 2","scope":{"x":{"type":"number","value":12345678901234567890123456789}}}`,
			`{"id":"big","result":{"type":"number","value":24691357802469135780246913578}}`,
		},
		{
			`{"id":"huge","kind":"expression","source":"1e100000"}`,
			`{"id":"huge","result":{"type":"number","value":1e+100000}}`,
		},
		{
			`{"id":"html","kind":"template","source":"<${x}>","scope":{"x":{"type":"string","value":"&"}}}`,
			`{"id":"html","result":{"type":"string","value":"<&>"}}`,
		},
		{
			`{"id":"unk","kind":"expression","source":"[x + 1, 2]","scope":{"x":{"type":"number","value":null,"unknown":[[]]}}}`,
			`{"id":"unk","result":{"type":["tuple",["number","number"]],"value":[null,2],"unknown":[[0]]}}`,
		},
		{
			`{"id":"nested","kind":"expression","source":"x","scope":{"x":{"type":["object",{"a":"string","b":["list","number"]}],"value":{"a":null,"b":[1,null]},"unknown":[["a"],["b",1]]}}}`,
			`{"id":"nested","result":{"type":["object",{"a":"string","b":["list","number"]}],"value":{"a":null,"b":[1,null]},"unknown":[["a"],["b",1]]}}`,
		},
		{
			// Sets come out in cty's order; unknown elements sort last.
			`{"id":"set","kind":"expression","source":"x","scope":{"x":{"type":["set","number"],"value":[null,3,1],"unknown":[[0]]}}}`,
			`{"id":"set","result":{"type":["set","number"],"value":[1,3,null],"unknown":[[2]]}}`,
		},
		{
			`{"id":"wrapped","kind":"expression","source":"x.a","scope":{"x":{"type":["object",{"a":"dynamic"}],"value":{"a":{"value":[1,"x"],"type":["tuple",["number","string"]]}}}}}`,
			`{"id":"wrapped","result":{"type":["tuple",["number","string"]],"value":[1,"x"]}}`,
		},
		{
			`{"id":"dynnull","kind":"expression","source":"[x]","scope":{"x":{"type":"dynamic","value":null}}}`,
			`{"id":"dynnull","result":{"type":["tuple",["dynamic"]],"value":[null]}}`,
		},
		{
			// Another dialect is not read as HCL2, even where it would parse.
			`{"id":"hil","kind":"expression","source":"1 + 2","dialect":"hil-0.11"}`,
			`{"id":"hil","unsupported":"the hil-0.11 dialect (this oracle is HCL 2.14)"}`,
		},
		{
			`{"id":"hcl2","kind":"expression","source":"1 + 2","dialect":"hcl2"}`,
			`{"id":"hcl2","result":{"type":"number","value":3}}`,
		},
		{
			`{"id":"parse","kind":"expression","source":"1 +"}`,
			`{"id":"parse","error":{"phase":"parse","summary":"Missing expression","detail":"Expected the start of an expression, but found the end of the file.","range":{"start":{"line":1,"column":4,"byte":3},"end":{"line":1,"column":4,"byte":3}}}}`,
		},
		{
			`{"id":"eval","kind":"expression","source":"nope"}`,
			`{"id":"eval","error":{"phase":"eval","summary":"Unknown variable","detail":"There is no variable named \"nope\".","range":{"start":{"line":1,"column":1,"byte":0},"end":{"line":1,"column":5,"byte":4}}}}`,
		},
		{
			`{"id":"libpanic","kind":"expression","source":"log(0, 0)"}`,
			`{"id":"libpanic","error":{"phase":"eval","summary":"Error in function call","detail":"Call to function \"log\" failed: panic in function implementation: Float.SetFloat64(NaN).","range":{"start":{"line":1,"column":1,"byte":0},"end":{"line":1,"column":5,"byte":4}},"library_panic":true}}`,
		},
		{
			`{"id":"len","kind":"expression","source":"[length(\"héllo\"), length([1, 2]), length({a = 1})]"}`,
			`{"id":"len","result":{"type":["tuple",["number","number","number"]],"value":[5,2,1]}}`,
		},
		{
			`{"id":"replace","kind":"expression","source":"[replace(\"hello\", \"/l+/\", \"L\"), replace(\"a.b\", \".\", \"-\")]"}`,
			`{"id":"replace","result":{"type":["tuple",["string","string"]],"value":["heLo","a-b"]}}`,
		},
		{
			`{"id":"index","kind":"expression","source":"index([\"a\", \"b\"], \"b\")"}`,
			`{"id":"index","result":{"type":"number","value":1}}`,
		},
		{
			`not json`,
			`{"id":null,"error":{"phase":"request","summary":"request is not a JSON object: invalid character 'o' in literal null (expecting 'u')","detail":""}}`,
		},
		{
			`{"id":"kind","kind":"statement","source":"1"}`,
			`{"id":"kind","error":{"phase":"request","summary":"kind must be \"expression\", \"template\", \"convert\", \"body\", \"variables\", \"body_variables\", \"type\" or \"traversal\"","detail":""}}`,
		},
		{
			`{"id":"refs","kind":"variables","source":"[for k, v in a.b[0] : v + c[\"x\"]]"}`,
			`{"id":"refs","result":{"type":["set","string"],"value":["a.b[0]","c[\"x\"]"]}}`,
		},
		{
			`{"id":"bodyrefs","kind":"body_variables","source":"dynamic \"b\" {\n for_each = l\n content {\n  y = b.value + w\n }\n}\n","spec":{"block_list":{"type":"b","body":{"attr":{"name":"y"}}}}}`,
			`{"id":"bodyrefs","result":{"type":["set","string"],"value":["l","w"]}}`,
		},
		{
			`{"id":"type","kind":"type","source":"object({b=optional(number), a=list(any)})"}`,
			`{"id":"type","result":{"type":"string","value":"object({a=list(any),b=number})"}}`,
		},
		{
			`{"id":"trav","kind":"traversal","source":"a.b[1.5][\"k\"]"}`,
			`{"id":"trav","result":{"type":"string","value":"a.b[1.5][\"k\"]"}}`,
		},
		{
			`{"id":"notype","kind":"convert","source":"1"}`,
			`{"id":"notype","error":{"phase":"request","summary":"invalid type: missing","detail":""}}`,
		},
		{
			`{"id":"conv","kind":"convert","type":"object({a = optional(list(string), [])})","source":"{a = [1]}"}`,
			`{"id":"conv","result":{"type":["object",{"a":["list","string"]}],"value":{"a":["1"]}}}`,
		},
		{
			`{"id":"mismatch","kind":"expression","source":"x","scope":{"x":{"type":"number","value":"12"}}}`,
			`{"id":"mismatch","error":{"phase":"request","summary":"scope variable \"x\": at []: a number is required","detail":""}}`,
		},
		{
			`{"id":"stray","kind":"expression","source":"x","scope":{"x":{"type":["list","number"],"value":[1],"unknown":[[1]]}}}`,
			`{"id":"stray","error":{"phase":"request","summary":"scope variable \"x\": unknown path [1] does not address a part of the value","detail":""}}`,
		},
		{
			`{"id":"optional","kind":"expression","source":"x","scope":{"x":{"type":["object",{"a":"string"},["b"]],"value":{"a":"s"}}}}`,
			`{"id":"optional","error":{"phase":"request","summary":"invalid request: optional contains undeclared attribute \"b\"","detail":""}}`,
		},
	}

	ev := newEvaluator()
	for _, c := range cases {
		got := string(ev.handleLine([]byte(c.in)).encode())
		if got != c.want {
			t.Errorf("request %s\n got: %s\nwant: %s", c.in, got, c.want)
		}
	}
}

// TestCrashIsReported binds a variable to cty.NilVal, which no request can
// express and which makes cty panic once the result is written: the recovery
// around evaluation must turn that into a crash report.
func TestCrashIsReported(t *testing.T) {
	ev := newEvaluator()
	req := &request{kind: kindExpression, source: "x", scope: map[string]cty.Value{"x": cty.NilVal}}
	got := string(ev.evaluate([]byte(`1`), req).encode())
	want := `{"id":1,"crash":"unknown type implementation"}`
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestCutPanicStack(t *testing.T) {
	cases := []struct {
		in, want string
		panicked bool
	}{
		{"plain detail.", "plain detail.", false},
		{"failed: panic in function implementation: boom\ngoroutine 1 [running]:\nmain.f()\n.", "failed: panic in function implementation: boom.", true},
	}
	for _, c := range cases {
		got, panicked := cutPanicStack(c.in)
		if got != c.want || panicked != c.panicked {
			t.Errorf("cutPanicStack(%q) = %q, %v; want %q, %v", c.in, got, panicked, c.want, c.panicked)
		}
	}
}

// TestServeKeepsOrder checks that every non-blank line gets one answer, in
// order, including an over-long line.
func TestServeKeepsOrder(t *testing.T) {
	input := strings.Join([]string{
		`{"id":"a","kind":"expression","source":"1"}`,
		``,
		`{"id":"b","kind":"template","source":"x"}`,
		`{"id":"c"`,
	}, "\n")
	var out bytes.Buffer
	if err := serve(strings.NewReader(input), &out); err != nil {
		t.Fatal(err)
	}
	want := `{"id":"a","result":{"type":"number","value":1}}` + "\n" +
		`{"id":"b","result":{"type":"string","value":"x"}}` + "\n" +
		`{"id":null,"error":{"phase":"request","summary":"request is not a JSON object: unexpected end of JSON input","detail":""}}` + "\n"
	if out.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestReadLineLimit(t *testing.T) {
	in := bufio.NewReaderSize(strings.NewReader(strings.Repeat("x", 100)+"\nshort\r\n"), 16)
	line, tooLong, err := readLine(in, 50)
	if !tooLong || len(line) != 0 || err != nil {
		t.Fatalf("long line: got %q, %v, %v", line, tooLong, err)
	}
	line, tooLong, err = readLine(in, 50)
	if string(line) != "short" || tooLong || err != nil {
		t.Fatalf("short line: got %q, %v, %v", line, tooLong, err)
	}
}

// TestScopeOfTheRequestBefore checks that a request whose scope is the same
// JSON text as the last one's shares its decoded variables, and that a
// different scope, a bad one and the first one again are each decoded.
func TestScopeOfTheRequestBefore(t *testing.T) {
	ev := newEvaluator()
	decode := func(line string) *request {
		t.Helper()
		var fields map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &fields); err != nil {
			t.Fatal(err)
		}
		req, err := decodeRequest(fields, ev)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		return req
	}
	one := `{"id":"a","kind":"expression","source":"x","scope":{"x":{"type":"number","value":1}}}`
	two := `{"id":"c","kind":"expression","source":"x","scope":{"x":{"type":"number","value":2}}}`
	a, b := decode(one), decode(strings.Replace(one, `"a"`, `"b"`, 1))
	if reflect.ValueOf(a.scope).Pointer() != reflect.ValueOf(b.scope).Pointer() {
		t.Error("the same scope text was decoded twice")
	}
	if c := decode(two); !c.scope["x"].RawEquals(cty.NumberIntVal(2)) {
		t.Errorf("another scope: got %#v", c.scope["x"])
	}
	bad := `{"id":"d","kind":"expression","source":"x","scope":{"x":{"type":"number","value":"no"}}}`
	if got := string(ev.handleLine([]byte(bad)).encode()); !strings.Contains(got, `"phase":"request"`) {
		t.Errorf("a bad scope after a good one: got %s", got)
	}
	if e := decode(one); !e.scope["x"].RawEquals(cty.NumberIntVal(1)) {
		t.Errorf("the first scope again: got %#v", e.scope["x"])
	}
}

// TestAnswersWaitOnlyForWholeLines checks that an answer is written at once
// when the rest of the input is an unfinished line (a client may finish it
// only after reading the answer), and that answers to lines read together
// all arrive.
func TestAnswersWaitOnlyForWholeLines(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- serve(inR, outW); outW.Close() }()
	answers := bufio.NewReader(outR)
	readAnswer := func() string {
		t.Helper()
		got := make(chan string, 1)
		go func() { line, _ := answers.ReadString('\n'); got <- line }()
		select {
		case line := <-got:
			return strings.TrimSuffix(line, "\n")
		case <-time.After(10 * time.Second):
			t.Fatal("no answer within 10 s")
			return ""
		}
	}
	req := func(id string) string {
		return `{"id":"` + id + `","kind":"expression","source":"1"}`
	}
	answer := func(id string) string {
		return `{"id":"` + id + `","result":{"type":"number","value":1}}`
	}
	go func() {
		_, _ = io.WriteString(inW, req("a")+"\n"+req("b")+"\n"+`{"id":"c",`)
	}()
	for _, id := range []string{"a", "b"} {
		if got := readAnswer(); got != answer(id) {
			t.Fatalf("got %s, want %s", got, answer(id))
		}
	}
	go func() {
		_, _ = io.WriteString(inW, `"kind":"expression","source":"1"}`+"\n")
		inW.Close()
	}()
	if got := readAnswer(); got != answer("c") {
		t.Fatalf("got %s, want %s", got, answer("c"))
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
