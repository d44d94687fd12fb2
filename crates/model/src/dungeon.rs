//! The model of a dungeon description (`dungeon.def`): its statements in order, and the tables
//! dgn_comp 3.4.3 builds from them ([`Tables`]), which the compiler writes and the checks read.

use levkit_syntax::SyntaxKind::*;
use levkit_syntax::ast::{AstNode, Value};
use levkit_syntax::atoi;
use levkit_syntax::dungeon::ast::{DungeonFile as FileNode, DungeonStatement};
use levkit_syntax::{SyntaxNode, SyntaxToken};

use crate::{Spanned, TextRange};

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DungeonFile {
    pub statements: Vec<Statement>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    pub range: TextRange,
    pub kind: StatementKind,
}

/// `(base, range)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Couple {
    pub base: i64,
    pub rand: i64,
}

/// A descriptor word and dgn_comp's value for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Descriptor {
    pub word: String,
    pub value: i64,
}

impl Descriptor {
    fn from_word(word: &str) -> Descriptor {
        let value = match word {
            "town" => 1,
            "hellish" => 2,
            "mazelike" => 4,
            "roguelike" => 8,
            "chaotic" => 16,
            "neutral" => 32,
            "lawful" => 64,
            _ => 0,
        };
        Descriptor {
            word: word.to_string(),
            value,
        }
    }

