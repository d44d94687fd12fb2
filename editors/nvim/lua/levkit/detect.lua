-- The content-based fallback for a file's dialect, used by ftdetect until the server answers
-- `levkit/dialect`. It is `Dialect::detect` (crates/syntax/src/dialect.rs) over the same rules,
-- generated into `levkit.dialects`; test/run.lua checks that it agrees with the Rust detector
-- on every case of test-data/dialects/detection-cases.json. Rust's idea of a line, of
-- whitespace and of a path is spelled out below, because Lua's patterns differ.
local data = require("levkit.dialects")
local rules = data.detection

local M = {}

-- Rust's `char::is_whitespace` (Unicode White_Space) beyond ASCII, as UTF-8.
local wide_spaces = { "\194\133", "\194\160", "\225\154\128", "\226\128\168", "\226\128\169", "\226\128\175",
  "\226\129\159", "\227\128\128" }
for last = 128, 138 do -- U+2000..U+200A
  table.insert(wide_spaces, "\226\128" .. string.char(last))
end

--- The length in bytes of the whitespace character at byte `i` of `s`, or nil.
local function space_at(s, i)
  local byte = s:byte(i)
  if byte == nil then
    return nil
  end
  if byte == 32 or (byte >= 9 and byte <= 13) then
    return 1
  end
  for _, space in ipairs(wide_spaces) do
    if s:sub(i, i + #space - 1) == space then
      return #space
    end
  end
  return nil
end

local function trim_start(s)
  local i = 1
  while true do
    local n = space_at(s, i)
    if not n then
      return s:sub(i)
    end
    i = i + n
  end
end

local function trim_end(s)
  while #s > 0 do
    local byte = s:byte(#s)
    if byte == 32 or (byte >= 9 and byte <= 13) then
      s = s:sub(1, -2)
    else
      local found = false
      for _, space in ipairs(wide_spaces) do
        if #s >= #space and s:sub(-#space) == space then
          s = s:sub(1, -#space - 1)
          found = true
          break
        end
      end
      if not found then
        return s
      end
    end
  end
  return s
end

local function trim(s)
  return trim_end(trim_start(s))
end

local function split_whitespace(s)
  local words, start, i = {}, 1, 1
  while i <= #s do
    local n = space_at(s, i)
    if n then
      if i > start then
        table.insert(words, s:sub(start, i - 1))
      end
      i = i + n
      start = i
    else
      i = i + 1
    end
  end
  if start <= #s then
    table.insert(words, s:sub(start))
  end
  return words
end

--- Rust's `str::lines`: split at `\n`, dropping one `\r` before it; no last empty line.
local function lines(text)
  local result, start = {}, 1
  while start <= #text do
    local newline = text:find("\n", start, true)
    if not newline then
      table.insert(result, text:sub(start))
      break
    end
    local line = text:sub(start, newline - 1)
    if line:sub(-1) == "\r" then
      line = line:sub(1, -2)
    end
    table.insert(result, line)
    start = newline + 1
  end
  return result
end

local function ascii_lower(s)
  return (s:gsub("[A-Z]", function(c)
    return string.char(c:byte() + 32)
  end))
end

--- `Path::file_name`: the last component (either separator, as on Windows).
local function file_name(path)
  local name = path:gsub("[\\/]+$", ""):match("[^\\/]*$")
  if name == "" or name == "." or name == ".." then
    return nil
  end
  return name
end

--- `Path::extension`: after the last dot of the file name, unless that dot starts it.
local function extension_of(path)
  local name = file_name(path)
  if not name then
    return nil
  end
  local dot = name:match(".*()%.")
  if not dot or dot == 1 then
    return nil
  end
  return name:sub(dot + 1)
end

local function has_extension(path, extensions)
  local extension = extension_of(path)
  if not extension then
    return false
  end
  for _, e in ipairs(extensions) do
    if ascii_lower(e) == ascii_lower(extension) then
      return true
    end
  end
  return false
end

local function lookup(pairs_list, matches)
  for _, pair in ipairs(pairs_list) do
    if matches(pair[1]) then
      return pair[2]
    end
  end
  return nil
end

--- RLG327 files: by their header (any course prefix), their first entry, or their name.
local function rlg327_kind(path, text)
  local first
  for _, line in ipairs(lines(text)) do
    local trimmed = trim(line)
    if trimmed ~= "" then
      first = trimmed
      break
    end
  end
  if not first then
    return nil
  end
  local words = split_whitespace(first)
  local function by_word(w)
    return lookup(rules.rlg327_kinds, function(kind)
      return kind == w
    end)
  end
  if #words >= 3 and words[3] == "DESCRIPTION" then
    return by_word(words[2])
  end
  if words[1] == "BEGIN" then
    return words[2] and by_word(words[2]) or nil
  end
  local name = file_name(path)
  return lookup(rules.rlg327_file_names, function(n)
    return n == name
  end)
end

--- `Dialect::detect`: the file's dialect name by its content, the name only breaking ties.
function M.dialect(path, text)
  if has_extension(path, rules.dungeon_extensions) then
    return "nethack-dungeon"
  end
  local rlg327 = rlg327_kind(path, text)
  if rlg327 then
    return rlg327
  end
  local all = lines(text)
  for n = 1, math.min(#all, rules.lines_scanned) do
    local line = all[n]:gsub("\r+$", "")
    local indented = true
    while indented and line ~= "" do
      indented = false
      for _, blank in ipairs(rules.indentation) do
        if line:sub(1, 1) == blank then
          line, indented = line:sub(2), true
          break
        end
      end
    end
    if line ~= "" and line:sub(1, 1) ~= "#" then
      local word = line:match("^[A-Za-z0-9_%-]*")
      local found = lookup(rules.opening_words, function(w)
        return ascii_lower(w) == ascii_lower(word)
      end)
      if found then
        return found
      end
      if trim_start(line:sub(#word + 1)):sub(1, 1) == ":" then
        found = lookup(rules.header_words, function(w)
          return w == word
        end)
        if found then
          return found
        end
      end
      found = lookup(rules.line_prefixes, function(prefix)
        return line:sub(1, #prefix) == prefix
      end)
      if found then
        return found
      end
    end
  end
  for _, line in ipairs(all) do
    if trim(line) ~= "" and line:sub(1, 1) ~= "#" then
      return "unknown"
    end
  end
  return has_extension(path, { rules.empty_file[1] }) and rules.empty_file[2] or "unknown"
end

local function info(dialect)
  for _, d in ipairs(data.dialects) do
    if d.name == dialect then
      return d
    end
  end
  return nil
end

--- The filetype (language id) of a dialect; nil for `unknown`.
function M.language_id(dialect)
  local d = info(dialect)
  return d and d.language_id
end

--- Whether a dialect's files usually have this path's extension: a `.txt` file is only
--- levkit's when an RLG327 dialect recognised it.
function M.uses_extension(dialect, path)
  local d = info(dialect)
  return d ~= nil and has_extension(path, d.extensions)
end

--- The filetype the content of a file gives it, when its dialect uses its extension.
function M.filetype(path, text)
  local dialect = M.dialect(path, text)
  if M.uses_extension(dialect, path) then
    return M.language_id(dialect)
  end
  return nil
end

return M
