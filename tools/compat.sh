#!/usr/bin/env bash
# Runs the node suite and the package test on Node-RED 5 under Node 22, installed into .compat/
# (git-ignored) so the project's lock file and its Node 20 / Node-RED 4 set-up stay untouched.
set -euo pipefail
cd "$(dirname "$0")/.."
compat="$PWD/.compat"
mkdir -p "$compat"
[ -f "$compat/package.json" ] || echo '{ "name": "morelogin-compat", "private": true }' > "$compat/package.json"
# npm itself runs on Node 20 here, so the engines check of node-red@5 is relaxed for this install only.
npm install --prefix "$compat" --no-audit --no-fund --engine-strict=false node@22 node-red@5 >/dev/null
node22="$compat/node_modules/.bin/node"
echo "compatibility run: Node $("$node22" --version), Node-RED $("$node22" -p "require('$compat/node_modules/node-red/package.json').version")"
MORELOGIN_NODE_RED="$compat/node_modules/node-red" \
MORELOGIN_COMPAT_NODE="$node22" \
MORELOGIN_COMPAT_RED="$compat/node_modules/node-red/red.js" \
  "$node22" node_modules/mocha/bin/mocha.js --no-config --require tsx/cjs --extension ts --timeout 20000 \
  'test/nodes/**/*.test.ts' 'test/package/**/*.test.ts'
