#!/usr/bin/env bash
# Installs Checkov from PyPI into this adapter's git-ignored .venv, and
# builds the workspace's source rewriter (hclspec-terraform-source), which the
# engine uses to rename a case's variables to Terraform's var.NAME.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
"$here/../python-common/setup-venv.sh" "$here"
if [ -z "${HCLSPEC_TERRAFORM_SOURCE:-}" ]; then
  (cd "$repo" && cargo build --release --quiet -p hclspec-terraform-source)
fi
