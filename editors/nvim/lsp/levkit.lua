-- The levkit language server, for `vim.lsp.enable("levkit")` (Neovim 0.11+).
return {
  cmd = { vim.g.levkit_server_path or "levkit", "lsp" },
  -- Every dialect's language id (generated from the Rust registry by `cargo xtask codegen`).
  filetypes = require("levkit.dialects").language_ids,
  root_markers = { "dungeon.def", ".git" },
  init_options = { extraWarnings = false },
}
