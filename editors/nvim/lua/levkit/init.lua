-- levkit for Neovim: the language server and a live level preview.
local M = {}

local preview_buffers = {} -- source buffer -> preview buffer
local preview_choices = {} -- source buffer -> { level = ..., seed = ... }
local last_good = {} -- source buffer -> the last built level preview, by level name
local known_levels = {} -- source buffer -> the level names of its last preview
local namespace = vim.api.nvim_create_namespace("levkit_preview")

local function client_for(bufnr)
  return vim.lsp.get_clients({ bufnr = bufnr, name = "levkit" })[1]
end

--- The highlight group drawing text in a preview's CSS colour (`#c33` or `#cc3333`).
local function colour_group(css)
  if type(css) ~= "string" then
    return nil
  end
  local hex = css:match("^#(%x+)$")
  if not hex then
    return nil
  end
  if #hex == 3 then
    hex = hex:gsub("(%x)", "%1%1")
  end
  if #hex ~= 6 then
    return nil
  end
  local name = "LevkitGlyph" .. hex:lower()
  if vim.tbl_isempty(vim.api.nvim_get_hl(0, { name = name })) then
    vim.api.nvim_set_hl(0, name, { fg = "#" .. hex:lower() })
  end
  return name
end

--- The lines of a preview and the colours to put on them: {line, start column, end column, group}.
local function layout(result, stale)
  local lines, marks = {}, {}
  local function add(text, colours)
    table.insert(lines, text)
    for _, c in ipairs(colours or {}) do
      table.insert(marks, { #lines - 1, c[1], c[2], c[3] })
    end
  end
  if result.title then
    add(result.title)
  end
  if result.error and result.error ~= vim.NIL then
    add(string.format("error at line %d: %s (%s)", result.error.range.start.line + 1, result.error.message, result.error.code), { { 0, -1, "DiagnosticError" } })
  end
  local shown = stale or result
  if stale then
    add("out of date: the last picture built, until the error is fixed", { { 0, -1, "DiagnosticWarn" } })
  end
  local first_row = #lines
  for _, row in ipairs(shown.rows or {}) do
    add((row:gsub("%s+$", "")))
  end
  for _, cell in ipairs(shown.cells or {}) do
    local group = colour_group(cell.color)
    local line = lines[first_row + cell.y + 1]
    if group and line and cell.x < #line then
      local from = vim.str_byteindex(line, "utf-32", cell.x, false)
      table.insert(marks, { first_row + cell.y, from, from + #cell.glyph, group })
    end
  end
  for _, card in ipairs(shown.cards or {}) do
    local heading = string.format("%s %s", card.glyph or " ", card.name or (card.fields or {}).name or "")
    add(heading, { { 0, #(card.glyph or " "), colour_group(card.color) } })
    for _, detail in ipairs(card.details or {}) do
      add(string.format("    %-8s %s", detail.label, detail.value))
    end
  end
  local legend = shown.legend or {}
  if #legend > 0 then
    add("")
    add("legend:", { { 0, -1, "Title" } })
    for _, entry in ipairs(legend) do
      add(string.format("  %s  %s", entry.glyph, entry.meaning), { { 2, 2 + #entry.glyph, colour_group(entry.color) } })
    end
  end
  for _, note in ipairs(result.notes or {}) do
    add("-- " .. note, { { 0, -1, "Comment" } })
  end
  return lines, marks
end

--- Draws the preview of `source` into its preview buffer. While the text has an error, the
--- last whole picture of it (a built level, cards, an overview) stays, marked out of date,
--- under the error.
local function render(source)
  local target = preview_buffers[source]
  local client = client_for(source)
  if not (target and vim.api.nvim_buf_is_valid(target) and client) then
    return
  end
  local params = { textDocument = vim.lsp.util.make_text_document_params(source) }
  local choices = preview_choices[source] or {}
  params.level = choices.level
  params.seed = choices.seed
  client:request("levkit/preview", params, function(err, result)
    if err or not result or not vim.api.nvim_buf_is_valid(target) then
      return
    end
    local stale = nil
    local level = result.level or ""
    local has_error = result.error ~= nil and result.error ~= vim.NIL
    -- A whole picture: a built level, or cards or an overview of a text without errors.
    local whole = result.generated or ((result.cards or result.dungeons) and not has_error)
    known_levels[source] = result.levels
    last_good[source] = last_good[source] or {}
    if whole then
      last_good[source][level] = result
    elseif has_error then
      stale = last_good[source][level]
    end
    local lines, marks = layout(result, stale)
    vim.bo[target].modifiable = true
    vim.api.nvim_buf_set_lines(target, 0, -1, false, lines)
    vim.bo[target].modifiable = false
    vim.api.nvim_buf_clear_namespace(target, namespace, 0, -1)
    for _, mark in ipairs(marks) do
      local line, from, to, group = mark[1], mark[2], mark[3], mark[4]
      if group then
        if to < 0 then
          to = #lines[line + 1]
        end
        vim.api.nvim_buf_set_extmark(target, namespace, line, from, { end_col = to, hl_group = group })
      end
    end
  end, source)
end

--- Opens the preview of the current buffer in a split; it follows every change. The
--- arguments choose a level (by name) and a seed (a number), in any order.
function M.preview(args)
  local source = vim.api.nvim_get_current_buf()
  local choices = preview_choices[source] or {}
  for _, arg in ipairs(args or {}) do
    local seed = tonumber(arg)
    if seed then
      choices.seed = math.floor(seed)
    else
      choices.level = arg
    end
  end
  preview_choices[source] = choices
  local target = preview_buffers[source]
  if not (target and vim.api.nvim_buf_is_valid(target)) then
    target = vim.api.nvim_create_buf(false, true)
    vim.bo[target].bufhidden = "wipe"
    vim.api.nvim_buf_set_name(target, "levkit-preview://" .. source)
    preview_buffers[source] = target
  end
  if vim.fn.bufwinid(target) == -1 then
    vim.cmd("vsplit")
    vim.api.nvim_win_set_buf(0, target)
    vim.cmd("wincmd p")
  end
  render(source)
end

--- The level names of the current buffer's last preview, for completing `:LevkitPreview`.
function M.complete_levels(lead)
  local names = {}
  for _, name in ipairs(known_levels[vim.api.nvim_get_current_buf()] or {}) do
    if name:find(lead, 1, true) == 1 then
      table.insert(names, name)
    end
  end
  return names
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
M.namespace = namespace
return M
