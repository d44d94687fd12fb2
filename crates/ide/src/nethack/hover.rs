//! Hover: keyword and value documentation, what a name is in the game's tables, what a map
//! glyph is and where its cell lands, what a coordinate or a register points at.

use levkit_diagnostics::{TextRange, TextSize};
use levkit_model::nethack::tables::{MONSTERS, MonsterEntry, OBJECTS, TRAPS};
use levkit_model::nethack::{Map, map_origin, terrain_of};
use levkit_syntax::SyntaxKind::*;
use levkit_syntax::ast::values;
use levkit_syntax::{SyntaxNode, SyntaxToken};

use crate::db::{SourceFile, parse};
use crate::docs;
use crate::features::Hover;
use crate::nethack::nethack_model;

pub(crate) fn hover(db: &dyn salsa::Database, file: SourceFile, offset: TextSize) -> Option<Hover> {
    let root = parse(db, file).syntax();
    let token = crate::tree::token_at(&root, offset)?;
    let text = token.text();
    let doc = docs::nethack_keyword(text);
    let markdown = match token.kind() {
        MAP_ROW => return map_cell(db, file, &token, offset),
        STRING | UNTERMINATED_STRING => name(&token)?,
        CHAR => class(&token)?,
        PERCENT => {
            let n: String = text.chars().filter(char::is_ascii_digit).collect();
            format!(
                "**{text}** — the game makes this with probability {n}% (it draws a number below 100 and compares)"
            )
        }
        INT if token.parent().is_some_and(|p| p.kind() == COORD) => {
            return coordinate(db, file, &token.parent()?);
        }
        INT if token.parent().is_some_and(|p| p.kind() == REGISTER) => {
            return register(&token.parent()?);
        }
        _ if token.parent().is_some_and(|p| p.kind() == REGISTER) && token.kind() != INT => {
            return register(&token.parent()?);
        }
        _ => docs::render(doc?),
    };
    Some(Hover {
        range: token.text_range(),
        markdown,
    })
}

/// A monster's stats as the game's table gives them: a table of the numbers, then its
/// attacks, resistances and the rest.
fn monster_stats(m: &MonsterEntry) -> String {
    let alignment = match m.alignment {
        -128 => "none (A_NONE)".to_string(),
        0 => "0 (neutral)".to_string(),
        a if a < 0 => format!("{a} (chaotic)"),
        a => format!("{a} (lawful)"),
    };
    let or_none = |text: &str| {
        if text.is_empty() {
            "none".to_string()
        } else {
            text.to_string()
        }
    };
    let mut facts = vec![format!("{}, weight {}", m.size, m.weight)];
    if !m.groups.is_empty() {
        facts.push(format!("comes in {} groups", m.groups));
    }
    if m.unique {
        facts.push("unique".into());
    }
    facts.push(
        if m.genocidable {
            "genocidable"
        } else {
            "not genocidable"
        }
        .into(),
    );
    format!(
        "| level | speed | AC | magic resistance | alignment |\n| --- | --- | --- | --- | --- |\n| {} | {} | {} | {}% | {alignment} |\n\n**attacks** {}\n\n**resists** {}\n\n{}",
        m.level,
        m.speed,
        m.ac,
        m.magic_resistance,
        or_none(m.attacks.as_str()),
        or_none(m.resists.as_str()),
        facts.join(", ")
    )
}

fn unquote(token: &SyntaxToken) -> String {
    crate::tree::unquote(token.text())
}

/// A monster, object or trap name, looked up as lev_comp would.
fn name(token: &SyntaxToken) -> Option<String> {
    let statement = token
        .parent_ancestors()
        .find(|n| matches!(n.kind(), MONSTER_STMT | OBJECT_STMT | TRAP_STMT))?;
    let vals = values(&statement);
    let index = vals
        .iter()
        .position(|v| v.text_range().contains_range(token.text_range()))?;
    let name = unquote(token);
    let class = vals
        .first()
        .and_then(|v| v.token())
        .filter(|t| t.kind() == CHAR)
        .and_then(class_char);
    match (statement.kind(), index) {
        (MONSTER_STMT, 1) | (OBJECT_STMT, 3..) if MONSTERS.iter().any(|m| m.name == name) => {
            let m = MONSTERS
                .iter()
                .find(|m| {
                    m.name == name && (index != 1 || class.is_none_or(|c| m.class == c as u8))
                })
                .or_else(|| MONSTERS.iter().find(|m| m.name == name))?;
            let same_class = MONSTERS.iter().filter(|o| o.class == m.class).count();
            Some(format!(
                "**{}** — monster of class `'{}'` ({}, one of {same_class}), index {} in the game's monster table\n\n{}",
                m.name,
                m.class as char,
                levkit_render::monster_class_name(m.class),
                m.index,
                monster_stats(m)
            ))
        }
        (OBJECT_STMT, 1) => {
            let o = OBJECTS
                .iter()
                .find(|o| o.name == name && class.is_none_or(|c| o.class == c as u8))?;
            let description = if o.description.is_empty() {
                String::new()
            } else {
                format!("; unidentified it looks like \"{}\"", o.description)
            };
            Some(format!(
                "**{}** — object of class `'{}'`, index {} in the game's object table{description}",
                o.name, o.class as char, o.index
            ))
        }
        (TRAP_STMT, 0) => {
            let (n, v) = TRAPS.iter().find(|(n, _)| *n == name)?;
            Some(format!("**{n}** — trap type {v}"))
        }
        _ => None,
    }
}

fn class_char(token: &SyntaxToken) -> Option<char> {
    let inner = &token.text()[1..token.text().len().saturating_sub(1)];
    inner
        .strip_prefix('\\')
        .filter(|s| !s.is_empty())
        .unwrap_or(inner)
        .chars()
        .next()
}

