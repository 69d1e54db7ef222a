"""How each kind of request becomes Terraform configuration: the one place that knows the
request kinds.

Every kind is turned into a `Prepared` case: the configuration files of the case, named after
it (`cN.tf`, `cN_scope.tf`), whose output `cN` holds a one-element tuple with the case's
answer (the tuple keeps the type of a null). The batch machinery (`batch.py`) then only deals
with files and outputs. A kind this engine does not handle yet raises `Unsupported`; adding
one is adding an entry to `KINDS`.

Expressions and templates. The case's variables become locals of their own (`cN_NAME`),
each written by `cty.render` (a literal converted to its exact type, with unknown and
sensitive parts), and the rewriter renames the case's references to them. A reference to a
variable the scope does not have becomes an attribute of an empty object
(`local.hclspec_undefined.NAME`): Terraform rejects an undeclared `var.NAME` before
evaluating anything, whereas a missing attribute fails where HCL's unknown variable fails, so
that `can`, `try` and the branch a conditional does not take behave as in HCL. Terraform's
"Unsupported attribute" for such an attribute (its subject is the `.NAME` right after the
prefix) is answered as HCL's "Unknown variable" with HCL's detail. Locals rather than input variables with defaults, because a default can
only be a constant: it cannot be unknown, sensitive or infinite. The expression is wrapped in
parentheses on lines of its own, which is how a bare expression is parsed (newlines ignored),
and a template is first made a quoted string. The closing parenthesis follows the source on
its last line, unless that line may end in a comment: a heredoc's closing marker must end its
line for the heredoc to be terminated, as at the end of a bare expression.

Conversions. A `convert` request becomes an input variable whose type is the request's type
constraint and whose default is its source, and an output of that variable: Terraform applies
the type's optional-attribute defaults and converts the default when it loads the
configuration, and again when it evaluates the variable. Every error then comes from loading:
one that Terraform reports as "Invalid default value for variable" is the value not converting
(phase `eval`, as the protocol defines it); the others are about the type or the syntax (phase
`parse`); an error evaluating the source would be reported as `parse` too. A default must be a
constant, so a request with a scope gives its value as the argument of a module whose variable
has the type (the module's files are written and listed in `.terraform/modules/modules.json`
as `terraform init` would, so no init runs). Terraform then applies the defaults and converts
once, which in HCL 2.24 gives what the default's extra conversion gives; its conversion error,
"Invalid value for input variable", is answered with the default's summary, and its detail
with the default's opening sentence ("The given value is not suitable for module.c3.var.v
declared at ...: REASON." becomes "This default value is not compatible with the variable's type
constraint: REASON.", Terraform's same REASON).

A number result may be infinite, which Terraform cannot save in a plan. A case whose plan
fails so is run again as an infinity probe (`PROBE_INFINITY`): the output then says which
infinity a number result is.
"""
import re

from . import cty

UNKNOWN_RESOURCE = 'resource "terraform_data" "hclspec_unknown" {\n  input = "unknown"\n}\n'
# The planned `output` of a terraform_data resource being created is an unknown string;
# decoding it gives cty.DynamicVal, an unknown of any type.
UNKNOWN_EXPR = "jsondecode(terraform_data.hclspec_unknown.output)"
UNDECLARED_PREFIX = "local.hclspec_undefined."
SHARED_FILE = ("hclspec.tf", "locals {\n  hclspec_undefined = {}\n}\n")
# The output of an infinity probe: cty's text of the infinity ("+Inf" or "-Inf"), or "finite"
# when the infinity is inside a structure, which `tostring` refuses. A function call keeps its
# argument's marks in every release, where a conditional on a sensitive condition gives an
# unmarked result before Terraform 1.10.
PROBE_INFINITY = 'try(tostring({v}), "finite")'
# The output of a number-text probe: cty's text of a number (every digit of a 512-bit integer,
# the shortest decimal of a float64 result), which a plan of Terraform before 1.9 may not
# tell (`cty.AMBIGUOUS_WHOLE`).
PROBE_NUMBER_TEXT = "tostring({v})"
# The output of a float-text probe: Go's text of a float64 that is not whole, at the precision
# (53) the plan reads it back at, which the plan does not tell for a power of two. `pow(v, 1)`
# is `math.Pow` of the number's float64, which holds it exactly (that is why the plan has a
# float64), read back as `cty.NumberFloatVal`.
PROBE_FLOAT_TEXT = "tostring(pow({v}, 1))"
PROBES = {"infinity": PROBE_INFINITY, "number text": PROBE_NUMBER_TEXT,
          "float text": PROBE_FLOAT_TEXT}
