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
