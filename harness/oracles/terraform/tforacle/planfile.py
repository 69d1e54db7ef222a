"""The root module's output values in a saved Terraform plan.

`terraform plan -out=FILE` writes a zip archive whose `tfplan` member is a protocol buffers
message (Terraform's `planproto.Plan`). Its output changes hold each output's planned value in
cty's msgpack encoding against the dynamic pseudo-type, so the exact type comes with the value,
unknown parts stay unknown (where `show -json` would lose the type), and the paths of the
value's sensitive marks come alongside. Nothing else of the plan is read, so the few fields
needed are decoded straight from the protocol buffers wire format:

    Plan          { repeated OutputChange output_changes = 4; }
    OutputChange  { string name = 1; Change change = 2; }
    Change        { repeated DynamicValue values = 2; repeated Path after_sensitive_paths = 4; }
    DynamicValue  { bytes msgpack = 1; }
    Path          { repeated Step steps = 1; }
    Step          { string attribute_name = 1; DynamicValue element_key = 2; }

A created output's change has one value, the planned one.
"""
import zipfile

from . import cty

PLAN_MEMBER = "tfplan"


class PlanFormatError(Exception):
    """The plan is not laid out as expected."""


def read_outputs(path):
    """{name: typed value} of every output in the saved plan at `path`, each with the paths
    of its sensitive marks under `sensitive` when it has any."""
    with zipfile.ZipFile(path) as archive:
        plan = archive.read(PLAN_MEMBER)
    outputs = {}
    for number, body in _fields(plan):
        if number != 4:
            continue
        name, change = None, None
        for field, value in _fields(body):
            if field == 1:
                name = value.decode()
            elif field == 2:
                change = value
        if name is None or change is None:
            raise PlanFormatError("an output change without a name or a change")
        outputs[name] = _planned_value(change)
    return outputs


def _planned_value(change):
    values, sensitive = [], []
    for field, value in _fields(change):
        if field == 2:
            values.append(_msgpack_of(value))
        elif field == 4:
            sensitive.append(_path(value))
    if len(values) != 1:
        raise PlanFormatError(f"an output change with {len(values)} values, not one")
    typed = cty.decode_planned(values[0])
    if sensitive:
        typed["sensitive"] = sensitive
    return typed


def _msgpack_of(dynamic_value):
    for field, value in _fields(dynamic_value):
        if field == 1:
            return value
    raise PlanFormatError("a dynamic value without msgpack")


def _path(path):
    steps = []
    for field, step in _fields(path):
        if field != 1:
            continue
        for kind, value in _fields(step):
            if kind == 1:
                steps.append(value.decode())
            elif kind == 2:
                steps.append(cty.decode_key(_msgpack_of(value)))
    return steps


def _fields(message):
    """(field number, value) of each field of a protocol buffers message: an int for varint
    and fixed-size fields, bytes for length-delimited ones."""
    i = 0
    while i < len(message):
        key, i = _varint(message, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = _varint(message, i)
        elif wire == 2:
            length, i = _varint(message, i)
            value = message[i:i + length]
            if len(value) != length:
                raise PlanFormatError("a field runs past the end of its message")
            i += length
        elif wire in (1, 5):
            size = 8 if wire == 1 else 4
            value = int.from_bytes(message[i:i + size], "little")
            i += size
        else:
            raise PlanFormatError(f"wire type {wire} is not used by the plan format")
        yield number, value


def _varint(data, i):
    result, shift = 0, 0
    while True:
        if i >= len(data):
            raise PlanFormatError("a varint runs past the end of its message")
        byte = data[i]
        i += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return result, i
