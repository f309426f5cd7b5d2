#!/usr/bin/env bash
# Installs the pinned LangGraph JS agent server of test/langgraph-js/server (npm ci of its own
# package.json and lockfile: only the npm registry) unless it is installed already. `.ci/run` calls
# it before the tests; test/langgraph-js/langgraph-server.ts calls it when a test finds it missing.
# The install goes to a folder of its own and is then renamed into place, so two callers at once
# never see a half-installed node_modules (the second one's rename fails and it keeps the first).
set -euo pipefail
server="$(cd "$(dirname "$0")/../test/langgraph-js/server" && pwd)"
if [ -x "$server/node_modules/.bin/langgraphjs" ]; then exit 0; fi
staging=$(mktemp -d "$server/.install-XXXXXX")
trap 'rm -rf "$staging"' EXIT
cp "$server/package.json" "$server/package-lock.json" "$staging/"
(cd "$staging" && npm ci --no-audit --no-fund --loglevel=error)
mv -T "$staging/node_modules" "$server/node_modules" 2>/dev/null || [ -x "$server/node_modules/.bin/langgraphjs" ]
