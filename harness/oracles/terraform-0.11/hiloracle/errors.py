"""Terraform 0.11's error messages: which output each names, and the protocol error it is.

Terraform prints every error as `\\nError: MESSAGE\\n\\n\\n` on standard error. An error about
an output begins in one of three ways (NAME is the output's name):

- `Error loading FILE: Error reading config for output NAME: ` when the configuration
  loads (a 0.11 string that does not parse): loading stops at the first such error;
- `output 'NAME': ` or `output "NAME": ` when the configuration is validated (references to
  things that do not exist): every output's errors are printed together;
- `output.NAME: ` when the outputs are evaluated: every output's errors are printed together.

The rest is the message, usually followed by ` in:\\n\\n` and the output's string.
"""
import re

LOAD, VALIDATE, APPLY = "load", "validate", "apply"
ERROR_START = "\nError: "
ERROR_END = "\n\n\n"
# A position at the start of a message, in HIL's two spellings.
POSITIONS = (re.compile(r"([0-9]+):([0-9]+): "),
             re.compile(r"At column ([0-9]+), line ([0-9]+): "))
# mitchellh/colorstring's tags, which Terraform's `-no-color` output drops from what it prints.
COLOR_TAG = re.compile(r"\[(?:reset|bold|dim|underline|blink_slow|blink_fast|invert|hidden|"
                       r"default|black|red|green|yellow|blue|magenta|cyan|light_gray|"
                       r"dark_gray|light_red|light_green|light_yellow|light_blue|"
                       r"light_magenta|light_cyan|white|_[a-z_]+_)\]")


def _headers(name):
    quoted = re.escape(name)
    return [(LOAD, re.compile(r"Error loading [^\n]*?: Error reading config for output "
                              + quoted + ": ")),
            (VALIDATE, re.compile("output '" + quoted + "': ")),
            (VALIDATE, re.compile('output "' + quoted + '": ')),
            (APPLY, re.compile("output\\." + quoted + ": "))]


def by_output(stderr, names):
    """{output name: (stage, message)} of the error that answers for each of `names` that has
    any (see `_first`)."""
    starts = []
    text = "\n" + stderr if not stderr.startswith("\n") else stderr
    for name in names:
        for stage, header in _headers(name):
            at = 0
            while True:
                at = text.find(ERROR_START, at)
                if at < 0:
                    break
                body = at + len(ERROR_START)
                match = header.match(text, body)
                if match:
                    starts.append((at, match.end(), name, stage))
                at = body
    starts.sort()
    found = {}
    for i, (_, body, name, stage) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else len(text)
        message = text[body:end]
        if message.endswith(ERROR_END):
            message = message[:-len(ERROR_END)]
        found.setdefault(name, []).append((stage, message))
    return {name: _first(errors) for name, errors in found.items()}


def _first(errors):
    """The error that answers for an output: the first printed, except among validation
    errors, which Terraform 0.11 finds by walking an output's references in Go's map order
    (a different order from one run to the next): of those, the one whose message sorts first
    (by code point)."""
    stage, message = errors[0]
    if stage == VALIDATE:
        return stage, min(m for s, m in errors if s == VALIDATE)
    return stage, message


def variable_errors(stderr):
    """The messages of errors about variables (the scope), if any."""
    return re.findall(r"\nError: (variable [^\n]*)", "\n" + stderr)


def answer(stage, message, case):
    """The protocol error of an output's first error message."""
    error = {"phase": "parse" if stage == LOAD else "eval"}
    summary = _without_source(message, case.text)
    rng = None
    for pattern in POSITIONS:
        match = pattern.match(summary)
        if match:
            a, b = int(match.group(1)), int(match.group(2))
            line, column = (a, b) if pattern is POSITIONS[0] else (b, a)
            summary = summary[match.end():]
            rng = _range(case, line, column)
            break
    error["summary"] = summary
    if rng:
        error["range"] = rng
    return {"error": error}


def _without_source(message, text):
    suffix = " in:\n\n" + text
    return message[:-len(suffix)] if message.endswith(suffix) else message


def may_have_lost_tags(case):
    """Whether an error message about `case` may have lost text when Terraform printed it:
    its `-no-color` output still drops colorstring tags (`[red]`, `[bold]`, `[reset]`, ...)
    from every message, and the case's string or variables hold one."""
    texts = [case.text]
    for value in case.variables.values():
        if isinstance(value, str):
            texts.append(value)
        elif isinstance(value, list):
            texts.extend(value)
        else:
            texts.extend(list(value) + list(value.values()))
    return any(COLOR_TAG.search(t) for t in texts)


def _range(case, line, column):
    """An empty range at HIL's position (line, column), relative to the request's source:
    for an expression, whose string starts with the added `${`, columns on line 1 move back
    by 2; a position that falls outside the source gives no range."""
    if case.kind == "expression" and line == 1:
        column -= 2
    source = case.text[2:-1] if case.kind == "expression" else case.text
    lines = source.split("\n")
    if line < 1 or column < 1 or line > len(lines) or column > len(lines[line - 1]) + 1:
        return None
    offset = sum(len(l.encode("utf-8")) + 1 for l in lines[:line - 1])
    offset += len(lines[line - 1][:column - 1].encode("utf-8"))
    position = {"line": line, "column": column, "byte": offset}
    return {"start": position, "end": dict(position)}
