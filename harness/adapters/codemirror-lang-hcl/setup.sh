#!/usr/bin/env bash
# Installs this adapter's library from npm into its git-ignored node_modules.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../node-common/setup-npm.sh" "$here"
