//! One kind enum for every dialect: tokens first, then nodes. A dialect's lexer maps its
//! words onto these kinds; kinds shared by dialects (`LEVEL_KW`, `COLON`...) are reused.
//! Nothing depends on the order of the kinds: every group is an explicit list, so a kind can be
//! inserted anywhere.

#[allow(non_camel_case_types)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u16)]
pub enum SyntaxKind {
    // ---- trivia ----
    WHITESPACE = 0,
    NEWLINE,
    COMMENT,

    // ---- literals and punctuation ----
    STRING,
    /// A string with no closing quote before the end of its line.
    UNTERMINATED_STRING,
    CHAR,
    INT,
    /// `[ 50% ]`, one token as in lev_comp.
    PERCENT,
    COLON,
    COMMA,
    L_PAREN,
    R_PAREN,
    L_BRACK,
    R_BRACK,
    /// A word that is not a keyword of the dialect.
    IDENT,
    /// A character no token starts with.
    ERROR_CHAR,
    /// One row of a MAP block, without its line end (may be empty).
    MAP_ROW,

    // ---- NetHack lev_comp statement keywords ----
    MAZE_KW,
    LEVEL_KW,
    FLAGS_KW,
    INIT_MAP_KW,
    MESSAGE_KW,
    GEOMETRY_KW,
    MAP_KW,
    ENDMAP_KW,
    NOMAP_KW,
    RANDOM_OBJECTS_KW,
    RANDOM_PLACES_KW,
    RANDOM_MONSTERS_KW,
    OBJECT_KW,
    CONTAINER_KW,
    MONSTER_KW,
    TRAP_KW,
    DOOR_KW,
    DRAWBRIDGE_KW,
    MAZEWALK_KW,
    WALLIFY_KW,
    REGION_KW,
    ALTAR_KW,
    LADDER_KW,
    STAIR_KW,
    PORTAL_KW,
    TELEPORT_REGION_KW,
    BRANCH_KW,
    FOUNTAIN_KW,
    SINK_KW,
    POOL_KW,
    NON_DIGGABLE_KW,
    NON_PASSWALL_KW,
    ROOM_KW,
    SUBROOM_KW,
    RANDOM_CORRIDORS_KW,
    CORRIDOR_KW,
    GOLD_KW,
    ENGRAVING_KW,
    NAME_KW,
    CHANCE_KW,
    LEVREGION_KW,
    CONTAINED_KW,

    // ---- NetHack lev_comp value keywords, grouped as lev_comp's tokens are ----
    RANDOM_KW,
    NONE_KW,
    OBJECT_REG_KW,
    MONSTER_REG_KW,
    PLACE_REG_KW,
    ALIGN_REG_KW,
    DOOR_STATE,
    DIRECTION,
    LEFT_OR_RIGHT,
    CENTER_KW,
    TOP_OR_BOT,
    LIGHT_STATE,
    FILLING,
    ALIGNMENT,
    MON_ATTITUDE,
    MON_ALERTNESS,
    MON_APPEARANCE,
    ALTAR_TYPE,
    UP_OR_DOWN,
    BOOLEAN,
    ENGRAVING_TYPE,
    CURSE_TYPE,
    FLAG_TYPE,

    // ---- NetHack dgn_comp (dungeon.def) ----
    /// `%REINCARNATION`: a makedefs condition prefixing a line.
    PREPROCESSOR,
    DUNGEON_KW,
    ENTRY_KW,
    PROTOFILE_KW,
    DESCRIPTION_KW,
    LEVELDESC_KW,
    /// `ALIGNMENT` as a dungeon.def keyword (not lev_comp's alignment values).
    DGN_ALIGNMENT_KW,
    LEVALIGN_KW,
    CHAINBRANCH_KW,
    RNDLEVEL_KW,
    CHAINLEVEL_KW,
    RNDCHLEVEL_KW,
    /// `stair`, `no_up`, `no_down`, `portal`.
    BRANCH_TYPE,
    /// `town`, `hellish`, `mazelike`, `roguelike`, and the alignments.
    DESCRIPTOR,
    AT,
    PLUS,

    // ---- RLG327 descriptions ----
    /// The text of the header line.
    RLG_HEADER_TEXT,
    RLG_BEGIN_KW,
    RLG_END_KW,
    /// A field keyword (`NAME`, `DESC`, `SPEED`...), or an unknown word where one is expected.
    RLG_FIELD_KW,
    /// One word of a field's value.
    RLG_WORD,
    /// Free text to the end of the line (a NAME, a stray line).
    RLG_TEXT,
    /// One line of a DESC block.
    RLG_DESC_LINE,
    /// The `.` line that ends a DESC block.
    RLG_DESC_END,

