//! The file formats levkit reads, and how a file's format is recognised.

use std::path::Path;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dialect {
    /// NetHack 3.4.3 special levels, compiled by lev_comp.
    NethackDes,
    /// NetHack 3.4.3's dungeon description (`dungeon.def`), compiled by dgn_comp.
    NethackDungeon,
    /// COM S 327 monster descriptions (`RLG327 MONSTER DESCRIPTION 1`).
    Rlg327Monster,
    /// COM S 327 object descriptions (`RLG327 OBJECT DESCRIPTION 1`).
    Rlg327Object,
    /// Dungeon Crawl Stone Soup vault files (recognised, not yet analysed).
    DcssDes,
    /// A file whose format could not be recognised.
    Unknown,
}

impl Dialect {
    pub fn name(self) -> &'static str {
        match self {
            Dialect::NethackDes => "nethack",
            Dialect::NethackDungeon => "nethack-dungeon",
            Dialect::Rlg327Monster => "rlg327-monster",
            Dialect::Rlg327Object => "rlg327-object",
            Dialect::DcssDes => "dcss",
            Dialect::Unknown => "unknown",
        }
    }

    pub fn from_name(name: &str) -> Option<Dialect> {
        match name {
            "nethack" | "nethack-des" => Some(Dialect::NethackDes),
            "nethack-dungeon" | "dungeon" => Some(Dialect::NethackDungeon),
            "rlg327-monster" => Some(Dialect::Rlg327Monster),
            "rlg327-object" => Some(Dialect::Rlg327Object),
            "dcss" | "dcss-des" => Some(Dialect::DcssDes),
            _ => None,
        }
    }

    /// Whether `path` looks like a file levkit should read when walking a directory.
    pub fn is_candidate_path(path: &Path) -> bool {
        path.extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("des"))
            || is_dungeon_file_name(path)
            || path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("txt"))
    }

    /// Recognises a file by its content, using the name only as a tie-breaker.
    ///
    /// NetHack levels are statements `MAZE:`/`LEVEL:` and friends; DCSS vaults have `NAME:`
    /// headers, `default-depth:`, Lua blocks and `: ` Lua lines. Comments and blank lines are
    /// skipped; the first telling line decides.
    pub fn detect(path: &Path, text: &str) -> Dialect {
        if is_dungeon_file_name(path) {
            return Dialect::NethackDungeon;
        }
        if let Some(kind) = rlg327_kind(path, text) {
            return kind;
        }
        for line in text.lines().take(400) {
            let line = line.trim_end_matches('\r');
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let word: &str = line
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
                .next()
                .unwrap_or("");
            // These words open NetHack levels only; a broken line after them is still NetHack.
            if matches!(
                word.to_ascii_uppercase().as_str(),
                "MAZE" | "LEVEL" | "INIT_MAP" | "GEOMETRY"
            ) {
                return Dialect::NethackDes;
            }
            let after_word = line[word.len()..].trim_start();
            if after_word.starts_with(':') {
                match word {
                    "MAZE" | "LEVEL" | "FLAGS" | "INIT_MAP" | "MESSAGE" | "GEOMETRY" | "ROOM" => {
                        return Dialect::NethackDes;
                    }
                    "DUNGEON" => return Dialect::NethackDungeon,
                    "NAME" | "default-depth" | "DEPTH" | "ORIENT" | "TAGS" | "MONS" | "ITEM"
                    | "KFEAT" | "SUBST" | "PLACE" | "WEIGHT" | "CHANCE" | "SHUFFLE" | "KMONS"
                    | "KITEM" | "COLOUR" | "NSUBST" | "LFLAGS" | "BFLAGS" | "lua" => {
                        return Dialect::DcssDes;
                    }
                    _ => {}
                }
            }
            if line.starts_with("{{") || line.starts_with("lua {") || line.starts_with(": ") {
                return Dialect::DcssDes;
            }
        }
        // Nothing but comments and blank lines: an empty level file, which lev_comp accepts.
        let empty = text
            .lines()
            .all(|l| l.trim().is_empty() || l.starts_with('#'));
        if empty
            && path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("des"))
        {
            return Dialect::NethackDes;
        }
        Dialect::Unknown
    }
}

/// RLG327 files: by their header (any course prefix, so that a wrong header is still
/// recognised and reported), by their first entry, or by the usual file names.
fn rlg327_kind(path: &Path, text: &str) -> Option<Dialect> {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    let words: Vec<&str> = first.split_whitespace().collect();
    let by_word = |w: &str| match w {
        "MONSTER" => Some(Dialect::Rlg327Monster),
        "OBJECT" => Some(Dialect::Rlg327Object),
        _ => None,
    };
    if words.len() >= 3 && words[2] == "DESCRIPTION" {
        return by_word(words[1]);
    }
    if words.first() == Some(&"BEGIN") {
        return words.get(1).and_then(|w| by_word(w));
    }
    let name = path.file_name()?.to_str()?;
    match name {
        "monster_desc.txt" => Some(Dialect::Rlg327Monster),
        "object_desc.txt" => Some(Dialect::Rlg327Object),
        _ => None,
    }
}

/// `dungeon.def` as shipped (any `.def`), or `dungeon.pdf` as makedefs leaves it.
fn is_dungeon_file_name(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("def") || e.eq_ignore_ascii_case("pdf"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection() {
        let p = Path::new("x.des");
        assert_eq!(
            Dialect::detect(p, "# c\nMAZE:\"x\",' '\n"),
            Dialect::NethackDes
        );
        assert_eq!(
            Dialect::detect(p, "LEVEL : \"oracle\"\n"),
            Dialect::NethackDes
        );
        assert_eq!(
            Dialect::detect(p, "default-depth: D:2-7\nNAME: x\n"),
            Dialect::DcssDes
        );
        assert_eq!(
            Dialect::detect(p, "LEVEL \"oracle\"\n"),
            Dialect::NethackDes
        );
        assert_eq!(Dialect::detect(p, "maze:\"x\"\n"), Dialect::NethackDes);
        assert_eq!(Dialect::detect(p, "hello world\n"), Dialect::Unknown);
        assert_eq!(
            Dialect::detect(Path::new("x/dungeon.def"), ""),
            Dialect::NethackDungeon
        );
        assert_eq!(
            Dialect::detect(p, "DUNGEON: \"x\" \"D\" (2,0)\n"),
            Dialect::NethackDungeon
        );
    }
}
