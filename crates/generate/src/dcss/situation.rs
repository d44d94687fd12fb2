//! The player's situation a vault is previewed in: where (branch and depth), the god and the
//! species. Vault Lua asks for them (`you.in_branch`, `you.depth`, `you.god`...), and some
//! glyphs depend on the branch. `--place D:5` sets the place; by default a vault is placed at
//! the first place its DEPTH or PLACE allows.

use levkit_model::dcss::depth::{self, Levels};
use levkit_model::dcss::tables::BRANCHES;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Situation {
    /// A branch abbreviation (`D`, `Lair`, `Zot`...).
    pub branch: String,
    /// 1-based depth in the branch.
    pub depth: u32,
    /// The god's name as crawl writes it (`No God` when none).
    pub god: String,
    /// The species' name (`Human`, `Minotaur`...).
    pub species: String,
}

impl Default for Situation {
    fn default() -> Situation {
        Situation {
            branch: "D".into(),
            depth: 1,
            god: "No God".into(),
            species: "Human".into(),
        }
    }
}

/// The absolute depth of a branch's first level: crawl places branches at a range of depths;
/// levkit takes the shallowest entry (portals: where they usually appear).
fn first_absdepth(branch: &str) -> u32 {
    match branch {
        "D" => 1,
        "Temple" => 5,
        "Orc" => 10,
        "Elf" => 12,
        "Lair" => 9,
        "Swamp" | "Shoals" | "Snake" | "Spider" => 11,
        "Slime" => 14,
        "Vaults" => 14,
        "Blade" => 17,
        "Crypt" => 16,
        "Tomb" => 19,
        "Forest" => 16,
        "Depths" => 16,
        "Zot" => 20,
        "Hell" => 27,
        "Dis" | "Geh" | "Coc" | "Tar" => 28,
        "Abyss" => 24,
        "Pan" => 25,
        "Zig" => 16,
        "Sewer" => 4,
        "Ossuary" => 6,
        "Bailey" => 8,
        "Gauntlet" => 7,
        "Arena" => 9,
        "Bazaar" | "Trove" | "WizLab" => 10,
        "IceCv" => 11,
        "Lab" | "Volcano" => 13,
        "Desolation" => 16,
        _ => 1,
    }
}

impl Situation {
    /// `Branch:depth`, `Branch` (depth 1), or an absolute depth (`7`: the Dungeon).
    pub fn parse_place(text: &str) -> Result<(String, u32), String> {
        let text = text.trim();
        let (branch, depth) = match text.split_once(':') {
            Some((b, d)) => (
                b.trim(),
                d.trim()
                    .parse::<u32>()
                    .map_err(|_| format!("{d:?} is not a depth (a number from 1)"))?,
            ),
            None => match text.parse::<u32>() {
                Ok(depth) => ("D", depth),
                Err(_) => (text, 1),
            },
        };
        let Some(known) = BRANCHES
            .iter()
            .find(|b| b.abbrev.eq_ignore_ascii_case(branch))
        else {
            let names: Vec<&str> = BRANCHES.iter().map(|b| b.abbrev.as_str()).collect();
            return Err(format!(
                "{branch:?} is not a branch of crawl 0.28; one of {}",
                names.join(", ")
            ));
        };
        if depth == 0 {
            return Err("depths start at 1".into());
        }
        Ok((known.abbrev.to_string(), depth))
    }

    /// The first place a depth list allows (`D:4-8` gives D:4, `Lair` gives Lair:1; an
    /// absolute range its first Dungeon level); `None` when it allows none levkit can tell.
    pub fn first_place(list: &str) -> Option<(String, u32)> {
        let ranges = depth::parse(list).ok()?;
        ranges.iter().filter(|r| !r.exclude).find_map(|r| {
            let branch = match r.branch.as_deref() {
                None => "D",
                Some("*" | "any") => "D",
                Some(b) => BRANCHES.iter().find(|x| x.abbrev == b)?.abbrev.as_str(),
            };
            let depth = match r.levels {
                Levels::All | Levels::Span { .. } if r.branch.is_none() => match r.levels {
                    Levels::Span { first, .. } => first.max(1),
                    _ => 1,
                },
                Levels::Span { first, .. } => first.max(1),
                Levels::All => 1,
                Levels::Bottom => u32::from(
                    BRANCHES
                        .iter()
                        .find(|x| x.abbrev == branch)
                        .map_or(1, |b| b.max_depth.max(1)),
                ),
            };
            Some((branch.to_string(), depth))
        })
    }

    /// Whether a depth list allows this place: a range that excludes it wins, else any range
    /// that includes it (a list levkit cannot read allows nothing).
    pub fn is_within(&self, list: &str) -> bool {
        let Ok(ranges) = depth::parse(list) else {
            return false;
        };
        let absdepth = self.absdepth();
        let bottom = Situation::branch_depth(&self.branch);
        let matches = |r: &depth::DepthRange| {
            let (depth, last) = match r.branch.as_deref() {
                None => (absdepth, None),
                Some("*" | "any" | "Any") => (self.depth, Some(bottom)),
                Some(b) if b.eq_ignore_ascii_case(&self.branch) => (self.depth, Some(bottom)),
                Some(_) => return false,
            };
            match r.levels {
                Levels::All => true,
                Levels::Bottom => last.is_some_and(|l| depth == l),
                Levels::Span { first, last } => depth >= first && last.is_none_or(|l| depth <= l),
            }
        };
        !ranges.iter().any(|r| r.exclude && matches(r))
            && ranges.iter().any(|r| !r.exclude && matches(r))
    }

    /// The absolute depth (crawl's `you.absdepth()`).
    pub fn absdepth(&self) -> u32 {
        first_absdepth(&self.branch) + self.depth.saturating_sub(1)
    }

    /// How many levels the branch has.
    pub fn branch_depth(branch: &str) -> u32 {
        BRANCHES
            .iter()
            .find(|b| b.abbrev.eq_ignore_ascii_case(branch))
            .map_or(1, |b| u32::from(b.max_depth.max(1)))
    }

    /// `Lair:3`.
    pub fn place(&self) -> String {
        if Situation::branch_depth(&self.branch) == 1 && self.depth == 1 {
            self.branch.clone()
        } else {
            format!("{}:{}", self.branch, self.depth)
        }
    }

    /// The branch's name in words (`the Lair`).
    pub fn branch_name(&self) -> &'static str {
        BRANCHES
            .iter()
            .find(|b| b.abbrev == self.branch)
            .map_or("the Dungeon", |b| b.long_name.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_read_as_crawl_writes_them() {
        assert_eq!(Situation::parse_place("D:5"), Ok(("D".into(), 5)));
        assert_eq!(Situation::parse_place("lair:2"), Ok(("Lair".into(), 2)));
        assert_eq!(Situation::parse_place("7"), Ok(("D".into(), 7)));
        assert!(Situation::parse_place("Nowhere:1").is_err());
        assert_eq!(Situation::first_place("D:4-8, Lair"), Some(("D".into(), 4)));
        assert_eq!(Situation::first_place("Zot:$"), Some(("Zot".into(), 5)));
        assert_eq!(
            Situation::first_place("!D:1-3, Orc"),
            Some(("Orc".into(), 1))
        );
        let d5 = Situation {
            depth: 5,
            ..Situation::default()
        };
        assert!(d5.is_within("D:4-8, Lair"));
        assert!(!d5.is_within("D:2-8, !D:5"));
        assert!(d5.is_within("5-"));
        assert!(!d5.is_within("Lair, D:$"));
        assert!(d5.is_within("D:5-$"));
    }
}
