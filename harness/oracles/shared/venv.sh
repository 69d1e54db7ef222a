# Sourced by the Python oracles' setup.sh: `install_venv DIR` (re)creates DIR/.venv from
# DIR/requirements.txt unless it was made from the same requirements already.
install_venv() {
  local here=$1
  local venv="$here/.venv"
  local stamp="$venv/requirements.installed"
  if ! cmp -s "$here/requirements.txt" "$stamp" 2>/dev/null; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"
    cp "$here/requirements.txt" "$stamp"
  fi
}
