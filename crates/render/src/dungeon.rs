//! A dungeon description at a glance: its dungeons, the levels in each at their depths, and
//! the branches, as data, text and a picture.

use levkit_model::dungeon::{BranchKind, Tables};
use serde::Serialize;

use crate::escape;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DungeonOverview {
    /// In the file's order, each with its levels.
    pub dungeons: Vec<OverviewDungeon>,
    /// The branches between dungeons.
    pub branches: Vec<OverviewBranch>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OverviewDungeon {
    /// As the file names it.
    pub name: String,
    /// Levels: `base`, plus up to `rand - 1` more when `rand` is positive.
    pub base: i64,
    pub rand: i64,
    /// Its special levels.
    pub levels: Vec<OverviewLevel>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OverviewLevel {
    /// The level's name (its `.des` level name).
    pub name: String,
    /// Where it goes: level `base` (negative: from the bottom), over `rand` levels.
    pub base: i64,
    pub rand: i64,
    /// How many variant files the game picks from (0: one file).
    pub variants: i64,
    /// For a chained level, the `base` of the level it is placed relative to.
    pub chain_base: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OverviewBranch {
    /// The dungeon it leads to.
    pub name: String,
    /// Where it is placed: the `base` of its place, as for levels.
    pub at: i64,
    /// `stairs up`, `stairs down`, `portal`, or a one-way kind.
    pub kind: String,
    /// For a chained branch, the level it is placed after.
    pub after: Option<String>,
}

impl DungeonOverview {
    pub fn new(tables: &Tables) -> DungeonOverview {
        let mut first = 0;
        let mut dungeons = Vec::new();
        for dungeon in &tables.dungeons {
            let levels = tables
                .levels
                .get(first..(first + dungeon.levels).min(tables.levels.len()))
                .unwrap_or_default()
                .iter()
                .map(|level| OverviewLevel {
                    name: level.name.clone(),
                    base: level.at.base,
                    rand: level.at.rand,
                    variants: level.rndlevs,
                    chain_base: usize::try_from(level.chain)
                        .ok()
                        .and_then(|c| tables.levels.get(c))
                        .map(|base| base.at.base),
                })
                .collect();
            dungeons.push(OverviewDungeon {
                name: dungeon.name.clone(),
                base: dungeon.depth.base,
                rand: dungeon.depth.rand,
                levels,
            });
            first += dungeon.levels;
        }
        let branches = tables
            .branches
            .iter()
            .map(|b| OverviewBranch {
                name: b.name.clone(),
                at: b.at.base,
                kind: match b.kind {
                    BranchKind::Stair if b.up => "stairs up",
                    BranchKind::Stair => "stairs down",
                    BranchKind::Portal => "portal",
                    BranchKind::NoUp => "one-way (no way up)",
                    BranchKind::NoDown => "one-way (no way down)",
                }
                .to_string(),
                after: usize::try_from(b.chain)
                    .ok()
                    .and_then(|c| tables.levels.get(c))
                    .map(|l| l.name.clone()),
            })
            .collect();
        DungeonOverview { dungeons, branches }
    }

    /// The dungeons with their depth ranges, levels and branches, one per line.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for dungeon in &self.dungeons {
            out.push_str(&format!(
                "{} — {} levels{}\n",
                dungeon.name,
                dungeon.base,
                if dungeon.rand > 0 {
                    format!(" (+ up to {})", dungeon.rand - 1)
                } else {
                    String::new()
                }
            ));
            for level in &dungeon.levels {
                let at = if level.base < 0 {
                    format!("{} from the bottom", -level.base)
                } else {
                    format!("level {}", level.base)
                };
                let range = if level.rand > 1 {
                    format!(" .. +{}", level.rand - 1)
                } else {
                    String::new()
                };
                let variants = if level.variants > 0 {
                    format!(" ({} variants)", level.variants)
                } else {
                    String::new()
                };
                out.push_str(&format!("  {:<10} {at}{range}{variants}\n", level.name));
            }
        }
        out.push_str("Branches\n");
        for b in &self.branches {
            out.push_str(&format!(
                "  {:<22} at level {} ({})\n",
                b.name, b.at, b.kind
            ));
        }
        out
    }

    /// One column per dungeon, its levels as boxes at their depth (random ranges as taller
    /// boxes), and the branches listed underneath.
    pub fn svg(&self) -> String {
        const COLUMN: usize = 190;
        const ROW: usize = 16;
        let mut body = String::new();
        let mut tallest = 0;
        for (i, dungeon) in self.dungeons.iter().enumerate() {
            let size = (dungeon.base + (dungeon.rand.max(1) - 1)).max(1) as usize;
            tallest = tallest.max(size);
            let x = 10 + i * COLUMN;
            body.push_str(&format!(
                "<text x=\"{x}\" y=\"20\" fill=\"#fff\" font-weight=\"bold\">{}</text>\n",
                escape(&dungeon.name)
            ));
            body.push_str(&format!(
                "<rect x=\"{x}\" y=\"30\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#666\"/>\n",
                COLUMN - 20,
                size * ROW
            ));
            for level in &dungeon.levels {
                let start = |at: i64| if at < 0 { size as i64 + at } else { at - 1 };
                // A chained level sits relative to the level it is chained to.
                let top = match level.chain_base {
                    Some(base) => start(base) + level.base,
                    None => start(level.base),
                }
                .clamp(0, size as i64 - 1) as usize;
                let span = level.rand.max(1) as usize;
                body.push_str(&format!(
                    "<g><title>{} at {}{}</title><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#246\" fill-opacity=\"0.45\" stroke=\"#69f\"/><text x=\"{}\" y=\"{}\" fill=\"#eee\">{}</text></g>\n",
                    escape(&level.name),
                    level.base,
                    if span > 1 { format!(" (+{})", span - 1) } else { String::new() },
                    x + 4,
                    30 + top * ROW,
                    COLUMN - 28,
                    span * ROW,
                    x + 8,
                    30 + top * ROW + 12,
                    escape(&level.name)
                ));
            }
        }
        let branches_y = 50 + tallest * ROW;
        for (i, b) in self.branches.iter().enumerate() {
            body.push_str(&format!(
                "<text x=\"10\" y=\"{}\" fill=\"#ccc\">branch to {} at level {}{}</text>\n",
                branches_y + i * ROW,
                escape(&b.name),
                b.at,
                b.after
                    .as_ref()
                    .map_or(String::new(), |l| format!(" after {}", escape(l)))
            ));
        }
        let width = 20 + self.dungeons.len().max(1) * COLUMN;
        let height = branches_y + self.branches.len() * ROW + 10;
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"#111\"/>\n{body}</svg>\n"
        )
    }
}
