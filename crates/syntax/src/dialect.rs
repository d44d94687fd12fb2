//! The file formats levkit reads, and how a file's format is recognised.
//!
//! [`Dialect`] is the one registry of formats: the CLI's `--dialect` values, the language
//! server's language ids and the editors' languages all come from [`Dialect::ALL`] and the
//! methods below, and the editors' fallback detector is generated from [`DETECTION`].

use std::path::Path;

/// Declares the enum and writes [`Dialect::ALL`] from its variants, so that the list cannot
/// miss one (a fixed-size array written by hand would not make the compiler complain).
macro_rules! dialects {
    ($(#[$attr:meta])* pub enum Dialect { $($(#[$doc:meta])* $variant:ident,)* }) => {
        $(#[$attr])*
        pub enum Dialect { $($(#[$doc])* $variant,)* }

        impl Dialect {
            /// Every dialect, in the order they are declared, which is the order the CLI
            /// lists them.
            pub const ALL: [Dialect; [$(Dialect::$variant),*].len()] = [$(Dialect::$variant),*];
        }
    };
}

dialects! {
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
        /// Dungeon Crawl Stone Soup vault files.
        DcssDes,
        /// A file whose format could not be recognised.
        Unknown,
    }
}

impl Dialect {
    /// The dialects a user can choose (`--dialect`, editor overrides): all but `Unknown`.
    pub fn choosable() -> impl Iterator<Item = Dialect> {
        Dialect::ALL.into_iter().filter(|d| *d != Dialect::Unknown)
    }

    /// The name on the command line (`--dialect NAME`) and in settings.
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

    /// What the format is, in a few words (help texts).
    pub fn description(self) -> &'static str {
        match self {
            Dialect::NethackDes => "NetHack 3.4.3 special levels (lev_comp)",
            Dialect::NethackDungeon => "NetHack 3.4.3 dungeon description (dgn_comp)",
            Dialect::Rlg327Monster => "COM S 327 monster descriptions",
            Dialect::Rlg327Object => "COM S 327 object descriptions",
            Dialect::DcssDes => "Dungeon Crawl Stone Soup vaults",
            Dialect::Unknown => "a file levkit cannot recognise",
        }
    }

    /// The editors' language id. Both RLG327 dialects share one language (one grammar); the
    /// header tells them apart. `None` for `Unknown`, which no editor language names.
    pub fn language_id(self) -> Option<&'static str> {
        match self {
            Dialect::NethackDes => Some("nethack-des"),
            Dialect::NethackDungeon => Some("nethack-dungeon"),
            Dialect::Rlg327Monster | Dialect::Rlg327Object => Some("rlg327"),
            Dialect::DcssDes => Some("dcss-des"),
            Dialect::Unknown => None,
        }
    }

    /// Every editor language id, once each.
    pub fn language_ids() -> Vec<&'static str> {
        let mut ids: Vec<&'static str> = Dialect::ALL
            .iter()
            .filter_map(|d| d.language_id())
            .collect();
        ids.dedup();
        ids
    }

    /// A dialect by its command-line name (older spellings accepted).
    pub fn from_name(name: &str) -> Option<Dialect> {
        Dialect::choosable()
            .find(|d| d.name() == name)
            .or(match name {
                "nethack-des" => Some(Dialect::NethackDes),
                "dungeon" => Some(Dialect::NethackDungeon),
                "dcss-des" => Some(Dialect::DcssDes),
                _ => None,
            })
    }

    /// The dialect an editor's language id gives a file. A language shared by several
    /// dialects (`rlg327`) is narrowed by the content, falling back to its first dialect.
    /// `None` for languages levkit does not know (the content decides then).
    pub fn from_language_id(language: &str, path: &Path, text: &str) -> Option<Dialect> {
        let candidates: Vec<Dialect> = Dialect::ALL
            .into_iter()
            .filter(|d| d.language_id() == Some(language))
            .collect();
        match candidates.as_slice() {
            [] => None,
            [only] => Some(*only),
            [first, ..] => {
                let detected = Dialect::detect(path, text);
                Some(if candidates.contains(&detected) {
                    detected
                } else {
                    *first
                })
            }
        }
    }

    /// The file extensions the dialect's files usually have.
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Dialect::NethackDes | Dialect::DcssDes => &["des"],
            Dialect::NethackDungeon => DETECTION.dungeon_extensions,
            Dialect::Rlg327Monster | Dialect::Rlg327Object => &["txt"],
            Dialect::Unknown => &[],
        }
    }

    /// Whether a file found by walking a directory (see [`Dialect::is_candidate_path`]) is
    /// one of levkit's, now that its content was recognised as `self`: `.txt` is shared with
    /// every other kind of text, so a `.txt` file counts only when a dialect that uses `.txt`
    /// recognised it.
    pub fn claims_found_file(self, path: &Path) -> bool {
        !has_extension(path, &["txt"]) || self.extensions().contains(&"txt")
    }

    /// What [`Dialect::detect`] says of a `.txt` file, when that is a dialect of `.txt` files
    /// (the only answer that makes a `.txt` found while walking a folder one of levkit's):
    /// found from the first non-blank line and the name, so that a folder of other text costs
    /// a line a file rather than [`Detection::lines_scanned`].
    pub fn detect_txt(path: &Path, text: &str) -> Option<Dialect> {
        rlg327_kind(path, text)
    }

    /// Whether `path` looks like a file levkit should read when walking a directory: its
    /// extension is one of a dialect's [`Dialect::extensions`], in any case.
    pub fn is_candidate_path(path: &Path) -> bool {
        Dialect::ALL
            .iter()
            .any(|d| has_extension(path, d.extensions()))
    }

    /// Recognises a file by its content, using the name only as a tie-breaker.
    ///
    /// NetHack levels are statements `MAZE:`/`LEVEL:` and friends; DCSS vaults have `NAME:`
    /// headers, `default-depth:`, Lua blocks and `: ` Lua lines. Comments and blank lines are
    /// skipped; the first telling line decides. The rules are the data in [`DETECTION`], which
    /// the editors' fallback detectors are generated from.
    pub fn detect(path: &Path, text: &str) -> Dialect {
        let rules = &DETECTION;
        if has_extension(path, rules.dungeon_extensions) {
            return Dialect::NethackDungeon;
        }
        if let Some(kind) = rlg327_kind(path, text) {
            return kind;
        }
        for line in text.lines().take(rules.lines_scanned) {
            let line = line
                .trim_end_matches('\r')
                .trim_start_matches(rules.indentation);
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let word: &str = line
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
                .next()
                .unwrap_or("");
            if let Some((_, dialect)) = rules
                .opening_words
                .iter()
                .find(|(w, _)| w.eq_ignore_ascii_case(word))
            {
                return *dialect;
            }
            if line[word.len()..].trim_start().starts_with(':')
                && let Some((_, dialect)) = rules.header_words.iter().find(|(w, _)| *w == word)
            {
                return *dialect;
            }
            if let Some((_, dialect)) = rules
                .line_prefixes
                .iter()
                .find(|(prefix, _)| line.starts_with(prefix))
            {
                return *dialect;
            }
        }
        let (extension, dialect) = rules.empty_file;
        let empty = text
            .lines()
            .all(|l| l.trim().is_empty() || l.starts_with('#'));
        if empty && has_extension(path, &[extension]) {
            return dialect;
        }
        Dialect::Unknown
    }
}

