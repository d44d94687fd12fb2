//! The catalog of every diagnostic code. `docs/diagnostics.md` is generated from this table
//! (`cargo xtask codegen`), so a code, its default severity and its summary live in one place.
//!
//! Numbering: `LK` codes concern files in general (encoding, dialect). `NH00xx` are NetHack
//! `.des` syntax errors, `NH01xx` the errors of lev_comp 3.4.3, `NH02xx` its warnings,
//! `NH03xx` its `-w` warnings (reported with `-W`), `NH04xx` problems lev_comp misses.
//! `DG` codes are the same families for dungeon.def and dgn_comp (`DG05xx`: links between a
//! dungeon.def and the `.des` files beside it).
//! `DC` codes are Dungeon Crawl Stone Soup vaults: `DC00xx` what crawl's lexer and grammar
//! reject, `DC01xx` what its header functions reject when the vault's Lua runs, `DC02xx` its
//! whole-vault checks, `DC03xx` across files, `DC04xx` problems crawl misses.
//! Codes are never renumbered or reused.

use crate::Severity;

/// Which switch turns a code on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeGroup {
    /// Always reported.
    Default,
    /// Reported with `-W` only (lev_comp's `-w`).
    Extra,
}

#[derive(Debug)]
pub struct CodeInfo {
    pub code: &'static str,
    pub severity: Severity,
    pub group: CodeGroup,
    /// A short kebab-case name, for people who prefer words to numbers.
    pub name: &'static str,
    /// What the code means, in one sentence.
    pub summary: &'static str,
    /// The message the original compiler prints for the same problem, if it reports it.
    pub original: &'static str,
}

macro_rules! codes {
    ($( $code:ident $sev:ident $group:ident $name:literal $summary:literal $original:literal ; )*) => {
        /// A stable diagnostic code such as `NH0115`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code { $($code,)* }

        impl Code {
            pub const ALL: &'static [Code] = &[$(Code::$code,)*];

            pub fn info(self) -> &'static CodeInfo {
                match self {
                    $(Code::$code => &CodeInfo {
                        code: stringify!($code),
                        severity: Severity::$sev,
                        group: CodeGroup::$group,
                        name: $name,
                        summary: $summary,
                        original: $original,
                    },)*
                }
            }
        }
    };
}

