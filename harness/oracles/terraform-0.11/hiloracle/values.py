"""Typed values (docs/protocol.md) of Terraform 0.11 outputs.

Every leaf of a 0.11 value is a string. A list's type is `["list", T]` when all its elements
have the type T (`["list", "string"]` when it is empty), else `["tuple", [...]]`; a map's
is `["map", T]` likewise, else `["object", {...}]`.
"""


class NotAValue(Exception):
    """An output value that is not made of strings, lists and maps."""


def typed(value):
    """The protocol type of a 0.11 value."""
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        types = [typed(v) for v in value]
        return _collection("list", "tuple", types, types)
    if isinstance(value, dict):
        types = {k: typed(v) for k, v in value.items()}
        return _collection("map", "object", list(types.values()), types)
    raise NotAValue(f"an output value holds {type(value).__name__} {value!r}")


def _collection(kind, structural, members, structure):
    if not members:
        return [kind, "string"]
    if all(m == members[0] for m in members):
        return [kind, members[0]]
    return [structural, structure]


def answer(output):
    """The answer for an output of the state (`{"type", "value", "sensitive"}`), or a crash
    when the state lacks it."""
    if output is None:
        return {"crash": "the state has no value for this output"}
    try:
        return {"result": {"type": typed(output["value"]), "value": output["value"]}}
    except NotAValue as e:
        return {"crash": str(e)}
