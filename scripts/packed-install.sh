#!/usr/bin/env bash
# The package as a team uses it: packed with `npm pack`, installed as a development dependency
# into an empty project, and run with npx, as `apc`: a certification of the in-repo reference,
# and one of a target given by URL (the reference started by `npx apc serve`). Run by .ci/run
# after `npm ci`, whose cache serves the package's dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
serve_pid=
finish() {
  if [ -n "$serve_pid" ]; then kill "$serve_pid" 2>/dev/null || true; wait "$serve_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap finish EXIT

tarball=$(npm pack --silent --pack-destination "$work" | tail -n 1)
echo "packed $tarball: $(du -k "$work/$tarball" | cut -f1) kB"
mkdir "$work/project"
cd "$work/project"
npm init -y >/dev/null
npm install --save-dev --prefer-offline --no-audit --no-fund --loglevel=error "$work/$tarball"

npx apc --version
# A few requirements of each interface keep the step short; the full certifications run elsewhere in CI.
selection='CP-DEL-*,AS-RUN-001,EU-REQ-001'
npx apc certify --quiet --requirements "$selection" --reports "$work/reports-reference"

# The installed bin itself, not through npx: $! is then the server's process, which `finish` ends
# (ending npx's process left the server running after CI).
node_modules/.bin/apc serve --control-plane-port 0 --agent-server-port 0 --tracing-port 0 --api-key packed-key:packed-tenant >"$work/serve.log" 2>&1 &
serve_pid=$!
url_of() { sed -n "s/^  $1 *\(http[^ ]*\).*/\1/p" "$work/serve.log"; }
for _ in $(seq 120); do
  [ -n "$(url_of 'experiment upload')" ] && break
  kill -0 "$serve_pid" 2>/dev/null || { cat "$work/serve.log" >&2; exit 1; }
  sleep 0.5
done
npx apc certify --quiet --requirements "$selection" --reports "$work/reports-url" \
  --control-plane-url "$(url_of 'control plane')" --agent-server-url "$(url_of 'agent server')" \
  --tracing-url "$(url_of 'experiment upload')" --api-key packed-key --tenant-id packed-tenant
echo "the installed package certified the reference and a URL target"
