"""Checkov (PyPI) as an hclspec engine, protocol v1: the values Checkov's own
Terraform evaluator gives a resource attribute.

Checkov decides whether a resource is misconfigured from its attributes'
values, which it computes itself: it parses the module's ``.tf`` files with
bc-python-hcl2 (an expression comes back as its source text, ``${...}``),
builds a graph of the blocks, substitutes the variables that an attribute
refers to, and evaluates the text with its own Python code
(``evaluate_terraform``). This engine runs that path as ``checkov -d DIR``
does, on a module of one file:

    variable "NAME" {            # one per scope variable the case uses
      default = <its value, as an HCL literal>
    }
    resource "hclspec_case" "this" {
      value = <the expression, each scope variable NAME as var.NAME>
    }

(A scope variable ``var`` that is an object stands for Terraform's ``var``:
each of its attributes is a variable, and ``var.NAME`` stays as it is.)

``TerraformGraphManager.build_graph_from_source_directory`` parses it
(Checkov's ``load_or_die_quietly``, ``clean_parser_types``,
``serialize_definitions``) and renders the variables into the graph;
``convert_graph_vertices_to_tf_definitions`` gives the resource's
configuration as Checkov's checks receive it. The answer is the attribute's
value as ``BaseResourceValueCheck`` reads it (a one-element list is its
element), unless that check would call it variable-dependent and answer
UNKNOWN: then the value is unresolved and the answer is ``unsupported``.

A template is the body of a heredoc (``value = <<M ... M``): its text is the
template's (the parser drops the heredoc's final line break). A file Checkov
can not parse is a parse error (Checkov skips the file and reports it).
Checkov has no errors of evaluation: what it can not evaluate it keeps as
text. Conversions, bodies, the hil-0.11 dialect and unknown scope values are
``unsupported``. README.md says why, and how each answer is made.

Checkov keeps state between evaluations: its safe-eval symbol table
(``SAFE_EVAL_DICT``, asteval's symbol table) takes in every assignment that
an evaluated string makes (``"x = 5"`` makes the string ``"x"`` evaluate to
5 from then on). The engine restores the table after every request, so no
request changes the answer to the next. Checkov logs through ``logging``:
nowhere unless ``--log-level`` is given. The protocol writes to a private
copy of standard output; file descriptor 1 goes to standard error, so that
nothing the library prints can reach the protocol.
"""

import argparse
import logging
import math
import os
import re
import resource
import shutil
import signal
import sys
import tempfile
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(HERE, "..", "python-common"))
# The Terraform oracle's driver of the source rewriter.
sys.path.insert(0, os.path.join(REPO, "harness", "oracles", "terraform"))

from hclspec_adapter import Rejected, Unsupported  # noqa: E402
from hclspec_adapter import check_dialect, expression_bodies, heredoc_marker, parse_answer, serve, typed_value  # noqa: E402
from tforacle.rewriter import Rewriter, locate  # noqa: E402

UNSUPPORTED_KIND = "conversions and bodies (Checkov applies no type constraints and decodes no hcldec spec)"
UNSUPPORTED_UNKNOWN = "an unknown scope value (Checkov has no unknown values)"
UNSUPPORTED_COLLISION = "a scope variable {!r} that is also an attribute of the scope's var"
UNSUPPORTED_INFINITE = "an infinite scope number (no HCL literal writes it)"
UNSUPPORTED_UNRESOLVED = "Checkov leaves the value unresolved (its value checks answer UNKNOWN for it)"
UNSUPPORTED_NAN = "Checkov's value is a float NaN, which no typed value holds"
UNSUPPORTED_SURROGATE = "Checkov's value is a string with a lone surrogate (Python reads \\uD800 so), which is no Unicode text"
UNSUPPORTED_KEY = "Checkov's value is a map with a key of Python type {}"
UNSUPPORTED_PYTHON_TYPE = "Checkov's value is of Python type {}, which no typed value holds"
MSG_NO_ATTRIBUTE = "the resource or its attribute is missing from Checkov's configuration"
MSG_DEADLINE = "Checkov did not finish within {} s of CPU time; its evaluation was stopped"

HASH_SEED = "0"
RESOURCE_TYPE = "hclspec_case"
RESOURCE_NAME = "this"
ATTRIBUTE = "value"
MODULE_FILE = "main.tf"


