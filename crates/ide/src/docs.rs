//! Hover documentation for every keyword and value of the NetHack dialects, and for every map
//! glyph, written for level authors. One table per dialect.

/// Documentation of one word of a dialect.
pub struct KeywordDoc {
    pub word: &'static str,
    pub summary: &'static str,
    pub syntax: &'static str,
    pub details: &'static str,
}

macro_rules! docs {
    ($name:ident: $( $word:literal => $summary:literal, $syntax:literal, $details:literal; )*) => {
        static $name: &[KeywordDoc] = &[ $( KeywordDoc { word: $word, summary: $summary, syntax: $syntax, details: $details }, )* ];
    };
}

docs! { NETHACK:
    "MAZE" => "Starts a maze-style level: one or more map parts laid over a filled level.", "MAZE: \"name\", fill", "The name becomes the compiled file `name.lev` (at most 8 bytes, no dot). The fill is the map character the whole level starts as (`' '` for solid rock); `random` lays a maze lattice that MAZEWALK carves. After it come FLAGS, INIT_MAP and MESSAGE, then the parts.";
    "LEVEL" => "Starts a room-and-corridor level.", "LEVEL: \"name\"", "The game places the ROOMs through its rectangle machinery, then joins them with CORRIDORs or RANDOM_CORRIDORS. Room positions and sizes may be fixed or random.";
    "FLAGS" => "Level-wide properties.", "FLAGS: flag [, flag...]", "Each flag is one of noteleport, hardfloor, nommap, shortsighted, arboreal. It must come right after the MAZE or LEVEL line, before INIT_MAP and MESSAGE.";
    "INIT_MAP" => "Grows a random cave before the map parts are drawn.", "INIT_MAP: fg, bg, smoothed, joined, lit, walled", "The level is filled with the background character, then about 40% of it turns to the foreground and is smoothed like a cellular automaton. `joined` connects the open areas (the foreground must then be '.' or '#'); `walled` puts walls around floor. With INIT_MAP, coordinates are not limited to the map, since the cave surrounds it.";
    "MESSAGE" => "Text shown to the player on arriving.", "MESSAGE: \"text\"", "Several MESSAGE lines are joined with line breaks; lev_comp keeps at most 254 bytes in all.";
    "GEOMETRY" => "Where the next MAP is placed on the level.", "GEOMETRY: horizontal, vertical", "Horizontal is left, half-left, center, half-right or right; vertical is top, center or bottom. The game computes the corner from the map's size and then nudges it to odd coordinates. A MAP block must follow.";
    "MAP" => "Starts a map block: rows of map characters up to ENDMAP.", "MAP\n...rows...\nENDMAP", "MAP must be alone on its line, in column 0. Digits in rows are column rulers and are removed; short rows are padded with rock. A map is at most 76 columns by 21 rows, and spaces are solid rock, not transparent.";
    "ENDMAP" => "Ends a map block.", "ENDMAP", "May be indented. Everything after the map (registers, then details) refers to coordinates counted from the map's top-left corner.";
    "NOMAP" => "A map part without a map.", "NOMAP", "Details that follow use no map. Without INIT_MAP they have no valid literal coordinates (lev_comp crashes on some); use `random` or registers. With INIT_MAP the whole level is the part.";
    "RANDOM_OBJECTS" => "The object classes that `object[i]` picks from.", "RANDOM_OBJECTS: 'c' [, 'c'...]", "At most 10 classes. The game shuffles the list each time the level is made, so `object[0]` is one of them at random. Must come before the details of its part (or before the first ROOM).";
    "RANDOM_PLACES" => "The positions that `place[i]` picks from.", "RANDOM_PLACES: (x,y) [, (x,y)...]", "At most 10 positions, shuffled when the level is made, so each `place[i]` is a different one of them. Only in map parts, before their details.";
    "RANDOM_MONSTERS" => "The monster classes that `monster[i]` picks from.", "RANDOM_MONSTERS: 'c' [, 'c'...]", "At most 10 classes, shuffled when the level is made. Must come before the details of its part (or before the first ROOM).";
    "OBJECT" => "Places an object.", "OBJECT[chance%]: class, name, where [, curse] [, \"monster\"] [, enchantment] [, name|none]", "The class is an object class character, `object[i]` or `random`; the name is looked up in that class (or in every class when the class is not a character), and an unknown name gives a random object. `where` is a coordinate or `contained`, which puts it into the last CONTAINER. The optional monster is what a corpse or statue depicts.";
    "CONTAINER" => "Places an object that the following `contained` objects go into.", "CONTAINER[chance%]: class, name, where [, ...]", "Written like OBJECT. Every later OBJECT with `contained` goes inside it, until the next CONTAINER. Containers cannot be nested.";
    "MONSTER" => "Places a monster.", "MONSTER[chance%]: class, name, coordinate [, \"name\"] [, peaceful|hostile] [, asleep|awake] [, alignment] [, m_feature|m_object \"what\"]", "The class is a monster class character, `monster[i]` or `random`. The name is looked up only within a class character: with `random` or a register the monster is random. A chance `[n%]` makes it appear with that probability. Only priests and Angels accept an alignment; appearances work on mimics only.";
    "TRAP" => "Places a trap.", "TRAP[chance%]: \"type\"|random, coordinate", "Types are the game's trap names, such as \"pit\" or \"teleport\". A random trap follows the game's usual rules for the level's difficulty. Traps are never made on pools.";
    "DOOR" => "A door: on the map in a maze, on a wall in a room.", "DOOR: state, coordinate            (map part)\nDOOR: secret, state, wall, position  (room)", "In a map part the coordinate must be a `+` or `S` of the map. In a room, the wall is north, south, east or west (or random) and the position counts along it; a random wall needs a random position. States are open, closed, locked, nodoor, broken or random.";
    "DRAWBRIDGE" => "A drawbridge over water or lava.", "DRAWBRIDGE: coordinate, direction, open|closed", "The coordinate is the water or lava cell, and the cell one step in the direction must be a wall of the map; that wall becomes the bridge's gate. The state must be open or closed.";
    "MAZEWALK" => "Carves maze corridors from a point.", "MAZEWALK: coordinate, direction", "The carving starts one step in the direction, moves to odd coordinates, and digs a maze through the solid parts of the level. Mazewalks run after all parts, last one first.";
    "WALLIFY" => "Turns rock next to floor into walls, in the current map.", "WALLIFY", "Done by lev_comp itself on the map text: every rock cell touching floor becomes a horizontal or vertical wall.";
    "REGION" => "Lights an area, or makes it a room of a given type.", "REGION: (x1,y1,x2,y2), lit|unlit|random, \"type\" [, filled|unfilled [, irregular]]", "An ordinary, regular, filled region only sets lighting. Any other region becomes a room: typed rooms are stocked (shops, zoos, temples...) unless `unfilled`. An irregular region is flood-filled from its first corner, which must be floor. A vault region must be exactly 2x2.";
    "ALTAR" => "Places an altar.", "ALTAR: coordinate, alignment, altar|shrine|sanctum", "A shrine or sanctum inside a temple room gets a priest. The alignment may be a value, `align[i]` or random.";
    "LADDER" => "Places a ladder.", "LADDER: coordinate, up|down", "Used on levels reached by ladder, such as Vlad's Tower.";
    "STAIR" => "Places a staircase, at a coordinate or within an area.", "STAIR: coordinate, up|down\nSTAIR: area, excluded-area, up|down", "The area form picks a spot inside the first area and outside the second, when the level is made. Areas are map-relative `(x1,y1,x2,y2)` or level-absolute `levregion(...)`.";
    "PORTAL" => "A magic portal to another level, within an area.", "PORTAL: area, excluded-area, \"level\"", "The destination is a level name from the dungeon description, or digits meaning that level of the current dungeon. An unknown name crashes the game.";
    "TELEPORT_REGION" => "Where arrivals by teleport, trap door or falling land.", "TELEPORT_REGION: area, excluded-area [, up|down]", "Without a direction the area applies to both; `up` applies to arrivals from below, `down` to arrivals from above.";
    "BRANCH" => "Where the branch staircase or portal of this level goes.", "BRANCH: area, excluded-area", "The dungeon description decides which branch leaves from this level; this only says where.";
    "FOUNTAIN" => "Places a fountain.", "FOUNTAIN: coordinate", "The game does not put a fountain over other furniture.";
    "SINK" => "Places a sink (rooms only).", "SINK: coordinate", "Only inside a ROOM of a LEVEL.";
    "POOL" => "Places a pool of water (rooms only).", "POOL: coordinate", "Only inside a ROOM of a LEVEL.";
    "NON_DIGGABLE" => "Makes walls and rock in an area undiggable.", "NON_DIGGABLE: (x1,y1,x2,y2)", "Applies to rock and wall cells present when the part is loaded; cells carved later by MAZEWALK lose the property.";
    "NON_PASSWALL" => "Stops phasing monsters and players in an area.", "NON_PASSWALL: (x1,y1,x2,y2)", "Applies to rock and wall cells of the area; at most 31 per part.";
    "ROOM" => "A room of a LEVEL.", "ROOM: \"type\", lit|unlit|random, (x,y)|random, (h,v)|random, (w,h)|random [, filled]", "The position is a cell of a 5x5 grid over the level (1..5 each); the alignment places the room within that cell; the size is the floor. Random parts are drawn by the game, and a room that cannot be placed is dropped with its contents. Random alignment is never right or bottom.";
    "SUBROOM" => "A room inside another room.", "SUBROOM: \"type\", lit|unlit|random, (x,y)|random, (w,h)|random, \"parent\" [, filled]", "The position is an offset inside the parent's floor; the parent is found by its NAME. The parent must be at least 4x4.";
    "RANDOM_CORRIDORS" => "Joins the rooms with the game's own corridor generator.", "RANDOM_CORRIDORS", "Rooms are sorted left to right and joined as on ordinary levels, with some dead ends. Not with CORRIDOR lines.";
    "CORRIDOR" => "Digs a corridor between two doors.", "CORRIDOR: (room, wall, door), (room, wall, door)", "Rooms are numbered in the order written, subrooms included by lev_comp, but the game counts top-level rooms only. The door number picks among the doors on that wall. A number as the destination does nothing.";
    "GOLD" => "Places a pile of gold.", "GOLD: amount|random, coordinate", "A random amount is between 1 and 200.";
    "ENGRAVING" => "Writes on the floor.", "ENGRAVING: coordinate, dust|engrave|burn|mark|random, \"text\"", "Engravings such as \"Elbereth\" scare most monsters.";
    "NAME" => "Names a room, so subrooms can refer to it.", "NAME: \"name\"", "Only inside a ROOM, once.";
    "CHANCE" => "The chance that a typed room keeps its type.", "CHANCE: percent", "From 1 to 99; otherwise the room becomes ordinary. Only for typed rooms, once per room.";
    "levregion" => "Marks an area in level coordinates.", "levregion(x1,y1,x2,y2)", "Level coordinates ignore where the map is: x from 1 to 79, y from 0 to 20. Without it, an area counts from the map's corner.";
    "contained" => "Puts the object into the last CONTAINER.", "OBJECT: class, name, contained", "There must be a CONTAINER earlier in the same part or room.";
    "random" => "Lets the game choose.", "random", "Stands for a random value of whatever the position takes: coordinate, class, name, state, alignment, amount...";
    "none" => "No name for the object.", "OBJECT: ..., none", "Written where the object's name would go.";
    "object" => "An object class register.", "object[i]", "Index 0 to 9 into this part's RANDOM_OBJECTS list, which the game shuffles.";
    "monster" => "A monster class register.", "monster[i]", "Index 0 to 9 into this part's RANDOM_MONSTERS list, which the game shuffles.";
    "place" => "A position register.", "place[i]", "Index 0 to 9 into this part's RANDOM_PLACES list, which the game shuffles; each index is a different position. In rooms it counts as random.";
    "align" => "An alignment register.", "align[i]", "Index 0 to 2: the three alignments (chaotic, neutral, lawful) in an order shuffled each time the level is made.";
    "open" => "Door state: open.", "open", "Stored as 2 (the game's open-door mask). The only states a drawbridge takes are open and closed.";
    "closed" => "Door state: closed.", "closed", "Stored as 4.";
    "locked" => "Door state: closed and locked.", "locked", "Stored as 8.";
    "nodoor" => "An empty doorway.", "nodoor", "Stored as 0.";
    "broken" => "A broken door.", "broken", "Stored as 1.";
    "north" => "The north side or direction.", "north", "Stored as 1 (a wall bit).";
    "south" => "The south side or direction.", "south", "Stored as 2.";
    "east" => "The east side or direction.", "east", "Stored as 4.";
    "west" => "The west side or direction.", "west", "Stored as 8.";
    "left" => "Horizontal placement: at the left edge.", "left", "Stored as 1.";
    "half-left" => "Horizontal placement: between the left edge and the center.", "half-left", "Stored as 2. For rooms the game treats it as left.";
    "half-right" => "Horizontal placement: between the center and the right edge.", "half-right", "Stored as 4. For rooms the game treats it as left.";
    "right" => "Horizontal placement: at the right edge.", "right", "Stored as 5.";
    "center" => "Placement: centered.", "center", "Stored as 3, horizontally or vertically.";
    "top" => "Vertical placement: at the top.", "top", "Stored as 1.";
    "bottom" => "Vertical placement: at the bottom.", "bottom", "Stored as 5.";
    "lit" => "Lit.", "lit", "Stored as 1.";
    "unlit" => "Dark.", "unlit", "Stored as 0.";
    "filled" => "A typed region gets its usual contents.", "filled", "The default.";
    "unfilled" => "A typed region gets no contents (no shopkeeper's stock, no zoo).", "unfilled", "lev_comp adds 25 to the room type.";
    "noalign" => "Alignment: none.", "noalign", "Stored as 0.";
    "chaos" => "Alignment: chaotic.", "chaos", "Stored as 1.";
    "neutral" => "Alignment: neutral.", "neutral", "Stored as 2.";
    "law" => "Alignment: lawful.", "law", "Stored as 4.";
    "coaligned" => "Alignment: the player's own.", "coaligned", "Stored as 3.";
    "noncoaligned" => "Alignment: one other than the player's.", "noncoaligned", "Stored as 7.";
    "peaceful" => "The monster does not attack.", "peaceful", "Overrides the game's usual choice.";
    "hostile" => "The monster attacks.", "hostile", "Overrides the game's usual choice.";
    "asleep" => "The monster starts asleep.", "asleep", "";
    "awake" => "The monster starts awake.", "awake", "";
    "m_feature" => "A mimic that looks like a dungeon feature.", "m_feature \"fountain\"", "The text is a feature's description, such as \"fountain\" or \"doorway\".";
    "m_object" => "A mimic that looks like an object.", "m_object \"chest\"", "The text is an object's name.";
    "m_monster" => "A mimic that looks like a monster.", "m_monster \"name\"", "Not implemented by the 3.4.3 game: the mimic keeps its own look.";
    "altar" => "A plain altar.", "altar", "Stored as 0.";
    "shrine" => "An altar that gets a priest when it stands in a temple.", "shrine", "Stored as 1.";
    "sanctum" => "Moloch's high altar, with the high priest.", "sanctum", "Stored as 2.";
    "up" => "Going up.", "up", "Stored as 1.";
    "down" => "Going down.", "down", "Stored as 0.";
    "true" => "Yes.", "true", "Stored as 1.";
    "false" => "No.", "false", "Stored as 0.";
    "dust" => "Written in the dust; smudges easily.", "dust", "Stored as 1.";
    "engrave" => "Carved into the floor.", "engrave", "Stored as 2.";
    "burn" => "Burned into the floor; permanent.", "burn", "Stored as 3.";
    "mark" => "Drawn with a marker (graffiti).", "mark", "Stored as 4.";
    "blessed" => "The object is blessed.", "blessed", "Stored as 1.";
    "uncursed" => "The object is neither blessed nor cursed.", "uncursed", "Stored as 2.";
    "cursed" => "The object is cursed.", "cursed", "Stored as 3.";
    "noteleport" => "Teleporting within the level is impossible.", "noteleport", "Flag bit 1.";
    "hardfloor" => "The floor cannot be dug through.", "hardfloor", "Flag bit 2.";
    "nommap" => "Magic mapping does not work.", "nommap", "Flag bit 4.";
    "shortsighted" => "Monsters cannot see the player from afar.", "shortsighted", "Flag bit 8.";
    "arboreal" => "Rock is shown as trees (an outdoor level).", "arboreal", "Flag bit 16.";
}

