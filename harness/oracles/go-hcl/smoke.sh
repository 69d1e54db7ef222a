#!/bin/sh
# End-to-end check of the built oracle: pipes requests through the binary
# (supervisor and worker together) and compares the answers line by line.
# Run build.sh first.
set -eu

here=$(cd "$(dirname "$0")" && pwd -P)
oracle="$here/bin/go-hcl-oracle"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -x "$oracle" ]; then
    echo "smoke.sh: $oracle is missing; run build.sh first" >&2
    exit 1
fi

# A source nested deeper than a 64 MiB stack allows, to kill a worker.
deep_open=$(printf '%20000s' '' | tr ' ' '(')
deep_close=$(printf '%20000s' '' | tr ' ' ')')

cat > "$tmp/requests" <<REQUESTS
{"id":"add","kind":"expression","source":"1 + 2"}
{"id":"third","kind":"expression","source":"1/3 == 0.333333333333333333333333333333333333333"}
{"id":"inf","kind":"expression","source":"[1/0, -x]","scope":{"x":{"type":"number","value":"Infinity"}}}
{"id":"unknown","kind":"expression","source":"{a = x + 1, b = [x, 2]}","scope":{"x":{"type":"number","value":null,"unknown":[[]]}}}
{"id":"set","kind":"expression","source":"toset([\"b\", \"a\", \"b\"])"}
{"id":"template","kind":"template","source":"%{ for v in xs }<\${v}>%{ endfor }","scope":{"xs":{"type":["list","string"],"value":["a","b"]}}}
{"id":"parse","kind":"expression","source":"[1,"}
{"id":"eval","kind":"expression","source":"\"a\" * 2"}
{"id":"libpanic","kind":"expression","source":"log(-1, 2)"}
this is not json

{"id":"badvalue","kind":"expression","source":"x","scope":{"x":{"type":"bool","value":1}}}
{"id":"deep","kind":"expression","source":"${deep_open}1${deep_close}"}
{"id":"after","kind":"expression","source":"replace(\"hello\", \"/l+/\", \"L\")"}
REQUESTS

cat > "$tmp/expected" <<'EXPECTED'
{"id":"add","result":{"type":"number","value":3}}
{"id":"third","result":{"type":"bool","value":false}}
{"id":"inf","result":{"type":["tuple",["number","number"]],"value":["Infinity","-Infinity"]}}
{"id":"unknown","result":{"type":["object",{"a":"number","b":["tuple",["number","number"]]}],"value":{"a":null,"b":[null,2]},"unknown":[["a"],["b",0]]}}
{"id":"set","result":{"type":["set","string"],"value":["a","b"]}}
{"id":"template","result":{"type":"string","value":"<a><b>"}}
{"id":"parse","error":{"phase":"parse","summary":"Missing expression","detail":"Expected the start of an expression, but found the end of the file.","range":{"start":{"line":1,"column":4,"byte":3},"end":{"line":1,"column":4,"byte":3}}}}
{"id":"eval","error":{"phase":"eval","summary":"Invalid operand","detail":"Unsuitable value for left operand: a number is required.","range":{"start":{"line":1,"column":1,"byte":0},"end":{"line":1,"column":4,"byte":3}}}}
{"id":"libpanic","error":{"phase":"eval","summary":"Error in function call","detail":"Call to function \"log\" failed: panic in function implementation: Float.SetFloat64(NaN).","range":{"start":{"line":1,"column":1,"byte":0},"end":{"line":1,"column":5,"byte":4}},"library_panic":true}}
{"id":null,"error":{"phase":"request","summary":"request is not a JSON object: invalid character 'h' in literal true (expecting 'r')","detail":""}}
{"id":"badvalue","error":{"phase":"request","summary":"scope variable \"x\": at []: a bool is required","detail":""}}
{"id":"deep","crash":"worker process died: fatal error: stack overflow"}
{"id":"after","result":{"type":"string","value":"heLo"}}
EXPECTED

"$oracle" -max-stack 67108864 < "$tmp/requests" > "$tmp/actual" 2> "$tmp/stderr"
if ! diff -u "$tmp/expected" "$tmp/actual"; then
    echo "smoke.sh: answers differ from the expected ones (above)" >&2
    exit 1
fi

if ! "$oracle" -list-functions | grep -qx 'tostring'; then
    echo "smoke.sh: -list-functions does not list tostring" >&2
    exit 1
fi

echo "smoke.sh: all checks passed"
