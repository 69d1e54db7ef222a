#!/usr/bin/env bash
# Installs a Python adapter's pinned requirements from PyPI into its own
# git-ignored virtualenv (ADAPTER_DIR/.venv). Does nothing when that is
# already done; reinstalls when requirements.txt changed.
# Usage: setup-venv.sh ADAPTER_DIR
set -euo pipefail
dir=$(cd "$1" && pwd)
venv="$dir/.venv"
stamp="$venv/.requirements"
if [ -x "$venv/bin/python" ] && cmp -s "$dir/requirements.txt" "$stamp"; then
  exit 0
fi
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$dir/requirements.txt"
cp "$dir/requirements.txt" "$stamp"