docs! { DUNGEON:
    "DUNGEON" => "Starts a dungeon: its name, bones marker and depth.", "DUNGEON: \"name\" \"bones\" (base, range) [chance]", "The dungeon has between base and base+range levels. The bones marker (one character or \"none\") names its bones files. The first dungeon is the main one; the others must be reached by a BRANCH.";
    "ENTRY" => "The level where the player enters the dungeon.", "ENTRY: level", "Negative counts from the bottom: -1 is the last level.";
    "PROTOFILE" => "Loads every level of the dungeon from `<name><n>.lev`.", "PROTOFILE: \"name\"", "For a dungeon whose ordinary levels are all special, like Vlad's Tower (tower1, tower2...).";
    "DESCRIPTION" => "A property of the whole dungeon.", "DESCRIPTION: hellish|mazelike|roguelike", "Alignments go in ALIGNMENT; town only on levels (LEVELDESC).";
    "LEVELDESC" => "A property of the last level defined.", "LEVELDESC: town|hellish|mazelike|roguelike", "Applies to the level defined just before, even in another dungeon.";
    "ALIGNMENT" => "The alignment of the dungeon's temples and inhabitants.", "ALIGNMENT: lawful|neutral|chaotic|unaligned", "";
    "LEVALIGN" => "The alignment of the last level defined.", "LEVALIGN: lawful|neutral|chaotic|unaligned", "Applies to the level defined just before.";
    "BRANCH" => "A connection to another dungeon, at an absolute level.", "BRANCH: \"dungeon\" @ (base, range) [stair|no_up|no_down|portal] [up]", "The dungeon must be defined later in the file. `up` makes the branch lead upward.";
    "CHAINBRANCH" => "A connection placed relative to a special level.", "CHAINBRANCH: \"dungeon\" \"level\" + (base, range) [type] [up]", "The level must be an earlier level of this dungeon that always exists (chance 100).";
    "LEVEL" => "A special level at an absolute position.", "LEVEL: \"name\" \"bones\" @ (base, range) [chance]", "Loaded from `name.lev`. A negative base counts from the bottom; a range of -1 means anywhere down to the bottom. The chance (1..100, no `%`) is the chance that it exists.";
    "RNDLEVEL" => "A special level picked among several files.", "RNDLEVEL: \"name\" \"bones\" @ (base, range) [chance] count", "Loaded from one of `name-1.lev` .. `name-count.lev`, at random.";
    "CHAINLEVEL" => "A special level placed relative to another.", "CHAINLEVEL: \"name\" \"bones\" \"base level\" + (base, range) [chance]", "The base level must come earlier in the same dungeon (and not be its first level, which dgn_comp cannot find) and always exist.";
    "RNDCHLEVEL" => "A chained special level picked among several files.", "RNDCHLEVEL: \"name\" \"bones\" \"base level\" + (base, range) [chance] count", "The dgn_comp manual spells it RNDCHAINLEVEL, which does not work.";
    "up" => "The branch leads up.", "up", "";
    "down" => "The branch leads down (the default).", "down", "";
    "stair" => "Branch by staircases at both ends (the default).", "stair", "";
    "no_up" => "Branch with no up staircase.", "no_up", "";
    "no_down" => "Branch with no down staircase.", "no_down", "";
    "portal" => "Branch by magic portal.", "portal", "";
    "town" => "The level is a town (LEVELDESC only).", "town", "Flag 1.";
    "hellish" => "Part of Gehennom: fire traps and hellish monsters.", "hellish", "Flag 2.";
    "mazelike" => "Ordinary levels are mazes.", "mazelike", "Flag 4.";
    "roguelike" => "Levels look like the original Rogue.", "roguelike", "Flag 8.";
    "unaligned" => "No alignment.", "unaligned", "Value 0; same as noalign.";
    "noalign" => "No alignment.", "noalign", "Value 0; same as unaligned.";
    "lawful" => "Lawful.", "lawful", "Value 64.";
    "neutral" => "Neutral.", "neutral", "Value 32.";
    "chaotic" => "Chaotic.", "chaotic", "Value 16.";
}