# Terraform's summary for a missing attribute, and HCL's summary and detail for a name the
# evaluation context lacks, which the oracle answers for a missing attribute of the object that
# stands for the names the scope lacks (see `Prepared.undeclared_name`).
UNSUPPORTED_ATTRIBUTE = "Unsupported attribute"
UNKNOWN_VARIABLE_SUMMARY = "Unknown variable"
UNKNOWN_VARIABLE_DETAIL = 'There is no variable named "{name}".'
IDENTIFIER_TEXT = re.compile(r"[^\W\d][\w-]*")
# Terraform's summary for a variable default that does not convert to the variable's type.
INVALID_VARIABLE_DEFAULT = "Invalid default value for variable"
# And for a module argument that does not.
MODULE_ARGUMENT_SUMMARY = "Invalid value for input variable"
# How Terraform's details for the two begin, before the conversion error they share.
MODULE_ARGUMENT_DETAIL = re.compile(r"^The given value is not suitable for \S+ declared at \S+: ")
VARIABLE_DEFAULT_DETAIL = ("This default value is not compatible with the variable's type "
                           "constraint: ")
# Where the case's source starts in its file (see `_output_file`).
SOURCE_FIRST_LINE = 4


class Unsupported(Exception):
    """The engine cannot answer this request."""


class Prepared:
    """A case ready to be written into a module."""

    def __init__(self, name, expression, scope_locals, source, exact_source, unknown_inputs,
                 base_dir):
        self.name = name
        self.expression = expression
        self.scope_locals = scope_locals
        # Set when the case is run as a probe: a key of `PROBES`.
        self.probe = None
        self.source = source
        # Whether the case's source appears unchanged in `cN.tf`, so that Terraform's ranges
        # can be mapped back onto it.
        self.exact_source = exact_source
        self.unknown_inputs = unknown_inputs
        self.base_dir = base_dir
        # The text of the whole case file, when the kind writes its own (see `_convert`).
        self.own_file = None
        # {file name: text} of a child module the case calls, and the module's directory.
        self.module_files = {}
        self.module_dir = None
        # The module that gives the scope's values their types (`ScopeModule`), if any.
        self.scope_module = None
        # Error summaries of the case's wrapper, as the protocol names them.
        self.summaries = {}
        # Whether the case's value is a module argument standing for a variable default.
        self.module_argument = False
        # The prefix standing for the names the scope lacks (`local.hclspec_undefined.`), when
        # the case's expression has any.
        self.undeclared_prefix = None

    def files(self):
        """{file name: text} of the case's configuration."""
        expression = self.expression
        if self.probe:
            expression = PROBES[self.probe].format(v=f"(\n{expression}\n)")
        if self.own_file is not None:
            files = {self.expression_file: self.own_file, **self.module_files}
        else:
            files = {self.expression_file: _output_file(self.name, expression)}
        if self.scope_locals:
            calls = self.scope_module.calls_text() if self.scope_module else ""
            files[self.scope_file] = calls + "locals {\n" + self.scope_locals + "}\n"
            if self.scope_module:
                files.update(self.scope_module.files())
        return files

    def module_calls(self):
        """(call name, directory) of each module call of the case, as `terraform init` lists
        them."""
        calls = [(self.name, self.module_dir)] if self.module_dir else []
        if self.scope_locals and self.scope_module:
            calls += self.scope_module.calls
        return calls

    def scope_files(self):
        """The files whose error diagnostics are about the case's scope values."""
        files = [self.scope_file]
        if self.scope_module:
            files += self.scope_module.files()
        return files

    @property
    def expression_file(self):
        return f"{self.name}.tf"

    @property
    def scope_file(self):
        return f"{self.name}_scope.tf"

    def error_files(self):
        """The files whose error diagnostics belong to this case."""
        return [self.expression_file, *self.module_files]

    def summary(self, diagnostic):
        """The protocol summary of an error diagnostic of this case."""
        if self.undeclared_name(diagnostic) is not None:
            return UNKNOWN_VARIABLE_SUMMARY
        summary = diagnostic.get("summary", "")
        return self.summaries.get(summary, summary)

    def detail(self, diagnostic):
        """The protocol detail of an error diagnostic of this case: a module argument's
        conversion error is told as the variable default's."""
        name = self.undeclared_name(diagnostic)
        if name is not None:
            return UNKNOWN_VARIABLE_DETAIL.format(name=name)
        detail = diagnostic.get("detail", "")
        if self.module_argument and diagnostic.get("summary") == MODULE_ARGUMENT_SUMMARY:
            return MODULE_ARGUMENT_DETAIL.sub(VARIABLE_DEFAULT_DETAIL, detail, count=1)
        return detail

    def phase(self, diagnostic, load_failed):
        """The protocol phase of an error diagnostic of this case."""
        if self.own_file is not None and not self.module_files:
            return "eval" if diagnostic.get("summary") == INVALID_VARIABLE_DEFAULT else "parse"
        return "parse" if load_failed else "eval"

    def undeclared_name(self, diagnostic):
        """The name, when `diagnostic` is Terraform's "Unsupported attribute" for a name the
        scope lacks (an attribute of the empty object the rewriter put in its place); else
        None. Its subject is the `.NAME` step right after the prefix in the case's file."""
        if diagnostic.get("summary") != UNSUPPORTED_ATTRIBUTE or not self.undeclared_prefix:
            return None
        rng = diagnostic.get("range") or {}
        if rng.get("filename") != self.expression_file or self.own_file is not None:
            return None
        text = self.files()[self.expression_file].encode()
        start = (rng.get("start") or {}).get("byte", -1)
        end = (rng.get("end") or {}).get("byte", -1)
        prefix = self.undeclared_prefix.encode()
        if not (len(prefix) <= start + 1 <= end <= len(text)):
            return None
        if text[start + 1 - len(prefix):start + 1] != prefix:
            return None
        name = text[start + 1:end].decode(errors="replace")
        return name if IDENTIFIER_TEXT.fullmatch(name) else None

    def source_range(self, rng):
        """A Terraform diagnostic's range in `cN.tf` as a range in the case's source, or None
        when it lies elsewhere or the source was rewritten."""
        if not self.exact_source or not rng:
            return None
        header = _output_header(self.name)
        points = {}
        for end in ("start", "end"):
            pos = rng.get(end) or {}
            line, byte = pos.get("line", 0) - (SOURCE_FIRST_LINE - 1), pos.get("byte", -1) - len(header)
            if line < 1 or byte < 0 or byte > len(self.source.encode()):
                return None
            points[end] = {"line": line, "column": pos.get("column"), "byte": byte}
        return points