    // ---- DCSS vaults ----
    /// A header keyword without its colon: `NAME`, `SUBST`, `default-depth`...
    DCSS_HEADER_KW,
    /// A piece of a whole-line header value (one per physical line of a continued value).
    DCSS_VALUE,
    /// A piece of one comma-separated item (SUBST, ITEM, MONS...).
    DCSS_ITEM,
    /// One TAGS word.
    DCSS_WORD,
    /// A number of CHANCE, WEIGHT or ORDER.
    DCSS_NUMBER,
    /// The `%` after a CHANCE number.
    DCSS_PERCENT,
    /// The `\` that continues a header on the next line.
    DCSS_CONTINUATION,
    /// What follows a tab in a map row: crawl drops it.
    DCSS_DROPPED,
    /// The `s` letters crawl's lexer accepts before `MAP` and `ENDMAP` (its `\s` quirk).
    DCSS_QUIRK,
    /// The `:` that starts a one-line Lua statement.
    LUA_MARK,
    /// `lua`, `prelude`, `validate`, `veto` or `epilogue` before `{{`.
    LUA_CHUNK_KW,
    LUA_OPEN,
    LUA_CLOSE,
    /// One line of Lua (or the part of it inside `{{ }}`), as written.
    LUA_TEXT,

    /// End of input; never stored in a tree.
    EOF,

    // ---- nodes ----
    SOURCE_FILE,
    /// Tokens the parser could not place.
    ERROR,
    MAZE_LEVEL,
    ROOM_LEVEL,
    MAZE_DECL,
    LEVEL_DECL,
    FLAGS_STMT,
    INIT_MAP_STMT,
    MESSAGE_STMT,
    MAP_PART,
    GEOMETRY_STMT,
    MAP_BLOCK,
    NOMAP_STMT,
    RANDOM_OBJECTS_STMT,
    RANDOM_PLACES_STMT,
    RANDOM_MONSTERS_STMT,
    ROOM,
    ROOM_STMT,
    SUBROOM_STMT,
    NAME_STMT,
    CHANCE_STMT,
    ROOM_DOOR_STMT,
    DOOR_STMT,
    MONSTER_STMT,
    OBJECT_STMT,
    TRAP_STMT,
    DRAWBRIDGE_STMT,
    MAZEWALK_STMT,
    WALLIFY_STMT,
    LADDER_STMT,
    STAIR_STMT,
    STAIR_REGION_STMT,
    PORTAL_STMT,
    TELEPORT_REGION_STMT,
    BRANCH_STMT,
    ALTAR_STMT,
    FOUNTAIN_STMT,
    SINK_STMT,
    POOL_STMT,
    GOLD_STMT,
    ENGRAVING_STMT,
    NON_DIGGABLE_STMT,
    NON_PASSWALL_STMT,
    REGION_STMT,
    RANDOM_CORRIDORS_STMT,
    CORRIDOR_STMT,
    /// One comma-separated argument of a statement.
    ARG,
    /// `(a, b)`: a coordinate, a room position, a size, or a dungeon.def level couple.
    COORD,
    /// `(x1, y1, x2, y2)`.
    RECT,
    /// `levregion(x1, y1, x2, y2)`.
    LEV_REGION,
    /// `place[i]`, `monster[i]`, `object[i]`, `align[i]`.
    REGISTER,
    /// `(h, v)` alignment of a room.
    ALIGN_PAIR,
    /// `(room, wall, door)` end of a CORRIDOR.
    CORRIDOR_SPEC,
    /// `m_feature "fountain"`: a mimic's appearance.
    APPEARANCE,
    /// A `DUNGEON` line with the statements that follow it.
    DUNGEON,
    DUNGEON_STMT,
    ENTRY_STMT,
    PROTOFILE_STMT,
    DESCRIPTION_STMT,
    DGN_ALIGNMENT_STMT,
    /// `LEVEL` or `RNDLEVEL` in a dungeon.def.
    DGN_LEVEL_STMT,
    /// `CHAINLEVEL` or `RNDCHLEVEL`.
    CHAIN_LEVEL_STMT,
    LEVELDESC_STMT,
    LEVALIGN_STMT,
    /// `BRANCH` in a dungeon.def.
    DGN_BRANCH_STMT,
    CHAIN_BRANCH_STMT,
    /// The header line of an RLG327 file.
    RLG_HEADER,
    /// `BEGIN MONSTER` ... `END`.
    RLG_ENTRY,
    /// One field of an entry, DESC text included.
    RLG_FIELD,
    /// A line outside any entry.
    RLG_STRAY,
    /// A DCSS vault: from its `NAME:` to the next vault, `default-depth:` or the end.
    DCSS_VAULT,
    /// DCSS text outside vaults: the start of the file, or a `default-depth:` line and the
    /// file-level Lua after it.
    DCSS_GLOBAL,
    /// One header with its value, continuation lines included.
    DCSS_HEADER,
    /// `MAP` ... `ENDMAP`.
    DCSS_MAP,
    /// `: code`.
    LUA_LINE,
    /// `{{ ... }}`, possibly after a chunk keyword.
    LUA_BLOCK,

