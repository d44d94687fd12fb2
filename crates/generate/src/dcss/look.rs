//! What resolved cells are and how crawl's console draws them: features by their display
//! character and colour (from the generated feature table), monsters by their glyph and
//! colour, items by their class's symbol. Colours are crawl's names (`LIGHTGREY`, `ETC_ROCK`);
//! renderings turn them into their own.

use levkit_model::dcss::tables::{FEATURES, Feature, ITEMS, MONSTERS};

/// What the heat counts a square as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Walls of every kind, trees, grates: what blocks movement and sight alike.
    Wall,
    Floor,
    /// Deep and shallow water.
    Water,
    Lava,
    Door,
    /// Stairs, portals, altars, fountains, statues, arches, shops, traps...
    Feature,
    /// Not part of the vault: the level around shows through.
    Outside,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Wall => "wall",
            Kind::Floor => "floor",
            Kind::Water => "water",
            Kind::Lava => "lava",
            Kind::Door => "door",
            Kind::Feature => "feature",
            Kind::Outside => "outside",
        }
    }
}

/// A cell's terrain as the game makes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Terrain {
    /// crawl's vault name of the feature (`rock_wall`), or a word for what it stands for.
    pub feature: String,
    /// In words.
    pub description: String,
    pub glyph: char,
    pub colour: &'static str,
    pub kind: Kind,
    /// Whether a player walking (no flight, no swimming) can cross it: crawl's travel rules
    /// (closed doors open, deep water and lava do not carry you).
    pub passable: bool,
}

/// The console character of a display class (crawl's default character set).
fn dchar_glyph(dchar: &str) -> char {
    match dchar {
        "DCHAR_WALL" | "DCHAR_GRATE" => '#',
        "DCHAR_PERMAWALL" => '▓',
        "DCHAR_DOOR_OPEN" => '\'',
        "DCHAR_DOOR_CLOSED" => '+',
        "DCHAR_TRAP" => '^',
        "DCHAR_STAIRS_DOWN" => '>',
        "DCHAR_STAIRS_UP" => '<',
        "DCHAR_ALTAR" => '_',
        "DCHAR_ARCH" => '∩',
        "DCHAR_FOUNTAIN" => '⌠',
        "DCHAR_WAVY" => '≈',
        "DCHAR_STATUE" => '8',
        "DCHAR_TREE" => '♣',
        "DCHAR_TELEPORTER" | "DCHAR_TRANSPORTER" => '©',
        _ => '.',
    }
}

fn from_table(f: &Feature) -> Terrain {
    let name = f.name;
    let kind = match f.dchar.as_str() {
        "DCHAR_WALL" | "DCHAR_PERMAWALL" | "DCHAR_GRATE" | "DCHAR_TREE" => Kind::Wall,
        "DCHAR_DOOR_OPEN" | "DCHAR_DOOR_CLOSED" => Kind::Door,
        "DCHAR_FLOOR" | "NUM_DCHAR_TYPES" | "DCHAR_TRANSPORTER_LANDING" => Kind::Floor,
        "DCHAR_WAVY" if name == "lava" => Kind::Lava,
        "DCHAR_WAVY" if name.contains("water") => Kind::Water,
        _ => Kind::Feature,
    };
    let impassable = matches!(kind, Kind::Wall | Kind::Lava)
        || f.dchar == "DCHAR_STATUE"
        || name == "deep_water"
        || name == "toxic_bog"
        || name.starts_with("sealed_");
    Terrain {
        feature: name.to_string(),
        description: if f.description.is_empty() {
            name.replace('_', " ")
        } else {
            f.description.to_string()
        },
        glyph: dchar_glyph(f.dchar.as_str()),
        colour: f.colour.as_str(),
        kind,
        passable: !impassable,
    }
}

/// A feature by its vault name (`rock_wall`, `altar_zin`).
pub fn feature(name: &str) -> Option<Terrain> {
    /// The features crawl accepts by lowercase name (the first of a name, as a search of the
    /// table finds): looked up for every cell a vault draws.
    static ACCEPTED: std::sync::LazyLock<std::collections::HashMap<String, &'static Feature>> =
        std::sync::LazyLock::new(|| {
            let mut by_name = std::collections::HashMap::new();
            for f in FEATURES.iter().filter(|f| f.accepted) {
                by_name.entry(f.name.to_ascii_lowercase()).or_insert(f);
            }
            by_name
        });
    ACCEPTED
        .get(&name.trim().to_ascii_lowercase())
        .map(|f| from_table(f))
}

fn named(name: &str) -> Terrain {
    feature(name).unwrap_or_else(floor)
}

pub fn floor() -> Terrain {
    static FLOOR: std::sync::LazyLock<Terrain> = std::sync::LazyLock::new(|| {
        FEATURES
            .iter()
            .find(|f| f.name == "floor")
            .map(from_table)
            .expect("the feature table has floor")
    });
    FLOOR.clone()
}