/// The content rules of [`Dialect::detect`], as data.
pub struct Detection {
    /// Files with these extensions are dungeon descriptions, whatever they hold.
    pub dungeon_extensions: &'static [&'static str],
    /// RLG327 files: the word naming the kind, in a header (`RLG327 MONSTER DESCRIPTION 1`,
    /// any course prefix) or a first entry (`BEGIN MONSTER`).
    pub rlg327_kinds: &'static [(&'static str, Dialect)],
    /// RLG327 files without a telling first line are recognised by these names.
    pub rlg327_file_names: &'static [(&'static str, Dialect)],
    /// How many lines are read before giving up.
    pub lines_scanned: usize,
    /// Blanks before a line's first word, which change nothing (DCSS headers may be
    /// indented).
    pub indentation: &'static [char],
    /// A line whose first word is one of these (any case, whatever follows) decides.
    pub opening_words: &'static [(&'static str, Dialect)],
    /// A line whose first word is one of these (exact case), followed by `:`, decides.
    pub header_words: &'static [(&'static str, Dialect)],
    /// A line starting with one of these decides.
    pub line_prefixes: &'static [(&'static str, Dialect)],
    /// A file with this extension holding only comments and blank lines is of this dialect.
    pub empty_file: (&'static str, Dialect),
}

