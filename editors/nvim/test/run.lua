-- Headless end-to-end test: the fallback detector agrees with the Rust one, the plugin's
-- filetypes are the dialects' language ids, ftdetect and the server give buffers their dialect,
-- and with `levkit lsp` attached: diagnostics, and the preview following an edit. Exits
-- non-zero on failure.
local root = vim.env.LEVKIT_ROOT
local passed = 0
local function fail(message)
  io.stderr:write("FAIL: " .. message .. "\n")
  vim.cmd("cquit 1")
end

local function read(path)
  local file = assert(io.open(path, "rb"))
  local text = file:read("*a")
  file:close()
  return text
end

-- The fallback against the Rust detector: what `Dialect::detect` says of every case
-- (written by `cargo xtask codegen`), `levkit.detect` must say too.
local detect = require("levkit.detect")
local cases = vim.json.decode(read(root .. "/test-data/dialects/detection-cases.json"))
local disagreements = {}
for _, case in ipairs(cases.cases) do
  local text = case.text or read(root .. "/" .. case.path)
  local expected_language = case.languageId ~= vim.NIL and case.languageId or nil
  local dialect = detect.dialect(case.path, text)
  local language = detect.language_id(dialect)
  if dialect ~= case.dialect or language ~= expected_language then
    table.insert(
      disagreements,
      string.format("%s: Rust says %s, levkit.detect %s (%s)", case.what or case.path, case.dialect, dialect, tostring(language))
    )
  end