pub fn outside() -> Terrain {
    Terrain {
        feature: "outside".into(),
        description: "not part of the vault (the level around shows through)".into(),
        glyph: ' ',
        colour: "DARKGREY",
        kind: Kind::Outside,
        passable: false,
    }
}

/// A trap, shop or altar a KFEAT names in words.
fn described(feature: &str, description: String, glyph: char, colour: &'static str) -> Terrain {
    Terrain {
        feature: feature.to_string(),
        description,
        glyph,
        colour,
        kind: Kind::Feature,
        passable: true,
    }
}

pub fn trap(name: &str) -> Terrain {
    let name = name.trim();
    let colour = FEATURES
        .iter()
        .find(|f| f.dchar == "DCHAR_TRAP" && f.description.eq_ignore_ascii_case(name))
        .map_or("LIGHTCYAN", |f| f.colour.as_str());
    let description = if name == "trap" || name == "random trap" {
        "random trap".to_string()
    } else {
        name.to_string()
    };
    described("trap", description, '^', colour)
}

pub fn shop(text: &str) -> Terrain {
    described("enter_shop", text.trim().to_string(), '∩', "YELLOW")
}

/// What a map glyph means when no KFEAT says otherwise (the glyph table of crawl 0.28.0),
/// in the branch the vault is placed in (`t` is a mangrove in the Swamp, a demonic tree in
/// the Abyss and Pandemonium).
pub fn glyph_terrain(glyph: u8, branch: &str) -> Terrain {
    match glyph {
        b' ' => outside(),
        b't' if branch == "Swamp" => named("mangrove"),
        b't' if branch == "Abyss" || branch == "Pan" => named("demonic_tree"),
        b'B' => described(
            "altar",
            "altar (its god chosen by the temple)".into(),
            '_',
            "WHITE",
        ),
        b'C' => described("altar", "altar of a random god".into(), '_', "WHITE"),
        b'^' => trap("random trap"),
        _ => {
            let glyph = glyph as char;
            FEATURES
                .iter()
                .find(|f| f.accepted && f.glyph.len() == 1 && f.glyph.starts_with(glyph))
                .map_or_else(floor, from_table)
        }
    }
}

/// A monster as drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Look {
    pub glyph: char,
    pub colour: &'static str,
    /// What it is, in words.
    pub name: String,
    /// Whether the game picks it when the level is made (a random monster or item).
    pub random: bool,
}

/// The name part of a MONS or ITEM alternative: tags (`w:5`, `hd:10`, `name:x`...) and flag
/// words taken off; what follows `;` (a monster's equipment) left out.
fn bare_name(spec: &str) -> String {
    let spec = spec.split(';').next().unwrap_or("");
    spec.split_whitespace()
        .filter(|word| !word.contains(':') && !is_flag(word))
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
        .replace('_', " ")
}

fn is_flag(word: &str) -> bool {
    matches!(
        word,
        "generate_awake"
            | "patrolling"
            | "band"
            | "seen"
            | "always_corpse"
            | "never_corpse"
            | "god_gift"
            | "summoned"
            | "actual"
            | "good_item"
            | "star_item"
            | "mundane"
            | "damaged"
            | "randart"
            | "useful"
            | "unobtainable"
            | "mimic"
            | "no_pickup"
            | "no_uniq"
            | "allow_uniq"
            | "acquire"
            | "randbook"
            | "unrand"
            | "cursed"
            | "uncursed"
            | "never_decay"
            | "no_mimic"
    ) || word.starts_with("n_")
}

fn table_monster(name: &str) -> Option<&'static levkit_model::dcss::tables::Monster> {
    MONSTERS.iter().find(|m| m.name.eq_ignore_ascii_case(name))
}

/// A MONS/KMONS alternative as drawn (`None` for `nothing`).
pub fn monster(spec: &str) -> Option<Look> {
    let name = bare_name(spec);
    let random = |what: &str| Look {
        glyph: '&',
        colour: "LIGHTMAGENTA",
        name: what.to_string(),
        random: true,
    };
    if name.is_empty() {
        return Some(random("monster"));
    }
    Some(match name.as_str() {
        "nothing" => return None,
        "random" | "any" | "any monster" | "random monster" | "0" => {
            random("random monster for the level")
        }
        "9" => random("random monster a little out of depth"),
        "8" => random("random monster well out of depth"),
        _ => {
            if let Some(m) = table_monster(&name) {
                Look {
                    glyph: m.glyph.chars().next().unwrap_or('M'),
                    colour: m.colour.as_str(),
                    name: m.name.to_string(),
                    random: false,
                }
            } else if let Some(base) = ["zombie", "skeleton", "simulacrum"]
                .iter()
                .find(|form| name.ends_with(&format!(" {form}")))
            {
                let colour = table_monster(base).map_or("BROWN", |m| m.colour.as_str());
                Look {
                    glyph: 'Z',
                    colour,
                    name,
                    random: false,
                }
            } else if name.starts_with("spectral ") {
                Look {
                    glyph: 'Z',
                    colour: "GREEN",
                    name,
                    random: false,
                }
            } else if let Some(rest) = name.strip_prefix("random ").or(name.strip_suffix(" any")) {
                random(&format!("random {rest}"))
            } else {
                // A class or place form crawl accepts (`place:Lair:3`, `orc`-like genera):
                // the game chooses.
                random(&name)
            }
        }
    })
}

