-- Filetypes of levkit's dialects, by content: `levkit.detect` is the fallback generated from
-- the Rust rules, used until the server answers `levkit/dialect` (see `levkit.sync_dialect`).
local function by_content(otherwise)
  return function(path, bufnr)
    local text = bufnr and table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), "\n") or ""
    return require("levkit.detect").filetype(path, text) or otherwise(path, bufnr)
  end
end

-- Dungeon descriptions and RLG327 files by their usual names; other `.def` files keep the
-- filetype Neovim gives them (Modula-2, module definitions).
local filename = { ["dungeon.def"] = "nethack-dungeon", ["dungeon.pdf"] = "nethack-dungeon" }
for _, pair in ipairs(require("levkit.dialects").detection.rlg327_file_names) do
  filename[pair[1]] = require("levkit.detect").language_id(pair[2])
end

vim.filetype.add({
  extension = {
    -- A `.des` file of no telling content stays NetHack's, as in VS Code.
    des = by_content(function()
      return "nethack-des"
    end),
    -- `.txt` is everyone's: RLG327 when the content says so, else what Neovim makes of it.
    txt = by_content(function(path, bufnr)
      return require("vim.filetype.detect").txt(path, bufnr)
    end),
  },
  filename = filename,
})