pub fn nethack_keyword(word: &str) -> Option<&'static KeywordDoc> {
    NETHACK.iter().find(|d| d.word == word)
}

pub fn dungeon_keyword(word: &str) -> Option<&'static KeywordDoc> {
    DUNGEON.iter().find(|d| d.word == word)
}

/// What a MAP character becomes in the game.
pub fn map_glyph(c: char) -> Option<&'static str> {
    Some(match c {
        ' ' => "solid rock",
        '-' => "horizontal wall (the game picks corners and T-pieces when it joins walls)",
        '|' => "vertical wall",
        '+' => "a doorway; its state comes from a DOOR statement, or at random",
        'S' => "a secret door, looking like wall until found",
        'H' => "a secret corridor, looking like rock until found",
        '#' => "a corridor",
        '.' => "floor (dark unless a REGION lights it)",
        '{' => "a fountain",
        '\\' => "a throne",
        'K' => "a sink",
        '}' => "a moat: deep water",
        'P' => "a pool of water",
        'W' => "water, as on the Plane of Water",
        'L' => "lava",
        'T' => "a tree",
        'F' => "iron bars",
        'I' => "ice",
        'A' => "open air, as on the Plane of Air",
        'C' => "a cloud",
        'B' => "a boundary: it bounds irregular regions and becomes floor when the level is loaded",
        _ => return None,
    })
}

/// Markdown for a hover.
pub fn render(doc: &KeywordDoc) -> String {
    let mut out = format!(
        "**{}** — {}\n\n```\n{}\n```",
        doc.word, doc.summary, doc.syntax
    );
    if !doc.details.is_empty() {
        out.push_str("\n\n");
        out.push_str(doc.details);
    }
    out
}
