#!/usr/bin/env bash
# The container image, built and run the way docs/operations.md tells users to: build it, start it on
# a volume, make a key inside the container, create and list a pet, fetch the console's page and
# one of its hashed assets, wait for the HEALTHCHECK to say healthy, stop it (exit 0 within
# SHUTDOWN_TIMEOUT_MS), start a new container on the same
# volume and find the pet again; compose.yaml must validate. Then the README's install, word for
# word, in the Dockerfile's base image (no Python, make or compiler): `npm install && npm start`
# with its npm, and again with Node 22 and the npm it ships when NODE22_HOME and NPM22_HOME are set.
#
# Needs a Docker daemon that answers and the base image under the Dockerfile's FROM tag (CI starts
# one and makes a stand-in: .ci/container.sh). Containers use the host's network (--network host)
# and serve on 127.0.0.1 only: nothing is sent off the machine.
# Usage: scripts/container-test.sh   (exits non-zero on the first failed check)
set -euo pipefail
cd "$(dirname "$0")/.."

docker="${DOCKER:-docker}"
export DOCKER_BUILDKIT=0 # the classic builder, as Debian's Docker 20.10 has: no BuildKit-only syntax
image=animal-store:container-test
base="$(awk '/^FROM /{ print $2; exit }' Dockerfile)"
run="animal-store-test-$$"
volume="$run-data"
work="$(mktemp -d)"
containers=()
cache="${ANIMAL_STORE_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/animal-store-ci}"

cleanup() {
  for c in "${containers[@]}"; do "$docker" rm -f "$c" >/dev/null 2>&1 || true; done
  "$docker" volume rm "$volume" >/dev/null 2>&1 || true
  # Files the containers' node user (uid 1000) wrote: removed from a container, as that user.
  [ ! -d "$work/app" ] || "$docker" run --rm --network none -v "$work:/w" "$base" rm -rf /w/app /w/app22 >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

step() { echo "-- container: $*"; }
fail() {
  echo "FAIL container: $*" >&2
  for c in "${containers[@]}"; do
    echo "--- logs of $c (last 40 lines)" >&2
    "$docker" logs --tail 40 "$c" >&2 2>&1 || true
  done
  exit 1
}
free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
# Waits on a condition (a command), polling, up to SECONDS; CI's cores are busy, so the limits are wide.
wait_for() {
  local seconds="$1"; shift
  local deadline=$((SECONDS + seconds))
  until "$@"; do
    [ "$SECONDS" -lt "$deadline" ] || return 1
    sleep 0.5
  done
}
answers() { curl -fsS -o /dev/null "http://127.0.0.1:$1/healthz" 2>/dev/null; }
container_running() { [ "$("$docker" inspect -f '{{.State.Running}}' "$1")" = true ]; }
serving() { container_running "$1" || fail "$1 exited: $("$docker" inspect -f '{{.State.ExitCode}}' "$1")"; answers "$2"; }
healthy() { [ "$("$docker" inspect -f '{{.State.Health.Status}}' "$1")" = healthy ]; }
# The body of an HTTP call with the key, after checking its status: api STATUS METHOD PATH [JSON]
api() {
  local want="$1" method="$2" path="$3" status
  local args=(-sS -o "$work/answer.json" -w '%{http_code}' -X "$method" -H "Authorization: Bearer $key")
  [ -z "${4:-}" ] || args+=(-H 'Content-Type: application/json' --data "$4")
  status="$(curl "${args[@]}" "http://127.0.0.1:$port$path")"
  [ "$status" = "$want" ] || fail "$method $path answered $status, not $want: $(cat "$work/answer.json")"
  cat "$work/answer.json"
}
# The base image has no Python, make or compiler (neither has the official slim image): what is
# installed in it is installed without them.
no_toolchain() {
  "$docker" run --rm --network none --entrypoint sh "$1" -c \
    'for tool in python3 python make cc gcc g++ c++; do if command -v $tool; then exit 1; fi; done'
}

step "the base image $base has no Python, make or compiler"
found="$(no_toolchain "$base")" || fail "$base has $found"

step "docker build (the repository's Dockerfile, as users build it)"
"$docker" build --network host -t "$image" . >"$work/build.log" 2>&1 ||
  { tail -n 40 "$work/build.log" >&2; fail "docker build failed"; }

# Serve on 127.0.0.1 only, on a free port: with --network host, HOST=0.0.0.0 (the image's
# default) would open the service to the machine's network.
port="$(free_port)"
start_container() { # sets $name
  name="$run-$1"
  containers+=("$name")
  "$docker" run -d --name "$name" --network host -e HOST=127.0.0.1 -e PORT="$port" \
    -v "$volume:/data" "$image" >/dev/null
  wait_for 120 serving "$name" "$port" || fail "$name did not answer /healthz on port $port"
}
# docker stop sends SIGTERM, then SIGKILL after -t seconds: exit code 0 (not 137) means the
# service closed by itself within SHUTDOWN_TIMEOUT_MS (10 s by default).
stop_container() {
  "$docker" stop -t 10 "$1" >/dev/null || fail "docker stop $1 failed"
  local code
  code="$("$docker" inspect -f '{{.State.ExitCode}}' "$1")"
  [ "$code" = 0 ] || fail "$1 exited $code after docker stop, not 0"
}

step "start on a volume, HOST=127.0.0.1 PORT=$port"
start_container 1
first="$name"

step "a key made inside the container (docker exec ... keys create)"
key="$("$docker" exec "$first" node dist/cli.js keys create --name container-test)"
[[ "$key" == ask_* ]] || fail "keys create printed no key"

step "create and list a pet"
created="$(api 201 POST /v1/pets '{"name":"Container Rex","categoryId":1}')"
id="$(node -e 'console.log(JSON.parse(process.argv[1]).id)' "$created")"
api 200 GET "/v1/pets?id=$id" | grep -q '"name":"Container Rex"' || fail "the new pet is not listed"

step "the image serves the console: /console/ (HTML with its CSP) and a hashed asset it names"
console_status="$(curl -sS -o "$work/console.html" -D "$work/console.headers" -w '%{http_code}' "http://127.0.0.1:$port/console/")"
[ "$console_status" = 200 ] || fail "GET /console/ answered $console_status, not 200"
grep -qi '^content-type: text/html' "$work/console.headers" ||
  fail "GET /console/ is not text/html: $(grep -i '^content-type' "$work/console.headers" || echo 'no Content-Type')"
grep -qi "^content-security-policy: default-src 'none'" "$work/console.headers" ||
  fail "GET /console/ has no Content-Security-Policy starting default-src 'none'"
asset="$(grep -o '/console/assets/[^"]*' "$work/console.html" | head -n 1 || true)"
[ -n "$asset" ] || fail "the console's page names no /console/assets/ file"
asset_status="$(curl -sS -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port$asset")"
[ "$asset_status" = 200 ] || fail "GET $asset answered $asset_status, not 200"

