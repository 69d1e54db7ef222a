#!/usr/bin/env bash
# Installs an npm adapter's packages from npm, as its package-lock.json pins
# them, into its own git-ignored ADAPTER_DIR/node_modules. Does nothing when
# that is already done; reinstalls when package-lock.json changed.
# Usage: setup-npm.sh ADAPTER_DIR
set -euo pipefail
cd "$1"
if [ -f node_modules/.package-lock.json ] && cmp -s package-lock.json node_modules/.hclspec-lock; then
  exit 0
fi
npm ci --silent --no-audit --no-fund
cp package-lock.json node_modules/.hclspec-lock