    /// An alignment (or `unaligned`/`noalign`), rather than a level property.
    pub fn is_alignment(&self) -> bool {
        self.value == 0 || self.value >= 16
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BranchKind {
    Stair,
    NoUp,
    NoDown,
    Portal,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StatementKind {
    Dungeon {
        name: Spanned<String>,
        bones: Spanned<String>,
        depth: Spanned<Couple>,
        chance: Option<Spanned<i64>>,
    },
    Entry(Spanned<i64>),
    Protofile(Spanned<String>),
    Description(Spanned<Descriptor>),
    Alignment(Spanned<Descriptor>),
    /// LEVEL, RNDLEVEL, CHAINLEVEL and RNDCHLEVEL.
    Level {
        name: Spanned<String>,
        bones: Spanned<String>,
        /// The level it is placed relative to (CHAINLEVEL, RNDCHLEVEL).
        chained_from: Option<Spanned<String>>,
        at: Spanned<Couple>,
        chance: Option<Spanned<i64>>,
        /// RNDLEVEL: how many `name-N` files there are.
        alternatives: Option<Spanned<i64>>,
    },
    LevelDesc(Spanned<Descriptor>),
    LevAlign(Spanned<Descriptor>),
    Branch {
        dungeon: Spanned<String>,
        chained_from: Option<Spanned<String>>,
        at: Spanned<Couple>,
        kind: BranchKind,
        up: bool,
    },
}

pub fn lower(root: &SyntaxNode) -> DungeonFile {
    let Some(file) = FileNode::cast(root.clone()) else {
        return DungeonFile::default();
    };
    DungeonFile {
        statements: file
            .statements()
            .filter_map(|s| lower_statement(&s))
            .collect(),
    }
}

use crate::string;

fn int(value: &Value) -> Option<Spanned<i64>> {
    let token = value.token().filter(|t| t.kind() == INT)?;
    Some(Spanned::new(atoi(token.text()), token.text_range()))
}

fn couple(value: &Value) -> Option<Spanned<Couple>> {
    let node = value.node().filter(|n| n.kind() == COORD)?;
    let ints: Vec<SyntaxToken> = node
        .children_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| t.kind() == INT)
        .collect();
    let [base, rand] = ints.as_slice() else {
        return None;
    };
    Some(Spanned::new(
        Couple {
            base: atoi(base.text()),
            rand: atoi(rand.text()),
        },
        node.text_range(),
    ))
}

fn descriptor(value: &Value) -> Option<Spanned<Descriptor>> {
    let token = value.token().filter(|t| t.kind() == DESCRIPTOR)?;
    Some(Spanned::new(
        Descriptor::from_word(token.text()),
        token.text_range(),
    ))
}

fn lower_statement(statement: &DungeonStatement) -> Option<Statement> {
    let values = statement.values();
    let v = |i: usize| values.get(i);
    let keyword = statement.keyword()?.kind();
    let ints: Vec<Spanned<i64>> = values.iter().filter_map(int).collect();
    let kind = match statement.kind() {
        DUNGEON_STMT => StatementKind::Dungeon {
            name: string(v(0)?)?,
            bones: string(v(1)?)?,
            depth: couple(v(2)?)?,
            chance: ints.first().copied(),
        },
        ENTRY_STMT => StatementKind::Entry(int(v(0)?)?),
        PROTOFILE_STMT => StatementKind::Protofile(string(v(0)?)?),
        DESCRIPTION_STMT => StatementKind::Description(descriptor(v(0)?)?),
        DGN_ALIGNMENT_STMT => StatementKind::Alignment(descriptor(v(0)?)?),
        LEVELDESC_STMT => StatementKind::LevelDesc(descriptor(v(0)?)?),
        LEVALIGN_STMT => StatementKind::LevAlign(descriptor(v(0)?)?),
        DGN_LEVEL_STMT | CHAIN_LEVEL_STMT => {
            let chained = statement.kind() == CHAIN_LEVEL_STMT;
            let at_index = if chained { 3 } else { 2 };
            let random = matches!(keyword, RNDLEVEL_KW | RNDCHLEVEL_KW);
            // The numbers after the couple: [chance] for plain levels, [chance] rndlevs for random ones.
            let (chance, alternatives) = match (random, ints.as_slice()) {
                (false, [c, ..]) => (Some(*c), None),
                (false, []) => (None, None),
                (true, [n]) => (None, Some(*n)),
                (true, [c, n, ..]) => (Some(*c), Some(*n)),
                (true, []) => return None,
            };
            StatementKind::Level {
                name: string(v(0)?)?,
                bones: string(v(1)?)?,
                chained_from: if chained { Some(string(v(2)?)?) } else { None },
                at: couple(v(at_index)?)?,
                chance,
                alternatives,
            }
        }
        DGN_BRANCH_STMT | CHAIN_BRANCH_STMT => {
            let chained = statement.kind() == CHAIN_BRANCH_STMT;
            let at_index = if chained { 2 } else { 1 };
            let word = |kind| {
                values
                    .iter()
                    .find(|v| v.kind() == kind)
                    .and_then(|v| v.token().map(|t| t.text().to_string()))
            };
            StatementKind::Branch {
                dungeon: string(v(0)?)?,
                chained_from: if chained { Some(string(v(1)?)?) } else { None },
                at: couple(v(at_index)?)?,
                kind: match word(BRANCH_TYPE).as_deref() {
                    Some("no_up") => BranchKind::NoUp,
                    Some("no_down") => BranchKind::NoDown,
                    Some("portal") => BranchKind::Portal,
                    _ => BranchKind::Stair,
                },
                up: word(UP_OR_DOWN).as_deref() == Some("up"),
            }
        }
        _ => return None,
    };
    Some(Statement {
        range: statement.syntax().text_range(),
        kind,
    })
}

// ---- dgn_comp's tables --------------------------------------------------------------------

/// The most levels a dungeon may have (dgn_comp's MAXLEVEL).
pub const MAX_LEVEL: i64 = 32;
/// dgn_comp's array sizes.
pub const MAX_DUNGEONS: usize = 16;
pub const MAX_LEVELS: usize = 50;
pub const MAX_BRANCHES: usize = 32;

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TmpDungeon {
    pub name: String,
    pub protoname: String,
    pub depth: Couple,
    pub flags: i64,
    pub chance: i64,
    pub levels: usize,
    pub branches: usize,
    pub entry: i64,
    pub bones: u8,
    /// The DUNGEON statement.
    pub range: TextRange,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TmpLevel {
    pub name: String,
    pub at: Couple,
    pub chance: i64,
    pub rndlevs: i64,
    /// The global index of the level it chains from, or -1.
    pub chain: i64,
    pub flags: i64,
    pub bones: u8,
    pub range: TextRange,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TmpBranch {
    pub name: String,
    pub at: Couple,
    pub chain: i64,
    pub kind: BranchKind,
    pub up: bool,
    pub range: TextRange,
}

/// What dgn_comp rejects or corrects while building its tables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    IllegalDescription(TextRange),
    IllegalAlignment(TextRange),
    BonesMarker(TextRange),
    AbsBase(TextRange),
    AbsRange(TextRange),
    RelBase(TextRange),
    /// The chain base was not found; `first_level` when it is the dungeon's first level,
    /// which dgn_comp's search skips.
    ChainNotFound {
        range: TextRange,
        first_level: bool,
    },
    LevelOutsideDungeon(TextRange),
    DuplicateChainedLevel {
        range: TextRange,
        first: TextRange,
    },
    ChainFromProbabilistic {
        range: TextRange,
        base: TextRange,
    },
    ChainToItself(TextRange),
    BranchOutsideDungeon(TextRange),
    ReverseBranch {
        range: TextRange,
        dungeon: TextRange,
    },
    /// A statement that applies to the current dungeon or level when there is none.
    NothingToApplyTo(TextRange),
    TooManyDungeons(TextRange),
    TooManyLevels(TextRange),
    TooManyBranches(TextRange),
    NoDungeons,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Tables {
    pub dungeons: Vec<TmpDungeon>,
    /// All levels, dungeon after dungeon, as written to the file.
    pub levels: Vec<TmpLevel>,
    pub branches: Vec<TmpBranch>,
    pub problems: Vec<Problem>,
}

fn bones(marker: &Spanned<String>, problems: &mut Vec<Problem>) -> u8 {
    match marker.value.as_bytes() {
        [c] => *c,
        _ => {
            if marker.value != "none" {
                problems.push(Problem::BonesMarker(marker.range));
            }
            0
        }
    }
}

fn absolute(at: &Spanned<Couple>, problems: &mut Vec<Problem>) -> Couple {
    let Couple { base, rand } = at.value;
    if !(-MAX_LEVEL..=MAX_LEVEL).contains(&base) {
        problems.push(Problem::AbsBase(at.range));
        Couple::default()
    } else if rand < -1
        || (if base < 0 {
            MAX_LEVEL + base + rand + 1
        } else {
            base + rand
        }) > MAX_LEVEL
    {
        problems.push(Problem::AbsRange(at.range));
        Couple::default()
    } else {
        at.value
    }
}

fn relative(at: &Spanned<Couple>, problems: &mut Vec<Problem>) -> Couple {
    if !(-MAX_LEVEL..=MAX_LEVEL).contains(&at.value.base) {
        problems.push(Problem::RelBase(at.range));
        Couple::default()
    } else {
        at.value
    }
}

impl DungeonFile {
    /// Builds dgn_comp's tables the way dgn_comp does, statement by statement.
    pub fn tables(&self) -> Tables {
        let mut t = Tables::default();
        for statement in &self.statements {
            let range = statement.range;
            match &statement.kind {
                StatementKind::Dungeon {
                    name,
                    bones: marker,
                    depth,
                    chance,
                } => {
                    if t.dungeons.len() == MAX_DUNGEONS - 1 {
                        t.problems.push(Problem::TooManyDungeons(range));
                    }
                    let depth = relative(depth, &mut t.problems);
                    let bones = bones(marker, &mut t.problems);
                    t.dungeons.push(TmpDungeon {
                        name: name.value.clone(),
                        depth,
                        chance: chance.map_or(0, |c| c.value),
                        bones,
                        range,
                        ..TmpDungeon::default()
                    });
                }
                StatementKind::Entry(n) => match t.dungeons.last_mut() {
                    Some(d) => d.entry = n.value,
                    None => t.problems.push(Problem::NothingToApplyTo(range)),
                },
                StatementKind::Protofile(name) => match t.dungeons.last_mut() {
                    Some(d) => d.protoname = name.value.clone(),
                    None => t.problems.push(Problem::NothingToApplyTo(range)),
                },
                StatementKind::Description(d) | StatementKind::Alignment(d) => {
                    let is_description = matches!(statement.kind, StatementKind::Description(_));
                    let value = d.value.value;
                    let illegal = if is_description {
                        value <= 1 || value >= 16
                    } else {
                        value != 0 && value < 16
                    };
                    if illegal {
                        t.problems.push(if is_description {
                            Problem::IllegalDescription(d.range)
                        } else {
                            Problem::IllegalAlignment(d.range)
                        });
                    } else {
                        match t.dungeons.last_mut() {
                            Some(dungeon) => dungeon.flags |= value,
                            None => t.problems.push(Problem::NothingToApplyTo(range)),
                        }
                    }
                }
                StatementKind::LevelDesc(d) | StatementKind::LevAlign(d) => {
                    let is_desc = matches!(statement.kind, StatementKind::LevelDesc(_));
                    let value = d.value.value;
                    let illegal = if is_desc {
                        value >= 16
                    } else {
                        value != 0 && value < 16
                    };
                    if illegal {
                        t.problems.push(if is_desc {
                            Problem::IllegalDescription(d.range)
                        } else {
                            Problem::IllegalAlignment(d.range)
                        });
                    } else {
                        match t.levels.last_mut() {
                            Some(level) => level.flags |= value,
                            None => t.problems.push(Problem::NothingToApplyTo(range)),
                        }
                    }
                }
                StatementKind::Level {
                    name,
                    bones: marker,
                    chained_from,
                    at,
                    chance,
                    alternatives,
                } => {
                    if t.levels.len() == MAX_LEVELS {
                        t.problems.push(Problem::TooManyLevels(range));
                        continue;
                    }
                    let bones = bones(marker, &mut t.problems);
                    let mut level = TmpLevel {
                        name: name.value.clone(),
                        at: Couple::default(),
                        chance: chance.map_or(100, |c| c.value),
                        rndlevs: alternatives.map_or(0, |a| a.value),
                        chain: -1,
                        flags: 0,
                        bones,
                        range,
                    };
                    let Some(base) = chained_from else {
                        level.at = absolute(at, &mut t.problems);
                        match t.dungeons.last_mut() {
                            Some(d) => d.levels += 1,
                            None => t.problems.push(Problem::NothingToApplyTo(range)),
                        }
                        t.levels.push(level);
                        continue;
                    };
                    level.at = relative(at, &mut t.problems);
                    let index = t.levels.len();
                    // dgn_comp searches from one past the dungeon's first level up to the new
                    // level itself (the count already moved on): a quirk kept on purpose.
                    let in_dungeon = t.dungeons.last().map_or(0, |d| d.levels);
                    let first = (index + 1).saturating_sub(in_dungeon);
                    let found = (first..index).find(|&i| t.levels[i].name == base.value);
                    let itself = base.value == level.name;
                    let rejected = if t.dungeons.is_empty() {
                        Some(Problem::LevelOutsideDungeon(range))
                    } else if let Some(earlier) = t.levels.iter().find(|l| l.name == level.name) {
                        Some(Problem::DuplicateChainedLevel {
                            range: name.range,
                            first: earlier.range,
                        })
                    } else if itself {
                        Some(Problem::ChainToItself(base.range))
                    } else if let Some(i) = found {
                        level.chain = i as i64;
                        (t.levels[i].chance != 100).then(|| Problem::ChainFromProbabilistic {
                            range: base.range,
                            base: t.levels[i].range,
                        })
                    } else {
                        let first_level = index >= in_dungeon
                            && in_dungeon > 0
                            && t.levels[index - in_dungeon].name == base.value;
                        Some(Problem::ChainNotFound {
                            range: base.range,
                            first_level,
                        })
                    };
                    match rejected {
                        Some(problem) => t.problems.push(problem),
                        None => {
                            if let Some(d) = t.dungeons.last_mut() {
                                d.levels += 1;
                            }
                            t.levels.push(level);
                        }
                    }
                }
                StatementKind::Branch {
                    dungeon,
                    chained_from,
                    at,
                    kind,
                    up,
                } => {
                    if t.branches.len() == MAX_BRANCHES {
                        t.problems.push(Problem::TooManyBranches(range));
                        continue;
                    }
                    let mut branch = TmpBranch {
                        name: dungeon.value.clone(),
                        at: Couple::default(),
                        chain: -1,
                        kind: *kind,
                        up: *up,
                        range,
                    };
                    let mut problem = None;
                    match chained_from {
                        Some(base) => {
                            branch.at = relative(at, &mut t.problems);
                            let in_dungeon = t.dungeons.last().map_or(0, |d| d.levels);
                            let first = t.levels.len().saturating_sub(in_dungeon);
                            match (first..t.levels.len()).find(|&i| t.levels[i].name == base.value)
                            {
                                Some(i) => {
                                    branch.chain = i as i64;
                                    if t.levels[i].chance != 100 {
                                        problem = Some(Problem::ChainFromProbabilistic {
                                            range: base.range,
                                            base: t.levels[i].range,
                                        });
                                    }
                                }
                                None => {
                                    problem = Some(Problem::ChainNotFound {
                                        range: base.range,
                                        first_level: false,
                                    })
                                }
                            }
                        }
                        None => branch.at = absolute(at, &mut t.problems),
                    }
                    if t.dungeons.is_empty() {
                        problem = Some(Problem::BranchOutsideDungeon(range));
                    } else if let Some(earlier) = t.dungeons.iter().find(|d| d.name == branch.name)
                    {
                        // dgn_comp lets a dungeon branch to itself; that loop is rejected too.
                        problem = Some(Problem::ReverseBranch {
                            range: dungeon.range,
                            dungeon: earlier.range,
                        });
                    }
                    match problem {
                        Some(problem) => t.problems.push(problem),
                        None => {
                            if let Some(d) = t.dungeons.last_mut() {
                                d.branches += 1;
                            }
                            t.branches.push(branch);
                        }
                    }
                }
            }
        }
        if t.dungeons.is_empty() {
            t.problems.push(Problem::NoDungeons);
        }
        t
    }
}