def main():
    fix_hash_seed()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--log-level",
        help="show Checkov's log records from this level on (DEBUG, INFO, WARNING, ...) on standard error; "
        "default: none (any line on standard error makes hclspec send one request at a time)",
    )
    parser.add_argument(
        "--memory",
        type=float,
        default=4.0,
        help="GiB of address space the engine may use (default 4): past it Python raises MemoryError, "
        "which Checkov catches as any failure, rather than the machine running out of memory",
    )
    parser.add_argument(
        "--deadline",
        type=float,
        default=4.0,
        help="seconds of CPU time one evaluation may take before it is stopped and answered as a crash (default 4)",
    )
    args = parser.parse_args()
    limit = int(args.memory * (1 << 30))
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    protocol_out = divert_stdout()
    configure_logging(args.log_level)
    engine = Engine(args.deadline)
    try:
        serve(engine.answer, stdout=protocol_out)
    finally:
        engine.close()


def fix_hash_seed():
    """Runs the engine again with Python's string hashing fixed, unless it
    is. Python randomizes it per process, and with it the order in which a
    set of strings iterates, which is the order of Checkov's ``toset``:
    ``toset(["b", "a"])`` comes out in either order from one Checkov run to
    the next. A fixed seed makes every run of the engine answer the same."""
    if os.environ.get("PYTHONHASHSEED") != HASH_SEED:
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": HASH_SEED})


def divert_stdout():
    """A private copy of standard output for the protocol; file descriptor 1
    (and so ``print`` and asteval's printer) goes to standard error."""
    sys.stdout.flush()
    protocol_out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    return protocol_out


def configure_logging(level):
    """Checkov's log records go nowhere unless ``level`` is given; then to
    standard error as its command line prints them."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    if level:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("[%(levelname)s] %(name)s: %(message)s"))
        root.addHandler(handler)
        root.setLevel(level.upper())
    else:
        root.addHandler(logging.NullHandler())
        logging.disable(logging.CRITICAL)


# Checkov is imported after the logging setup: some of its modules log on import.
def import_checkov():
    global hcl2, TerraformGraphManager, NetworkxConnector, convert_graph_vertices_to_tf_definitions
    global is_terraform_variable_dependent, get_referenced_vertices_in_value, SAFE_EVAL_DICT
    import hcl2
    from checkov.common.graph.db_connectors.networkx.networkx_db_connector import NetworkxConnector
    from checkov.common.util.var_utils import is_terraform_variable_dependent
    from checkov.terraform.graph_builder.graph_to_tf_definitions import convert_graph_vertices_to_tf_definitions
    from checkov.terraform.graph_builder.utils import get_referenced_vertices_in_value
    from checkov.terraform.graph_builder.variable_rendering.safe_eval_functions import SAFE_EVAL_DICT
    from checkov.terraform.graph_manager import TerraformGraphManager


class Engine:
    def __init__(self, deadline):
        import_checkov()
        self.deadline = deadline
        self.module_dir = tempfile.mkdtemp(prefix="hclspec-checkov-")
        # hclspec-terraform-source, on the reference implementation's parser:
        # renames each scope variable NAME to var.NAME (iteration variables and
        # object keys stay) and lists the names the source uses.
        self.rewriter = Rewriter(locate(REPO))
        # Checkov builds some of its parsers and caches on first use: do it
        # once here, so that the first request finds them as every later one.
        self.evaluate_module(module_text('"warm-up"', {}))

    def close(self):
        self.rewriter.close()
        shutil.rmtree(self.module_dir, ignore_errors=True)

    def answer(self, request):
        if request.get("level") == "parse":
            return parse_answer(request, parse_body)
        check_dialect(request)
        kind = request["kind"]
        if kind not in ("expression", "template"):
            raise Unsupported(UNSUPPORTED_KIND)
        source = request["source"]
        if kind == "expression":
            for body in expression_bodies(source):
                parse_body(body)
            as_expression = source
        else:
            as_expression = heredoc(source)
            parse_body(f"a = {as_expression}")
        scope = request.get("scope") or {}
        variables = var_attributes(scope.get("var"))
        rename = {} if variables is None else {"var": "var"}
        rewritten = self.rewriter.rewrite("expression", as_expression, rename, "var.")
        expression = rewritten["expression"]
        defaults = {}
        for name in rewritten["references"]:
            if name == "var" and variables is not None:
                for attribute, typed in variables.items():
                    if typed.get("unknown") and not mentions_variable(expression, attribute):
                        continue
                    if attribute in scope:
                        raise Unsupported(UNSUPPORTED_COLLISION.format(attribute))
                    defaults[attribute] = scope_literal(typed)
            elif name in scope:
                if name in defaults:
                    raise Unsupported(UNSUPPORTED_COLLISION.format(name))
                defaults[name] = scope_literal(scope[name])
        text = module_text(attribute_expression(expression), defaults)
        return self.isolated(lambda: self.evaluate_module(text))

    def evaluate_module(self, text):
        """Checkov's value of the resource's attribute in the module ``text``."""
        path = os.path.join(self.module_dir, MODULE_FILE)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        parsing_errors = {}
        manager = TerraformGraphManager(db_connector=NetworkxConnector())
        graph, _ = manager.build_graph_from_source_directory(
            self.module_dir, render_variables=True, parsing_errors=parsing_errors
        )
        if parsing_errors:
            (error,) = parsing_errors.values()
            raise Rejected(f"{type(error).__name__}: {error}")
        definitions, _ = convert_graph_vertices_to_tf_definitions(graph.vertices, self.module_dir)
        conf = resource_conf(definitions)
        if conf is None or ATTRIBUTE not in conf:
            raise RuntimeError(MSG_NO_ATTRIBUTE)
        value = conf[ATTRIBUTE]
        # As BaseResourceValueCheck reads an attribute.
        if isinstance(value, list) and len(value) == 1:
            value = value[0]
        if is_terraform_variable_dependent(value) or get_referenced_vertices_in_value(
            value=value, aliases={}, resources_types=[]
        ):
            raise Unsupported(UNSUPPORTED_UNRESOLVED)
        return {"result": typed_value(plain(value), float_number)}

    def isolated(self, evaluate):
        """``evaluate()`` with Checkov's safe-eval symbol table restored after
        it, and stopped after ``deadline`` seconds of CPU time.

        The deadline is a virtual-time timer (SIGVTALRM): Checkov's own parse
        timeout uses SIGALRM and cancels any other alarm. What it raises is
        no ``Exception``, which Checkov's code catches everywhere."""
        saved = dict(SAFE_EVAL_DICT)
        previous = signal.signal(signal.SIGVTALRM, raise_deadline)
        signal.setitimer(signal.ITIMER_VIRTUAL, self.deadline)
        try:
            return evaluate()
        except DeadlineExceeded:
            return {"crash": MSG_DEADLINE.format(self.deadline)}
        finally:
            signal.setitimer(signal.ITIMER_VIRTUAL, 0)
            signal.signal(signal.SIGVTALRM, previous)
            SAFE_EVAL_DICT.clear()
            SAFE_EVAL_DICT.update(saved)


