"""The source rewriter: a small Rust program built on the reference implementation's parser
(`hclspec-terraform-source`), which renames a case's variable references and turns a bare
template into a quoted string. It runs as one child process, a JSON line in, a JSON line out.
"""
import json
import os
import shutil
import subprocess

PROGRAM = "hclspec-terraform-source"


class RewriterError(Exception):
    """The rewriter could not be started or answered wrongly."""


def locate(repo):
    """The rewriter's command: $HCLSPEC_TERRAFORM_SOURCE, else the release or debug build in
    the workspace's target folder, else the program on PATH."""
    if os.environ.get("HCLSPEC_TERRAFORM_SOURCE"):
        return os.environ["HCLSPEC_TERRAFORM_SOURCE"]
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(repo, "target")
    for profile in ("release", "debug"):
        path = os.path.join(target, profile, PROGRAM)
        if os.access(path, os.X_OK):
            return path
    found = shutil.which(PROGRAM)
    if found:
        return found
    raise RewriterError(
        f"{PROGRAM} is not built: run `cargo build --release -p {PROGRAM}` "
        "or set HCLSPEC_TERRAFORM_SOURCE")


class Rewriter:
    def __init__(self, command, terraform_version=None):
        self.command = command
        # The release the rewritten expressions are for (before 1.15, `convert` is a function
        # like any other, its second argument no type).
        self.terraform_version = terraform_version
        self.process = None

    def rewrite(self, kind, source, rename, prefix):
        """{"expression", "parsed", "references"} for one source."""
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen(
                [self.command], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                text=True, encoding="utf-8")
        request = {"kind": kind, "source": source, "rename": rename, "prefix": prefix}
        if self.terraform_version is not None:
            request["terraform_version"] = self.terraform_version
        try:
            self.process.stdin.write(json.dumps(request, ensure_ascii=False) + "\n")
            self.process.stdin.flush()
            line = self.process.stdout.readline()
        except (BrokenPipeError, OSError) as e:
            self.close()
            raise RewriterError(f"the rewriter failed: {e}")
        if not line:
            self.close()
            raise RewriterError("the rewriter exited")
        answer = json.loads(line)
        if "error" in answer:
            raise RewriterError(f"the rewriter rejected a request: {answer['error']}")
        return answer

    def close(self):
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None
