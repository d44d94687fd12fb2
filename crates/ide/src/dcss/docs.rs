//! Hover documentation of crawl 0.28.0's vault headers, map and Lua block words, written for
//! vault authors; and depth lists put in words ("Dungeon 4–9, every Lair level").

use levkit_model::dcss::depth::{self, Levels};
use levkit_model::dcss::tables::BRANCHES;

use crate::docs::KeywordDoc;

macro_rules! docs {
    ($( $word:literal => $summary:literal, $syntax:literal, $details:literal; )*) => {
        static DCSS: &[KeywordDoc] = &[ $( KeywordDoc { word: $word, summary: $summary, syntax: $syntax, details: $details }, )* ];
    };
}

docs! {
    "NAME" => "Starts a vault and names it.", "NAME: name", "Everything up to the next NAME (or default-depth line) belongs to this vault. Names are shared by every file crawl loads, so a name may be used once only; crawl compares them case by case. Wizard mode places a vault by its name (`&P`, `&L`).";
    "default-depth" => "The depth of the vaults that follow, in this file, when they give none.", "default-depth: depth list", "Applies to each later vault of the same file that ends up without a DEPTH (PLACE does not count); a new default-depth line replaces it. The text after it and before the next NAME is file-level Lua.";
    "DESC" => "A readable description of the vault.", "DESC: text", "Shown where the game names the vault to the player, for instance in a death message. The last DESC wins.";
    "DEPTH" => "The levels where the vault may be picked at random.", "DEPTH: range, range, ...", "A range is `Branch`, `Branch:N`, `Branch:N-M`, `Branch:N-` (to the bottom), `Branch:$` (the bottom level), `*` (anywhere), or a bare number for an absolute depth; `!` in front excludes it. Branch names are crawl's abbreviations (D, Lair, Orc...) and are case-sensitive. Several DEPTH lines add up.";
    "PLACE" => "The vault is a particular level, or a branch's end.", "PLACE: range", "Unlike DEPTH, this does not make the vault a candidate among others: the level builder asks for the vault that is that place (Temple, Lair:$...). The last PLACE wins.";
    "ORIENT" => "How the vault is placed, and how big it may be.", "ORIENT: float | encompass | north | south | east | west | northeast | northwest | southeast | southwest | centre", "Without ORIENT (or with an empty one) the vault is a minivault: a small map dropped into an ordinary level, tagged `minivault`. `float` lets the builder put it anywhere; the compass points stick it to that edge or corner; `encompass` makes the map the whole level (80x70). Non-encompass maps are limited to 53 columns or 46 rows. It is spelt `centre`.";
    "WELCOME" => "A message on arrival — but it cannot work in crawl 0.28.0.", "WELCOME: text", "The grammar accepts it, yet no Lua function stands behind it, so any vault using it fails to compile.";
    "CHANCE" => "The chance that the vault is forced onto a level where it may go.", "CHANCE: N | N% [ (depths) ], ...", "Out of 10,000, or a percentage (`1%` is 100). A number with a depth list in parentheses applies at those depths only; one without applies everywhere else. Must lie between 0 and 10,000.";
    "WEIGHT" => "How often the vault is picked among those eligible.", "WEIGHT: N [ (depths) ], ...", "The default is 10; 0 means never at random. Fractions are cut off and negatives rejected. A weight with a depth list in parentheses applies at those depths only.";
    "ORDER" => "Where the vault sorts in menus of a game mode.", "ORDER: N", "Used by the sprint and tutorial menus; the whole part of the number is kept.";
    "TAGS" => "Flags and selection tags of the vault.", "TAGS: word word ...", "Words of letters, digits, `_` and `-`, separated by blanks; several TAGS lines add up. Some are flags crawl acts on (`no_monster_gen`, `transparent`, `no_rotate`, `allow_dup`, `extra`, ...); any other word is a tag that SUBVAULTs, other vaults' Lua or crawl's builders pick vaults by. Another header keyword may follow on the same line.";
    "SUBST" => "Replaces glyphs of the map by other glyphs, at random.", "SUBST: glyphs = choices, glyphs : choices, ...", "Every cell holding one of the glyphs becomes one of the choices: with `=` each cell draws its own, with `:` one draw serves all cells. Choices are glyphs separated by blanks; `x:5` gives `x` weight 5 (others weigh 10), and a longer word gives each of its characters. SUBST lines run in order, after the whole map is read.";
    "NSUBST" => "Replaces given numbers of cells of some glyphs.", "NSUBST: glyphs = count=choices / count:choices / * = choices, ...", "The cells holding the glyphs are shuffled and handed out segment by segment: a count of cells, or `*` for the rest. A segment without a count means 1, except the last, which means the rest. Cells beyond the counts keep their glyph.";
    "SHUFFLE" => "Permutes glyphs, or blocks of glyphs, at random.", "SHUFFLE: abc, ab/cd/ef, ...", "Without `/` the glyphs swap places among themselves; with `/` the blocks (of equal length) are permuted and each glyph follows its block's position. Each comma item is a separate shuffle.";
    "CLEAR" => "Makes glyphs blank: not part of the vault.", "CLEAR: glyphs", "Blank cells let the level around the vault show through.";
    "MONS" => "The monsters of the glyphs `1` to `7`.", "MONS: spec, spec, ...", "Each comma item fills the next slot: the first is `1`, the seventh `7` (an eighth is never placed). A spec is `/`-separated alternatives with weights (`w:N`) and modifiers (`generate_awake`, `patrolling`, `band`, `att:friendly`, `; equipment`...). A slot glyph without its entry places a random monster.";
    "ITEM" => "The items of the glyphs `d` to `k`.", "ITEM: spec, spec, ...", "Each comma item fills the next slot, `d` first, `k` eighth. A spec is `/`-separated alternatives with weights and modifiers (`good_item`, `randart`, `ego:`, `q:`, `ident:`...). crawl drops an unreadable alternative silently when a later one is readable. A slot glyph without its entry places a random item.";
    "KFEAT" => "The dungeon feature of a glyph.", "KFEAT: glyphs = feature / feature ...", "A feature name (`altar_zin`, `deep_water`, `stone_arch`...), a single glyph (use that glyph's meaning), a trap (`... trap`, `web`) or a shop (`... shop`, with `name:`, `type:`, `count:` and `; items`). Resolved when the vault is placed, so a SUBST that produces the glyph also gets it.";
    "KMONS" => "The monsters of a glyph.", "KMONS: glyphs = spec, spec, ...", "Written like MONS, but for any glyph; the comma slots are tried in order until one places a monster. A glyph with KMONS and no KFEAT is floor.";
    "KITEM" => "The items of a glyph.", "KITEM: glyphs = spec, spec, ...", "Written like ITEM, but for any glyph; every comma item is placed on the cell. A glyph with KITEM and no KFEAT is floor.";
    "KMASK" => "Map-mask flags of a glyph's cells.", "KMASK: glyphs = flag / !flag ...", "Flags: `vault`, `no_item_gen`, `no_monster_gen`, `no_pool_fixup`, `no_wall_fixup`, `opaque`, `no_trap_gen`; `!` removes one.";
    "KPROP" => "Cell properties of a glyph's cells.", "KPROP: glyphs = property / property ...", "Properties: `bloody`, `highlight`, `no_cloud_gen`, `no_tele_into`, `no_tide`, `no_jiyva`, or `nothing`, with weights. They go to the cells holding the glyph when the line runs.";
    "COLOUR" => "The colour of some glyphs' cells.", "COLOUR: glyphs = colour / colour:N / none, ...", "Goes to the cells holding the glyphs when the line runs. Colour names are crawl's, in lower case (`lightblue`, `etc_fire`...).";
    "LFLOORCOL" => "The colour of the whole level's floor.", "LFLOORCOL: colour", "";
    "LROCKCOL" => "The colour of the whole level's rock.", "LROCKCOL: colour", "";
    "LFLOORTILE" => "The floor tile of the whole level.", "LFLOORTILE: tile", "A tile name of crawl's tile table, in lower case.";
    "LROCKTILE" => "The rock tile of the whole level.", "LROCKTILE: tile", "";
    "FTILE" => "The floor tile of some glyphs' cells.", "FTILE: glyphs = tile / tile:N / none, ...", "Goes to the cells holding the glyphs when the line runs. `no_random` keeps crawl from picking a variant of the tile.";
    "RTILE" => "The rock tile of some glyphs' cells.", "RTILE: glyphs = tile / tile:N / none, ...", "Goes to the cells holding the glyphs when the line runs.";
    "TILE" => "The feature tile of some glyphs' cells.", "TILE: glyphs = tile / tile:N / none, ...", "Goes to the cells holding the glyphs when the line runs. `no_random` and `last_tile` choose how crawl picks among the tile's variants.";
    "FHEIGHT" => "The height of some glyphs' cells.", "FHEIGHT: glyphs = N / N:weight, ...", "Whole numbers; rarely used.";
    "MARKER" => "Attaches a marker to some glyphs' cells.", "MARKER: glyphs = feat:feature | lua:expression", "A `lua:` marker is a Lua expression (`fog_machine { ... }`, `lua_marker(...)`...) that crawl pastes into a function; a marker goes to the cells holding the glyphs when the line runs, and follows them when the map is turned.";
    "SUBVAULT" => "Fills the cells of some glyphs with another vault, picked by tag.", "SUBVAULT: glyphs : tag / tag:N ...", "The bounding box of the glyphs is the room the subvault gets; only the cells holding them are replaced. A vault carrying the tag (all the tags, when several are written) is picked when the vault is placed; none found is a failure. Only `:` is accepted.";
    "MAP" => "Starts the map: rows of glyphs up to ENDMAP.", "MAP\n...rows...\nENDMAP", "MAP stands alone in column 0. Each byte of a row is one cell; rows end at a tab and lose their trailing blanks, and a blank row is an error. Several MAP blocks of a vault are joined. Without ENDMAP the rest of the file is map.";
    "ENDMAP" => "Ends the map.", "ENDMAP", "In column 0; an indented ENDMAP is a map row.";
    "lua" => "A block of Lua for the vault's main chunk.", "lua {{ ... }}", "Runs with the headers, in source-line order, when the vault is built. The block ends at the first line ending with `}}`.";
    "prelude" => "A block of Lua run before the map is read.", "prelude {{ ... }}", "Only inside a vault.";
    "validate" => "A block of Lua that judges the built vault.", "validate {{ ... }}", "Returning false makes crawl build the vault again (up to a few times) when it is placed.";
    "veto" => "A block of Lua that may reject the vault before it is placed.", "veto {{ ... }}", "Returning true rejects the vault for this level.";
    "epilogue" => "A block of Lua run after the vault is placed.", "epilogue {{ ... }}", "";
}

