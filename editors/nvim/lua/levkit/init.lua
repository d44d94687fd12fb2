-- levkit for Neovim: the language server and a live level preview.
local M = {}

local preview_buffers = {} -- source buffer -> preview buffer

local function client_for(bufnr)
  return vim.lsp.get_clients({ bufnr = bufnr, name = "levkit" })[1]
end

--- Draws the preview of `source` into its preview buffer.
local function render(source)
  local target = preview_buffers[source]
  local client = client_for(source)
  if not (target and vim.api.nvim_buf_is_valid(target) and client) then
    return
  end
  local params = { textDocument = vim.lsp.util.make_text_document_params(source) }
  client:request("levkit/preview", params, function(err, result)
    if err or not result or not vim.api.nvim_buf_is_valid(target) then
      return
    end
    local lines = {}
    for _, row in ipairs(result.rows or {}) do
      table.insert(lines, row)
    end
    for _, card in ipairs(result.cards or {}) do
      local fields = card.fields or {}
      table.insert(lines, string.format("%s %s (%s)", fields.symb or "", fields.name or "", fields.color or ""))
    end
    for _, note in ipairs(result.notes or {}) do
      table.insert(lines, "-- " .. note)
    end
    vim.bo[target].modifiable = true
    vim.api.nvim_buf_set_lines(target, 0, -1, false, lines)
    vim.bo[target].modifiable = false
  end, source)
end

--- Opens the preview of the current buffer in a split; it follows every change.
function M.preview()
  local source = vim.api.nvim_get_current_buf()
  local target = preview_buffers[source]
  if not (target and vim.api.nvim_buf_is_valid(target)) then
    target = vim.api.nvim_create_buf(false, true)
    vim.bo[target].bufhidden = "wipe"
    vim.api.nvim_buf_set_name(target, "levkit-preview://" .. source)
    preview_buffers[source] = target
  end
  vim.cmd("vsplit")
  vim.api.nvim_win_set_buf(0, target)
  vim.cmd("wincmd p")
  render(source)
end

--- Asks the server what the buffer's content is (`levkit/dialect`). When it says another
--- dialect than the filetype, the filetype follows, and the buffer is reopened in the server,
--- which took the old filetype as the document's language.
function M.sync_dialect(bufnr)
  local client = client_for(bufnr)
  if not client then
    return
  end
  local params = { textDocument = vim.lsp.util.make_text_document_params(bufnr) }
  client:request("levkit/dialect", params, function(err, result)
    local language = not err and result and result.languageId
    if type(language) ~= "string" or not vim.api.nvim_buf_is_valid(bufnr) or vim.bo[bufnr].filetype == language then
      return
    end
    vim.bo[bufnr].filetype = language
    if vim.lsp.buf_is_attached(bufnr, client.id) then
      vim.lsp.buf_detach_client(bufnr, client.id)
    end
    vim.lsp.buf_attach_client(bufnr, client.id)
  end, bufnr)
end

--- Configures and enables the server; `opts.cmd` and `opts.extra_warnings` override defaults.
function M.setup(opts)
  opts = opts or {}
  local config = {}
  if opts.cmd then
    config.cmd = opts.cmd
  end
  if opts.extra_warnings ~= nil then
    config.init_options = { extraWarnings = opts.extra_warnings }
  end
  vim.lsp.config("levkit", config)
  vim.lsp.enable("levkit")
end

-- The server says when a document's analysis changed; previews follow.
vim.lsp.handlers["levkit/previewChanged"] = function(_, result)
  for source in pairs(preview_buffers) do
    if vim.api.nvim_buf_is_valid(source) and vim.uri_from_bufnr(source) == result.textDocument.uri then
      render(source)
    end
  end
end

M.render = render
M.preview_buffers = preview_buffers
return M