class ScopeModule:
    """How a case's scope values get their exact types on a Terraform without the `convert`
    function (before 1.15): through input variables. Each value to convert
    (`cty.render`'s `typed_node`) is the argument of a module of its own,
    `cN_scope_K_module/`, with one nullable input variable whose type constraint is the
    value's type, and an output of the variable. A literal, a null or an unknown of the
    dynamic pseudo-type converts to the variable's type as `convert` would convert it. One
    module per value keeps the configuration small (a module's every variable and output is
    part of Terraform's graph for each call of it) and lets one value be part of another's
    argument (a list inside a value of type `any`)."""

    def __init__(self, name):
        self.name = name
        self.calls = []
        self.call_texts = []
        self.module_texts = {}
        self.undefined_prefix_text = None

    def __call__(self, argument, constraint):
        """The expression of `argument` converted to the type `constraint`."""
        call = f"{self.name}_scope_{len(self.calls)}"
        module_dir = f"{call}_module"
        self.calls.append((call, module_dir))
        self.call_texts.append(
            f'module "{call}" {{\n  source = "./{module_dir}"\n\n  v = {argument}\n}}\n\n')
        self.module_texts[f"{module_dir}/main.tf"] = (
            f'variable "v" {{\n  type = {constraint}\n  nullable = true\n}}\n\n'
            'output "v" {\n  value = var.v\n}\n')
        return f"module.{call}.v"

    def undefined_prefix(self):
        """The prefix of the names the scope lacks, in a case whose scope values come from
        modules: an empty object output by a module too. Module outputs are unknown while
        Terraform validates the configuration, before it plans; were the empty object known
        then (`local.hclspec_undefined`), an unknown name would fail the validation, and
        Terraform would report it alone, where with `convert` it reports whichever of it and
        an error involving a scope value comes first."""
        call = f"{self.name}_undefined"
        self.undefined_prefix_text = f"module.{call}.v."
        self.calls.append((call, f"{call}_module"))
        self.call_texts.append(f'module "{call}" {{\n  source = "./{call}_module"\n}}\n\n')
        self.module_texts[f"{call}_module/main.tf"] = 'output "v" {\n  value = {}\n}\n'
        return f"module.{call}.v."

    def calls_text(self):
        return "".join(self.call_texts)

    def files(self):
        """{file name: text} of the modules."""
        return dict(self.module_texts)


