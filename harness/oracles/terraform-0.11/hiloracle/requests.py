"""Reading one request line into a case to evaluate, or into its immediate answer.

The dialect's requests (docs/protocol.md, "The hil-0.11 dialect"): `kind` is `expression`
(`source` is what stands inside `${...}`) or `template` (`source` is a whole 0.11 string);
the scope holds one variable, `var`, an object whose attributes are strings, lists of strings
or maps of strings. Each attribute becomes a Terraform `variable` of that name.
"""
import decimal
import json
import re

from oracleio import RequestError, read_request

DIALECT = "hil-0.11"
KINDS = ("expression", "template")
# A Terraform 0.11 variable name (an HCL1 identifier).
VARIABLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*\Z")
ATTRIBUTE_TYPES = {'"string"': "string", '["list", "string"]': "list", '["map", "string"]': "map"}
# References whose values name the oracle's own scratch directory.
SCRATCH_PATHS = re.compile(r"path\.(cwd|module|root)(?![A-Za-z0-9_-])")


class Answered(Exception):
    """A request answered without running Terraform: (its id, the answer without the id)."""


class Case:
    """One request to evaluate: the 0.11 string that becomes an output's value."""

    def __init__(self, rid, kind, text, variables, base_dir):
        self.id = rid
        self.kind = kind
        self.text = text
        self.variables = variables  # name -> str | [str] | {str: str}
        self.base_dir = base_dir
        # Cases with equal variables and base directory share configurations.
        self.group = (json.dumps(variables, sort_keys=True), base_dir)


def parse(line):
    """The Case of one input line; raises RequestError or Answered."""
    # Numbers are only read to be refused (the dialect's values are strings): no float.
    request = read_request(line, lambda text: json.loads(text, parse_float=decimal.Decimal))
    rid = request["id"]
    dialect = request.get("dialect", "hcl2")
    if dialect != DIALECT:
        raise Answered(rid, {"unsupported": f"the {dialect} dialect (this oracle is "
                                            "Terraform 0.11.11: the hil-0.11 dialect only)"})
    kind = request["kind"]
    if kind not in KINDS:
        raise Answered(rid, {"unsupported": f"kind `{kind}` in the hil-0.11 dialect"})
    variables = _variables(request.get("scope", {}), rid)
    source = request["source"]
    text = "${" + source + "}" if kind == "expression" else source
    if SCRATCH_PATHS.search(source):
        raise Answered(rid, {"unsupported": "path.cwd, path.module and path.root name the "
                                            "oracle's scratch directory"})
    return Case(rid, kind, text, variables, request.get("base_dir"))


def _variables(scope, rid):
    """{name: value} of the scope's `var` object."""
    extra = sorted(set(scope) - {"var"})
    if extra:
        raise RequestError(f"scope variable `{extra[0]}`: the hil-0.11 dialect's scope has "
                           "only `var`", rid)
    if "var" not in scope:
        return {}
    typed = scope["var"]
    if not isinstance(typed, dict) or set(typed) - {"type", "value", "unknown", "sensitive"} \
            or "type" not in typed or "value" not in typed:
        raise RequestError("scope variable `var` is not a typed value", rid)
    if typed.get("unknown") or typed.get("sensitive"):
        raise RequestError("scope variable `var`: the hil-0.11 dialect has no unknown or "
                           "sensitive values", rid)
    ty, value = typed["type"], typed["value"]
    if not (isinstance(ty, list) and len(ty) == 2 and ty[0] == "object"
            and isinstance(ty[1], dict)):
        raise RequestError("scope variable `var` must be an object", rid)
    if not isinstance(value, dict) or set(value) != set(ty[1]):
        raise RequestError("scope variable `var`: the value does not match its type", rid)
    variables = {}
    for name, attr in ty[1].items():
        kind = ATTRIBUTE_TYPES.get(json.dumps(attr))
        if kind is None:
            raise RequestError(f"var.{name}: the hil-0.11 dialect's variables are strings, "
                               "lists of strings or maps of strings", rid)
        if not VARIABLE_NAME.match(name):
            raise RequestError(f"var.{name}: not a Terraform 0.11 variable name", rid)
        item = value[name]
        ok = {"string": lambda v: isinstance(v, str),
              "list": lambda v: isinstance(v, list) and all(isinstance(e, str) for e in v),
              "map": lambda v: isinstance(v, dict) and all(isinstance(e, str)
                                                           for e in v.values())}[kind](item)
        if not ok:
            raise RequestError(f"var.{name}: the value does not match its type", rid)
        variables[name] = item
    return variables
