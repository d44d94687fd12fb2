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

-- is_valid_coord{x=, y=}: whether the cell lies on the map.
function MAP.is_valid_coord(p)
  local w, h = L.size()
  local x, y = tonumber(p and p.x) or -1, tonumber(p and p.y) or -1
  return x >= 0 and y >= 0 and x < w and y < h
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

-- dgn.map_by_tag(tag, check_depth): a vault crawl's search by tag would pick here (check_depth
-- defaults to true), as an opaque map, or nil when none would do. Vaults ask it to learn
-- whether such a vault can exist on this level.
function dgn.map_by_tag(tag, check_depth)
  local name = L.map_by_tag(tostring(tag), check_depth ~= false)
  if name then return { levkit_map = name } end
  return nil
end

-- dgn.map_parameters(): what the placements that led to this vault passed it, outermost
-- first. crawl passes the tag it searched for when it places a vault by tag: a main Temple
-- map gets `temple_altars_N` for the number of altars it was given (one of its own
-- `temple_altars_` sizes), an overflow temple the tags it was found by, a shop vault `shop`,
-- a layout `layout`, a vault placed by the Shoals' and Pandemonium's maps the tag they asked
-- for (after the empty parameter of the branch's own map). A vault crawl places at random gets
-- none. levkit previews each vault as the placement its tags name.
local placed_by_tag = {
  { prefix = "shoal_", outer = { "" } },
  { prefix = "pan_fixed_" },
  { exact = "shop" },
  { exact = "layout" },
}
function dgn.map_parameters()
  local tags = {}
  for tag in L.facts().tags:gmatch("%S+") do tags[#tags + 1] = tag end
  local sizes, numbered, gods, generic = {}, nil, {}, nil
  for _, tag in ipairs(tags) do
    if tag:match("^temple_altars_%d+$") then sizes[#sizes + 1] = tag
    elseif tag:match("^temple_overflow_generic_%d+$") then generic = generic or tag
    elseif tag:match("^temple_overflow_%d+$") then numbered = numbered or tag
    elseif tag:find("temple_overflow_", 1, true) == 1 then gods[#gods + 1] = tag end
  end
  if #sizes > 0 then return { util.random_from(sizes) } end
  if numbered and #gods > 0 then return { numbered .. " " .. table.concat(gods, " ") } end
  if generic then return { generic } end
  for _, rule in ipairs(placed_by_tag) do
    for _, tag in ipairs(tags) do
      if tag == rule.exact or (rule.prefix and tag:find(rule.prefix, 1, true) == 1) then
        local out = {}
        for _, p in ipairs(rule.outer or {}) do out[#out + 1] = p end
        out[#out + 1] = tag
        return out
      end
    end
  end
  return {}
end

-- dgn.random_entry_arg(entries, arg, separator): a spec of alternatives (split by `/`
-- unless another separator is given) with `arg` added to every alternative.
function dgn.random_entry_arg(entries, arg, separator)
  separator = separator or "/"
  local parts, start = {}, 1
  local text = tostring(entries)
  while true do
    local at = text:find(separator, start, true)
    parts[#parts + 1] = text:sub(start, at and at - 1 or #text) .. " " .. arg .. " "
    if not at then break end
    start = at + #separator
  end
  return util.trim(table.concat(parts, separator))
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

-- The share of levels (in percent) that try the wizard's laboratory and desolation portals:
-- numbers crawl's dungeon library sets, which those vaults turn into their CHANCE.
dgn.wizlab_chance_percent = 5
dgn.desolation_chance_percent = 5

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
-- Marker classes of crawl's marker library: a vault makes an object with `Class:new{...}`
-- (a trigger with `DgnTriggerer:new`, then `marker:add_triggerer(trigger)`) and hands it to
-- lua_marker. They act during play: every method keeps nothing and answers the object.
local marker_object_meta = {
  __index = function(_, key)
    if type(key) ~= "string" then return nil end
    return function(self) return self end
  end,
}
local function marker_class(name)
  local class = { levkit_marker_class = name }
  function class.new(_, fields)
    local object = {}
    if type(fields) == "table" then for k, v in pairs(fields) do object[k] = v end end
    object.levkit_marker = true
    return setmetatable(object, marker_object_meta)
  end
  return class
end
for _, name in ipairs { "Triggerable", "TriggerableFunction", "TriggerableMessage",
  "DgnTriggerer", "MonPropsMarker", "MonsterOnTrigger", "FogMachine", "RestrictDoor",
  "LockDoor", "PortalDescriptor", "HatchName", "HatchDestinationName", "TimedMarker",
  "TimedMessaging", "TollStair", "Transporter", "TransporterDestination", "TroveMarker" } do
  rawset(G, name, marker_class(name))
end
function Triggerable.synchronized_markers(...) return ... end
for _, name in ipairs { "time_messages", "timer_interval_messages", "fog_machine_brownian",
  "fog_machine_geyser", "fog_machine_spread", "toll_stair" } do
  rawset(G, name, marker_maker())
end

-- The table crawl's dungeon library makes for the functions markers call back during play;
-- vault files add theirs to it (`function callback.name(...)`).
callback = {}

-- Colours that change during play (`colour.add_colour("disco", f)`): nothing to draw now.
colour = known_library("colour")
function colour.add_colour() end

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
-- Ghost vaults: what crawl's ghost helpers do to a vault (tags, chance, loot by depth, the
-- monsters of a few of them).

-- Every ghost vault carries the player-ghost tags. A vault also meant for the Vaults branch
-- takes `vaults_ghost` (and, placed there, its `c` walls become rock); unless told not to, the
-- vault is tried on one ghost-allowing level in ten outside the Vaults branch.
function ghost_setup(e, vaults_setup, set_chance)
  e.tags("luniq_player_ghost no_tele_into no_trap_gen no_monster_gen")
  if vaults_setup then
    e.tags("vaults_ghost")
    if you.in_branch("Vaults") then e.subst("c = x") end
  end
  if set_chance ~= false then
    e.tags("chance_player_ghost")
    e.depth_chance("Vaults", 0)
    e.chance(1000) -- 10%, in crawl's units of 1/10000
  end
end

-- What the extra loot glyphs `d` and `e` of a lone ghost vault may become, by place (`none`
-- stands for the vault's glyph of no item).
local function lone_ghost_extra_choices(none)
  if you.in_branch("D") then
    local depth, absdepth = you.depth(), you.absdepth()
    if depth < 6 then return none, none end
    if depth < 9 then return "%$" .. none .. none, none end
    if absdepth < 12 then return "%$", none end
    if absdepth < 14 then return "|*", "%$" end
    return "|*", "*$"
  end
  if you.in_branch("Lair") then return "*%", "%$" .. none .. none end
  if you.in_branch("Orc") then return "|*", "%$" end
  return "|*", "|*"
end

function lone_ghost_extra_loot(e, none_glyph)
  local d, extra = lone_ghost_extra_choices(none_glyph)
  e.subst("d = " .. d)
  e.subst("e = " .. extra)
end

-- The item the ghost stands on: better from D:6, better still from D:9 and off the Dungeon.
function lone_ghost_guarded_loot(e, ghost_glyph)
  local def = "superb_item / star_item"
  if you.in_branch("D") and you.depth() < 6 then
    def = "star_item / any"
  elseif you.in_branch("D") and you.depth() < 9 then
    def = "star_item"
  end
  e.kitem(ghost_glyph .. " = " .. def)
end

-- Two item slots (`d` and `e`, or KITEMs on the two glyphs given) that improve with the
-- place: a first item from a weighted mix of loot classes from D:9 (sometimes) or off the
-- Dungeon, a second one of potions or scrolls deeper; a slot not upgraded holds a star or
-- superb item.
function ghost_good_loot(e, kglyphs)
  local function slot(i)
    if kglyphs == nil then return e.item end
    return function(def) e.kitem(kglyphs:sub(i, i) .. " = " .. def) end
  end
  local quality = "" -- "", "good" or "randart": what the armour and jewellery are
  local first, second = true, false
  if you.in_branch("D") then
    local depth = you.depth()
    if depth < 9 then
      first = false
    elseif depth < 12 then
      first = not crawl.coinflip()
    elseif depth < 14 then
      if crawl.coinflip() then quality = "good" end
      second = crawl.one_chance_in(3)
    else
      quality = crawl.one_chance_in(4) and "randart" or "good"
      second = crawl.coinflip()
    end
  elseif you.in_branch("Lair") then
    if crawl.one_chance_in(3) then quality = "good" end
    second = crawl.one_chance_in(4)
  elseif you.in_branch("Orc") then
    if crawl.coinflip() then quality = "good" end
    second = crawl.one_chance_in(3)
  elseif you.in_branch("Shoals") or you.in_branch("Snake") or you.in_branch("Spider")
    or you.in_branch("Swamp") then
    quality = crawl.one_chance_in(3) and "randart" or "good"
    second = true
  elseif you.in_branch("Vaults") or you.in_branch("Elf") then
    quality = crawl.coinflip() and "randart" or "good"
    second = true
  else
    quality = "randart"
    second = true
  end
  local armour = ({ [""] = dgn.aux_armour, good = dgn.good_aux_armour,
    randart = dgn.randart_aux_armour })[quality]
  local jewellery = ({ [""] = "any jewellery", good = "any jewellery good_item",
    randart = "any jewellery randart" })[quality]
  local plain = "superb_item / star_item"
  if first then
    local pick = util.random_weighted_from("weight", {
      { def = dgn.loot_scrolls, weight = 20 }, { def = dgn.loot_potions, weight = 20 },
      { def = armour, weight = 10 }, { def = jewellery, weight = 10 },
      { def = "any manual", weight = 5 } })
    slot(1)(pick.def)
  else
    slot(1)(plain)
  end
  if second then
    slot(2)(crawl.coinflip() and dgn.loot_scrolls or dgn.loot_potions)
  else
    slot(2)(plain)
  end
end

-- Gozag's ghost vault: gold piles on `'`, more of them deeper (a mean of 3 on D:1 rising to
-- 15, give or take 3), the other `'` cells floor.
function setup_gozag_gold(e)
  local depth = you.absdepth()
  if you.in_branch("D") then
    depth = you.depth()
  elseif you.in_branch("Orc") then
    depth = 11 + you.depth()
  end
  local mean = math.min(15, floor(0.75 * depth + 3.75))
  e.nsubst("' = " .. crawl.random_range(mean - 3, mean + 3) .. "=$ / -")
end

-- Xom's ghost vault: a dancing weapon of chaos, its base type and quality by depth.
-- Weapons are grouped as common (weight 10), good (5) and great (1, or 3 from depth 14).
local xom_weapons = {
  { common = "dagger,short sword,rapier,falchion,long sword,whip,mace,hand axe,spear,trident",
    good = "scimitar,flail,war axe,quarterstaff" },
  { common = "rapier,long sword,scimitar,mace,flail,hand axe,war axe,trident,quarterstaff",
    good = "morningstar,dire flail,broad axe,halberd" },
  { common = "rapier,long sword,scimitar,flail,morningstar,dire flail,war axe,broad axe," ..
      "trident,halberd,scythe,quarterstaff",
    good = "great sword,great mace,battleaxe,glaive" },
  { common = "rapier,scimitar,great sword,morningstar,dire flail,great mace,war axe," ..
      "broad axe,battleaxe,halberd,scythe,glaive,quarterstaff" },
}
local great_weapons = "quick blade,demon blade,double sword,triple sword,demon whip," ..
  "eveningstar,executioner's axe,demon trident,bardiche,lajatang"

function setup_xom_dancing_weapon(e)
  local absdepth = you.absdepth()
  local tier, quality, variability
  if absdepth < 9 then
    tier = 1
    quality = crawl.one_chance_in(6) and "good_item" or ""
  elseif absdepth < 12 then
    tier = 2
    quality = crawl.one_chance_in(4) and "good_item" or ""
  elseif absdepth < 14 then
    tier = 3
    quality = crawl.one_chance_in(3) and "good_item" or crawl.one_chance_in(4) and "randart" or ""
  else
    tier = 4
    quality = crawl.coinflip() and "good_item" or crawl.coinflip() and "randart" or ""
    if crawl.one_chance_in(100) then variability = "mace of Variability" end
  end
  local weights = {}
  local function add(list, weight)
    for name in (list or ""):gmatch("[^,]+") do weights[name] = weight end
  end
  add(xom_weapons[tier].common, 10)
  add(xom_weapons[tier].good, 5)
  if tier >= 3 then add(great_weapons, tier == 4 and 3 or 1) end
  e.mons("dancing weapon; " .. (variability or dgn.random_item_def(weights, "chaos", quality, "|")))
end

-- The orc armoury's ghost vault: an orc warrior, knight and warlord, with weapons all good or
-- all randarts and good or randart body armour (the warlord a shield too).
function setup_armoury_orcs(e)
  local quality = crawl.coinflip() and "randart" or "good_item"
  local body = " . chain mail good_item | chain mail randart | plate armour good_item" ..
    " | plate armour randart"
  local knight_weapon = dgn.monster_weapon("knight", nil, quality)
  e.kmons("D = orc warrior ; " .. dgn.monster_weapon("warrior", nil, quality) .. body)
  e.kmons("E = orc knight ; " .. knight_weapon .. body)
  e.kmons("F = orc warlord ; " .. knight_weapon .. body ..
    " . kite shield good_item w:4 | kite shield randart w:2 | tower shield good_item w:2" ..
    " | tower shield randart w:1")
end

---------------------------------------------------------------------------------------------
-- Kennysheep's vaults: one random setup shared by many. Their glyphs: `c` outer walls, `x`
-- inner walls, `t` decorations, `w` a border of water, lava or trees, `D`/`F` the facing and
-- side doors that may be there, `E`/`H` the cells before them.
function ks_random_setup(e, norandomexits)
  e.tags("no_pool_fixup")
  if norandomexits == nil then
    e.tags("transparent")
    -- A side door one time in two, then every side one time in two of those.
    if crawl.one_chance_in(2) then
      e.subst("D : +")
      e.subst("E : .")
      local all_sides = crawl.one_chance_in(2)
      e.subst("F : " .. (all_sides and "+" or "c"))
      e.subst("H : " .. (all_sides and "." or "w"))
    else
      e.subst("DF : c")
      e.subst("EH : w")
    end
  end
  -- The border: half of it floor, the rest water, deep water or trees (`q` holds the trees
  -- until the decorations are chosen).
  e.subst("w : w.")
  e.subst("w : wwwWWqq")
  -- One of three looks: decorations become walls; inner walls become liquid or floor; or the
  -- decorations are the showier ones.
  local look = crawl.random2(3)
  if look == 0 then
    e.subst("t : x")
    e.subst("x : cvbttm")
  elseif look == 1 then
    e.subst("x : ..wW")
    e.subst("t : .TmbttwG")
  else
    e.subst("t : .TttG")
    e.subst("x : cvbtt")
  end
  e.subst("q : t")
  -- Outer walls mostly stone or rock, sometimes metal or crystal.
  e.subst("c : ccccxxxxvb")
  -- One time in three the water is lava (and the trees and fountains match it).
  if crawl.one_chance_in(3) then
    e.subst("Wwt : l")
    e.subst("T : V")
  end
end

---------------------------------------------------------------------------------------------
-- The Gauntlet: an encompass map whose subvaults are arenas (monsters by tier, loot, terrain)
-- joined to it by transporters, and an exit with loot. The state crawl's helpers share
-- between the main map and its arenas is kept in globals, as crawl keeps it.

-- The monster sets of the arenas, by tier. One set a line: its options (`water`/`lava`: the
-- only liquid; `withered`/`demonic`: the only plants; `w:N`: its weight, 10 when not given;
-- `loot=`: one item always placed), then the monsters of glyphs 1, 2 and 3 as
-- `glyph: spec @min-max`.
local arena_sets = {
  [1] = {
    "water withered | 1: cane toad simulacrum / wyvern simulacrum / hornet simulacrum @1-1 | 2: simulacrum place:D:12 @2-4",
    "water | 2: raiju @1-1 | 3: steam dragon @1-2",
    "water demonic | 2: slime creature @2-4 | 3: jelly @1-3",
    "water demonic | 1: sixfirhy @1-1 | 2: ufetubus @2-4",
    "water demonic | 1: ice devil @1-1 | 2: white imp @2-4",
    "water withered | 1: soul eater @1-1 | 2: shadow imp @2-4",
    "demonic | 1: ynoxinul @1-1 | 2: rust devil @0-1 | 3: iron imp @2-4",
    "lava demonic | 1: smoke demon @1-1 | 2: red devil @0-1 | 3: crimson imp @2-4",
    "demonic | 1: neqoxec @1-1 | 2: chaos spawn @1-3",
    "water withered | 2: shadow @2-4",
    "| 1: catoblepas @1-1 | 2: gargoyle @1-2",
    "| 1: torpor snail @1-1 | 2: yak band / wolf band / elephant band @1-1",
    "lava | 1: fire crab @1-1 | 2: fire bat @2-4",
    "| 2: shapeshifter @1-3",
    "withered | 1: flying skull band @1-1",
    "| 2: hornet @2-3",
    "| 1: queen bee @1-1 | 2: killer bee band @1-1",
    "| 1: moth of wrath @1-1 | 2: wolf band @1-1",
    "demonic | 1: worldbinder @1-1 | 2: boggart @1-3",
    "water withered | 1: death scarab @1-1 | 2: spectre place:Lair:6 @1-1",
    "demonic w:5 loot=potion of mutation ident:type | 1: shining eye @1-1 | 2: floating eye / golden eye @1-2",
    "w:5 | 1: eye of devastation @1-1 | 2: floating eye / golden eye @1-2",
    "| 1: tengu warrior @1-1 | 2: tengu conjurer @1-2",
    "| 1: wizard @1-1 | 2: white imp / shadow imp @1-3",
    "demonic | 2: large abomination @0-2 | 3: small abomination @3-6",
    "water | 1: ice statue @1-1 | 2: rime drake @1-2",
    "| 1: oklob plant @1-1 | 2: acid dragon @1-2",
    "withered | 1: necromancer @1-1 | 2: wolf band @1-1",
    "| 2: swamp worm @2-3",
  },
  [2] = {
    "water withered | 1: hydra simulacrum / harpy simulacrum / ice dragon simulacrum @1-1 | 2: simulacrum place:D:15 @2-4",
    "| 1: dire elephant @1-1 | 2: elephant @1-3",
    "lava | 1: catoblepas @1-1 | 2: molten gargoyle @1-2 | 3: gargoyle @1-2",
    "water withered | 2: shadow @3-6",
    "lava | 1: fire crab @1-1 | 2: hell hound @1-3 | 3: fire bat @3-6",
    "lava demonic | 1: efreet @1-1 | 2: hell hound @1-3 | 3: fire elemental @1-3",
    "lava demonic | 1: hell hog @1-1 | 2: hell hound @1-3 | 3: fire bat @2-4",
    "water | 1: quicksilver ooze @1-1",
    "water demonic | 2: sixfirhy @2-4",
    "lava demonic | 1: hell beast @1-1 | 2: hell hound @0-2",
    "demonic | 1: green death @1-1 | 2: orange demon @0-2",
    "lava demonic w:5 | 1: hellion @1-1 | 2: sun demon / smoke demon / red devil @0-1 | 3: hell hound @0-2",
    -- crawl's set gives glyph 3 twice; the second (hell hounds) is the one that counts.
    "lava demonic w:5 | 1: balrug @1-1 | 3: hell hound @0-2",
    "demonic w:5 loot=potion of mutation ident:type | 1: cacodemon @1-1 | 2: neqoxec @0-3",
    "water | 1: blizzard demon @1-1 | 2: white imp / ice devil @0-3",
    "water withered | 1: reaper @1-1 | 2: hellwing / shadow imp @1-3",
    "| 1: glowing shapeshifter @1-1 | 2: shapeshifter @2-3",
    "demonic | 1: apocalypse crab @1-1",
    "withered | 2: flying skull band @2-3",
    "water withered | 1: death drake @1-1 | 2: zombie place:D:15 / spectre place:D:15 @2-4",
    "water withered | 1: ghost crab @1-1",
    "| 1: meliai band @1-1",
    "| 1: torpor snail @1-1 | 2: death yak band / hydra @1-1",
    "water | 1: entropy weaver @1-1 | 2: wolf spider @0-1 | 3: redback / jumping spider @1-2",
    "water | 1: moth of wrath @1-1 | 2: wolf spider / nothing @0-1 | 3: redback @2-4",
    "demonic | 2: thrashing horror @1-2 | 3: small abomination @2-4",
    "demonic | 1: great orb of eyes @1-1 | 2: ugly thing @1-2",
    "demonic | 2: glowing orange brain @1-2 | 3: ugly thing @1-2",
    "demonic | 2: large abomination @2-3 | 3: small abomination @3-6",
    "demonic loot=potion of mutation ident:type | 1: wretched star @1-1 | 2: neqoxec / small abomination @1-3",
    "| 2: wizard @2-2 | 3: white imp / shadow imp @3-6",
    "water withered | 1: necromancer @1-1 | 2: death yak band @1-1",
    "water withered | 2: death scarab @2-2 | 3: spectre place:Lair:6 @2-4",
    "| 1: orange crystal statue @1-1",
    "water withered | 1: obsidian statue @1-1",
    "| 1: lightning spire @1-1 | 2: lightning spire @0-1 | 3: raiju @1-2",
    "| 1: tyrant leech @1-1 | 2: swamp worm @2-4",
  },
}

-- A set's line as a table: weight, liquid, plant, loot, and monsters[glyph] = {spec, min, max}.
local function arena_set(line)
  local set = { weight = 10, monsters = {} }
  local options, rest = line:match("^([^|]*)|(.*)$")
  for word in options:gmatch("%S+") do
    if word == "water" or word == "lava" then set.liquid = word
    elseif word == "withered" or word == "demonic" then set.plant = word
    elseif word:match("^w:%d+$") then set.weight = tonumber(word:sub(3)) end
  end
  set.loot = options:match("loot=(.-)%s*$")
  for part in (rest .. "|"):gmatch("([^|]*)|") do
    local glyph = part:match("^%s*(%d):")
    local at = part:find("@", 1, true)
    if glyph and at then
      local spec = util.trim(part:sub(part:find(":", 1, true) + 1, at - 1))
      local low, high = part:sub(at + 1):match("(%d+)%-(%d+)")
      set.monsters[glyph] = { spec, tonumber(low), tonumber(high) }
    end
  end
  return set
end

local function arena_sets_of(tier)
  local sets = {}
  for i, line in ipairs(arena_sets[tier]) do sets[i] = arena_set(line) end
  return sets
end

-- The tier of the arenas the main map asks for next (crawl's arenas read a global set by it).
function gauntlet_arena_set_tier(n) gauntlet_arena_tier = n end
-- The NSUBST terms for the three extra item cells of the next arenas, or the default.
function gauntlet_arena_custom_extra_items(terms) gauntlet_arena_extra_items_nsubst = terms end
function gauntlet_arena_default_extra_items() gauntlet_arena_extra_items_nsubst = nil end

-- The level's random monsters: every monster of the tier 1 sets.
function gauntlet_random_mons_setup(e)
  local specs = {}
  for _, set in ipairs(arena_sets_of(1)) do
    for _, glyph in ipairs { "1", "2", "3" } do
      if set.monsters[glyph] then specs[#specs + 1] = set.monsters[glyph][1] end
    end
  end
  e.set_random_mon_list(table.concat(specs, " / "))
end

-- The main map: transporters on the entry glyphs and landing sites on the exit glyphs (one of
-- each per arena, in order), tier 1 arenas, default extra items, the random monsters.
function gauntlet_setup(e, entry_glyphs, exit_glyphs)
  for i = 1, #entry_glyphs do
    e.lua_marker(entry_glyphs:sub(i, i), transp_loc("gauntlet_arena_entry_" .. i))
    e.lua_marker(exit_glyphs:sub(i, i), transp_dest_loc("gauntlet_arena_exit_" .. i))
  end
  gauntlet_arena_set_tier(1)
  gauntlet_arena_num = nil
  gauntlet_arena_default_extra_items()
  gauntlet_random_mons_setup(e)
end

-- An arena's transporter landing site `P` and its way out `Q`, numbered arena by arena.
function gauntlet_arena_transporter_setup(e)
  gauntlet_arena_num = (gauntlet_arena_num or 0) + 1
  e.lua_marker("P", transp_dest_loc("gauntlet_arena_entry_" .. gauntlet_arena_num))
  e.lua_marker("Q", transp_loc("gauntlet_arena_exit_" .. gauntlet_arena_num))
end

-- A monster set of the current tier (any tier but 1 draws from tier 2), by weight.
function gauntlet_arena_get_monster_entry(e)
  return util.random_weighted_from("weight", arena_sets_of(gauntlet_arena_tier == 1 and 1 or 2))
end

-- The monsters of one glyph: between min and max of its cells keep the monster, the rest are
-- floor; a glyph the set leaves out is floor.
function gauntlet_arena_mons_setup(e, entry, glyph)
  if entry == nil then
    e.subst(glyph .. " = .")
    return
  end
  local spec, low, high = entry.mons or entry[1], entry.min or entry[2], entry.max or entry[3]
  e.kmons(glyph .. " = " .. spec)
  local count = low + crawl.random2(high - low + 1)
  if count < 1 then
    e.subst(glyph .. " = .")
  else
    e.nsubst(glyph .. " = " .. count .. "=" .. glyph .. " / .")
  end
end

-- An arena's loot: of its `d` cells, one holds the set's own item (else a loot potion or
-- scroll, or a star item); the other three follow the extra-item terms (by default tier 1:
-- one cell a good aux armour or jewellery one time in three, else a superb or star item;
-- tier 2: one of each). Nothing in an arena can be picked up until it is won.
function gauntlet_arena_item_setup(e, custom_loot)
  e.nsubst("d = d / X")
  e.kitem("* = star_item no_pickup")
  e.kitem("| = superb_item no_pickup")
  e.kitem("% = any no_pickup")
  e.kitem("$ = gold no_pickup")
  if custom_loot then
    e.item(custom_loot .. " no_pickup")
  else
    e.item("nothing")
  end
  e.item(dgn.loot_scrolls:gsub("scroll of", "no_pickup scroll of") .. " / " ..
    dgn.loot_potions:gsub("potion of", "no_pickup potion of"))
  e.subst("d = " .. (custom_loot and "d" or "e*"))
  local good_aux = dgn.good_aux_armour:gsub("/", "no_pickup /") .. " no_pickup"
  local extra = gauntlet_arena_extra_items_nsubst
  if gauntlet_arena_tier == 1 then
    e.item(good_aux)
    e.item("any jewellery good_item no_pickup")
    extra = extra or "fg|*|* / ."
  else
    if crawl.one_chance_in(3) then
      e.item(dgn.randart_aux_armour:gsub("/", "no_pickup /") .. " no_pickup")
    else
      e.item(good_aux)
    end
    e.item("any jewellery good_item w:20 no_pickup / any jewellery randart no_pickup")
    extra = extra or "fg / |* / ."
  end
  e.nsubst("X = " .. extra)
end

-- An arena's terrain: its rock (unless kept) varied by tier, its liquid, traps (one cell in
-- six of `^` at tier 1, one in four at tier 2, dispersal or net), its plants.
function gauntlet_arena_terrain_setup(e, rock_unchanged, liquid, plant)
  local tier1 = gauntlet_arena_tier == 1
  if not rock_unchanged then e.subst("x : " .. (tier1 and "xxc" or "cccvvb")) end
  liquid = liquid or "default"
  if liquid == "lava" then e.subst("w = l")
  elseif liquid == "water" then e.subst("l = w")
  elseif liquid == "default" then e.subst("w : wwwl")
  else error("Unknown liquid type: " .. tostring(liquid)) end
  e.subst("^ : " .. (tier1 and "^....." or "^..."))
  e.kfeat("^ = dispersal trap / net trap")
  plant = plant or "default"
  if plant == "demonic" or plant == "withered" then e.kmons("p = " .. plant .. " plant")
  elseif plant == "default" then e.kmons("p = plant w:30 / fungus")
  else error("Unknown plant type: " .. tostring(plant)) end
end

-- An arena: its transporters, a monster set of its tier, then loot, monsters and terrain.
function gauntlet_arena_setup(e, rock_unchanged)
  gauntlet_arena_transporter_setup(e)
  local set = gauntlet_arena_get_monster_entry(e)
  gauntlet_arena_item_setup(e, set.loot)
  for _, glyph in ipairs { "1", "2", "3" } do
    gauntlet_arena_mons_setup(e, set.monsters[glyph], glyph)
  end
  gauntlet_arena_terrain_setup(e, rock_unchanged, set.liquid, set.plant)
end

-- The exit's loot on `<`: 7 to 16 items (7 + random2avg(10, 2)), each a star item one time in
-- three, else mostly a superb item, sometimes armour, a wand or a scroll.
function gauntlet_exit_loot(e)
  local mix = "superb_item w:49 / any armour w:7 / any wand w:14 / any scroll"
  local items = {}
  for i = 1, 7 + crawl.random2avg(10, 2) do
    items[i] = crawl.one_chance_in(3) and "star_item" or mix
  end
  e.kitem("< = " .. table.concat(items, ", "))
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
