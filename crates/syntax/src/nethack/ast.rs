//! Typed nodes of the lev_comp grammar.

use crate::SyntaxKind::{self, *};
use crate::ast::{AstNode, Value, ast_nodes, child, children, token, values};
use crate::{SyntaxNode, SyntaxToken};

ast_nodes! {
    SourceFile = SOURCE_FILE;
    /// A `MAZE` or `LEVEL` level with everything up to the next level.
    Level = MAZE_LEVEL | ROOM_LEVEL;
    /// `GEOMETRY` + `MAP` block, or `NOMAP`, with the statements that follow.
    MapPart = MAP_PART;
    MapBlock = MAP_BLOCK;
    /// A `ROOM` or `SUBROOM` line with the statements that follow it.
    Room = ROOM;
    /// Any statement.
    Statement = MAZE_DECL | LEVEL_DECL | FLAGS_STMT | INIT_MAP_STMT | MESSAGE_STMT | GEOMETRY_STMT
        | NOMAP_STMT | RANDOM_OBJECTS_STMT | RANDOM_PLACES_STMT | RANDOM_MONSTERS_STMT | ROOM_STMT
        | SUBROOM_STMT | NAME_STMT | CHANCE_STMT | ROOM_DOOR_STMT | DOOR_STMT | MONSTER_STMT
        | OBJECT_STMT | TRAP_STMT | DRAWBRIDGE_STMT | MAZEWALK_STMT | WALLIFY_STMT | LADDER_STMT
        | STAIR_STMT | STAIR_REGION_STMT | PORTAL_STMT | TELEPORT_REGION_STMT | BRANCH_STMT
        | ALTAR_STMT | FOUNTAIN_STMT | SINK_STMT | POOL_STMT | GOLD_STMT | ENGRAVING_STMT
        | NON_DIGGABLE_STMT | NON_PASSWALL_STMT | REGION_STMT | RANDOM_CORRIDORS_STMT
        | CORRIDOR_STMT;
    Coord = COORD;
    Rect = RECT | LEV_REGION;
    Register = REGISTER;
}

impl SourceFile {
    pub fn levels(&self) -> impl Iterator<Item = Level> {
        children(&self.0)
    }
}

impl Level {
    pub fn is_maze(&self) -> bool {
        self.0.kind() == MAZE_LEVEL
    }

    /// The `MAZE:` or `LEVEL:` line.
    pub fn declaration(&self) -> Option<Statement> {
        self.statements()
            .find(|s| matches!(s.kind(), MAZE_DECL | LEVEL_DECL))
    }

    /// Statements directly in the level (header lines, corridors, misplaced details).
    pub fn statements(&self) -> impl Iterator<Item = Statement> {
        children(&self.0)
    }

    pub fn parts(&self) -> impl Iterator<Item = MapPart> {
        children(&self.0)
    }

    pub fn rooms(&self) -> impl Iterator<Item = Room> {
        children(&self.0)
    }
}

impl MapPart {
    /// `GEOMETRY` or `NOMAP`.
    pub fn opening(&self) -> Option<Statement> {
        child(&self.0)
    }

    pub fn map(&self) -> Option<MapBlock> {
        child(&self.0)
    }

    pub fn statements(&self) -> impl Iterator<Item = Statement> {
        children(&self.0)
    }
}

impl MapBlock {
    pub fn rows(&self) -> impl Iterator<Item = SyntaxToken> {
        self.0
            .children_with_tokens()
            .filter_map(|e| e.into_token())
            .filter(|t| t.kind() == MAP_ROW)
    }

    pub fn is_closed(&self) -> bool {
        token(&self.0, ENDMAP_KW).is_some()
    }
}

impl Room {
    /// The `ROOM` or `SUBROOM` line.
    pub fn header(&self) -> Option<Statement> {
        child(&self.0)
    }

    pub fn statements(&self) -> impl Iterator<Item = Statement> {
        children(&self.0)
    }
}

impl Statement {
    pub fn kind(&self) -> SyntaxKind {
        self.0.kind()
    }

    /// The keyword that opens the statement (`CONTAINER` for a container, not `OBJECT`).
    pub fn keyword(&self) -> Option<SyntaxToken> {
        self.0.first_token()
    }

    /// The `[n%]` chance token.
    pub fn percent(&self) -> Option<SyntaxToken> {
        // It follows the keyword, so only the first few children need looking at.
        self.0
            .children_with_tokens()
            .take(4)
            .filter_map(|e| e.into_token())
            .find(|t| t.kind() == PERCENT)
    }

    /// The comma-separated values after the colon, in order.
    pub fn values(&self) -> Vec<Value> {
        values(&self.0)
    }
}

impl Coord {
    /// The two numbers of `(a, b)`, when both are written.
    pub fn pair(&self) -> Option<(SyntaxToken, SyntaxToken)> {
        let mut ints = self.ints();
        Some((ints.next()?, ints.next()?))
    }

    fn ints(&self) -> impl Iterator<Item = SyntaxToken> {
        self.0
            .children_with_tokens()
            .filter_map(|e| e.into_token())
            .filter(|t| t.kind() == INT)
    }
}

impl Rect {
    pub fn is_levregion(&self) -> bool {
        self.0.kind() == LEV_REGION
    }

    /// The four numbers `x1, y1, x2, y2`, when all are written.
    pub fn corners(&self) -> Option<[SyntaxToken; 4]> {
        let ints: Vec<SyntaxToken> = self
            .0
            .children_with_tokens()
            .filter_map(|e| e.into_token())
            .filter(|t| t.kind() == INT)
            .collect();
        ints.try_into().ok()
    }
}

impl Register {
    /// `place`, `monster`, `object` or `align`.
    pub fn register_kind(&self) -> Option<SyntaxKind> {
        self.0.first_token().map(|t| t.kind())
    }

    pub fn index(&self) -> Option<SyntaxToken> {
        token(&self.0, INT)
    }
}

/// Convenience: cast a node that is known to be of this type.
pub fn cast<N: AstNode>(node: SyntaxNode) -> Option<N> {
    N::cast(node)
}