end
if #cases.cases < 100 or #disagreements > 0 then
  fail(#cases.cases .. " cases, disagreements:\n" .. table.concat(disagreements, "\n"))
end
passed = passed + 1

-- The server's filetypes are Dialect::language_ids().
local function sorted(list)
  local copy = vim.list_extend({}, list)
  table.sort(copy)
  return copy
end
if not vim.deep_equal(sorted(vim.lsp.config.levkit.filetypes), sorted(cases.languageIds)) then
  fail("filetypes " .. vim.inspect(vim.lsp.config.levkit.filetypes) .. ", language ids " .. vim.inspect(cases.languageIds))
end
passed = passed + 1

-- Before any server: ftdetect gives a vault opening with MONS: its dialect.
local scratch = vim.fn.tempname()
vim.fn.mkdir(scratch, "p")
vim.fn.writefile({ "MONS: orc", "MAP", "...", "ENDMAP" }, scratch .. "/vault.des")
vim.cmd("edit " .. scratch .. "/vault.des")
if vim.bo.filetype ~= "dcss-des" then
  fail("a vault opening with MONS: has filetype " .. vim.bo.filetype)
end
vim.fn.writefile({ "hello" }, scratch .. "/notes.txt")
vim.cmd("edit " .. scratch .. "/notes.txt")
if vim.bo.filetype ~= "text" then
  fail("a plain .txt has filetype " .. vim.bo.filetype)
end
vim.fn.writefile({ "RLG327 OBJECT DESCRIPTION 1" }, scratch .. "/objects.txt")
vim.cmd("edit " .. scratch .. "/objects.txt")
if vim.bo.filetype ~= "rlg327" then
  fail("an RLG327 .txt has filetype " .. vim.bo.filetype)
end
vim.cmd("%bwipeout!")
passed = passed + 1

require("levkit").setup({ cmd = { vim.env.LEVKIT_BIN, "lsp" } })
-- Waits for the server to attach to `buf` (`name` says which file, on failure).
local function wait_attached(buf, name)
  if not vim.wait(10000, function() return #vim.lsp.get_clients({ bufnr = buf, name = "levkit" }) > 0 end) then
    fail("levkit did not attach to " .. name)
  end
end
vim.cmd("edit " .. root .. "/test-data/examples/mistakes.des")
local buf = vim.api.nvim_get_current_buf()
if vim.bo[buf].filetype ~= "nethack-des" then
  fail("filetype is " .. vim.bo[buf].filetype)
end
wait_attached(buf, "mistakes.des")
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
-- The level has errors: the first is shown above the map.
if not preview_has("error at line") then
  fail("the preview does not show the error: " .. vim.inspect(vim.api.nvim_buf_get_lines(preview, 0, 3, false)))
end
passed = passed + 1

-- A built level, with a seed: the title says it, the legend names what is there, and the
-- glyphs take the colours the preview gives (extmarks on highlight groups of those colours).
vim.cmd("edit " .. root .. "/test-data/examples/fortress.des")
local fortress = vim.api.nvim_get_current_buf()
wait_attached(fortress, "fortress.des")
vim.cmd("LevkitPreview fortress 7")
local fortress_preview = require("levkit").preview_buffers[fortress]
local function fortress_lines()
  return vim.api.nvim_buf_get_lines(fortress_preview, 0, -1, false)
end
if not vim.wait(10000, function() return (fortress_lines()[1] or ""):find("seed 7", 1, true) ~= nil end) then
  fail("the preview's title does not say seed 7: " .. vim.inspect(fortress_lines()))
end
local legend_line
for i, line in ipairs(fortress_lines()) do
  if line == "  @  watchman" then
    legend_line = i - 1
  end
end
if not legend_line then
  fail("the legend does not name the watchman: " .. vim.inspect(fortress_lines()))
end
local marks = vim.api.nvim_buf_get_extmarks(fortress_preview, require("levkit").namespace, 0, -1, { details = true })
local watchman_colour
for _, mark in ipairs(marks) do
  if mark[2] == legend_line and mark[3] == 2 then
    watchman_colour = vim.api.nvim_get_hl(0, { name = mark[4].hl_group }).fg
  end
end
if watchman_colour ~= 0xaaaaaa then
  fail("the watchman's legend glyph is not drawn in its colour: " .. tostring(watchman_colour))
end
if #marks < 100 then
  fail("the map's glyphs are not coloured: " .. #marks .. " extmarks")
end
passed = passed + 1

-- Once the server runs, it decides: an empty .des is NetHack's until it is written as a vault.
vim.cmd("edit " .. scratch .. "/new.des")
local new = vim.api.nvim_get_current_buf()
if vim.bo[new].filetype ~= "nethack-des" then
  fail("an empty .des has filetype " .. vim.bo[new].filetype)
end
wait_attached(new, "new.des")
vim.api.nvim_buf_set_lines(new, 0, -1, false, { "NAME: a_vault", "MAP", "...", "ENDMAP" })
vim.cmd("write")
if not vim.wait(10000, function() return vim.bo[new].filetype == "dcss-des" end) then
  fail("the server did not make new.des a vault: " .. vim.bo[new].filetype)
end
-- Reopened under its new language, the server reads it as a vault (its one problem: no DEPTH,
-- DC0207), not as a level full of NetHack syntax errors.
local function read_as_a_vault()
  local diagnostics = vim.diagnostic.get(new)
  return #diagnostics == 1 and diagnostics[1].code == "DC0207"
end
if not vim.wait(10000, read_as_a_vault) then
  fail("the server still reads new.des as a level: " .. vim.inspect(vim.diagnostic.get(new)))
end
passed = passed + 1

-- The vault's features: hover on a header, header completion, and map glyph tokens that the
-- plugin colours.
local vault_client = vim.lsp.get_clients({ bufnr = new, name = "levkit" })[1]
local uri = vim.uri_from_bufnr(new)
local hover = vault_client:request_sync("textDocument/hover", {
  textDocument = { uri = uri },
  position = { line = 0, character = 1 },
}, 5000, new)
local hover_text = hover and hover.result and hover.result.contents.value or ""
if not hover_text:find("Starts a vault and names it", 1, true) then
  fail("no hover on NAME: " .. vim.inspect(hover))
end
vim.api.nvim_buf_set_lines(new, 1, 1, false, { "DEP" })
local completion = vault_client:request_sync("textDocument/completion", {
  textDocument = { uri = uri },
  position = { line = 1, character = 3 },
}, 5000, new)
local labels = {}
for _, item in ipairs(completion and completion.result and (completion.result.items or completion.result) or {}) do
  labels[item.label] = true
end
if not labels["DEPTH"] then
  fail("DEP does not complete to DEPTH: " .. vim.inspect(labels))
end
for _, kind in ipairs(vault_client.server_capabilities.semanticTokensProvider.legend.tokenTypes) do
  if kind:sub(1, 3) == "map" and vim.tbl_isempty(vim.api.nvim_get_hl(0, { name = "@lsp.type." .. kind })) then
    fail("the map token type " .. kind .. " has no highlight")
  end
end
passed = passed + 1
-- RLG327 cards: a half-typed field keeps the last whole cards, out of date, under the error.
vim.fn.writefile(vim.fn.readfile(root .. "/test-data/rlg327/preview/two_monsters_monster_desc.txt"), scratch .. "/monster_desc.txt")
vim.cmd("edit " .. scratch .. "/monster_desc.txt")
local monsters = vim.api.nvim_get_current_buf()
wait_attached(monsters, "monster_desc.txt")
vim.cmd("LevkitPreview")
local cards_preview = require("levkit").preview_buffers[monsters]
local function cards_text()
  return table.concat(vim.api.nvim_buf_get_lines(cards_preview, 0, -1, false), "\n")
end
if not vim.wait(10000, function() return cards_text():find("r Sample Rat", 1, true) ~= nil end) then
  fail("the cards are not shown: " .. cards_text())
end
for i, line in ipairs(vim.api.nvim_buf_get_lines(monsters, 0, -1, false)) do
  if line == "DAM 0+1d3" then
    vim.api.nvim_buf_set_lines(monsters, i - 1, i, false, { "DAM 0+1d" })
    break
  end
end
if not vim.wait(10000, function() return cards_text():find("error at line 11", 1, true) ~= nil end) then
  fail("the cards' error is not shown: " .. cards_text())
end
if not (cards_text():find("out of date", 1, true) and cards_text():find("r Sample Rat", 1, true)) then
  fail("the last whole cards are not kept: " .. cards_text())
end
passed = passed + 1
print(string.format("neovim test: %d passed, 0 failed", passed))
vim.cmd("qall!")