/// The symbol of an item class (crawl's default console characters).
fn class_glyph(class: &str, name: &str) -> char {
    match class {
        "OBJ_WEAPONS" => ')',
        "OBJ_MISSILES" => '(',
        "OBJ_ARMOUR" => '[',
        "OBJ_WANDS" => '/',
        "OBJ_FOOD" | "OBJ_CORPSES" => '%',
        "OBJ_SCROLLS" => '?',
        "OBJ_JEWELLERY" if name.contains("amulet") => '"',
        "OBJ_JEWELLERY" => '=',
        "OBJ_POTIONS" => '!',
        "OBJ_BOOKS" => ':',
        "OBJ_STAVES" => '|',
        "OBJ_ORBS" => '0',
        "OBJ_MISCELLANY" => '}',
        "OBJ_GOLD" => '$',
        "OBJ_RUNES" => 'φ',
        _ => '*',
    }
}

/// An ITEM/KITEM alternative as drawn (`None` for `nothing`).
pub fn item(spec: &str) -> Option<Look> {
    let name = bare_name(spec);
    let random = |glyph: char, what: String| Look {
        glyph,
        colour: "LIGHTCYAN",
        name: what,
        random: true,
    };
    match name.as_str() {
        "nothing" => return None,
        "" | "%" | "*" | "any" | "random" => return Some(random('*', "random item".into())),
        "|" => return Some(random('*', "superb random item".into())),
        "$" | "gold" => {
            return Some(Look {
                glyph: '$',
                colour: "YELLOW",
                name: "gold".into(),
                random: false,
            });
        }
        _ => {}
    }
    if let Some(item) = ITEMS.iter().find(|i| i.key == name || i.name == name) {
        return Some(Look {
            glyph: class_glyph(item.class.as_str(), &name),
            colour: "LIGHTGREY",
            name: item.name.to_string(),
            random: false,
        });
    }
    // Class words (`any weapon`, `potion`, `book`...) and forms (`manual of X`, `orc corpse`).
    let word = |w: &str| name.split(' ').any(|x| x.trim_end_matches('s') == w);
    let class = [
        ("weapon", ')'),
        ("armour", '['),
        ("wand", '/'),
        ("scroll", '?'),
        ("potion", '!'),
        ("ring", '='),
        ("amulet", '"'),
        ("jewellery", '='),
        ("book", ':'),
        ("manual", ':'),
        ("staff", '|'),
        ("rod", '|'),
        ("missile", '('),
        ("food", '%'),
        ("corpse", '%'),
        ("skeleton", '%'),
        ("miscellaneous", '}'),
        ("rune", 'φ'),
    ]
    .into_iter()
    .find(|(w, _)| word(w));
    Some(match class {
        Some((_, glyph))
            if name.starts_with("any ")
                || name.starts_with("random ")
                || !name.contains(" of ") && word("any") =>
        {
            random(glyph, name)
        }
        Some((_, glyph)) => Look {
            glyph,
            colour: "LIGHTGREY",
            name,
            random: false,
        },
        None => random('*', name),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glyphs_mean_what_crawl_says() {
        assert_eq!(glyph_terrain(b'x', "D").feature, "rock_wall");
        assert_eq!(glyph_terrain(b'x', "D").glyph, '#');
        assert_eq!(glyph_terrain(b'w', "D").kind, Kind::Water);
        assert!(!glyph_terrain(b'w', "D").passable);
        assert!(glyph_terrain(b'W', "D").passable);
        assert!(glyph_terrain(b'+', "D").passable);
        assert_eq!(glyph_terrain(b't', "Swamp").feature, "mangrove");
        assert_eq!(glyph_terrain(b'Q', "D").feature, "floor");
        assert_eq!(glyph_terrain(b' ', "D").kind, Kind::Outside);
        assert_eq!(glyph_terrain(b'l', "D").kind, Kind::Lava);
        assert!(!glyph_terrain(b'G', "D").passable);
    }

    #[test]
    fn monsters_and_items_look_like_the_game() {
        let orc = monster("orc w:5 generate_awake").unwrap();
        assert_eq!((orc.glyph, orc.random), ('o', false));
        assert!(monster("nothing").is_none());
        assert!(monster("random").unwrap().random);
        assert_eq!(monster("orc zombie").unwrap().glyph, 'Z');
        assert_eq!(item("potion of curing q:2").unwrap().glyph, '!');
        assert_eq!(item("any weapon").unwrap().glyph, ')');
        assert!(item("any weapon").unwrap().random);
    }
}