    #[doc(hidden)]
    __LAST,
}

use SyntaxKind::*;

impl SyntaxKind {
    pub fn is_trivia(self) -> bool {
        matches!(
            self,
            WHITESPACE | NEWLINE | COMMENT | PREPROCESSOR | DCSS_QUIRK | DCSS_DROPPED
        )
    }

    /// True for the keywords that begin a dungeon.def statement.
    pub fn is_dungeon_statement_start(self) -> bool {
        matches!(
            self,
            DUNGEON_KW
                | ENTRY_KW
                | PROTOFILE_KW
                | DESCRIPTION_KW
                | LEVELDESC_KW
                | DGN_ALIGNMENT_KW
                | LEVALIGN_KW
                | LEVEL_KW
                | RNDLEVEL_KW
                | CHAINLEVEL_KW
                | RNDCHLEVEL_KW
                | BRANCH_KW
                | CHAINBRANCH_KW
        )
    }

    /// True for the keywords that begin a NetHack statement (the parser recovers at them).
    /// `ENDMAP` only closes a MAP block; `levregion` and `contained` stand inside statements.
    pub fn is_nethack_statement_start(self) -> bool {
        matches!(
            self,
            MAZE_KW
                | LEVEL_KW
                | FLAGS_KW
                | INIT_MAP_KW
                | MESSAGE_KW
                | GEOMETRY_KW
                | MAP_KW
                | NOMAP_KW
                | RANDOM_OBJECTS_KW
                | RANDOM_PLACES_KW
                | RANDOM_MONSTERS_KW
                | OBJECT_KW
                | CONTAINER_KW
                | MONSTER_KW
                | TRAP_KW
                | DOOR_KW
                | DRAWBRIDGE_KW
                | MAZEWALK_KW
                | WALLIFY_KW
                | REGION_KW
                | ALTAR_KW
                | LADDER_KW
                | STAIR_KW
                | PORTAL_KW
                | TELEPORT_REGION_KW
                | BRANCH_KW
                | FOUNTAIN_KW
                | SINK_KW
                | POOL_KW
                | NON_DIGGABLE_KW
                | NON_PASSWALL_KW
                | ROOM_KW
                | SUBROOM_KW
                | RANDOM_CORRIDORS_KW
                | CORRIDOR_KW
                | GOLD_KW
                | ENGRAVING_KW
                | NAME_KW
                | CHANCE_KW
        )
    }

    /// True for lev_comp's value keywords (`random`, `place`, door states, alignments...).
    pub fn is_nethack_value_keyword(self) -> bool {
        matches!(
            self,
            RANDOM_KW
                | NONE_KW
                | OBJECT_REG_KW
                | MONSTER_REG_KW
                | PLACE_REG_KW
                | ALIGN_REG_KW
                | DOOR_STATE
                | DIRECTION
                | LEFT_OR_RIGHT
                | CENTER_KW
                | TOP_OR_BOT
                | LIGHT_STATE
                | FILLING
                | ALIGNMENT
                | MON_ATTITUDE
                | MON_ALERTNESS
                | MON_APPEARANCE
                | ALTAR_TYPE
                | UP_OR_DOWN
                | BOOLEAN
                | ENGRAVING_TYPE
                | CURSE_TYPE
                | FLAG_TYPE
        )
    }

    fn from_raw(raw: u16) -> SyntaxKind {
        assert!(raw < __LAST as u16, "invalid syntax kind {raw}");
        // SAFETY: `SyntaxKind` is `repr(u16)` with contiguous discriminants below `__LAST`.
        unsafe { std::mem::transmute::<u16, SyntaxKind>(raw) }
    }
}

impl From<SyntaxKind> for rowan::SyntaxKind {
    fn from(kind: SyntaxKind) -> Self {
        rowan::SyntaxKind(kind as u16)
    }
}

/// The rowan language of every levkit tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LevLanguage {}

impl rowan::Language for LevLanguage {
    type Kind = SyntaxKind;
    fn kind_from_raw(raw: rowan::SyntaxKind) -> SyntaxKind {
        SyntaxKind::from_raw(raw.0)
    }
    fn kind_to_raw(kind: SyntaxKind) -> rowan::SyntaxKind {
        kind.into()
    }
}

pub type SyntaxNode = rowan::SyntaxNode<LevLanguage>;
pub type SyntaxToken = rowan::SyntaxToken<LevLanguage>;
pub type SyntaxElement = rowan::SyntaxElement<LevLanguage>;
