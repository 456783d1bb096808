#!/usr/bin/env bash
# CI's container part: Debian's Docker engine (installed when missing, started when not
# answering, and stopped again at the end if this script started it), the Dockerfile's base image
# (a stand-in when the public one cannot be pulled: .ci/node-image.sh), then
# scripts/container-test.sh, which builds and runs the image and the README's install in it.
# The daemon gets no bridge and no iptables rules: no container network on private address
# ranges; builds and containers use the host's network and serve on 127.0.0.1.
# Usage: .ci/container.sh NODE_24_VERSION NPM_24_VERSION NODE_22_VERSION NPM_22_VERSION
set -euo pipefail
cd "$(dirname "$0")/.."
node24="$1" npm24="$2" node22="$3" npm22="$4"
cache="${ANIMAL_STORE_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/animal-store-ci}"
# Debian's client and daemon (another docker on PATH, e.g. under /usr/local/bin, is not used).
export DOCKER=/usr/bin/docker

missing=()
[ -x /usr/bin/docker ] && [ -x /usr/sbin/dockerd ] || missing+=(docker.io)
command -v debootstrap >/dev/null || missing+=(debootstrap)
command -v docker-compose >/dev/null || missing+=(docker-compose)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "Installing Debian's ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi

engine_answers() { "$DOCKER" info >/dev/null 2>&1; }
dockerd_pid=""
stop_engine() {
  [ -n "$dockerd_pid" ] || return 0
  kill "$dockerd_pid" 2>/dev/null || true
  # dockerd stops its containers and its containerd before it exits.
  for _ in $(seq 1 60); do kill -0 "$dockerd_pid" 2>/dev/null || break; sleep 0.5; done
}
trap stop_engine EXIT
if ! engine_answers; then
  echo "The Docker daemon is not answering; starting it"
  mkdir -p "$cache"
  dockerd --bridge=none --iptables=false >"$cache/dockerd.log" 2>&1 &
  dockerd_pid=$!
  for _ in $(seq 1 60); do engine_answers && break; sleep 1; done
  engine_answers || { tail -n 20 "$cache/dockerd.log" >&2; echo "dockerd did not start" >&2; exit 1; }
fi

base="$(awk '/^FROM /{ print $2; exit }' Dockerfile)"
.ci/node-image.sh "$base" "$node24" "$npm24"

# Node 22 and the npm it ships, for the README's install with Node 22 (mounted in a container).
npm22_home="$cache/npm-v$npm22"
if [ ! -f "$npm22_home/bin/npm-cli.js" ]; then
  work="$(mktemp -d)"
  (cd "$work" && npm pack --silent "npm@$npm22" >/dev/null)
  mkdir -p "$work/npm" && tar -xzf "$work/npm-$npm22.tgz" -C "$work/npm" --strip-components=1
  rm -rf "$npm22_home" && mv "$work/npm" "$npm22_home" && rm -rf "$work"
fi
NODE22_HOME="$(dirname "$(.ci/install-node.sh "$node22")")" NPM22_HOME="$npm22_home" \
  scripts/container-test.sh