class DeadlineExceeded(BaseException):
    """An evaluation ran out of time."""


def raise_deadline(_signum, _frame):
    raise DeadlineExceeded


def parse_body(text):
    """Checkov's parse of a file: ``hcl2.loads``; ``load_or_die_quietly``
    takes any exception for a parsing error."""
    try:
        return hcl2.loads(text)
    except Exception as e:  # noqa: BLE001 -- as Checkov catches them
        raise Rejected(f"{type(e).__name__}: {e}") from None


def heredoc(template):
    """A heredoc whose body is ``template``; bc-python-hcl2 gives its text
    without the final line break, which is the template's own text."""
    marker = heredoc_marker(template)
    return f"<<{marker}\n{template}\n{marker}\n"


def attribute_expression(expression):
    """The expression as the attribute's value: on its own where it holds one
    attribute (a real file has no brackets around ``[1,\\n2]``), else in
    parentheses, as the parse check read it."""
    if "\n" not in expression and "\r" not in expression:
        return expression
    try:
        (block,) = hcl2.loads(module_text(expression, {}))["resource"]
        attributes = block[RESOURCE_TYPE][RESOURCE_NAME]
        if set(attributes) - {"__start_line__", "__end_line__"} == {ATTRIBUTE}:
            return expression
    except Exception:  # noqa: BLE001 -- any failure: the wrapped form
        pass
    return expression_bodies(expression)[0].split(" = ", 1)[1].rstrip("\n")


def module_text(expression, defaults):
    """The module's one file: a variable per scope name, the resource."""
    parts = [f'variable "{name}" {{\n  default = {literal}\n}}\n' for name, literal in defaults.items()]
    parts.append(f'resource "{RESOURCE_TYPE}" "{RESOURCE_NAME}" {{\n  {ATTRIBUTE} = {expression}\n}}\n')
    return "".join(parts)