pub(crate) fn keyword(word: &str) -> Option<&'static KeywordDoc> {
    DCSS.iter().find(|d| d.word == word)
}

/// How a branch is named in words: its name without the article, or its abbreviation when
/// the name is long ("Lair" for the Lair of Beasts).
pub(crate) fn branch_name(abbrev: &str) -> String {
    let Some(branch) = BRANCHES.iter().find(|b| b.abbrev == abbrev) else {
        return abbrev.to_string();
    };
    let name = ["the ", "a ", "an "]
        .iter()
        .find_map(|article| branch.long_name.strip_prefix(article))
        .unwrap_or(branch.long_name.as_str());
    if name.split_whitespace().count() > 2 {
        branch.abbrev.to_string()
    } else {
        let mut chars = name.chars();
        chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect())
            .unwrap_or_default()
    }
}

/// A depth list in words, or crawl's complaint about it.
pub(crate) fn depths_in_words(text: &str) -> String {
    let ranges = match depth::parse(text) {
        Ok(ranges) => ranges,
        Err(error) => return format!("crawl cannot read this: {}", error.message()),
    };
    if ranges.is_empty() {
        return "no level".into();
    }
    let mut out: Vec<String> = Vec::new();
    for range in &ranges {
        let depth = BRANCHES
            .iter()
            .find(|b| Some(b.abbrev.as_str()) == range.branch.as_deref())
            .map(|b| b.max_depth);
        let words = match range.branch.as_deref() {
            None | Some("any" | "Any" | "*") if range.levels == Levels::All => "anywhere".into(),
            None | Some("any" | "Any" | "*") => match range.levels {
                Levels::Span { first, last } => match last {
                    Some(last) if last == first => format!("every level at depth {first}"),
                    Some(last) => format!("every level at depth {first}–{last}"),
                    None => format!("every level at depth {first} or deeper"),
                },
                _ => "the last level of every branch".into(),
            },
            Some(abbrev) => {
                let name = branch_name(abbrev);
                match range.levels {
                    Levels::All => format!("every {name} level"),
                    Levels::Bottom => match depth {
                        Some(d) => format!("the last level of {name} ({name} {d})"),
                        None => format!("the last level of {name}"),
                    },
                    Levels::Span { first, last } => match last {
                        Some(last) if last == first => format!("{name} {first}"),
                        Some(last) => format!("{name} {first}–{last}"),
                        None => match depth {
                            Some(d) if u32::from(d) > first => format!("{name} {first}–{d}"),
                            _ => format!("{name} {first} and below"),
                        },
                    },
                }
            }
        };
        out.push(if range.exclude {
            format!("except {words}")
        } else {
            words
        });
    }
    let mut text = out.join(", ");
    if let Some(first) = text.get(..1) {
        text = first.to_uppercase() + &text[1..];
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_header_and_block_word_is_documented() {
        for header in levkit_syntax::dcss::Header::ALL {
            assert!(keyword(header.keyword()).is_some(), "{header:?}");
        }
        for word in [
            "MAP", "ENDMAP", "lua", "prelude", "validate", "veto", "epilogue",
        ] {
            assert!(keyword(word).is_some(), "{word}");
        }
    }

    #[test]
    fn depths_read_as_words() {
        assert_eq!(
            depths_in_words("D:4-9, Lair"),
            "Dungeon 4–9, every Lair level"
        );
        assert_eq!(
            depths_in_words("Elf:2-, !Zot:$, 3"),
            "Elven Halls 2–3, except the last level of Zot (Zot 5), every level at depth 3"
        );
        assert_eq!(
            depths_in_words("D:0"),
            "crawl cannot read this: Bad depth: 0"
        );
    }
}
