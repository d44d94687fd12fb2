//! Typed nodes of dungeon.def.

use crate::SyntaxKind;
use crate::SyntaxToken;
use crate::ast::{AstNode, Value, ast_nodes, children, values};

ast_nodes! {
    DungeonFile = SOURCE_FILE;
    Dungeon = DUNGEON;
    DungeonStatement = DUNGEON_STMT | ENTRY_STMT | PROTOFILE_STMT | DESCRIPTION_STMT | DGN_ALIGNMENT_STMT
        | DGN_LEVEL_STMT | CHAIN_LEVEL_STMT | LEVELDESC_STMT | LEVALIGN_STMT | DGN_BRANCH_STMT
        | CHAIN_BRANCH_STMT;
}

impl DungeonFile {
    /// Every statement of the file in order, inside or outside DUNGEON groups.
    pub fn statements(&self) -> impl Iterator<Item = DungeonStatement> {
        self.0.descendants().filter_map(DungeonStatement::cast)
    }

    pub fn dungeons(&self) -> impl Iterator<Item = Dungeon> {
        children(&self.0)
    }
}

impl DungeonStatement {
    pub fn kind(&self) -> SyntaxKind {
        self.0.kind()
    }

    pub fn keyword(&self) -> Option<SyntaxToken> {
        self.0.first_token()
    }

    pub fn values(&self) -> Vec<Value> {
        values(&self.0)
    }
}
