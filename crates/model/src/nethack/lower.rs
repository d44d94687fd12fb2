//! Syntax tree to model. Statements whose values are incomplete (a syntax error was reported
//! for them) are left out, so checks only ever see complete statements.
//!
//! The walk reads the compact tree ([`levkit_syntax::compact`]): it visits every statement of
//! the file once, and the parse that builds it costs a fraction of a rowan tree's.

use levkit_syntax::SyntaxKind::{self, *};
use levkit_syntax::atoi;
use levkit_syntax::compact::{self, CompactParse, Element as Value, Node, Token};

use super::*;
use crate::{Spanned, TextSize};

/// The model of a `.des` file from its parse (`levkit_syntax::nethack::parse_compact`) and
/// its `text`.
pub fn lower(parse: &CompactParse, text: &str) -> DesFile {
    let Some(file) = parse.tree.root(text).filter(|f| f.kind() == SOURCE_FILE) else {
        return DesFile::default();
    };
    DesFile {
        levels: file
            .children()
            .filter(|n| matches!(n.kind(), MAZE_LEVEL | ROOM_LEVEL))
            .map(lower_level)
            .collect(),
    }
}

/// Whether a node is a statement (any `*_STMT`, `MAZE_DECL` or `LEVEL_DECL`).
fn is_statement(kind: SyntaxKind) -> bool {
    matches!(
        kind,
        MAZE_DECL
            | LEVEL_DECL
            | FLAGS_STMT
            | INIT_MAP_STMT
            | MESSAGE_STMT
            | GEOMETRY_STMT
            | NOMAP_STMT
            | RANDOM_OBJECTS_STMT
            | RANDOM_PLACES_STMT
            | RANDOM_MONSTERS_STMT
            | ROOM_STMT
            | SUBROOM_STMT
            | NAME_STMT
            | CHANCE_STMT
            | ROOM_DOOR_STMT
            | DOOR_STMT
            | MONSTER_STMT
            | OBJECT_STMT
            | TRAP_STMT
            | DRAWBRIDGE_STMT
            | MAZEWALK_STMT
            | WALLIFY_STMT
            | LADDER_STMT
            | STAIR_STMT
            | STAIR_REGION_STMT
            | PORTAL_STMT
            | TELEPORT_REGION_STMT
            | BRANCH_STMT
            | ALTAR_STMT
            | FOUNTAIN_STMT
            | SINK_STMT
            | POOL_STMT
            | GOLD_STMT
            | ENGRAVING_STMT
            | NON_DIGGABLE_STMT
            | NON_PASSWALL_STMT
            | REGION_STMT
            | RANDOM_CORRIDORS_STMT
            | CORRIDOR_STMT
    )
}

fn statements<'a>(node: Node<'a>) -> impl Iterator<Item = Node<'a>> {
    node.children().filter(|n| is_statement(n.kind()))
}

