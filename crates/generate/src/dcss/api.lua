-- levkit's model of the Lua API crawl 0.28 gives vault files, for previews. Written for
-- levkit: each function does, for a preview, what the crawl function of that name means.
-- Everything is built on the primitives in `__levkit` (Rust). What levkit does not model is
-- listed in `api.rs`; calling it leaves a note naming it. See docs/dcss-lua-api.md.

local L = __levkit
local G = _G
local rawget, rawset, type, tostring, tonumber = rawget, rawset, type, tostring, tonumber
local select, pairs, ipairs, error, setmetatable = select, pairs, ipairs, error, setmetatable
local floor = math.floor

---------------------------------------------------------------------------------------------
-- The sandbox's guards.

-- A stop (time, instructions) must not be swallowed by pcall.
local function guarded(protected)
  return function(...)
    local results = { protected(...) }
    local why = L.stopped()
    if why then error(why, 0) end
    return unpack(results)
  end
end
pcall = guarded(pcall)
xpcall = guarded(xpcall)

-- Lua patterns run in C, out of reach of the instruction count: refuse the ones whose
-- backtracking could take seconds (several repeats over a long subject).
local function pattern_cost(subject, pattern)
  if type(subject) ~= "string" or type(pattern) ~= "string" then return end
  local repeats = 0
  local i, n = 1, #pattern
  while i <= n do
    local c = pattern:sub(i, i)
    if c == "%" then
      i = i + 1
    elseif c == "*" or c == "-" or c == "+" or c == "?" then
      repeats = repeats + 1
    end
    i = i + 1
  end
  if repeats >= 2 and (#subject) ^ repeats > 1e9 then
    error("levkit's sandbox refuses this pattern: with " .. repeats ..
      " repetitions over " .. #subject .. " characters it could run for minutes", 2)
  end
end
for _, name in ipairs { "find", "match", "gmatch", "gsub" } do
  local original = string[name]
  string[name] = function(s, pattern, ...)
    pattern_cost(s, pattern)
    return original(s, pattern, ...)
  end
end

print = function(...)
  local parts = {}
  for i = 1, select("#", ...) do parts[#parts + 1] = tostring((select(i, ...))) end
  L.print(table.concat(parts, "\t"))
end

---------------------------------------------------------------------------------------------
-- Names crawl has that levkit does not model: calling one leaves a note.

local function unmodelled(name)
  local stub
  stub = setmetatable({}, {
    __call = function() L.unmodelled(name) return nil end,
    __index = function(_, key)
      if type(key) ~= "string" then return nil end
      return unmodelled(name .. "." .. key)
    end,
  })
  return stub
end

-- Filled by Rust from api.rs: every name crawl's API has that levkit leaves unmodelled.
__levkit_unmodelled = __levkit_unmodelled or {}

local function known_library(name)
  local lib = rawget(G, name)
  if lib == nil then
    lib = {}
    rawset(G, name, lib)
  end
  setmetatable(lib, {
    __index = function(_, key)
      if type(key) ~= "string" then return nil end
      local full = name .. "." .. key
      if __levkit_unmodelled[full] then return unmodelled(full) end
      return nil
    end,
  })
  return lib
end

-- A global read that finds nothing: another file's Lua may define it (crawl runs every file's
-- Lua in one state), else crawl has it and levkit does not model it, else it is nil as in
-- crawl.
setmetatable(G, {
  __index = function(_, key)
    if type(key) ~= "string" then return nil end
    if L.definitions(key) then
      local value = rawget(G, key)
      if value ~= nil then return value end
    end
    if __levkit_unmodelled[key] then return unmodelled(key) end
    return nil
  end,
})

---------------------------------------------------------------------------------------------
-- The map functions: what `.des` chunks call as `subst(...)` (crawl binds them to the map
-- being built), also reachable as `e.subst(...)` where `e` is the chunk's environment.

local MAP = {}
__levkit_map = MAP

local function text_args(name)
  return function(...)
    for i = 1, select("#", ...) do
      local v = select(i, ...)
      if type(v) == "table" then
        for _, x in ipairs(v) do L.header(name, tostring(x)) end
      elseif v ~= nil then
        L.header(name, tostring(v))
      end
    end
  end
end

for _, name in ipairs { "subst", "nsubst", "shuffle", "clear", "kfeat", "kmons", "kitem",
  "kmask", "mons", "item", "colour", "ftile", "rtile", "tile", "kprop", "fheight",
  "tags_remove", "marker", "depth", "place", "desc", "welcome", "lfloorcol", "lrockcol",
  "lfloortile", "lrocktile", "depth_weight", "depth_chance" } do
  MAP[name] = text_args(name)
end

function MAP.tags(...)
  if select("#", ...) == 0 then return L.facts().tags end
  text_args("tags")(...)
end

function MAP.orient(...)
  if select("#", ...) == 0 then return L.facts().orient end
  text_args("orient")(...)
end

-- CHANCE, WEIGHT and ORDER say how often crawl picks the vault: nothing to draw.
function MAP.chance() end
function MAP.weight() end
function MAP.order() end
MAP.default_depth = function() end

function MAP.name() return L.facts().name end

function MAP.has_tag(tag) return (" " .. L.facts().tags .. " "):find(" " .. tag .. " ", 1, true) ~= nil end

function MAP.map(...)
  local n = select("#", ...)
  if n == 0 then return L.rows() end
  for i = 1, n do
    local line = tostring((select(i, ...)))
    for row in (line .. "\n"):gmatch("([^\n]*)\n") do L.header("map", row) end
  end
end

function MAP.mapsize() return L.size() end
function MAP.width() return (L.size()) end
function MAP.height() local _, h = L.size() return h end

-- At placement crawl is not validating (its compile-time run is the validating one).
function MAP.is_validating() return false end

function MAP.is_subvault() return L.facts().subvault end
function MAP.subvault_size()
  local f = L.facts()
  return f.subvault_width, f.subvault_height
end

-- The map replaced by the subvault's space: `.` where the parent will take a cell, blank
-- elsewhere.
function MAP.default_subvault_glyphs()
  local f = L.facts()
  if not f.subvault then return end
  local rows = {}
  for y = 0, f.subvault_height - 1 do
    local row = {}
    for x = 0, f.subvault_width - 1 do
      row[#row + 1] = L.subvault_cell(x, y) and "." or " "
    end
    rows[#rows + 1] = table.concat(row)
  end
  L.set_rows(rows)
end

function MAP.subvault(...)
  for i = 1, select("#", ...) do L.subvault(tostring((select(i, ...)))) end
end

function MAP.lua_marker(key, _marker)
  L.marker(tostring(key), "Lua marker (acts during play)")
end

function MAP.set_feature_name(feature, name) L.set_feature_name(tostring(feature), tostring(name)) end

-- The level's random monster list (what `0` and random monsters draw from).
function MAP.set_random_mon_list(spec) L.header("set_random_mon_list", tostring(spec)) end

-- The fill crawl uses beyond an encompass map's edge: nothing inside the vault changes.
function MAP.set_border_fill_type() end

-- Glyph access: mapgrd[x][y], 0-based.
local column_meta = {
  __index = function(col, y) return L.glyph(rawget(col, "__x"), y) end,
  __newindex = function(col, y, glyph) L.set_glyph(rawget(col, "__x"), y, tostring(glyph)) end,
}
MAP.mapgrd = setmetatable({}, {
  __index = function(_, x) return setmetatable({ __x = x }, column_meta) end,
  __newindex = function() error("mapgrd[x] cannot be assigned; use mapgrd[x][y]", 2) end,
})

local function rows_table()
  local rows = L.rows()
  local w = L.size()
  local grid = {}
  for y, row in ipairs(rows) do
    local cells = {}
    for x = 1, w do
      local c = row:sub(x, x)
      cells[x] = (c == "") and " " or c
    end
    grid[y] = cells
  end
  return grid
end

local function store(grid)
  local rows = {}
  for y, cells in ipairs(grid) do rows[y] = table.concat(cells) end
  L.set_rows(rows)
end

-- extend_map{width=, height=, fill=}: the map grown to at least that size.
function MAP.extend_map(args)
  local w, h = L.size()
  local width, height = math.max(w, args.width or w), math.max(h, args.height or h)
  local fill = args.fill or "x"
  local grid = rows_table()
  for y = 1, height do
    grid[y] = grid[y] or {}
    for x = 1, width do
      if grid[y][x] == nil then grid[y][x] = fill end
    end
  end
  store(grid)
end

local function clamp_box(a)
  local w, h = L.size()
  local x1 = math.max(0, a.x1 or 0)
  local y1 = math.max(0, a.y1 or 0)
  local x2 = math.min(w - 1, a.x2 or (w - 1))
  local y2 = math.min(h - 1, a.y2 or (h - 1))
  return x1, y1, x2, y2
end

-- fill_area{x1=, y1=, x2=, y2=, fill=, border=}: a rectangle filled (its edge with `border`
-- when given).
function MAP.fill_area(a)
  local x1, y1, x2, y2 = clamp_box(a)
  for y = y1, y2 do
    for x = x1, x2 do
      local edge = x == x1 or x == x2 or y == y1 or y == y2
      local glyph = (edge and a.border) or a.fill
      if glyph then L.set_glyph(x, y, glyph) end
    end
  end
end

-- replace_area{x1=, y1=, x2=, y2=, find=, replace=}: inside the rectangle, `find` becomes
-- `replace`.
function MAP.replace_area(a)
  local x1, y1, x2, y2 = clamp_box(a)
  for y = y1, y2 do
    for x = x1, x2 do
      local g = L.glyph(x, y)
      if g and a.find:find(g, 1, true) then L.set_glyph(x, y, a.replace) end
    end
  end
end

-- find_in_area{x1=, y1=, x2=, y2=, find=}: whether a glyph of `find` is in the rectangle.
function MAP.find_in_area(a)
  local x1, y1, x2, y2 = clamp_box(a)
  for y = y1, y2 do
    for x = x1, x2 do
      local g = L.glyph(x, y)
      if g and a.find:find(g, 1, true) then return true end
    end
  end
  return false
end

-- replace_random{find=, replace=, x1=...}: one random cell holding `find` (in the rectangle,
-- if given) becomes `replace`.
function MAP.replace_random(a)
  local x1, y1, x2, y2 = clamp_box(a)
  local found = {}
  for y = y1, y2 do
    for x = x1, x2 do
      local g = L.glyph(x, y)
      if g and a.find:find(g, 1, true) then found[#found + 1] = { x, y } end
    end
  end
  if #found == 0 then return false end
  local p = found[crawl.random2(#found) + 1]
  L.set_glyph(p[1], p[2], a.replace)
  return true
end

-- gly_point(glyph): the first cell holding it (x, y, 0-based); gly_points: all of them.
function MAP.gly_points(glyph)
  local out = {}
  local w, h = L.size()
  for y = 0, h - 1 do
    for x = 0, w - 1 do
      if L.glyph(x, y) == glyph then out[#out + 1] = dgn.point(x, y) end
    end
  end
  return out
end
function MAP.gly_point(glyph)
  local p = MAP.gly_points(glyph)[1]
  if p then return p.x, p.y end
end

-- Which map glyphs a walker crosses, for the connectivity tests vaults make in `validate`.
local solid = "xXcvbmnotGIwl "
local function walkable(g) return g ~= nil and not solid:find(g, 1, true) end

local function reach_from(starts)
  local w, h = L.size()
  local seen, queue = {}, {}
  for _, p in ipairs(starts) do
    local key = p[2] * w + p[1]
    if not seen[key] then seen[key] = true; queue[#queue + 1] = p end
  end
  local i = 1
  while i <= #queue do
    local x, y = queue[i][1], queue[i][2]
    i = i + 1
    for dy = -1, 1 do
      for dx = -1, 1 do
        local nx, ny = x + dx, y + dy
        if nx >= 0 and ny >= 0 and nx < w and ny < h then
          local key = ny * w + nx
          if not seen[key] and walkable(L.glyph(nx, ny)) then
            seen[key] = true
            queue[#queue + 1] = { nx, ny }
          end
        end
      end
    end
  end
  return seen, w
end

local function cells_of(glyph)
  local out = {}
  local w, h = L.size()
  for y = 0, h - 1 do
    for x = 0, w - 1 do
      if L.glyph(x, y) == glyph then out[#out + 1] = { x, y } end
    end
  end
  return out
end

-- glyphs_connected(a, b, ...): whether a walker can go between cells of every glyph given.
function MAP.glyphs_connected(...)
  local glyphs = { ... }
  if #glyphs < 2 then return true end
  local start = cells_of(glyphs[1])
  if #start == 0 then return false end
  local seen, w = reach_from({ start[1] })
  for i = 2, #glyphs do
    local any = false
    for _, p in ipairs(cells_of(glyphs[i])) do
      if seen[p[2] * w + p[1]] then any = true end
    end
    if not any then return false end
  end
  return true
end
MAP.orig_glyphs_connected = MAP.glyphs_connected

-- has_exit_from_glyph(g): whether a walker from a cell of `g` reaches the map's edge.
function MAP.has_exit_from_glyph(glyph)
  local start = cells_of(glyph)
  if #start == 0 then return false end
  local seen, w = reach_from(start)
  local _, h = L.size()
  for key in pairs(seen) do
    local x, y = key % w, floor(key / w)
    if x == 0 or y == 0 or x == w - 1 or y == h - 1 then return true end
  end
  return false
end

-- Hooks: functions a vault asks crawl to call at a step of its placement, kept with the
-- environment of the run that asked.
local running = {}
function MAP.hook(when, fn)
  local env = running[#running]
  if env then
    local hooks = rawget(env, "__hooks")
    hooks[#hooks + 1] = { when = when, fn = fn }
  end
end

---------------------------------------------------------------------------------------------
-- crawl: randomness and messages.

crawl = known_library("crawl")
local function rnd(what) return function(a, b) return L.random(what, a, b) end end
crawl.random2 = rnd("random2")
crawl.random_range = rnd("range")
crawl.coinflip = rnd("coinflip")
crawl.one_chance_in = rnd("one_chance_in")
crawl.x_chance_in_y = rnd("x_chance_in_y")
crawl.random_real = rnd("real")
crawl.roll_dice = function(a, b)
  if b == nil then return L.random("roll_dice", 1, a) end
  return L.random("roll_dice", a, b)
end
crawl.random2avg = rnd("random2avg")
crawl.div_rand_round = rnd("div_rand_round")
-- A random element of a list, or a key of a table weighted by its values.
function crawl.random_element(t)
  local total, pick = 0, nil
  for k, w in pairs(t) do
    if type(w) == "number" and w > 0 then
      total = total + w
      if L.random("random2", total) < w then pick = k end
    end
  end
  return pick
end
function crawl.rng_wrap(fn, ...) return fn(...) end

-- Lua's own random numbers come from the preview's seed too.
math.random = function(a, b)
  if a == nil then return L.random("real") end
  if b == nil then return L.random("range", 1, a) end
  return L.random("range", a, b)
end
math.randomseed = function() end

-- Messages, notes and milestones happen during play.
for _, name in ipairs { "mpr", "dpr", "more", "clear_messages", "god_speaks", "take_note",
  "mark_milestone", "tutorial_msg", "tutorial_hint", "redraw_view", "set_max_runes",
  "mark_game_won", "formatted_mpr", "mesclr", "flush_prev_message" } do
  crawl[name] = function() end
end
-- Levels are built while a game runs.
function crawl.game_started() return true end
function crawl.unavailable_god() return false end
function crawl.make_name() return "Kexa" end
function crawl.split_bytes(s)
  local out = {}
  for i = 1, #s do out[i] = s:byte(i) end
  return out
end

---------------------------------------------------------------------------------------------
-- you: the player's situation, as the preview sets it.

you = known_library("you")
local function facts() return L.facts() end
function you.branch() return facts().branch end
function you.depth() return facts().depth end
function you.absdepth() return facts().absdepth end
function you.depth_fraction()
  local f = facts()
  return f.depth / math.max(1, f.branch_depth)
end
function you.at_branch_bottom()
  local f = facts()
  return f.depth >= f.branch_depth
end
function you.in_branch(name)
  return tostring(name):lower() == facts().branch:lower()
end
function you.where() return facts().place end
function you.god() return facts().god end
function you.race() return facts().species end
function you.name() return "Adventurer" end
-- A fresh game: no uniques met, no runes, no orb, no unrandarts found.
function you.uniques() return false end
function you.unrands() return false end
function you.have_rune() return false end
function you.num_runes() return 0 end
function you.have_orb() return false end
function you.turns() return 0 end
function you.base_skill() return 0 end
function you.mutation() return 0 end
function you.piety_rank() return 0 end
function you.silenced() return false end
function you.see_cell() return false end
function you.is_level_on_stack() return false end
function you.pos() return 0, 0 end
function you.teleport_to() end
function you.monster() return nil end

---------------------------------------------------------------------------------------------
-- dgn: the level builder.

dgn = known_library("dgn")
dgn.GXM, dgn.GYM = 80, 70
function dgn.max_bounds() return dgn.GXM, dgn.GYM end
function dgn.builder_bounds() return 1, 1, dgn.GXM - 2, dgn.GYM - 2 end
function dgn.point(x, y) return { x = x, y = y } end
function dgn.point_in_radius(a, b, r)
  return math.abs(a.x - b.x) <= r and math.abs(a.y - b.y) <= r
end

function dgn.br_depth(branch) return L.branch_depth(tostring(branch)) end
function dgn.br_exists() return true end
function dgn.level_name() return facts().place end

-- Item lists crawl keeps for loot: any item of the class, as far as a picture tells.
dgn.loot_potions = "any potion"
dgn.loot_scrolls = "any scroll"
dgn.good_scrolls = "any scroll"
dgn.aux_armour = "any armour"
dgn.good_aux_armour = "any armour good_item"
dgn.randart_aux_armour = "any armour randart"

-- An item that starts decaying when the player sees it: for a picture, the item.
function dgn.delayed_decay_extra(e, key, itemdesc, more)
  local def = itemdesc
  if more then def = def .. ", " .. more end
  e.kitem(key .. " = " .. def)
end
function dgn.delayed_decay(e, key, itemdesc) dgn.delayed_decay_extra(e, key, itemdesc, nil) end

function dgn.set_random_mon_list(...)
  -- dgn.set_random_mon_list(spec) or dgn.set_random_mon_list(e, spec)
  local spec = select(select("#", ...), ...)
  L.header("set_random_mon_list", tostring(spec))
end

-- Play-time bookkeeping: nothing to draw.
for _, name in ipairs { "terrain_changed", "tile_feat_changed", "fprop_changed",
  "seen_destroy_feat", "reset_feature_name_for", "set_branch_epilogue",
  -- The level's colours and tiles, like the LFLOORCOL and LROCKTILE headers.
  "change_floor_tile", "change_rock_tile" } do
  dgn[name] = function() end
end

-- The level's floor colour: remembered for get_floor_colour, not drawn.
local floor_colour = "lightgrey"
function dgn.change_floor_colour(colour) floor_colour = tostring(colour) end
function dgn.get_floor_colour() return floor_colour end

function dgn.random_entry_arg(entries, arg, separator)
  local entry = util.random_from(entries)
  if arg and arg ~= "" then entry = entry .. " " .. arg end
  return entry
end

-- A weapon or item definition drawn from a table of names with weights.
function dgn.random_item_def(items, egos, args, separator)
  local name
  if #items > 0 then name = util.random_from(items) else name = crawl.random_element(items) end
  local def = tostring(name)
  if type(egos) == "string" then
    def = def .. " ego:" .. egos
  elseif type(egos) == "table" then
    local e = (#egos > 0) and util.random_from(egos) or crawl.random_element(egos)
    if e then def = def .. " ego:" .. e end
  end
  if args and args ~= "" then def = def .. " " .. args end
  return def
end

function dgn.monster_weapon(class, egos, args)
  return dgn.random_item_def({ "long sword", "war axe", "morningstar", "halberd" }, egos, args, "|")
end

function dgn.wizlab_chance_percent() return 0 end
function dgn.desolation_chance_percent() return 0 end

dgn.persist = {}

---------------------------------------------------------------------------------------------
-- util: table and random helpers.

util = known_library("util")
function util.random_from(list)
  if #list == 0 then return nil end
  return list[crawl.random2(#list) + 1]
end
function util.random_range_real(lower, upper) return lower + crawl.random_real() * (upper - lower) end
function util.contains(haystack, needle)
  for _, v in ipairs(haystack) do if v == needle then return true end end
  return false
end
function util.join(sep, list)
  local parts = {}
  for i, v in ipairs(list) do parts[i] = tostring(v) end
  return table.concat(parts, sep)
end
function util.keys(t)
  local out = {}
  for k in pairs(t) do out[#out + 1] = k end
  table.sort(out, function(a, b) return tostring(a) < tostring(b) end)
  return out
end
function util.values(t)
  local out = {}
  for _, k in ipairs(util.keys(t)) do out[#out + 1] = t[k] end
  return out
end
function util.sort(t, f) table.sort(t, f) return t end
function util.copy_table(t)
  if type(t) ~= "table" then return t end
  local out = {}
  for k, v in pairs(t) do out[k] = util.copy_table(v) end
  return setmetatable(out, getmetatable(t))
end
function util.set(list)
  local out = {}
  for _, v in ipairs(list) do out[v] = true end
  return out
end
function util.append(first, ...)
  for i = 1, select("#", ...) do
    for _, v in ipairs((select(i, ...))) do first[#first + 1] = v end
  end
  return first
end
function util.catlist(...) return util.append({}, ...) end
function util.map(fn, list)
  local out = {}
  for i, v in ipairs(list) do out[i] = fn(v) end
  return out
end
function util.filter(fn, list)
  local out = {}
  for _, v in ipairs(list) do if fn(v) then out[#out + 1] = v end end
  return out
end
function util.foreach(list, fn) for _, v in ipairs(list) do fn(v) end end
function util.exists(list, pred) for _, v in ipairs(list) do if pred(v) then return true end end return false end
function util.forall(list, pred) for _, v in ipairs(list) do if not pred(v) then return false end end return true end
function util.indexof(list, item) for i, v in ipairs(list) do if v == item then return i end end return -1 end
function util.remove(list, item)
  local i = util.indexof(list, item)
  if i > 0 then table.remove(list, i) end
end
function util.range(a, b)
  local out = {}
  for i = a, b do out[#out + 1] = i end
  return out
end
function util.trim(s) return (tostring(s):gsub("^%s+", ""):gsub("%s+$", "")) end
function util.identity(x) return x end

-- A weight of an entry: a function of it, a field of it, or its `weight` field (10).
local function weight_of(weight, entry)
  local w
  if type(weight) == "function" then w = weight(entry)
  elseif type(weight) == "string" then w = entry[weight]
  else w = entry.weight end
  return tonumber(w) or 10
end

function util.random_weighted_from(weight, list)
  local total, pick = 0, nil
  for _, entry in ipairs(list) do
    local w = weight_of(weight, entry)
    if w > 0 then
      total = total + w
      if crawl.random2(total) < w then pick = entry end
    end
  end
  return pick
end

-- util.random_choose_weighted{ {item, weight}, ... } or { key = weight, ... }: the item.
function util.random_choose_weighted_i(list)
  local total, pick = 0, nil
  for i, entry in ipairs(list) do
    local w = tonumber(entry[2]) or 0
    if w > 0 then
      total = total + w
      if crawl.random2(total) < w then pick = i end
    end
  end
  return pick
end
function util.random_choose_weighted(list)
  if #list > 0 then
    local i = util.random_choose_weighted_i(list)
    return i and list[i][1]
  end
  return crawl.random_element(list)
end

-- n distinct elements of a list, in a random order.
function util.random_subset(set, n)
  local copy = {}
  for i, v in ipairs(set) do copy[i] = v end
  local out = {}
  for _ = 1, math.min(n, #copy) do
    local i = crawl.random2(#copy) + 1
    out[#out + 1] = table.remove(copy, i)
  end
  return out
end

---------------------------------------------------------------------------------------------
-- iter: loops over cells.

iter = known_library("iter")
-- The cells of the subvault's space the parent will take, as points.
function iter.subvault_iterator(e)
  local f = L.facts()
  local points = {}
  if f.subvault then
    for y = 0, f.subvault_height - 1 do
      for x = 0, f.subvault_width - 1 do
        if L.subvault_cell(x, y) then points[#points + 1] = dgn.point(x, y) end
      end
    end
  end
  local i = 0
  return function()
    i = i + 1
    return points[i]
  end
end
function iter.rect_iterator(top_left, bottom_right, filter)
  local points = {}
  for x = top_left.x, bottom_right.x do
    for y = top_left.y, bottom_right.y do
      local p = dgn.point(x, y)
      if not filter or filter(p) then points[#points + 1] = p end
    end
  end
  local i = 0
  return function()
    i = i + 1
    return points[i]
  end
end

---------------------------------------------------------------------------------------------
-- Markers: objects crawl keeps on cells to act during play (fog machines, timed messages,
-- door locks, transporters...). A picture has nothing to draw for them.

local function marker_maker() return function(...) return { levkit_marker = true } end end
for _, name in ipairs { "fog_machine", "chained_fog_machine", "props_marker", "timed_marker",
  "timed_msg", "restrict_door", "lock_door", "one_way_stair", "portal_desc", "transp_loc",
  "transp_dest_loc", "monster_on_death", "message_at_spot", "function_at_spot", "trove_marker",
  "tw_machine", "warning_machine", "trigger_machine", "acq_on_sight", "hatch_name",
  "hatch_dest_name", "function_in_los", "portal_vault", "portal_next" } do
  rawset(G, name, marker_maker())
end
Triggerable = known_library("Triggerable")
function Triggerable.synchronized_markers(...) return ... end

-- Helper files a `.des` file asks for: levkit's model of them is always loaded.
function crawl_require() end

---------------------------------------------------------------------------------------------
-- Vault helpers crawl's own Lua files give vaults, modelled in levkit's words.

-- How many of the five Pandemonium runes the player has (none, in a fresh game).
function count_pan_runes() return 0 end

-- Walls of `glyphs` chosen by depth: rock mostly, stone more often deeper, crystal late.
function init_hm_decor_walldepth(e, glyphs)
  local stone = you.absdepth() * 5
  local spec = glyphs .. " : x:50 c:" .. stone
  if stone > 75 then spec = spec .. " b:" .. (stone - 75) end
  e.subst(spec)
end

-- The Serpent of Hell appears in one of the four Hells: a one in four chance here, in a
-- fresh game where no Hell has been finished.
function serpent_of_hell_setup(e)
  if not you.uniques("the Serpent of Hell") and crawl.one_chance_in(4) then
    e.kmons("D = the Serpent of Hell")
  end
end

-- Door vaults: depth loot (hatches in the Hells), runed doors on `a`.
function door_vault_setup(e)
  local hell = false
  for _, b in ipairs { "Geh", "Tar", "Coc", "Dis" } do
    if you.in_branch(b) then hell = true end
  end
  if hell then
    e.kfeat("23 = >")
  else
    e.kitem("1 = * / nothing")
    e.kitem("23 = | / nothing")
  end
  e.kfeat("a = runed_door")
end

-- A wizard named master elementalist with elemental spells on `glyph`.
function master_elementalist_setup(e, glyph)
  e.kmons(glyph .. " = wizard hd:18 name:master_elementalist n_rpl n_des n_noc")
end

-- Two dancing weapons of two different rare types and two different brands.
function hall_of_blades_weapon(e)
  local types = { "quick blade", crawl.coinflip() and "double sword" or "triple sword",
    "executioner's axe", "eveningstar", "bardiche", "lajatang" }
  local brands = { "flaming", "freezing", "electrocution", "venom", "holy_wrath", "pain",
    "vampirism", "draining", "antimagic", "distortion" }
  local picks = util.random_subset(types, 2)
  local egos = util.random_subset(brands, 2)
  for i = 1, 2 do
    e.mons("dancing weapon; good_item " .. picks[i] .. " ego:" .. egos[i])
  end
end

---------------------------------------------------------------------------------------------
-- Each run's environment, and its hooks.

local env_meta = {
  __index = function(_, key)
    local v = MAP[key]
    if v ~= nil then return v end
    return G[key]
  end,
}

-- A fresh environment; `dgn.persist` starts empty, as in a new game.
function __levkit_environment()
  local env = setmetatable({ __hooks = {} }, env_meta)
  env._G = env
  if #running == 0 then dgn.persist = {} end
  return env
end

-- While a chunk of a run runs, hooks it asks for belong to its environment.
function __levkit_enter(env) running[#running + 1] = env end
function __levkit_leave() running[#running] = nil end

function __levkit_run_hooks(env, when)
  local aliases = { main = "post_main", place = "post_place", epilogue = "post_epilogue" }
  for _, hook in ipairs(rawget(env, "__hooks")) do
    if (aliases[hook.when] or hook.when) == when then hook.fn() end
  end
end
