-- The levkit language server, for `vim.lsp.enable("levkit")` (Neovim 0.11+).
return {
  cmd = { vim.g.levkit_server_path or "levkit", "lsp" },
  filetypes = { "nethack-des", "nethack-dungeon", "rlg327", "dcss-des" },
  root_markers = { "dungeon.def", ".git" },
  init_options = { extraWarnings = false },
}
