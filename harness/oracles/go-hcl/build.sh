#!/bin/sh
# Builds the Go HCL oracle into bin/go-hcl-oracle, offline, against the
# hashicorp/hcl and go-cty sources that Debian installs under /usr/share/gocode.
#
#   build.sh          build the binary
#   build.sh test     also run go vet and the Go unit tests
#
# GOPATH mode needs the package inside a GOPATH src tree, so the build makes a
# private GOPATH under bin/ (git-ignored) whose src/hclspec/go-hcl-oracle is a
# symlink to this folder. The build cache lives there too, so the build does
# not depend on HOME.
set -eu

here=$(cd "$(dirname "$0")" && pwd -P)
system_gopath=${HCLSPEC_SYSTEM_GOPATH:-/usr/share/gocode}
work="$here/bin/.build"
pkg=hclspec/go-hcl-oracle

if [ ! -d "$system_gopath/src/github.com/hashicorp/hcl/v2" ]; then
    echo "build.sh: hashicorp/hcl v2 sources not found under $system_gopath/src" >&2
    echo "build.sh: install golang-go golang-github-hashicorp-hcl-v2-dev golang-github-zclconf-go-cty-yaml-dev" >&2
    exit 1
fi

mkdir -p "$work/gopath/src/hclspec"
ln -sfn "$here" "$work/gopath/src/$pkg"

export GOPATH="$work/gopath:$system_gopath"
export GO111MODULE=off
export GOFLAGS=
export GOPROXY=off
export GOCACHE="${GOCACHE:-$work/cache}"

go build -trimpath -o "$here/bin/go-hcl-oracle" "$pkg"

if [ "${1:-}" = test ]; then
    go vet "$pkg"
    go test -count=1 "$pkg"
fi
