#!/usr/bin/env bash
# Installs this adapter's library from PyPI into its git-ignored .venv.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../python-common/setup-venv.sh" "$here"