/// A statement's values, in order (see [`levkit_syntax::ast::values`]).
fn values(node: Node<'_>) -> Vec<Value<'_>> {
    // A statement holds a handful of values: room for them at once rather than grown twice.
    let mut values = Vec::with_capacity(12);
    values.extend(compact::values(node));
    values
}

fn lower_level(node: Node<'_>) -> Level {
    let kind = if node.kind() == MAZE_LEVEL {
        LevelKind::Maze
    } else {
        LevelKind::Rooms
    };
    let mut level = Level {
        kind,
        range: node.text_range(),
        declaration: node.text_range(),
        name: None,
        fill: None,
        flags: Vec::new(),
        init_map: None,
        messages: Vec::new(),
        parts: Vec::new(),
        registers: Registers::default(),
        rooms: Vec::new(),
        corridors: Corridors::default(),
    };
    // Header statements count wherever they stand; the parser reported misplaced ones.
    let headers = node.descendants().filter(|n| {
        matches!(
            n.kind(),
            MAZE_DECL | LEVEL_DECL | FLAGS_STMT | INIT_MAP_STMT | MESSAGE_STMT
        )
    });
    for statement in headers {
        let values = values(statement);
        let range = statement.text_range();
        match statement.kind() {
            MAZE_DECL | LEVEL_DECL => {
                level.declaration = range;
                level.name = values.first().and_then(|v| string(*v));
                level.fill = values.get(1).and_then(|&v| match v.kind() {
                    CHAR => char_value(v).map(|c| c.map(Fill::Char)),
                    RANDOM_KW => Some(Spanned::new(Fill::Random, v.text_range())),
                    _ => None,
                });
            }
            FLAGS_STMT => {
                level.flags.extend(values.iter().filter_map(|&v| {
                    keyword(v).and_then(|k| k.map(Flag::from_keyword).transpose())
                }))
            }
            INIT_MAP_STMT => level.init_map = init_map(range, &values),
            MESSAGE_STMT => level
                .messages
                .extend(values.first().and_then(|v| string(*v))),
            _ => {}
        }
    }
    match kind {
        LevelKind::Maze => {
            level.parts = node
                .children()
                .filter(|n| n.kind() == MAP_PART)
                .map(lower_part)
                .collect()
        }
        LevelKind::Rooms => {
            for statement in statements(node) {
                let range = statement.text_range();
                match statement.kind() {
                    RANDOM_OBJECTS_STMT | RANDOM_MONSTERS_STMT => {
                        register_statement(&mut level.registers, statement)
                    }
                    RANDOM_CORRIDORS_STMT => level.corridors.random = Some(range),
                    CORRIDOR_STMT => level.corridors.explicit.extend(corridor(statement)),
                    _ => {}
                }
            }
            level.rooms = node
                .children()
                .filter(|n| n.kind() == ROOM)
                .filter_map(lower_room)
                .collect();
        }
    }
    level
}

fn init_map(range: TextRange, values: &[Value<'_>]) -> Option<InitMap> {
    Some(InitMap {
        range,
        foreground: char_value(*values.first()?)?,
        background: char_value(*values.get(1)?)?,
        smoothed: boolean(*values.get(2)?)?.value,
        joined: boolean(*values.get(3)?)?,
        lit: light(*values.get(4)?)?.value,
        walled: match values.get(5)?.kind() {
            RANDOM_KW => None,
            _ => Some(boolean(*values.get(5)?)?.value),
        },
    })
}

fn lower_part(node: Node<'_>) -> MapPart {
    let mut part = MapPart {
        range: node.text_range(),
        geometry: None,
        map: node
            .children()
            .find(|n| n.kind() == MAP_BLOCK)
            .map(lower_map),
        nomap: None,
        registers: Registers::default(),
        // Room for every statement up front: details are large, and growing the list one at
        // a time copies it over and over.
        details: Vec::with_capacity(node.children().count()),
    };
    for statement in statements(node) {
        match statement.kind() {
            GEOMETRY_STMT => {
                let values = values(statement);
                let h = values
                    .first()
                    .and_then(|&v| HAlign::from_keyword(token_text(v)));
                let v = values
                    .get(1)
                    .and_then(|&v| VAlign::from_keyword(token_text(v)));
                if let (Some(h), Some(v)) = (h, v) {
                    part.geometry = Some(Spanned::new((h, v), statement.text_range()));
                }
            }
            NOMAP_STMT => part.nomap = Some(statement.text_range()),
            RANDOM_OBJECTS_STMT | RANDOM_PLACES_STMT | RANDOM_MONSTERS_STMT => {
                register_statement(&mut part.registers, statement)
            }
            _ => part.details.extend(detail(statement)),
        }
    }
    part
}

fn lower_map(node: Node<'_>) -> Map {
    let keyword = node
        .first_token()
        .map_or(node.text_range(), |t| t.text_range());
    let rows = node
        .tokens()
        .filter(|t| t.kind() == MAP_ROW)
        .map(|row| {
            let start = row.text_range().start();
            let text = row.text();
            if text.is_ascii() && !text.bytes().any(|b| b.is_ascii_digit()) {
                // Most rows: every byte a cell.
                return MapRow::contiguous(row.text_range(), text.as_bytes());
            }
            let mut cells = Vec::with_capacity(text.len());
            let mut offsets = Vec::with_capacity(text.len());
            if text.is_ascii() {
                // A byte is a character; digits are rulers.
                for (i, b) in text
                    .bytes()
                    .enumerate()
                    .filter(|(_, b)| !b.is_ascii_digit())
                {
                    cells.push(char::from(b));
                    offsets.push(start + TextSize::from(i as u32));
                }
            } else {
                for (i, c) in text.char_indices().filter(|(_, c)| !c.is_ascii_digit()) {
                    cells.push(c);
                    offsets.push(start + TextSize::from(i as u32));
                }
            }
            MapRow::new(row.text_range(), cells, offsets)
        })
        .collect();
    Map::new(
        node.text_range(),
        keyword,
        rows,
        node.tokens().any(|t| t.kind() == ENDMAP_KW),
    )
}

fn register_statement(registers: &mut Registers, statement: Node<'_>) {
    let range = statement.text_range();
    let values = compact::values(statement);
    match statement.kind() {
        RANDOM_OBJECTS_STMT | RANDOM_MONSTERS_STMT => {
            let list = RegisterList {
                range,
                items: values.filter_map(char_value).collect(),
            };
            if statement.kind() == RANDOM_OBJECTS_STMT {
                registers.objects.push(list);
            } else {
                registers.monsters.push(list);
            }
        }
        _ => registers.places.push(RegisterList {
            range,
            items: values.filter_map(pair).collect(),
        }),
    }
}

fn lower_room(node: Node<'_>) -> Option<Room> {
    let mut statements = statements(node);
    let header = statements.next()?;
    let is_subroom = header.kind() == SUBROOM_STMT;
    let values = values(header);
    let v = |i: usize| values.get(i).copied();
    let room_type_value = v(0)?;
    let (alignment, size, parent) = if is_subroom {
        (
            Spanned::new(None, v(3)?.text_range()),
            v(3)?,
            Some(string(v(4)?)?),
        )
    } else {
        (room_alignment(v(3)?)?, v(4)?, None)
    };
    Some(Room {
        range: node.text_range(),
        header: header.text_range(),
        is_subroom,
        room_type: string(room_type_value),
        room_type_range: room_type_value.text_range(),
        lit: light(v(1)?)?,
        position: pair_or_random(v(2)?)?,
        alignment,
        size: pair_or_random(size)?,
        parent,
        filled: v(5).and_then(boolean),
        details: {
            let mut details = Vec::with_capacity(node.children().count());
            details.extend(statements.filter_map(detail));
            details
        },
    })
}

fn room_alignment(value: Value<'_>) -> Option<Spanned<Option<(HAlign, VAlign)>>> {
    let Some(pair) = value.node() else {
        return (value.kind() == RANDOM_KW).then(|| Spanned::new(None, value.text_range()));
    };
    let mut words = compact::values(pair);
    let h = HAlign::from_keyword(token_text(words.next()?))?;
    let v = VAlign::from_keyword(token_text(words.next()?))?;
    Some(Spanned::new(Some((h, v)), value.text_range()))
}

fn corridor(statement: Node<'_>) -> Option<Corridor> {
    let mut values = compact::values(statement);
    let from = corridor_end(values.next()?)?;
    let to = match values.next()? {
        v if v.kind() == INT => CorridorTarget::Number(int(v)?),
        v => CorridorTarget::Door(corridor_end(v)?),
    };
    Some(Corridor {
        range: statement.text_range(),
        from,
        to,
    })
}

fn corridor_end(value: Value<'_>) -> Option<CorridorEnd> {
    let node = value.node()?;
    let values = values(node);
    Some(CorridorEnd {
        range: node.text_range(),
        room: int(*values.first()?)?,
        wall: Direction::from_keyword(values.get(1)?.token()?.text())?,
        door: match values.get(2)?.kind() {
            RANDOM_KW => None,
            _ => Some(int(*values.get(2)?)?.value),
        },
    })
}

/// The `[n%]` chance token, which follows the keyword.
fn chance_token(statement: Node<'_>) -> Option<Token<'_>> {
    statement
        .children_with_tokens()
        .take(4)
        .filter_map(Value::token)
        .find(|t| t.kind() == PERCENT)
}

/// The model of a detail statement, or `None` if it is incomplete or not a detail.
fn detail(statement: Node<'_>) -> Option<Detail> {
    let values = values(statement);
    let v = |i: usize| values.get(i).copied();
    let chance = || chance_token(statement).map(percent);
    let kind = match statement.kind() {
        MONSTER_STMT => {
            let mut monster = Monster {
                chance: chance(),
                class: class(v(0)?)?,
                name: string(v(1)?),
                at: coordinate(v(2)?)?,
                given_name: None,
                peaceful: None,
                asleep: None,
                alignment: None,
                appearance: None,
            };
            for &value in &values[3..] {
                let range = value.text_range();
                match value.kind() {
                    STRING | UNTERMINATED_STRING => {
                        monster.given_name = string(value).map(Box::new)
                    }
                    MON_ATTITUDE => {
                        monster.peaceful =
                            Some(Spanned::new(token_text(value) == "peaceful", range))
                    }
                    MON_ALERTNESS => {
                        monster.asleep = Some(Spanned::new(token_text(value) == "asleep", range))
                    }
                    APPEARANCE => {
                        let node = value.node()?;
                        let keyword = node.first_token()?;
                        let kind = match keyword.text() {
                            "m_feature" => AppearanceKind::Feature,
                            "m_object" => AppearanceKind::Object,
                            _ => AppearanceKind::Monster,
                        };
                        monster.appearance = Some(Box::new(Appearance {
                            kind: Spanned::new(kind, keyword.text_range()),
                            what: string(compact::values(node).next()?)?,
                        }));
                    }
                    _ => monster.alignment = Some(alignment(value)?),
                }
            }
            DetailKind::Monster(monster)
        }
        OBJECT_STMT => {
            let contained = v(2)?.kind() == CONTAINED_KW;
            let mut object = Object {
                is_container: statement.first_token()?.kind() == CONTAINER_KW,
                chance: chance(),
                class: class(v(0)?)?,
                name: string(v(1)?),
                at: if contained {
                    None
                } else {
                    Some(coordinate(v(2)?)?)
                },
                contained: contained.then(|| v(2).map(Value::text_range)).flatten(),
                curse: None,
                monster: None,
                enchantment: None,
                given_name: None,
            };
            let mut rest = values[3..].iter().copied().peekable();
            if let Some(first) = rest.peek().copied() {
                let is_curse =
                    first.kind() == CURSE_TYPE || (first.kind() == RANDOM_KW && values.len() > 4);
                if is_curse {
                    let range = first.text_range();
                    object.curse = Some(Spanned::new(
                        match token_text(first) {
                            "blessed" => Some(1),
                            "uncursed" => Some(2),
                            "cursed" => Some(3),
                            _ => None,
                        },
                        range,
                    ));
                    rest.next();
                }
            }
            if let Some(value) = rest.next_if(|v| matches!(v.kind(), STRING | UNTERMINATED_STRING))
            {
                object.monster = string(value).map(Box::new);
            }
            if let Some(value) = rest.next() {
                object.enchantment = Some(int_or_random(value)?);
            }
            if let Some(value) = rest.next() {
                object.given_name = Some(Box::new(match value.kind() {
                    NONE_KW => Spanned::new(None, value.text_range()),
                    _ => string(value)?.map(Some),
                }));
            }
            DetailKind::Object(object)
        }
        TRAP_STMT => DetailKind::Trap(Trap {
            chance: chance(),
            kind: string(v(0)?),
            at: coordinate(v(1)?)?,
        }),
        DOOR_STMT => DetailKind::Door {
            state: door_state(v(0)?)?,
            at: coordinate(v(1)?)?,
        },
        ROOM_DOOR_STMT => DetailKind::RoomDoor(RoomDoor {
            secret: bool_or_random(v(0)?)?,
            state: door_state(v(1)?)?,
            wall: direction_or_random(v(2)?)?,
            position: int_or_random(v(3)?)?,
        }),
        DRAWBRIDGE_STMT => DetailKind::Drawbridge {
            at: coordinate(v(0)?)?,
            direction: direction(v(1)?)?,
            state: door_state(v(2)?)?,
        },
        MAZEWALK_STMT => DetailKind::Mazewalk {
            at: coordinate(v(0)?)?,
            direction: direction(v(1)?)?,
        },
        WALLIFY_STMT => DetailKind::Wallify,
        LADDER_STMT => DetailKind::Ladder {
            at: coordinate(v(0)?)?,
            up: token_text(v(1)?) == "up",
        },
        STAIR_STMT => DetailKind::Stair {
            at: coordinate(v(0)?)?,
            up: token_text(v(1)?) == "up",
        },
        STAIR_REGION_STMT | PORTAL_STMT | TELEPORT_REGION_STMT | BRANCH_STMT => {
            let kind = match statement.kind() {
                STAIR_REGION_STMT => LevRegionKind::Stair {
                    up: token_text(v(2)?) == "up",
                },
                PORTAL_STMT => LevRegionKind::Portal {
                    destination: string(v(2)?)?,
                },
                TELEPORT_REGION_STMT => LevRegionKind::Teleport {
                    up: v(2).map(|v| token_text(v) == "up"),
                },
                _ => LevRegionKind::Branch,
            };
            DetailKind::LevRegion(LevRegion {
                kind,
                area: area(v(0)?)?,
                excluded: area(v(1)?)?,
            })
        }
        ALTAR_STMT => DetailKind::Altar {
            at: coordinate(v(0)?)?,
            alignment: alignment(v(1)?)?,
            shrine: match token_text(v(2)?) {
                "altar" => Some(0),
                "shrine" => Some(1),
                "sanctum" => Some(2),
                _ => None,
            },
        },
        FOUNTAIN_STMT => DetailKind::Fountain(coordinate(v(0)?)?),
        SINK_STMT => DetailKind::Sink(coordinate(v(0)?)?),
        POOL_STMT => DetailKind::Pool(coordinate(v(0)?)?),
        GOLD_STMT => DetailKind::Gold {
            amount: int_or_random(v(0)?)?,
            at: coordinate(v(1)?)?,
        },
        ENGRAVING_STMT => DetailKind::Engraving {
            at: coordinate(v(0)?)?,
            kind: match token_text(v(1)?) {
                "dust" => Some(1),
                "engrave" => Some(2),
                "burn" => Some(3),
                "mark" => Some(4),
                _ => None,
            },
            text: string(v(2)?)?,
        },
        NON_DIGGABLE_STMT => DetailKind::NonDiggable(rect(v(0)?)?),
        NON_PASSWALL_STMT => DetailKind::NonPasswall(rect(v(0)?)?),
        REGION_STMT => DetailKind::Region(Region {
            rect: rect(v(0)?)?,
            lit: light(v(1)?)?,
            room_type: string(v(2)?),
            room_type_range: v(2)?.text_range(),
            unfilled: v(3).map(|v| Spanned::new(token_text(v) == "unfilled", v.text_range())),
            irregular: v(4).and_then(boolean),
        }),
        NAME_STMT => DetailKind::RoomName(string(v(0)?)?),
        CHANCE_STMT => DetailKind::RoomChance(int(v(0)?)?),
        _ => return None,
    };
    Some(Detail {
        range: statement.text_range(),
        kind,
    })
}

// ---- values -----------------------------------------------------------------------------

fn token_text(value: Value<'_>) -> &str {
    value.token().map_or("", Token::text)
}

fn keyword(value: Value<'_>) -> Option<Spanned<&str>> {
    Some(Spanned::new(value.token()?.text(), value.text_range()))
}

/// A string without its quotes (an unterminated one without its opening quote).
fn string(value: Value<'_>) -> Option<Spanned<String>> {
    let token = value.token()?;
    let text = token.text();
    let inner = match token.kind() {
        STRING => &text[1..text.len() - 1],
        UNTERMINATED_STRING => &text[1..],
        _ => return None,
    };
    Some(Spanned::new(inner.to_string(), token.text_range()))
}

/// `'x'` or `'\x'`: the character x.
fn char_value(value: Value<'_>) -> Option<Spanned<char>> {
    let token = value.token().filter(|t| t.kind() == CHAR)?;
    let inner = &token.text()[1..token.text().len() - 1];
    let c = inner
        .strip_prefix('\\')
        .filter(|s| !s.is_empty())
        .unwrap_or(inner)
        .chars()
        .next()?;
    Some(Spanned::new(c, token.text_range()))
}

/// An integer as lev_comp reads it (see [`atoi`]).
fn int(value: Value<'_>) -> Option<Spanned<i64>> {
    let token = value.token().filter(|t| t.kind() == INT)?;
    Some(Spanned::new(atoi(token.text()), token.text_range()))
}

fn percent(token: Token<'_>) -> Spanned<i64> {
    let digits: String = token.text().chars().filter(char::is_ascii_digit).collect();
    Spanned::new(atoi(&digits), token.text_range())
}

fn int_or_random(value: Value<'_>) -> Option<Spanned<Option<i64>>> {
    match value.kind() {
        RANDOM_KW => Some(Spanned::new(None, value.text_range())),
        _ => int(value).map(|i| i.map(Some)),
    }
}

fn boolean(value: Value<'_>) -> Option<Spanned<bool>> {
    let token = value.token().filter(|t| t.kind() == BOOLEAN)?;
    Some(Spanned::new(token.text() == "true", token.text_range()))
}

fn bool_or_random(value: Value<'_>) -> Option<Spanned<Option<bool>>> {
    match value.kind() {
        RANDOM_KW => Some(Spanned::new(None, value.text_range())),
        _ => boolean(value).map(|b| b.map(Some)),
    }
}

fn light(value: Value<'_>) -> Option<Spanned<Light>> {
    let light = match (value.kind(), token_text(value)) {
        (RANDOM_KW, _) => Light::Random,
        (LIGHT_STATE, "lit") => Light::Lit,
        (LIGHT_STATE, _) => Light::Unlit,
        _ => return None,
    };
    Some(Spanned::new(light, value.text_range()))
}

fn door_state(value: Value<'_>) -> Option<Spanned<DoorState>> {
    Some(Spanned::new(
        DoorState::from_keyword(token_text(value))?,
        value.text_range(),
    ))
}

fn direction(value: Value<'_>) -> Option<Spanned<Direction>> {
    Some(Spanned::new(
        Direction::from_keyword(token_text(value))?,
        value.text_range(),
    ))
}

fn direction_or_random(value: Value<'_>) -> Option<Spanned<Option<Direction>>> {
    match value.kind() {
        RANDOM_KW => Some(Spanned::new(None, value.text_range())),
        _ => direction(value).map(|d| d.map(Some)),
    }
}

fn register_index(node: Node<'_>) -> Option<i64> {
    Some(int(compact::values(node).next()?)?.value)
}

fn coordinate(value: Value<'_>) -> Option<Spanned<Coordinate>> {
    let range = value.text_range();
    let coordinate = match value.kind() {
        RANDOM_KW => Coordinate::Random,
        COORD => {
            let (x, y) = pair(value)?.value;
            Coordinate::At { x, y }
        }
        REGISTER => Coordinate::Place(register_index(value.node()?)?),
        _ => return None,
    };
    Some(Spanned::new(coordinate, range))
}

/// The numbers written among a node's own tokens.
fn ints(node: Node<'_>) -> impl Iterator<Item = i64> + '_ {
    node.tokens()
        .filter(|t| t.kind() == INT)
        .map(|t| atoi(t.text()))
}

fn pair(value: Value<'_>) -> Option<Spanned<(i64, i64)>> {
    let node = value.node().filter(|n| n.kind() == COORD)?;
    let mut ints = ints(node);
    let pair = (ints.next()?, ints.next()?);
    Some(Spanned::new(pair, value.text_range()))
}

fn pair_or_random(value: Value<'_>) -> Option<Spanned<Option<(i64, i64)>>> {
    match value.kind() {
        RANDOM_KW => Some(Spanned::new(None, value.text_range())),
        _ => pair(value).map(|p| p.map(Some)),
    }
}

fn rect(value: Value<'_>) -> Option<Spanned<Rect>> {
    let node = value
        .node()
        .filter(|n| matches!(n.kind(), RECT | LEV_REGION))?;
    // Exactly four numbers: fewer or more is a statement the parser reported.
    let mut ints = ints(node);
    let corners = [ints.next()?, ints.next()?, ints.next()?, ints.next()?];
    if ints.next().is_some() {
        return None;
    }
    let [x1, y1, x2, y2] = corners;
    Some(Spanned::new(Rect { x1, y1, x2, y2 }, value.text_range()))
}

fn area(value: Value<'_>) -> Option<Spanned<Area>> {
    let whole_level = value.kind() == LEV_REGION;
    rect(value).map(|r| r.map(|rect| Area { rect, whole_level }))
}

fn class(value: Value<'_>) -> Option<Spanned<Class>> {
    let range = value.text_range();
    let class = match value.kind() {
        RANDOM_KW => Class::Random,
        CHAR => Class::Char(char_value(value)?.value),
        REGISTER => Class::Register(register_index(value.node()?)?),
        _ => return None,
    };
    Some(Spanned::new(class, range))
}

fn alignment(value: Value<'_>) -> Option<Spanned<Alignment>> {
    let range = value.text_range();
    let alignment = match value.kind() {
        RANDOM_KW => Alignment::Random,
        ALIGNMENT => Alignment::from_keyword(token_text(value))?,
        REGISTER => Alignment::Register(register_index(value.node()?)?),
        _ => return None,
    };
    Some(Spanned::new(alignment, range))
}