def prepare(n, request, rewriter, version):
    """The `Prepared` case of request number `n` (already checked to be well formed) for the
    Terraform `version` (`versions.Version`)."""
    handler = KINDS.get(request["kind"])
    if handler is None:
        raise Unsupported(f"requests of kind {request['kind']!r}")
    return handler(f"c{n}", request, rewriter, version)


def _expression_or_template(name, request, rewriter, version):
    scope = request.get("scope") or {}
    rename = {var: f"local.{name}_{var}" for var in scope if cty.IDENTIFIER.match(var)}
    rewritten = rewriter.rewrite(request["kind"], request["source"], rename, UNDECLARED_PREFIX)
    used = [var for var in rewritten["references"] if var in rename]
    scope_module = ScopeModule(name) if version.scope_by_modules else None

    def render(typed):
        return cty.render(typed, UNKNOWN_EXPR, scope_module,
                          version.module_arguments_keep_negative_zero)

    locals_text = "".join(f"  {name}_{var} = {render(scope[var])}\n" for var in used)
    if scope_module is not None and scope_module.calls and set(rewritten["references"]) - set(used):
        rewritten = rewriter.rewrite(request["kind"], request["source"], rename,
                                     scope_module.undefined_prefix())
    unknown_inputs = any(scope[var].get("unknown") for var in used)
    exact = request["kind"] == "expression" and rewritten["expression"] == request["source"]
    case = Prepared(name, rewritten["expression"], locals_text, request["source"], exact,
                    unknown_inputs, request.get("base_dir"))
    case.scope_module = scope_module
    if set(rewritten["references"]) - set(used):
        case.undeclared_prefix = (scope_module.undefined_prefix_text if scope_module is not None
                                  and scope_module.undefined_prefix_text else UNDECLARED_PREFIX)
    return case


def _output_header(name):
    return f'output "{name}" {{\n  sensitive = true\n  value = [(\n'


def _output_file(name, expression):
    # Marking every output sensitive lets sensitive results through; the plan still records
    # which parts of the value carry the mark.
    last_line = expression.rsplit("\n", 1)[-1]
    separator = "\n" if "#" in last_line or "//" in last_line else ""
    return _output_header(name) + expression + separator + ")]\n}\n"


def _convert(name, request, rewriter, version):
    if request.get("scope"):
        return _convert_argument(name, request, rewriter, version)
    source = request["source"]
    # The closing parenthesis on a line of its own: the source may end in a comment or a
    # heredoc.
    text = (f'variable "{name}" {{\n  type = {request["type"]}\n\n  default = (\n{source}\n'
            f')\n}}\n\n' + _output_header(name) + f"var.{name}\n)]\n}}\n")
    case = Prepared(name, None, "", source, False, False, request.get("base_dir"))
    case.own_file = text
    return case


def _convert_argument(name, request, rewriter, version):
    """A conversion whose source needs its scope: the value is a module argument, since a
    default must be a constant."""
    case = _expression_or_template(name, dict(request, kind="expression"), rewriter, version)
    module_dir = f"{name}_module"
    case.module_dir = module_dir
    case.module_files = {
        f"{module_dir}/main.tf": (f'variable "v" {{\n  type = {request["type"]}\n}}\n\n'
                                  'output "v" {\n  value = var.v\n}\n'),
    }
    case.own_file = (f'module "{name}" {{\n  source = "./{module_dir}"\n\n  v = (\n'
                     f'{case.expression}\n)\n}}\n\n' + _output_header(name)
                     + f"module.{name}.v\n)]\n}}\n")
    case.exact_source = False
    case.summaries = {MODULE_ARGUMENT_SUMMARY: INVALID_VARIABLE_DEFAULT}
    case.module_argument = True
    return case


KINDS = {
    "expression": _expression_or_template,
    "template": _expression_or_template,
    "convert": _convert,
}
