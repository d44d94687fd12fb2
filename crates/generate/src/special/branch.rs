//! Which of the game's own levels is an end of a dungeon branch, and what the branch puts
//! there (the reference dungeon's branches).

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Branch {
    Stairs {
        up: bool,
    },
    Portal,
    /// The branch ends here without a stair on this side: its place is still chosen.
    Nothing,
}

pub fn branch_of(level_name: &str) -> Option<Branch> {
    let (prefix, rest) = level_name.split_once('-').unwrap_or((level_name, ""));
    match (prefix, rest) {
        ("soko4", _) => Some(Branch::Stairs { up: false }),
        (_, "strt") => Some(Branch::Portal),
        ("knox", _) => Some(Branch::Portal),
        ("castle", _) | ("earth", _) => Some(Branch::Nothing),
        ("valley", _) => Some(Branch::Stairs { up: true }),
        ("tower3", _) => Some(Branch::Stairs { up: false }),
        _ => None,
    }
}
