-- Headless end-to-end test: detect the filetype, attach to `levkit lsp`, receive diagnostics,
-- open the preview and see it follow an edit. Exits non-zero on failure.
local root = vim.env.LEVKIT_ROOT
local function fail(message)
  io.stderr:write("FAIL: " .. message .. "\n")
  vim.cmd("cquit 1")
end

require("levkit").setup({ cmd = { vim.env.LEVKIT_BIN, "lsp" } })
vim.cmd("edit " .. root .. "/test-data/examples/mistakes.des")
local buf = vim.api.nvim_get_current_buf()
if vim.bo[buf].filetype ~= "nethack-des" then
  fail("filetype is " .. vim.bo[buf].filetype)
end
if not vim.wait(10000, function() return #vim.lsp.get_clients({ bufnr = buf, name = "levkit" }) > 0 end) then
  fail("levkit did not attach")
end
if not vim.wait(10000, function() return #vim.diagnostic.get(buf) > 0 end) then
  fail("no diagnostics")
end
local codes = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  codes[d.code] = true
end
if not codes["NH0202"] or not codes["NH0115"] then
  fail("expected NH0202 and NH0115, got " .. vim.inspect(codes))
end

vim.cmd("LevkitPreview")
local preview = require("levkit").preview_buffers[buf]
local function preview_has(text)
  local lines = vim.api.nvim_buf_get_lines(preview, 0, -1, false)
  return #lines >= 21 and table.concat(lines, "\n"):find(text, 1, true) ~= nil
end
if not vim.wait(10000, function() return preview_has("|.....+") end) then
  fail("the preview does not show the map: " .. vim.inspect(vim.api.nvim_buf_get_lines(preview, 0, -1, false)))
end
-- Edit the map; the preview follows.
vim.api.nvim_buf_set_lines(buf, 6, 7, false, { "|..{..|" })
if not vim.wait(10000, function() return preview_has("|..{..|") end) then
  fail("the preview did not follow the edit")
end
print("neovim test: 1 passed, 0 failed")
vim.cmd("qall!")
