-- Filetypes of levkit's dialects, by content: `levkit.detect` is the fallback generated from
-- the Rust rules, used until the server answers `levkit/dialect` (see `levkit.sync_dialect`).
-- A `.des` file of no telling content stays NetHack's, as in VS Code.
local function by_content(default)
  return function(path, bufnr)
    local text = bufnr and table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), "\n") or ""
    return require("levkit.detect").filetype(path, text) or default
  end
end

local filename = { ["dungeon.pdf"] = "nethack-dungeon" }
local dialects = require("levkit.dialects")
for _, pair in ipairs(dialects.detection.rlg327_file_names) do
  filename[pair[1]] = require("levkit.detect").language_id(pair[2])
end

vim.filetype.add({
  extension = { des = by_content("nethack-des"), def = by_content(nil), txt = by_content(nil) },
  filename = filename,
})
