-- Filetypes of levkit's dialects. `.des` is shared by NetHack and DCSS: the content decides.
local function des_filetype(_, bufnr)
  for _, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, 200, false)) do
    if not line:match("^#") and line:match("%S") then
      local word = line:match("^%s*([%w_%-]+)")
      if word and (word:upper() == "MAZE" or word:upper() == "LEVEL" or word == "INIT_MAP" or word == "GEOMETRY") then
        return "nethack-des"
      end
      if line:match("^NAME:") or line:match("^default%-depth:") or line:match("^{{") or line:match("^: ") then
        return "dcss-des"
      end
    end
  end
  return "nethack-des"
end

local function txt_filetype(_, bufnr)
  local first = vim.api.nvim_buf_get_lines(bufnr, 0, 1, false)[1] or ""
  if first:match("^%s*%w+ [A-Z]+ DESCRIPTION") then
    return "rlg327"
  end
end

vim.filetype.add({
  extension = { des = des_filetype, txt = txt_filetype },
  filename = {
    ["dungeon.def"] = "nethack-dungeon",
    ["dungeon.pdf"] = "nethack-dungeon",
    ["monster_desc.txt"] = "rlg327",
    ["object_desc.txt"] = "rlg327",
  },
})