impl Code {
    pub fn as_str(self) -> &'static str {
        self.info().code
    }

    pub fn from_code(text: &str) -> Option<Code> {
        Code::ALL.iter().copied().find(|code| code.as_str() == text)
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

codes! {
    // ---- any file -------------------------------------------------------------------------
    LK0001 Error Default "invalid-utf8" "The file is not valid UTF-8; it is analysed with the bad bytes replaced." "";
    LK0002 Error Default "unknown-dialect" "The file's format could not be recognised; pass --dialect to choose one." "";
    LK0003 Info Default "dialect-not-checked" "The file's dialect is recognised but levkit does not check it yet." "";
    LK0004 Warning Default "file-skipped" "A file of the workspace was not read: it is not a regular file (a FIFO, a device, a socket) or it is too large to be a level file." "";

    // ---- NetHack .des: syntax ------------------------------------------------------------
    NH0001 Error Default "unexpected-token" "The statement does not follow the lev_comp grammar at this point." "syntax error";
    NH0002 Error Default "unknown-word" "A word that is not a lev_comp keyword (keywords are case-sensitive)." "syntax error";
    NH0003 Error Default "unterminated-string" "A string has no closing quote." "syntax error";
    NH0004 Error Default "invalid-character" "A character that lev_comp does not accept here." "syntax error";
    NH0005 Error Default "statement-out-of-order" "A statement stands where the grammar does not allow it (wrong order or wrong kind of level)." "syntax error";
    NH0006 Error Default "duplicate-header" "A level header statement (FLAGS, INIT_MAP, RANDOM_CORRIDORS) appears twice." "syntax error";
    NH0007 Error Default "map-keyword-not-alone" "MAP must start in column 0 and be alone on its line." "syntax error";
    NH0008 Error Default "missing-endmap" "A MAP block is not closed by ENDMAP." "syntax error";
    NH0009 Error Default "invalid-map-character" "A map row holds a character that is not a map glyph." "syntax error";
    NH0010 Error Default "comment-not-in-column-0" "`#` starts a comment only in column 0." "syntax error";
    NH0011 Error Default "statement-outside-level" "A statement before the first MAZE or LEVEL declaration." "syntax error";
    NH0012 Error Default "endmap-without-map" "ENDMAP without an open MAP block." "syntax error";
    NH0013 Error Default "geometry-without-map" "GEOMETRY must be followed by a MAP block." "syntax error";
    NH0014 Warning Default "multiline-string" "A string spans several lines; lev_comp accepts it but miscounts the lines after it." "";
    NH0015 Error Default "newer-level-language" "The file is written in NetHack 3.6's level language (or 3.7's Lua), which levkit does not read yet." "syntax error";
    NH0016 Error Default "failing-run" "A long run of lines that all fail to parse, summarised in one error after its first ten lines." "syntax error";
    NH0017 Error Default "maze-without-map-part" "A MAZE level has no map part (GEOMETRY with a MAP block, or NOMAP); lev_comp rejects it, and a level without parts cannot be loaded." "syntax error";
    NH0018 Warning Default "number-beyond-int" "A number outside a C int (-2147483648 to 2147483647): lev_comp keeps its low 32 bits, or reads -1 when it is too long even for a long, and levkit reads it the same." "";
    NH0019 Error Default "comment-without-newline" "A comment on the file's last line with no line end after it: lev_comp's comment rule needs the newline." "syntax error";
    NH0020 Warning Default "map-keyword-inside-map" "A second `MAP` line inside a map: lev_comp skips it and the map goes on." "";

    // ---- NetHack .des: lev_comp errors ---------------------------------------------------
    NH0101 Error Default "dot-in-level-name" "A level name may not contain a dot." "Invalid dot ('.') in level name.";
    NH0102 Error Default "level-name-too-long" "A level name has at most 8 characters (it becomes a file name)." "Level names limited to 8 characters.";
    NH0103 Error Default "invalid-init-map-foreground" "The INIT_MAP foreground is not a map character." "Invalid foreground type.";
    NH0104 Error Default "invalid-init-map-background" "The INIT_MAP background is not a map character." "Invalid background type.";
    NH0105 Error Default "invalid-joined-foreground" "A joined INIT_MAP needs `.` or `#` as its foreground." "Invalid foreground type for joined map.";
    NH0106 Error Default "message-too-long" "The level's MESSAGE lines add up to more than 255 bytes." "Message string too long (>256 characters)";
    NH0107 Error Default "registers-already-initialized" "A RANDOM_OBJECTS, RANDOM_PLACES or RANDOM_MONSTERS list is given twice for the same part." "Object registers already initialized!";
    NH0108 Error Default "register-list-too-long" "A register list has more than 10 entries." "Object list too long!";
    NH0109 Error Default "register-index-overflow" "A register index is 10 or more (3 or more for align)." "Register Index overflow!";
    NH0110 Error Default "unknown-monster-class" "The character is not a monster class." "Unknown monster class!";
    NH0111 Error Default "unknown-object-class" "The character is not an object class." "Unknown char class!";
    NH0112 Error Default "unknown-trap-type" "The trap name is not one of the game's traps." "Unknown trap type!";
    NH0113 Error Default "invalid-percent-chance" "A `[n%]` chance must be between 1 and 100." "Expected percentile chance.";
    NH0114 Error Default "map-too-large" "A map is at most 76 columns by 21 rows." "Map too large! (max 76 x 21)";
    NH0115 Error Default "coordinate-out-of-map" "A coordinate lies outside the map of its part." "Coordinates out of map range!";
    NH0116 Error Default "region-out-of-map" "A region corner lies outside the map of its part." "Region out of map range!";
    NH0117 Error Default "region-out-of-level" "A levregion lies outside the level (x 1..79, y 0..20)." "Region out of level range!";
    NH0118 Error Default "region-start-after-end" "A region's first corner is right of or below its second." "Region start > end!";
    NH0119 Error Default "vault-not-2x2" "A vault region must be regular and exactly 2x2." "Vaults must be exactly 2x2!";
    NH0120 Error Default "irregular-region-on-rock" "An irregular region must start on a floor-like cell." "Rock in irregular room (XX,YY)?!";
    NH0121 Error Default "door-not-on-door" "A DOOR must stand on a `+` or `S` cell of the map." "Door decl doesn't match the map";
    NH0122 Error Default "drawbridge-without-wall" "The cell next to a drawbridge, in its direction, must be a wall." "Wall needed for drawbridge (XX, YY)";
    NH0123 Error Default "drawbridge-state" "A drawbridge is either open or closed." "A drawbridge can only be open or closed!";
    NH0124 Error Default "room-position-range" "A ROOM position is a grid cell from 1 to 5." "Room position should be between 1 & 5!";
    NH0125 Error Default "subroom-position-negative" "A SUBROOM position cannot be negative." "Invalid subroom position !";
    NH0126 Error Default "room-name-twice" "A room has a second NAME." "This room already has a name!";
    NH0127 Error Default "room-chance-twice" "A room has a second CHANCE." "This room already assigned a chance!";
    NH0128 Error Default "chance-on-ordinary-room" "Only typed rooms can have a CHANCE." "Only typed rooms can have a chance!";
    NH0129 Error Default "room-chance-range" "A room CHANCE must be between 1 and 99." "The chance is supposed to be percentile.";
    NH0130 Error Default "random-door-wall-fixed-pos" "A door on a random wall needs a random position too." "If the door wall is random, so must be its pos!";
    NH0131 Error Default "corridor-room-number" "A CORRIDOR names a room number that does not exist." "Wrong room number!";
    NH0132 Error Default "subroom-parent-not-found" "A SUBROOM's parent room name matches no room of the level." "Subroom error : parent room 'P' not found!";
    NH0133 Error Default "too-many-subrooms" "A room has more than 24 subrooms." "Subroom error: too many subrooms attached to parent room 'P'!";
    NH0134 Error Default "too-many-items" "More than 127 items of one kind in a map part, room or level." "Too many monsters in room or mazepart!";
    NH0135 Error Default "too-many-passwalls" "More than 31 NON_PASSWALL regions in one map part." "Too many passwalls in mazepart!";

    // ---- NetHack .des: lev_comp warnings -------------------------------------------------
    NH0201 Warning Default "invalid-fill" "The MAZE fill is not a map character; the level is filled at random." "Invalid fill character in MAZE declaration";
    NH0202 Warning Default "unknown-monster" "No monster of that name in the given class; the game makes a random monster." "Invalid monster name!  Making random monster.";
    NH0203 Warning Default "unknown-object" "No object of that name in the given class; the game makes a random object." "Illegal object name!  Making random object.";
    NH0204 Warning Default "unknown-room-type" "The room type is not one of the game's; it becomes an ordinary room." "Unknown room type!  Making ordinary room...";
    NH0205 Warning Default "placed-in-wall" "Something is placed on a wall, rock, tree or door cell of the map." "Monster placed in wall at (XX,YY)?!";

    // ---- NetHack .des: lev_comp -w warnings (with -W) ------------------------------------
    NH0301 Warning Extra "rock-in-room" "A regular REGION inside the map covers rock or a door." "Rock in room (x1,y1,x2,y2)?!";
    NH0302 Warning Extra "non-rock-edge" "A diagonal corner just outside a regular REGION is not rock." "NonRock edge in room (x1,y1,x2,y2)?!";

    // ---- NetHack .des: problems lev_comp misses -----------------------------------------
    NH0401 Error Default "literal-coordinate-in-nomap" "lev_comp looks a position up in a map row that no map of the file has had, and crashes." "";
    NH0402 Error Default "too-many-map-parts" "A MAZE level has more than 9 map parts; the game panics." "";
    NH0403 Error Default "empty-map" "A MAP block has no cells and something is placed in it at random, which crashes the game." "";
    NH0404 Warning Default "register-not-defined" "An object or place register index points past the list defined for this part; the game uses a stale value." "";
    NH0405 Error Default "negative-register-index" "A negative monster or object register index becomes a class the game cannot make (it panics or reads past its tables)." "";
    NH0406 Warning Default "coordinate-out-of-room" "A coordinate lies outside the room's fixed floor size; the thing lands in the room's wall or beyond." "";
    NH0407 Warning Default "coordinate-out-of-level" "A maze coordinate lands outside the level (the game moves it to a corner), or has a negative x (the game reads a register or random)." "";
    NH0408 Error Default "slash-in-level-name" "A level name containing `/` is used as a path by lev_comp." "";
    NH0409 Error Default "too-many-rooms" "More rooms than the game can keep (40)." "";
    NH0410 Error Default "drawbridge-on-map-edge" "A drawbridge's wall would be outside the map." "";
    NH0411 Warning Default "corridor-to-subroom" "A CORRIDOR room number counts a subroom; the game counts top-level rooms only." "";
    NH0412 Warning Default "corridor-to-integer" "A CORRIDOR whose destination is a number does nothing in the game." "";
    NH0413 Warning Default "named-monster-random-class" "A monster name with a random or register class is ignored; the monster is random." "";
    NH0414 Warning Default "bad-mimic-appearance" "The appearance is not something the game can show, or the monster is not a mimic." "";
    NH0415 Warning Default "magic-portal-trap" "A magic portal trap has no destination." "";
    NH0416 Error Default "contained-without-container" "An object is `contained` but no CONTAINER comes before it." "";
    NH0417 Error Default "area-start-after-end" "A level region's first corner is right of or below its second; the game's random placement in it can divide by zero." "";
    NH0418 Warning Default "alignment-on-non-priest" "An alignment on a monster other than a priest or Angel makes the game create nothing." "";
    NH0419 Warning Default "subroom-does-not-fit" "A subroom does not fit inside its parent (or the parent is under 4x4, and the game skips the subroom)." "";
    NH0420 Warning Default "duplicate-stair" "A second up (or down) stair in the same level." "";
    NH0421 Warning Default "duplicate-level-name" "Two levels of the file share a name; the later output overwrites the earlier (without truncating it)." "";
    NH0422 Warning Default "duplicate-room-name" "Two rooms of a level share a name; SUBROOM parents resolve to the first." "";
    NH0423 Warning Default "duplicate-flag" "The same flag appears twice in FLAGS." "";
    NH0427 Warning Default "leftover-map-read" "lev_comp checks a position against memory that is no map of the level (a freed row, or past a row's end); it usually warns \"placed in wall\"." "";
    NH0428 Error Default "wallify-in-nomap" "WALLIFY in a NOMAP part crashes lev_comp." "";
    NH0429 Error Default "monster-register-not-defined" "A monster register index points past the list defined; the game panics on the empty register." "";
    NH0430 Warning Default "negative-register-value" "A negative place, align or object[-1] register index, which lev_comp turns into a plain value." "";
    NH0431 Error Default "placed-outside-room-floor" "A TRAP, STAIR or ALTAR at a fixed position off its room's floor: the game looks for floor there 100 times and panics." "";
    NH0432 Error Default "room-coordinate-off-level" "A room coordinate so large that it lands outside the level wherever the room is; the game writes outside its arrays." "";
    NH0434 Warning Default "nested-container" "A CONTAINER marked `contained`: the game does not nest containers and leaves it where it is." "";
    NH0436 Error Default "no-spot-for-random" "A thing placed at random in a map that has no cell of the kind it needs (floor for most things): the game looks for one and panics." "";
    NH0435 Warning Default "room-coordinate-wraps" "A room coordinate outside -128..127: lev_comp keeps its low byte as a signed number, and the game reads a negative one as random." "";
    NH0433 Warning Default "empty-dig-area" "A NON_DIGGABLE or NON_PASSWALL area whose first corner is right of or below its second covers nothing." "";
    NH0426 Warning Default "unknown-corpse-monster" "The monster of a corpse, statue or figurine is not in the game; it becomes a random one." "";
    NH0425 Warning Default "unknown-mimic-feature" "An m_feature appearance names no dungeon feature." "";

    // ---- NetHack dungeon.def: syntax -----------------------------------------------------
    DG0001 Error Default "unexpected-token" "The statement does not follow the dgn_comp grammar at this point." "syntax error";
    DG0002 Error Default "unknown-word" "A word that is not a dungeon.def keyword (keywords are case-sensitive)." "syntax error";
    DG0003 Error Default "unterminated-string" "A string has no closing quote." "syntax error";
    DG0004 Error Default "invalid-character" "A character dgn_comp does not accept here." "syntax error";
    DG0005 Error Default "unknown-condition" "A line starting with `%` but not with `%REINCARNATION`, the only condition makedefs knows (it compares the start of the line only): makedefs stops." "Unknown control option";
    DG0007 Warning Default "multiline-string" "A string spans several lines; dgn_comp accepts it, which is rarely what was meant." "";
    DG0006 Error Default "malformed-number" "A run of digits and minus signs that dgn_comp reads as one other number." "";
    DG0008 Warning Default "number-beyond-int" "A number outside a C int (-2147483648 to 2147483647): dgn_comp keeps its low 32 bits, or reads -1 when it is too long even for a long, and levkit reads it the same." "";
    DG0009 Warning Default "condition-prefix" "Text right after `%REINCARNATION` that makedefs keeps: the rest of a word (`%REINCARNATIONLEVEL:` is read as `LEVEL:`) or a `#` that makes the line a dgn_comp comment." "";
    DG0010 Warning Default "long-line" "A line of 255 bytes or more: makedefs reads it in pieces of 255 bytes, drops a piece that starts with `#` and reads one that starts with `%` as a condition, so a long comment's tail reaches dgn_comp." "";

    // ---- NetHack dungeon.def: dgn_comp errors -------------------------------------------
    DG0101 Error Default "illegal-description" "DESCRIPTION takes hellish, mazelike or roguelike; LEVELDESC no alignment." "Illegal description - ignoring!";
    DG0102 Error Default "illegal-alignment" "ALIGNMENT and LEVALIGN take an alignment (lawful, neutral, chaotic, unaligned)." "Illegal alignment - ignoring!";
    DG0103 Error Default "bones-marker" "A bones marker is a one-character string, or \"none\"." "Bones marker must be a single char, or \"none\"!";
    DG0104 Error Default "abs-base-out-of-range" "An absolute level base lies outside -32..32." "Abs base out of dlevel range - zeroing!";
    DG0105 Error Default "abs-range-out-of-range" "An absolute level range reaches past level 32 or is below -1." "Abs range out of dlevel range - zeroing!";
    DG0106 Error Default "rel-base-out-of-range" "A relative level base lies outside -32..32." "Rel base out of dlevel range - zeroing!";
    DG0107 Error Default "chain-level-not-found" "The level to chain from is not an earlier level of this dungeon." "Can't locate the specified chain level.";
    DG0108 Error Default "level-outside-dungeon" "A level comes before any DUNGEON." "Level defined outside of dungeon.";
    DG0109 Error Default "duplicate-chained-level" "A chained level has the name of another level." "Duplicate level name.";
    DG0110 Error Default "chain-from-probabilistic" "A level or branch chains from a level that may not exist." "Level cannot chain from a probabilistic level.";
    DG0111 Error Default "chain-to-itself" "A level chains from itself." "A level cannot chain to itself!";
    DG0112 Error Default "branch-outside-dungeon" "A branch comes before any DUNGEON." "Branch defined outside of dungeon.";
    DG0113 Error Default "reverse-branch" "A branch leads to a dungeon defined earlier." "Reverse branching not allowed.";
    DG0114 Error Default "too-many-dungeons" "More dungeons than the game can hold (it panics at 16)." "FATAL - Too many dungeons (limit: 16).";
    DG0115 Error Default "too-many-levels" "More than 50 special levels or 32 branches." "FATAL - Too many special levels defined.";
    DG0116 Error Default "no-dungeons" "The file defines no dungeon." "FATAL - no dungeons were defined.";

    // ---- NetHack dungeon.def: problems dgn_comp misses ------------------------------------
    DG0401 Error Default "duplicate-bones-marker" "Two levels of a dungeon, or two dungeons, use the same bones marker: the game loads one's bones files as the other." "";
    DG0402 Error Default "level-outside-depth" "A level's position can fall outside its dungeon's depth." "";
    DG0403 Error Default "duplicate-level-name" "Two levels share a name; the game finds only the first." "";
    DG0404 Error Default "duplicate-dungeon-name" "Two dungeons share a name." "";
    DG0405 Error Default "unreachable-dungeon" "No branch leads to this dungeon." "";
    DG0406 Error Default "statement-before-dungeon" "A dungeon statement comes before any DUNGEON; dgn_comp writes it outside its arrays." "";
    DG0407 Error Default "name-too-long" "A name does not fit its 24-byte field, or a level name its 8-character file name." "";
    DG0408 Error Default "entry-beyond-depth" "The ENTRY level lies outside the dungeon." "";
    DG0409 Warning Default "odd-chance" "A chance outside 1..100." "";
    DG0410 Error Default "no-alternatives" "An RNDLEVEL needs at least one alternative level file." "";
    DG0411 Error Default "levels-do-not-fit" "More fixed special levels than the dungeon has levels." "";
    DG0412 Error Default "chain-to-first-level" "dgn_comp cannot find the first level of a dungeon as a chain base." "";

    // ---- dungeon.def and .des files together -------------------------------------------
    DG0501 Warning Default "missing-level-file" "A special level of the dungeon has no `.des` level of that name beside it." "";
    DG0502 Warning Default "unreachable-level-file" "A `.des` level is not reached from the dungeon description." "";
    DG0503 Info Default "levels-elsewhere" "None of the dungeon's special levels has a `.des` file in the folder: the links are not checked (one note instead of a warning per level)." "";

    // ---- COM S 327 monster and object descriptions ------------------------------------------
    RL0001 Error Default "wrong-header" "The first line is not exactly `RLG327 MONSTER DESCRIPTION 1` (or OBJECT)." "";
    RL0002 Info Default "crlf-line-ends" "A CR that the course's reference parser does not take for part of a line end: it rejects the file (a CR ending the header), drops an entry, or keeps the CR in a value." "";
    RL0003 Info Default "no-final-newline" "The file does not end with a line end." "";
    RL0004 Warning Default "text-outside-entry" "A line outside any BEGIN ... END entry; readers skip it." "";
    RL0005 Info Default "legacy-format" "A 2015-2017 file without RRTY (and ART): checked with the legacy field set." "";
    RL0101 Error Default "wrong-begin" "A BEGIN line is not `BEGIN MONSTER` (or `BEGIN OBJECT`) for this file." "";
    RL0102 Error Default "entry-not-closed" "An entry has no END line before the next BEGIN or the end of the file." "";
    RL0103 Error Default "text-after-end" "Text follows END on its line." "";
    RL0104 Error Default "unknown-field" "A line in an entry starts with a word that is not a field keyword." "";
    RL0105 Error Default "missing-fields" "An entry lacks required fields." "";
    RL0106 Error Default "duplicate-field" "A field appears twice in an entry." "";
    RL0201 Error Default "empty-name" "NAME has no text." "";
    RL0202 Info Default "name-trailing-blanks" "Blanks at the end of a NAME become part of the name." "";
    RL0203 Error Default "bad-symbol" "SYMB is not exactly one character." "";
    RL0204 Error Default "bad-color" "COLOR is empty, names an unknown colour, or (for objects) names more than one." "";
    RL0205 Error Default "bad-dice" "A dice value is not written `base+countdsides`, or does not fit 32 bits." "";
    RL0206 Info Default "degenerate-dice" "Dice that always roll the same (zero or one sides)." "";
    RL0207 Error Default "bad-ability" "ABIL is empty or names an unknown ability." "";
    RL0208 Error Default "bad-rarity" "RRTY is not a whole number from 1 to 100." "";
    RL0209 Error Default "bad-artifact" "ART is not exactly TRUE or FALSE." "";
    RL0210 Error Default "bad-type" "TYPE is empty, unknown, or names more than one type." "";
    RL0211 Error Default "desc-text-on-keyword-line" "Text follows DESC on its own line; the description starts on the next line." "";
    RL0212 Error Default "desc-line-too-long" "A description line is longer than 77 characters." "";
    RL0213 Error Default "desc-not-terminated" "A description does not end with a line holding only `.`." "";
    RL0214 Error Default "desc-empty" "A description has no text." "";
    RL0215 Warning Default "desc-almost-terminator" "A description line holds `.` with blanks around it, which does not end the description." "";
    RL0301 Warning Default "duplicate-entry-name" "Two entries share a name." "";
    RL0302 Warning Default "boss-not-unique" "A BOSS monster is not UNIQ, or several monsters are BOSS." "";
    RL0303 Warning Default "impossible-stats" "HP or SPEED can be zero or less, or WEIGHT negative." "";
    RL0304 Error Default "no-valid-entries" "No entry of the file is valid." "";

    // ---- Dungeon Crawl Stone Soup vaults: crawl's lexer and grammar -------------------------
    DC0001 Error Default "unknown-header" "A line starts with a word and a colon that is not a header keyword (keywords are case-sensitive)." "Unexpected character sequence.";
    DC0002 Error Default "unexpected-text" "A line that is neither a header, a comment, a map, nor Lua." "Unexpected character sequence.";
    DC0003 Error Default "map-not-in-column-0" "MAP must start in column 0 and be alone on its line." "Unexpected character sequence.";
    DC0004 Error Default "blank-map-line" "A blank line inside MAP ... ENDMAP." "Unexpected character sequence.";
    DC0005 Error Default "bad-tag-character" "TAGS holds a character other than letters, digits, `_` and `-` (there are no trailing comments)." "Unexpected character sequence.";
    DC0006 Error Default "bad-number-list" "CHANCE, WEIGHT and ORDER take numbers, `%`, commas and parenthesised depths only." "Unexpected character sequence.";
    DC0007 Error Default "one-character-item" "A comma-list item of one character, which crawl's lexer cannot read." "syntax error";
    DC0008 Error Default "empty-item" "An empty comma-list item or an empty list." "syntax error";
    DC0009 Error Default "missing-number" "WEIGHT or ORDER without a number." "syntax error";
    DC0010 Error Default "chunk-outside-vault" "A prelude, validate, veto or epilogue block before the vault's NAME." "syntax error";
    DC0011 Error Default "lua-syntax-error" "The vault's Lua does not compile (Lua 5.1)." "";
    DC0012 Error Default "welcome-header" "WELCOME is accepted by crawl's grammar but can never compile: no Lua function backs it." "attempt to call global 'welcome' (a nil value)";
    DC0013 Error Default "lua-always-fails" "The vault's Lua calls error() unconditionally, so validation always fails." "";
    DC0014 Error Default "text-before-first-vault" "Text before the first NAME: (or between a default-depth: and the next NAME:) that is not a comment, Lua or default-depth: a header, a MAP, anything else." "syntax error";
    DC0015 Error Default "continuation-starts-with-comma" "A continuation line of a comma list (SUBST, MONS, ITEM...) that starts with a comma: end the line above with the comma instead." "syntax error";
    DC0016 Error Default "unreadable-tab-in-map" "A map line with a tab that crawl cannot read: a lone blank before the tab, or after it a `#` or a blank followed by more text." "Unexpected character sequence.";
    DC0017 Error Default "undefined-lua-function" "The vault's Lua calls, whenever it is built, a name that neither crawl's Lua, the vault's own, nor its file's Lua before it defines." "attempt to call global 'X' (a nil value)";

    // ---- crawl's header functions (run when the vault is validated) --------------------------
    DC0101 Error Default "bad-depth" "A depth range that crawl cannot read (not a number, reversed, malformed), or a `place:` tag's depth beyond its branch." "Bad depth: X";
    DC0102 Error Default "unknown-branch" "A branch name that crawl 0.28.0 does not know, in DEPTH, PLACE or a `place:` tag (names are case-sensitive)." "Unknown branch: 'X'";
    DC0103 Error Default "bad-default-depth" "default-depth: holds a depth list crawl cannot read." "Bad default-depth: X";
    DC0104 Error Default "bad-orient" "ORIENT takes float, encompass, north, south, east, west, northeast, northwest, southeast, southwest or centre." "Bad orient: X";
    DC0105 Error Default "chance-out-of-range" "A CHANCE is outside 0..10000 (0% to 100%)." "Chance must be in the range [0,10000]";
    DC0106 Error Default "negative-weight" "A WEIGHT below zero." "Bad weight: N (must be >= 0)";
    DC0107 Error Default "missing-separator" "A glyph spec without `=` or `:` between the glyphs and the value." "malformed declaration - must use = or : in 'X'";
    DC0108 Error Default "missing-value" "A glyph spec with nothing after its `=` or `:`." "no substitute defined in 'X'";
    DC0109 Error Default "bad-weight-specifier" "A weight whose N is not a whole number above 0: `g:N` in SUBST and NSUBST, `name:N` in COLOUR, the tile headers, KPROP, FHEIGHT and SUBVAULT." "Invalid weight specifier in \"X\"";
    DC0110 Error Default "bad-nsubst" "An NSUBST segment whose count is 0 or not a whole number (`*` and -1 take every remaining cell; another negative count takes none)." "Bad NSUBST spec: X (Illegal spec: Y)";
    DC0111 Error Default "shuffle-length-mismatch" "SHUFFLE blocks separated by `/` differ in length." "block shuffle segment length mismatch";
    DC0112 Error Default "shuffle-comma" "A shuffle() call from Lua holds a comma; use `/` for blocks or one call per shuffle." "use / for block shuffle, or multiple SHUFFLE: lines";
    DC0113 Error Default "clear-nothing" "CLEAR without glyphs." "no glyphs specified for clearing";
    DC0114 Error Default "unknown-colour" "A colour that crawl 0.28.0 does not know for this header or a monster's `col:`." "bad spec: 'X' in 'Y'";
    DC0115 Error Default "unknown-tile" "A tile name that crawl 0.28.0 does not know, in a tile header or a monster's or item's `tile:`/`wtile:`." "bad spec: 'X' in 'Y'";
    DC0116 Error Default "unknown-feature" "A KFEAT feature, trap or shop that crawl 0.28.0 does not know (or a mimic tag without its feature)." "no features matching \"X\"";
    DC0117 Error Default "unknown-mask-flag" "A KMASK flag crawl does not know." "Unknown flag: 'X'";
    DC0118 Error Default "unknown-property" "A KPROP property crawl does not know." "bad spec: 'X' in 'Y'";
    DC0119 Error Default "unknown-monster" "A monster name crawl 0.28.0 does not know, or cannot place; a tag crawl does not know stays in the name." "unknown monster: \"X\"";
    DC0120 Error Default "bad-monster-spec" "A MONS/KMONS modifier crawl rejects: items a monster cannot carry, too many `;`, an unknown spell, god, enchantment or summon type, a summon without `dur:`..." "";
    DC0121 Error Default "unknown-item" "An item name or class crawl 0.28.0 does not know (a tag crawl does not know stays in the name), or a corpse the monster cannot leave." "Bad item name: 'X'";
    DC0122 Error Default "bad-item-spec" "An ITEM/KITEM modifier crawl rejects: an ego the item cannot take (one crashes the game), a bad weight, level or identify status, a randbook's school, size or spells, an unknown god..." "";
    DC0123 Error Default "subvault-equals" "SUBVAULT takes `:` between the glyphs and the tags, never `=`." "SUBVAULT does not support '='. Use ':' instead.";
    DC0124 Error Default "bad-height" "FHEIGHT takes whole numbers, with optional `:weight`." "bad spec: 'X' in 'Y'";
    DC0125 Error Default "shuffle-nothing" "A SHUFFLE item without glyphs." "";

    // ---- crawl's whole-vault checks ----------------------------------------------------------
    DC0201 Error Default "temple-without-altar" "A temple vault (PLACE: Temple or a temple_overflow_ tag) holds no `B` altar." "Temple vault must contain at least one altar.";
    DC0202 Error Default "overwrite-floor-cell-size" "A vault tagged overwrite_floor_cell must be one cell." "Map tagged 'overwrite_floor_cell' must be 1x1";
    DC0203 Error Default "abyss-encompass" "An abyss vault cannot use ORIENT: encompass." "Map 'X' cannot use 'encompass' orientation in the abyss";
    DC0204 Error Default "abyss-too-big" "An abyss vault is larger than 28x23." "Map 'X' is too big for the Abyss: WxH - max 28x23";
    DC0205 Error Default "map-too-big" "The map is larger than its orientation allows (80x70 in all; 76x66 for floats; 53 wide or 46 high for the edges; 53x46 for corners, centre and floats)." "Map 'X' is too big: WxH - max 80x70";
    DC0206 Error Default "no-exits" "No cell of the map can be an exit (a stair, or a passable, door or `@` cell on the border or next to a blank)." "Map 'X' has no (possible) exits; use TAGS: no_exits if this is intentional";
    DC0207 Error Default "not-placeable" "The vault has no DEPTH, no PLACE, no default-depth and no tag that could select it." "Map 'X' has no DEPTH, no PLACE and no selectable tag in 'T'";
    DC0208 Error Default "temple-altar-kfeat" "A temple vault gives its altar glyph `B` a KFEAT (crawl places the temple's altars itself)." "Can't change feat 'B' in temple (KFEAT)";
    DC0209 Error Default "temple-too-many-altars" "A temple vault holds more altars (`B`) than the 22 gods a temple can have." "Temple vault has too many altars";

    // ---- problems crawl misses ------------------------------------------------------------------
    DC0401 Warning Default "dropped-item-alternative" "An ITEM/KITEM alternative crawl cannot read, which it drops silently because a later alternative is valid." "";
    DC0410 Warning Default "undefined-glyph" "A map glyph that is none of crawl's glyphs and that no header of the vault names: it becomes plain floor when the vault is placed." "";
    DC0411 Warning Default "glyph-not-in-map" "A SUBST, NSUBST, SHUFFLE, CLEAR, K*, overlay, MARKER or SUBVAULT key names a glyph the map does not hold when the header applies." "";
    DC0412 Warning Default "unused-slot" "A MONS or ITEM entry that is never placed: the map never holds its glyph, a K* header takes the glyph over, or it is beyond the 7 monster or 8 item glyphs." "";
    DC0413 Warning Default "slot-beyond-list" "A monster glyph `1`-`7` or item glyph `d`-`k` without its MONS or ITEM entry: crawl places a random monster or item there." "";
    DC0414 Warning Default "unknown-subvault-tag" "A SUBVAULT asks for a tag no vault of the run carries: crawl fails to place the vault." "No vault found for tag 'X'";
    DC0415 Warning Default "abyss-depth-size" "A vault the Abyss may pick by its DEPTH, but not tagged abyss (so crawl does not check it), that uses encompass or is larger than 28x23." "";
    DC0416 Warning Default "unknown-tag" "A TAGS word that is none of crawl's tags, that no other vault carries and that nothing asks for: likely a typo." "";
    DC0417 Warning Extra "header-order" "Headers out of the order crawl's reviewers ask for: NAME, TAGS, DEPTH/PLACE, ORIENT, MONS/KMONS, ITEM/KITEM, KFEAT, TILE/FTILE (reported with -W)." "";
    DC0418 Warning Default "weight-read-as-glyphs" "A SUBST or NSUBST replacement like `ab:10`: crawl takes a weight only after a lone glyph, so it reads every character, `:` and the digits included, as a glyph." "";
    DC0419 Warning Default "tab-in-map" "A tab in a map line: crawl ends the row there and drops the rest of the line (all of it when the tab comes first), printing what it drops." "";
    DC0420 Warning Default "header-in-map" "A map line that reads as a header (NAME:, DEPTH:...): ENDMAP is likely missing above it, and crawl takes every line up to the next ENDMAP as map rows." "";
    DC0421 Warning Default "lua-function-of-other-file" "The vault's Lua calls, whenever it is built, a name only another file's Lua defines: crawl has it only when it compiles that file in the same run, not from its cache." "attempt to call global 'X' (a nil value)";
    DC0422 Warning Default "lua-conditional-undefined-call" "The vault's Lua calls, inside an `if` or a loop of its main chunk, a name that nothing defines: the vault fails on the builds that run that branch." "attempt to call global 'X' (a nil value)";

    // ---- resolving the vault for many seeds (levkit check --reachability) ----------------------
    DC0501 Warning Default "unreachable-pocket" "Some random outcomes of the vault, not all, wall off floor that no walk from its edges, exits and stairs reaches (crawl's debug placement reports an isolated area); floor walled off in every outcome is taken as the design." "Isolated area in vault";
    DC0502 Warning Default "exits-by-chance" "The map has exits in some outcomes of its transforms, but no cell is surely an exit in all: crawl checks the outcome it draws when it compiles the vault, so it fails at random." "Map 'X' has no (possible) exits; use TAGS: no_exits if this is intentional";

    // ---- across files --------------------------------------------------------------------------
    DC0301 Error Default "duplicate-vault-name" "Two vaults share a name (names are global across every file crawl loads)." "Map named 'X' already loaded at F:L";
}