pub const DETECTION: Detection = Detection {
    dungeon_extensions: &["def", "pdf"],
    rlg327_kinds: &[
        ("MONSTER", Dialect::Rlg327Monster),
        ("OBJECT", Dialect::Rlg327Object),
    ],
    rlg327_file_names: &[
        ("monster_desc.txt", Dialect::Rlg327Monster),
        ("object_desc.txt", Dialect::Rlg327Object),
    ],
    lines_scanned: 400,
    indentation: &[' ', '\t'],
    // These words open NetHack levels only; a broken line after them is still NetHack.
    opening_words: &[
        ("MAZE", Dialect::NethackDes),
        ("LEVEL", Dialect::NethackDes),
        ("INIT_MAP", Dialect::NethackDes),
        ("GEOMETRY", Dialect::NethackDes),
    ],
    header_words: &[
        ("FLAGS", Dialect::NethackDes),
        ("MESSAGE", Dialect::NethackDes),
        ("ROOM", Dialect::NethackDes),
        ("DUNGEON", Dialect::NethackDungeon),
        ("NAME", Dialect::DcssDes),
        ("default-depth", Dialect::DcssDes),
        ("DEPTH", Dialect::DcssDes),
        ("ORIENT", Dialect::DcssDes),
        ("TAGS", Dialect::DcssDes),
        ("MONS", Dialect::DcssDes),
        ("ITEM", Dialect::DcssDes),
        ("KFEAT", Dialect::DcssDes),
        ("SUBST", Dialect::DcssDes),
        ("PLACE", Dialect::DcssDes),
        ("WEIGHT", Dialect::DcssDes),
        ("CHANCE", Dialect::DcssDes),
        ("SHUFFLE", Dialect::DcssDes),
        ("KMONS", Dialect::DcssDes),
        ("KITEM", Dialect::DcssDes),
        ("COLOUR", Dialect::DcssDes),
        ("NSUBST", Dialect::DcssDes),
        ("LFLAGS", Dialect::DcssDes),
        ("BFLAGS", Dialect::DcssDes),
        ("lua", Dialect::DcssDes),
    ],
    line_prefixes: &[
        ("{{", Dialect::DcssDes),
        ("lua {", Dialect::DcssDes),
        (": ", Dialect::DcssDes),
    ],
    // An empty level file, which lev_comp accepts.
    empty_file: ("des", Dialect::NethackDes),
};

fn has_extension(path: &Path, extensions: &[&str]) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| extensions.iter().any(|x| e.eq_ignore_ascii_case(x)))
}

/// RLG327 files: by their header (any course prefix, so that a wrong header is still
/// recognised and reported), by their first entry, or by the usual file names.
fn rlg327_kind(path: &Path, text: &str) -> Option<Dialect> {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    let words: Vec<&str> = first.split_whitespace().collect();
    let by_word = |w: &str| {
        DETECTION
            .rlg327_kinds
            .iter()
            .find(|(kind, _)| *kind == w)
            .map(|(_, d)| *d)
    };
    if words.len() >= 3 && words[2] == "DESCRIPTION" {
        return by_word(words[1]);
    }
    if words.first() == Some(&"BEGIN") {
        return words.get(1).and_then(|w| by_word(w));
    }
    let name = path.file_name()?.to_str()?;
    DETECTION
        .rlg327_file_names
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, d)| *d)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `detect_txt` answers what `detect` answers whenever that claims a `.txt` file.
    #[test]
    fn detect_txt_agrees_with_detect() {
        let texts = [
            "RLG327 MONSTER DESCRIPTION 1\nBEGIN MONSTER\n",
            "\n  RLG327 OBJECT DESCRIPTION 1\n",
            "BEGIN OBJECT\nNAME x\n",
            "CS327 MONSTER DESCRIPTION 2\n",
            "MAZE:\"x\",' '\n",
            "NAME: vault\nMAP\n.\nENDMAP\n",
            "Just some notes\nBEGIN MONSTER\n",
            "",
        ];
        for name in ["notes.txt", "monster_desc.txt", "object_desc.txt"] {
            let path = Path::new(name);
            for text in texts {
                let detected =
                    Some(Dialect::detect(path, text)).filter(|d| d.claims_found_file(path));
                assert_eq!(
                    Dialect::detect_txt(path, text),
                    detected,
                    "{name}: {text:?}"
                );
            }
        }
    }

    #[test]
    fn candidates_are_the_files_with_a_dialect_s_extension_in_any_case() {
        for name in [
            "a.des",
            "b.DES",
            "dungeon.def",
            "x/dungeon.pdf",
            "c.Def",
            "d.txt",
            "e.TXT",
        ] {
            assert!(Dialect::is_candidate_path(Path::new(name)), "{name}");
        }
        for name in ["a.rs", "des", "a.des.bak", "a.lev", ".des", "notes"] {
            assert!(!Dialect::is_candidate_path(Path::new(name)), "{name}");
        }
    }

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
            Dialect::detect(p, "  NAME:    zz_t  \n   DEPTH:  D:3\n"),
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
