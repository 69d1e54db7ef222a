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
# A virtualenv without its own pip, filled by the host's pip (pip >= 22.3
# installs into another environment with --python): seconds instead of the
# tens of seconds that ensurepip takes; older hosts get pip in the venv.
if python3 -m pip --help 2>/dev/null | grep -q -- '--python'; then
  python3 -m venv --clear --without-pip "$venv"
  pip=(python3 -m pip --python "$venv/bin/python")
else
  python3 -m venv --clear "$venv"
  pip=("$venv/bin/python" -m pip)
fi
install=("${pip[@]}" install --quiet --disable-pip-version-check)
# Requirements that come only as source archives build with the tools of
# build-requirements.txt installed once into the venv, rather than in a
# fresh isolated build environment each (tens of seconds more).
if [ -f "$dir/build-requirements.txt" ]; then
  "${install[@]}" -r "$dir/build-requirements.txt"
  install+=(--no-build-isolation)
fi
"${install[@]}" -r "$dir/requirements.txt"
cp "$dir/requirements.txt" "$stamp"