/// A class character: which monsters or objects it covers.
fn class(token: &SyntaxToken) -> Option<String> {
    let statement = token.parent_ancestors().find(|n| {
        matches!(
            n.kind(),
            MONSTER_STMT | OBJECT_STMT | RANDOM_MONSTERS_STMT | RANDOM_OBJECTS_STMT
        )
    })?;
    let c = class_char(token)?;
    let monsters = matches!(statement.kind(), MONSTER_STMT | RANDOM_MONSTERS_STMT);
    let names: Vec<&str> = if monsters {
        MONSTERS
            .iter()
            .filter(|m| m.class == c as u8)
            .map(|m| m.name.as_str())
            .collect()
    } else {
        OBJECTS
            .iter()
            .filter(|o| o.class == c as u8 && !o.name.is_empty())
            .map(|o| o.name.as_str())
            .collect()
    };
    let what = if monsters { "monster" } else { "object" };
    if names.is_empty() {
        return Some(format!("`'{c}'` is not a {what} class"));
    }
    let shown: Vec<&str> = names.iter().take(8).copied().collect();
    Some(format!(
        "`'{c}'` — {what} class of {} {what}s: {}{}",
        names.len(),
        shown.join(", "),
        if names.len() > shown.len() {
            ", …"
        } else {
            ""
        }
    ))
}

/// The map part (with its map) that holds `node`, with the map's place on the level.
fn part_map(
    model: &levkit_model::nethack::DesFile,
    range: TextRange,
) -> Option<(&Map, Option<(i64, i64)>)> {
    let part = model
        .levels
        .iter()
        .flat_map(|l| &l.parts)
        .find(|p| p.range.contains_range(range))?;
    let map = part.map.as_ref()?;
    let origin = part.geometry.and_then(|g| {
        map_origin(
            g.value.0,
            g.value.1,
            map.width() as i64,
            map.height() as i64,
        )
    });
    Some((map, origin))
}

fn map_cell(
    db: &dyn salsa::Database,
    file: SourceFile,
    row: &SyntaxToken,
    offset: TextSize,
) -> Option<Hover> {
    let model = nethack_model(db, file).as_ref()?;
    let (map, origin) = part_map(model, row.text_range())?;
    let y = map
        .rows()
        .iter()
        .position(|r| r.range == row.text_range())?;
    let x = map.rows()[y].cell_at(offset)?;
    let c = map.rows()[y].cell(x)?;
    let range = map.cell_range(x as i64, y as i64)?;
    let glyph = docs::map_glyph(c).unwrap_or("not a map character");
    let place = origin.map_or(String::new(), |(x0, y0)| {
        format!("; on the level at ({}, {})", x0 + x as i64, y0 + y as i64)
    });
    Some(Hover {
        range,
        markdown: format!("**`{c}`** — {glyph}\n\nMap cell ({x}, {y}){place}"),
    })
}

fn coordinate(db: &dyn salsa::Database, file: SourceFile, coord: &SyntaxNode) -> Option<Hover> {
    let ints: Vec<i64> = coord
        .children_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| t.kind() == INT)
        .filter_map(|t| t.text().parse().ok())
        .collect();
    let [x, y] = ints.as_slice() else { return None };
    let model = nethack_model(db, file).as_ref()?;
    let (map, origin) = part_map(model, coord.text_range())?;
    let what = match map.char_at(*x, *y) {
        Some(c) => format!(
            "the map has `{c}` ({}) here",
            terrain_of(c).map_or("not a map character", |t| t.description())
        ),
        None => format!("outside this part's {}x{} map", map.width(), map.height()),
    };
    let place = origin.map_or(String::new(), |(x0, y0)| {
        format!("; on the level at ({}, {})", x0 + x, y0 + y)
    });
    Some(Hover {
        range: coord.text_range(),
        markdown: format!("**({x}, {y})** — {what}{place}"),
    })
}

fn register(register: &SyntaxNode) -> Option<Hover> {
    let keyword = register.first_token()?;
    let index: usize = values(register).first()?.token()?.text().parse().ok()?;
    let list = match keyword.kind() {
        PLACE_REG_KW => RANDOM_PLACES_STMT,
        MONSTER_REG_KW => RANDOM_MONSTERS_STMT,
        OBJECT_REG_KW => RANDOM_OBJECTS_STMT,
        _ => {
            return Some(Hover {
                range: register.text_range(),
                markdown: format!(
                    "**align[{index}]** — the {} of the three alignments, shuffled each time the level is made",
                    ["first", "second", "third"]
                        .get(index)
                        .unwrap_or(&"(no such)")
                ),
            });
        }
    };
    let scope = register
        .ancestors()
        .find(|n| n.kind() == MAP_PART)
        .or_else(|| register.ancestors().find(|n| n.kind() == ROOM_LEVEL))?;
    let statement = scope.descendants().find(|n| n.kind() == list);
    let markdown = match statement
        .as_ref()
        .and_then(|s| values(s).get(index).map(|v| v.text_range()))
    {
        Some(range) => {
            let text = statement
                .as_ref()
                .map(|s| s.text().to_string())
                .unwrap_or_default();
            let start = usize::from(range.start() - statement.as_ref()?.text_range().start());
            let end = usize::from(range.end() - statement.as_ref()?.text_range().start());
            format!(
                "**{}[{index}]** — entry {index} of the list, `{}`; the game shuffles the list each time the level is made, so this is one of its entries picked at random",
                keyword.text(),
                &text[start..end]
            )
        }
        None => format!(
            "**{}[{index}]** — no such entry: the list has fewer entries",
            keyword.text()
        ),
    };
    Some(Hover {
        range: register.text_range(),
        markdown,
    })
}