def resource_conf(definitions):
    for blocks in definitions.values():
        for resource in blocks.get("resource", []):
            conf = resource.get(RESOURCE_TYPE, {}).get(RESOURCE_NAME)
            if conf is not None:
                return conf
    return None


# --- Scope values as HCL literals ------------------------------------------


def var_attributes(typed):
    """A scope variable ``var`` that is a known object or map, as the typed
    values of its attributes (each becomes a Terraform variable, so
    ``var.NAME`` reads as in a configuration); else None."""
    if typed is None or [] in typed.get("unknown", []):
        return None
    ty, value = typed["type"], typed["value"]
    if ty == "dynamic" and value is not None:
        ty, value = value["type"], value["value"]
    if not isinstance(ty, list) or ty[0] not in ("object", "map") or value is None:
        return None
    attributes = {}
    for name, element in value.items():
        unknown = [path[1:] for path in typed.get("unknown", []) if path[:1] == [name]]
        element_type = ty[1][name] if ty[0] == "object" else ty[1]
        attributes[name] = {"type": element_type, "value": element, "unknown": unknown}
    return attributes


def mentions_variable(expression, name):
    return re.search(rf"\bvar\s*(\.\s*{re.escape(name)}\b|\[\s*\"{re.escape(name)}\")", expression) is not None


def scope_literal(typed):
    """The HCL literal of a scope value, as a variable's default would be
    written in a ``.tf`` file."""
    if typed.get("unknown"):
        raise Unsupported(UNSUPPORTED_UNKNOWN)
    return literal(typed["value"], typed["type"])


def literal(value, ty):
    if value is None:
        return "null"
    if ty == "dynamic":
        return literal(value["value"], value["type"])
    if ty == "string":
        return quoted(value)
    if ty == "bool":
        return "true" if value else "false"
    if ty == "number":
        return number_literal(value)
    kind, inner = ty
    if kind in ("list", "set"):
        return "[" + ", ".join(literal(v, inner) for v in value) + "]"
    if kind == "tuple":
        return "[" + ", ".join(literal(v, t) for v, t in zip(value, inner)) + "]"
    if kind == "map":
        return "{" + ", ".join(f"{quoted(k)} = {literal(v, inner)}" for k, v in value.items()) + "}"
    return "{" + ", ".join(f"{quoted(k)} = {literal(v, inner[k])}" for k, v in value.items()) + "}"


def number_literal(value):
    """A number in HCL's decimal notation (bc-python-hcl2 reads no
    exponents); a negative number is the negation of its literal."""
    if isinstance(value, str):  # "Infinity", "-Infinity"
        raise Unsupported(UNSUPPORTED_INFINITE)
    if isinstance(value, int):
        return str(value)
    text = format(Decimal(value), "f")
    return text[:-2] if text.endswith(".0") else text


# HCL's escapes in a quoted string; other control characters as \uNNNN.
ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def quoted(text):
    out = []
    for i, c in enumerate(text):
        if c in ESCAPES:
            out.append(ESCAPES[c])
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append(f"\\u{ord(c):04x}")
        elif c in "$%" and text[i + 1 : i + 2] == "{":
            out.append(c + c)
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


# --- Checkov's values as typed values ---------------------------------------


def plain(value):
    """Checkov's Python value with sets and tuples as lists; raises
    ``Unsupported`` for what no typed value holds."""
    if value is None or isinstance(value, (bool, int)):
        return value
    if isinstance(value, str):
        if any(0xD800 <= ord(c) <= 0xDFFF for c in value):
            raise Unsupported(UNSUPPORTED_SURROGATE)
        return value
    if isinstance(value, float):
        if math.isnan(value):
            raise Unsupported(UNSUPPORTED_NAN)
        return value
    if isinstance(value, (list, tuple, set, frozenset)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        for key in value:
            if not isinstance(key, str):
                raise Unsupported(UNSUPPORTED_KEY.format(type(key).__name__))
        return {k: plain(v) for k, v in value.items()}
    raise Unsupported(UNSUPPORTED_PYTHON_TYPE.format(type(value).__name__))


def float_number(value):
    """A Python float as the protocol's number: its shortest decimal (JSON
    writes floats so), the infinities as strings."""
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return value


if __name__ == "__main__":
    main()
