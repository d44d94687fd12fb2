vim.api.nvim_create_user_command("LevkitPreview", function(opts)
  require("levkit").preview(opts.fargs)
end, {
  nargs = "*",
  complete = function(lead)
    return require("levkit").complete_levels(lead)
  end,
  desc = "Show a level of the buffer (:LevkitPreview [level] [seed]) in the game's colours, kept in sync with edits",
})

-- Once the server has a buffer (and after each write), it says what the content is.
local group = vim.api.nvim_create_augroup("levkit_dialect", { clear = true })
vim.api.nvim_create_autocmd("LspAttach", {
  group = group,
  callback = function(args)
    local client = vim.lsp.get_client_by_id(args.data.client_id)
    if client and client.name == "levkit" then
      require("levkit").sync_dialect(args.buf)
    end
  end,
})
vim.api.nvim_create_autocmd("BufWritePost", {
  group = group,
  callback = function(args)
    if #vim.lsp.get_clients({ bufnr = args.buf, name = "levkit" }) > 0 then
      require("levkit").sync_dialect(args.buf)
    end
  end,
})

-- Map glyphs come as semantic tokens of levkit's own types (mapWall, mapMonster...): each is
-- linked, as a default the user's colour scheme may override, to a group of a similar sense,
-- as the VS Code extension gives each a TextMate scope.
local map_token_links = {
  mapWall = "@tag",
  mapFloor = "Comment",
  mapDoor = "@operator",
  mapCorridor = "String",
  mapWater = "@type",
  mapLava = "Error",
  mapTree = "@function",
  mapFeature = "Number",
  mapStone = "@attribute",
  mapAir = "@string.regexp",
  mapMonster = "@variable.builtin",
  mapItem = "Character",
}
local function link_map_tokens()
  for kind, target in pairs(map_token_links) do
    vim.api.nvim_set_hl(0, "@lsp.type." .. kind, { link = target, default = true })
  end
end
link_map_tokens()
vim.api.nvim_create_autocmd("ColorScheme", {
  group = vim.api.nvim_create_augroup("levkit_map_tokens", { clear = true }),
  callback = link_map_tokens,
})
