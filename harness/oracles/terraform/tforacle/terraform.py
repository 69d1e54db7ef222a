"""Terraform commands through a worker process (see `worker.py`).

A command that kills the worker (a Go panic, a signal) or takes longer than its time limit
raises `TerraformFailure`; the worker is started again for the next command. The worker runs
in the Python of the chosen version's virtualenv, and the first time it starts, Terraform is
asked its version: a virtualenv holding another Terraform than the one asked for is an error,
not a silent change of oracle.
"""
import json
import os
import selectors
import subprocess
import sys
import tempfile
import time

WORKER_START_SECONDS = 60
# A Go panic's message and the start of its stack come first.
STDERR_HEAD_LINES = 20


class TerraformFailure(Exception):
    """Terraform died or hung while running a command."""


class WrongTerraform(Exception):
    """The worker's Terraform is not the version asked for, or cannot be started at all."""


class Terraform:
    def __init__(self, scratch, timeout, python=None, version=None):
        """`python`: the worker's Python (default: this one's); `version`: the Terraform
        version (`1.9.8`) the worker must report, checked when it first starts."""
        self.timeout = timeout
        self.python = python or sys.executable
        self.version = version
        self.version_checked = version is None
        self.config = os.path.join(scratch, "terraformrc")
        with open(self.config, "w"):
            pass  # an empty CLI configuration: no warning about a missing one
        self.env = dict(os.environ)
        self.env.update({
            "TF_CLI_CONFIG_FILE": self.config,
            "CHECKPOINT_DISABLE": "1",  # no version check over the network
            "TF_IN_AUTOMATION": "1",
            "TF_INPUT": "0",
        })
        for name in ("TF_LOG", "TF_LOG_PATH", "TF_DATA_DIR", "TF_WORKSPACE"):
            self.env.pop(name, None)
        self.process = None
        self.stderr = None

    def run(self, argv):
        """(exit status, stdout, stderr) of one Terraform command."""
        if self.process is None:
            self._start()
        try:
            self.process.stdin.write(json.dumps({"argv": argv}) + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._failure("the Terraform worker exited")
        line = self._read_line(self.timeout)
        if line is None:
            raise self._failure(f"Terraform did not finish within {self.timeout} seconds")
        if not line:
            raise self._failure("the Terraform worker exited")
        answer = json.loads(line)
        if "error" in answer:
            raise TerraformFailure(f"the Terraform library call failed: {answer['error']}")
        return answer["rc"], answer["stdout"], answer["stderr"]

    def start(self):
        """Starts the worker now rather than at the first command (and so checks its
        version); raises WrongTerraform or TerraformFailure."""
        if self.process is None:
            self._start()

    def close(self):
        self._stop()
        if self.stderr is not None:
            self.stderr.close()
            self.stderr = None

    def _start(self):
        if not os.access(self.python, os.X_OK):
            raise WrongTerraform(f"{self.python} is missing: run setup.sh")
        self.stderr = tempfile.TemporaryFile(mode="w+b")
        self.process = subprocess.Popen(
            [self.python, "-m", "tforacle.worker"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr,
            env=self.env, text=True, encoding="utf-8",
            cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
        )
        line = self._read_line(WORKER_START_SECONDS)
        if not line or not json.loads(line).get("ready"):
            raise self._failure("the Terraform worker did not start")
        if not self.version_checked:
            self._check_version()

    def _check_version(self):
        rc, stdout, _ = self.run(["version", "-json"])
        found = json.loads(stdout).get("terraform_version") if rc == 0 else None
        if found != self.version:
            self.close()
            raise WrongTerraform(f"{self.python} runs Terraform {found}, not {self.version}")
        self.version_checked = True

    def _read_line(self, timeout):
        """The worker's next answer line, '' at its end, None after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                if selector.select(left):
                    return self.process.stdout.readline()

    def _failure(self, what):
        """Ends the worker and describes its failure with the first lines it wrote."""
        head = ""
        if self.process is not None:
            try:
                # A worker that ended by itself has its status by now (a Terraform panic:
                # 11; Terraform 1.6's library prints nothing about it).
                status = self.process.wait(timeout=1)
                what = f"{what} with status {status}"
            except subprocess.TimeoutExpired:
                pass
            self._stop()
            self.stderr.seek(0)
            lines = self.stderr.read().decode("utf-8", "replace").splitlines()
            self.stderr.close()
            self.stderr = None
            head = "\n".join(lines[:STDERR_HEAD_LINES])
        return TerraformFailure(f"{what}\n{head}".strip())

    def _stop(self):
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process.stdin.close()
            self.process.stdout.close()
            self.process = None
