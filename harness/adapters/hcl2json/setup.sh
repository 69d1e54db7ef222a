#!/usr/bin/env bash
# Installs @cdktf/hcl2json from npm, as package-lock.json pins it, into this
# adapter's git-ignored node_modules. Does nothing when that is already done.
set -euo pipefail
cd "$(dirname "$0")"
if [ -f node_modules/.package-lock.json ] && cmp -s package-lock.json node_modules/.hclspec-lock; then
  exit 0
fi
npm ci --silent --no-audit --no-fund
cp package-lock.json node_modules/.hclspec-lock
