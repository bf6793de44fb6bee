#!/usr/bin/env bash
# Runs the node suite, the package test and the editor in chromium on Node-RED 5 under Node 22 and again under Node 24.
# Each Node major gets its own folder, .compat/node22 and .compat/node24 (git-ignored), holding that
# node binary and Node-RED 5, so the project's lock file and its Node 20 / Node-RED 4 set-up stay untouched.
set -euo pipefail
cd "$(dirname "$0")/.."
compat="$PWD/.compat"
mkdir -p "$compat"
# Until 0.1 a single Node 22 set lay directly in .compat/: drop it, the per-version folders replace it.
rm -rf "$compat/node_modules" "$compat/package.json" "$compat/package-lock.json"

summary=()
for major in 22 24; do
  dir="$compat/node$major"
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo "{ \"name\": \"morelogin-compat-node$major\", \"private\": true }" > "$dir/package.json"
  # npm itself runs on Node 20 here, so the engines check of node-red@5 is relaxed for this install only.
  npm install --prefix "$dir" --no-audit --no-fund --engine-strict=false "node@$major" node-red@5 >/dev/null
  node="$dir/node_modules/.bin/node"
  red="$dir/node_modules/node-red"
  used="Node $("$node" --version), Node-RED $("$node" -p "require('$red/package.json').version")"
  echo "compatibility run: $used"
  start=$SECONDS
  MORELOGIN_NODE_RED="$red" \
  MORELOGIN_COMPAT_NODE="$node" \
  MORELOGIN_COMPAT_RED="$red/red.js" \
    "$node" node_modules/mocha/bin/mocha.js --no-config --require tsx/cjs --extension ts --timeout 90000 \
    'test/nodes/**/*.test.ts' 'test/package/**/*.test.ts' 'test/e2e/**/*.test.ts'
  summary+=("$used: passed in $((SECONDS - start)) s")
done
printf 'compatibility run: %s\n' "${summary[@]}"
