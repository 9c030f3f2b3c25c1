#!/usr/bin/env bash
# The web viewer and the course server's page in a real browser (ctest runs this): Debian's
# chromium driven by playwright-core, installed from npm into tests/browser/node_modules the first
# time.
# Usage: run.sh ARENA_BINARY OUTPUT_DIR   (the screenshots go to OUTPUT_DIR)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
arena="$1"
out="$2"
chromium="${CHROMIUM:-/usr/bin/chromium}"

command -v node >/dev/null || { echo "browser test: node is missing (run: bash scripts/setup.sh)" >&2; exit 1; }
[ -x "$chromium" ] || { echo "browser test: $chromium is missing (run: bash scripts/setup.sh)" >&2; exit 1; }
if [ ! -f "$here/node_modules/playwright-core/package.json" ]; then
  # One installer at a time when several builds run their tests together.
  (cd "$here" && flock /tmp/arena-browser-npm.lock npm ci --no-audit --no-fund --loglevel=error)
fi
mkdir -p "$out"
ARENA_BINARY="$arena" ARENA_BROWSER_OUT="$out" CHROMIUM="$chromium" \
  exec node --test --test-reporter=spec "$here/viewer.test.mjs" "$here/course.test.mjs"