step "the HEALTHCHECK reaches healthy"
wait_for 120 healthy "$first" ||
  fail "health is $("$docker" inspect -f '{{.State.Health.Status}} {{json .State.Health.Log}}' "$first")"

step "docker stop: exit 0 within the shutdown timeout"
stop_container "$first"

step "a new container on the same volume finds the pet (and the key)"
start_container 2
second="$name"
api 200 GET "/v1/pets/$id" | grep -q '"name":"Container Rex"' || fail "the pet is gone after a restart"
stop_container "$second"

step "compose.yaml validates (docker-compose config)"
if command -v docker-compose >/dev/null; then
  docker-compose -f compose.yaml config -q || fail "compose.yaml does not validate"
else
  "$docker" compose -f compose.yaml config -q || fail "compose.yaml does not validate"
fi

# The README's install, word for word, on a machine with no Python, make or compiler: a container
# of the base image (as its node user) on a copy of the repository's files. npm's cache is kept
# under the CI cache so a second run downloads nothing.
# readme_start NAME DIR [DOCKER RUN ARGS...], with README_PREFIX: shell commands run first (PATH)
readme_start() {
  local name="$run-$1" dir="$2"; shift 2
  mkdir -p "$dir" "$cache/container-npm-cache"
  git ls-files -z | xargs -0 tar -cf - | tar -xf - -C "$dir"
  sha256sum "$dir/package-lock.json" >"$work/lock.sum"
  "$docker" run --rm --network none -v "$dir:/app" -v "$cache/container-npm-cache:/npm-cache" "$base" \
    chown -R 1000:1000 /app /npm-cache
  containers+=("$name")
  local readme_port
  readme_port="$(free_port)"
  "$docker" run -d --name "$name" --network host -u node -w /app -v "$dir:/app" \
    -v "$cache/container-npm-cache:/home/node/.npm" -e HOST=127.0.0.1 -e PORT="$readme_port" \
    "$@" "$base" sh -c "$README_PREFIX npm install && npm start" >/dev/null
  # npm install and the build on CI's busy cores: minutes, not seconds.
  wait_for 900 serving "$name" "$readme_port" || fail "npm install && npm start did not serve"
  "$docker" exec "$name" sh -c "$README_PREFIX"'echo "   node $(node --version), npm $(npm --version)"'
  "$docker" exec "$name" sh -c "$README_PREFIX node -e \"require('better-sqlite3')(':memory:')\"" ||
    fail "better-sqlite3 does not load"
  [ ! -e "$dir/node_modules/better-sqlite3/build" ] || fail "node-gyp ran on better-sqlite3"
  (cd "$dir" && sha256sum -c --quiet "$work/lock.sum") || fail "npm install rewrote package-lock.json"
  "$docker" rm -f "$name" >/dev/null
}

step "README: npm install && npm start in $base (Node 24 and its npm), no Python"
README_PREFIX="" readme_start readme24 "$work/app"

if [ -n "${NODE22_HOME:-}" ] && [ -n "${NPM22_HOME:-}" ]; then
  step "README: npm install && npm start with Node 22 and its npm, no Python"
  # npm 10 run by Node 22 from /opt looks for its global npmrc under /opt/node: the base image's
  # (registry, CA) is in /usr/local/etc.
  README_PREFIX='mkdir -p /tmp/bin && ln -sf /opt/npm/bin/npm-cli.js /tmp/bin/npm && export PATH=/tmp/bin:/opt/node/bin:$PATH npm_config_globalconfig=/usr/local/etc/npmrc && ' \
    readme_start readme22 "$work/app22" -v "$NODE22_HOME:/opt/node:ro" -v "$NPM22_HOME:/opt/npm:ro"
fi

echo "container: all checks passed"
