"""tree-sitter-hcl (PyPI, with the py-tree-sitter binding) as an hclspec
engine, protocol v1, at the parse level.

The grammar's start symbol is a whole configuration file, so the request is
wrapped into a body. Tree-sitter recovers from every error and always gives
a tree: the source is rejected when the tree holds an ``ERROR`` node or a
``MISSING`` one (a token the parser inserted), which ``has_error`` reports.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python-common"))

import tree_sitter  # noqa: E402
import tree_sitter_hcl  # noqa: E402

from hclspec_adapter import Rejected, parse_answer, serve  # noqa: E402

PARSER = tree_sitter.Parser(tree_sitter.Language(tree_sitter_hcl.language()))


def parse_body(text):
    root = PARSER.parse(text.encode("utf-8")).root_node
    if root.has_error:
        raise Rejected(describe(first_error(root)))


def first_error(node):
    """The first ``ERROR`` or ``MISSING`` node, depth first."""
    if node.is_error or node.is_missing:
        return node
    for child in node.children:
        if child.has_error or child.is_missing:
            found = first_error(child)
            if found is not None:
                return found
    return None


def describe(node):
    if node is None:
        return "the tree has an error"
    row, column = node.start_point
    what = f"missing {node.type}" if node.is_missing else "syntax error"
    return f"{what} at line {row + 1}, byte {column + 1} of the wrapped source"


def answer(request):
    return parse_answer(request, parse_body)


if __name__ == "__main__":
    serve(answer)
