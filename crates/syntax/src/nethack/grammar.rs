//! The lev_comp 3.4.3 grammar as recursive descent, one function per construct.
//!
//! It accepts every file lev_comp accepts and builds the same structure; where lev_comp would
//! stop at a syntax error, this parser reports it and goes on at the next statement. Statement
//! order is checked here too (lev_comp's grammar enforces it), with messages that say what
//! should move where.

use levkit_diagnostics::{Code, Diagnostic, TextRange, TextSize};

use crate::SyntaxKind::{self, *};
use crate::parser::{Parsed, Parser};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Context {
    /// Inside a map part of a MAZE level.
    Maze,
    /// Inside a ROOM or SUBROOM of a LEVEL.
    Room,
}

pub(crate) fn source_file(p: &mut Parser<'_>) {
    p.start_root(SOURCE_FILE);
    while !p.at(EOF) {
        match p.current() {
            MAZE_KW => maze_level(p),
            LEVEL_KW => room_level(p),
            // `maze:` or `Level:` is a misspelt level start: the level it opens is still a level.
            IDENT if p.current_text().eq_ignore_ascii_case("MAZE") => maze_level(p),
            IDENT if p.current_text().eq_ignore_ascii_case("LEVEL") => room_level(p),
            _ => {
                if p.current().is_nethack_statement_start() {
                    let range = p.current_range();
                    p.error(
                        Code::NH0011,
                        range,
                        format!(
                            "{} comes before any level; start the level with `MAZE: \"name\", ' '` or `LEVEL: \"name\"`",
                            p.describe_current()
                        ),
                    );
                }
                statement(p, None);
            }
        }
    }
}

/// The order of the statements that open a level.
#[derive(Default)]
struct Header {
    flags: bool,
    init_map: bool,
    message: bool,
}

fn header_statement(p: &mut Parser<'_>, header: &mut Header, late: Option<&str>) {
    let keyword = p.current();
    let range = p.current_range();
    if let Some(after) = late {
        p.error(
            Code::NH0005,
            range,
            format!(
                "{} belongs to the level's header, before {after}; move it up, after the level declaration",
                p.describe_current()
            ),
        );
    } else {
        let (seen_twice, later_seen) = match keyword {
            FLAGS_KW => (header.flags, header.init_map || header.message),
            INIT_MAP_KW => (header.init_map, header.message),
            _ => (false, false),
        };
        if seen_twice {
            p.error(
                Code::NH0006,
                range,
                format!(
                    "a level has one {} line; keep one (FLAGS may list several flags)",
                    p.current_text()
                ),
            );
        } else if later_seen {
            p.error(
                Code::NH0005,
                range,
                format!(
                    "{} must come before {}; the order is FLAGS, INIT_MAP, then MESSAGE",
                    p.describe_current(),
                    if keyword == FLAGS_KW && header.init_map {
                        "INIT_MAP"
                    } else {
                        "MESSAGE"
                    }
                ),
            );
        }
    }
    match keyword {
        FLAGS_KW => header.flags = true,
        INIT_MAP_KW => header.init_map = true,
        _ => header.message = true,
    }
    statement(p, None);
}

fn at_level_end(p: &Parser<'_>) -> bool {
    matches!(p.current(), EOF | MAZE_KW | LEVEL_KW)
}

fn maze_level(p: &mut Parser<'_>) {
    p.start(MAZE_LEVEL);
    let declaration = p.current_range();
    statement(p, None);
    let mut header = Header::default();
    // lev_comp's grammar wants at least one map part; a statement reported for lacking one
    // already says so.
    let (mut has_part, mut said_so) = (false, false);
    while !at_level_end(p) {
        match p.current() {
            FLAGS_KW | INIT_MAP_KW | MESSAGE_KW => header_statement(p, &mut header, None),
            GEOMETRY_KW | NOMAP_KW | MAP_KW => {
                has_part = true;
                map_part(p, &mut header)
            }
            _ => {
                // A statement that a maze never allows is reported as such by `statement`.
                if p.current().is_nethack_statement_start() && allowed(p.current(), Context::Maze) {
                    said_so = true;
                    let range = p.current_range();
                    p.error(
                        Code::NH0005,
                        range,
                        format!(
                            "{} must follow a map part: add `GEOMETRY:center,center` and a MAP block, or `NOMAP`, before it",
                            p.describe_current()
                        ),
                    );
                }
                statement(p, Some(Context::Maze));
            }
        }
    }
    if !has_part && !said_so {
        p.error(
            Code::NH0017,
            declaration,
            "a MAZE level needs a map part: add `GEOMETRY:center,center` and a MAP block, or `NOMAP`, after its header",
        );
    }
    p.finish();
}

fn map_part(p: &mut Parser<'_>, header: &mut Header) {
    p.start(MAP_PART);
    match p.current() {
        NOMAP_KW => statement(p, None),
        GEOMETRY_KW => {
            let keyword = p.current_range();
            statement(p, None);
            if p.at(MAP_KW) {
                map_block(p);
            } else {
                let range = keyword;
                p.error(
                    Code::NH0013,
                    range,
                    "GEOMETRY must be followed by a MAP block (a line holding only `MAP`, the rows, then `ENDMAP`)",
                );
            }
        }
        _ => {
            let range = p.current_range();
            p.error(
                Code::NH0013,
                range,
                "a MAP block needs a GEOMETRY line before it, such as `GEOMETRY:center,center`",
            );
            map_block(p);
        }
    }
    let mut details_started = false;
    while !at_level_end(p) && !matches!(p.current(), GEOMETRY_KW | NOMAP_KW) {
        match p.current() {
            RANDOM_OBJECTS_KW | RANDOM_PLACES_KW | RANDOM_MONSTERS_KW => {
                if details_started {
                    let range = p.current_range();
                    p.error(
                        Code::NH0005,
                        range,
                        format!(
                            "{} must come before the other statements of its map part; move it up, right after the map",
                            p.describe_current()
                        ),
                    );
                }
                statement(p, None);
            }
            FLAGS_KW | INIT_MAP_KW | MESSAGE_KW => {
                header_statement(p, header, Some("the first map part"))
            }
            MAP_KW => {
                let range = p.current_range();
                p.error(
                    Code::NH0013,
                    range,
                    "a MAP block needs its own GEOMETRY line before it, such as `GEOMETRY:center,center`",
                );
                map_block(p);
            }
            _ => {
                details_started = true;
                statement(p, Some(Context::Maze));
            }
        }
    }
    p.finish();
}

fn map_block(p: &mut Parser<'_>) {
    p.start(MAP_BLOCK);
    let map_range = p.current_range();
    p.bump();
    while p.at(MAP_ROW) {
        p.bump();
    }
    if !p.eat(ENDMAP_KW) {
        let end = p.previous_range().unwrap_or(map_range).end();
        let insert = levkit_diagnostics::TextRange::empty(end);
        let diagnostic = Diagnostic::new(
            Code::NH0008,
            map_range,
            "this MAP block is never closed; add a line `ENDMAP` after its last row",
        )
        .with_label(insert, "the map should end here")
        .with_replacement("Add ENDMAP", insert, "\nENDMAP");
        p.push_diagnostic(diagnostic);
    }
    p.finish();
}

fn room_level(p: &mut Parser<'_>) {
    p.start(ROOM_LEVEL);
    statement(p, None);
    let mut header = Header::default();
    let mut rooms_seen = false;
    let mut corridors: Option<SyntaxKind> = None;
    while !at_level_end(p) {
        let current = p.current();
        match current {
            FLAGS_KW | INIT_MAP_KW | MESSAGE_KW => {
                let late = (rooms_seen || corridors.is_some()).then_some("the first ROOM");
                header_statement(p, &mut header, late);
            }
            RANDOM_OBJECTS_KW | RANDOM_MONSTERS_KW => {
                if rooms_seen || corridors.is_some() {
                    let range = p.current_range();
                    p.error(
                        Code::NH0005,
                        range,
                        format!(
                            "{} must come before the first ROOM; move it up",
                            p.describe_current()
                        ),
                    );
                }
                header.message = true;
                statement(p, None);
            }
            ROOM_KW | SUBROOM_KW => {
                if corridors.is_some() {
                    let range = p.current_range();
                    p.error(
                        Code::NH0005,
                        range,
                        "rooms must come before the corridors; move the CORRIDOR lines to the end of the level",
                    );
                }
                rooms_seen = true;
                room(p);
            }
            RANDOM_CORRIDORS_KW | CORRIDOR_KW => {
                let range = p.current_range();
                match (corridors, current) {
                    (Some(RANDOM_CORRIDORS_KW), RANDOM_CORRIDORS_KW) => p.error(
                        Code::NH0006,
                        range,
                        "RANDOM_CORRIDORS is given twice; remove one",
                    ),
                    (Some(RANDOM_CORRIDORS_KW), _) | (Some(CORRIDOR_KW), RANDOM_CORRIDORS_KW) => p
                        .error(
                            Code::NH0005,
                            range,
                            "a level has either RANDOM_CORRIDORS or CORRIDOR lines, not both",
                        ),
                    _ => {}
                }
                corridors = Some(current);
                statement(p, None);
            }
            _ => {
                if current.is_nethack_statement_start() && allowed(current, Context::Room) {
                    let range = p.current_range();
                    p.error(
                        Code::NH0005,
                        range,
                        format!(
                            "{} must be inside a ROOM in a LEVEL; add a ROOM line before it",
                            p.describe_current()
                        ),
                    );
                }
                statement(p, Some(Context::Room));
            }
        }
    }
    p.finish();
}

fn room(p: &mut Parser<'_>) {
    p.start(ROOM);
    statement(p, None);
    while !at_level_end(p)
        && !matches!(
            p.current(),
            ROOM_KW | SUBROOM_KW | CORRIDOR_KW | RANDOM_CORRIDORS_KW
        )
    {
        if matches!(
            p.current(),
            FLAGS_KW | INIT_MAP_KW | MESSAGE_KW | RANDOM_OBJECTS_KW | RANDOM_MONSTERS_KW
        ) {
            let range = p.current_range();
            p.error(
                Code::NH0005,
                range,
                format!(
                    "{} belongs before the first ROOM of the level; move it up",
                    p.describe_current()
                ),
            );
            statement(p, None);
        } else {
            statement(p, Some(Context::Room));
        }
    }
    p.finish();
}

/// Where a statement may stand: `None` for statements that are checked by their caller.
fn allowed(kind: SyntaxKind, context: Context) -> bool {
    match kind {
        SINK_KW | POOL_KW | NAME_KW | CHANCE_KW => context == Context::Room,
        DRAWBRIDGE_KW | MAZEWALK_KW | WALLIFY_KW | LADDER_KW | PORTAL_KW | TELEPORT_REGION_KW
        | BRANCH_KW | NON_DIGGABLE_KW | NON_PASSWALL_KW | REGION_KW | GEOMETRY_KW | MAP_KW
        | NOMAP_KW | RANDOM_PLACES_KW => context == Context::Maze,
        ROOM_KW | SUBROOM_KW | CORRIDOR_KW | RANDOM_CORRIDORS_KW => context == Context::Room,
        _ => true,
    }
}

/// Where the parser resumes after an error: the next statement keyword, or an unknown word
/// at the start of a line (most likely a misspelt keyword).
fn at_statement_boundary(p: &Parser<'_>) -> bool {
    let current = p.current();
    current.is_nethack_statement_start()
        || current == ENDMAP_KW
        || current == MAP_ROW
        || (current == IDENT && p.at_line_start())
}

/// Parses one statement, whatever it is; reports it when it does not belong in `context`.
fn statement(p: &mut Parser<'_>, context: Option<Context>) {
    let keyword = p.current();
    if let Some(context) = context
        && !allowed(keyword, context)
    {
        let range = p.current_range();
        let place = match context {
            Context::Maze => "in LEVEL (rooms) levels, not in a MAZE level",
            Context::Room => "in a MAZE level's map part, not in a LEVEL (rooms) level",
        };
        p.error(
            Code::NH0005,
            range,
            format!("{} is only allowed {place}", p.describe_current()),
        );
    }
    let node = match keyword {
        MAZE_KW => MAZE_DECL,
        LEVEL_KW => LEVEL_DECL,
        FLAGS_KW => FLAGS_STMT,
        INIT_MAP_KW => INIT_MAP_STMT,
        MESSAGE_KW => MESSAGE_STMT,
        GEOMETRY_KW => GEOMETRY_STMT,
        NOMAP_KW => NOMAP_STMT,
        RANDOM_OBJECTS_KW => RANDOM_OBJECTS_STMT,
        RANDOM_PLACES_KW => RANDOM_PLACES_STMT,
        RANDOM_MONSTERS_KW => RANDOM_MONSTERS_STMT,
        ROOM_KW => ROOM_STMT,
        SUBROOM_KW => SUBROOM_STMT,
        NAME_KW => NAME_STMT,
        CHANCE_KW => CHANCE_STMT,
        DOOR_KW if context == Some(Context::Room) => ROOM_DOOR_STMT,
        DOOR_KW => DOOR_STMT,
        MONSTER_KW => MONSTER_STMT,
        OBJECT_KW | CONTAINER_KW => OBJECT_STMT,
        TRAP_KW => TRAP_STMT,
        DRAWBRIDGE_KW => DRAWBRIDGE_STMT,
        MAZEWALK_KW => MAZEWALK_STMT,
        WALLIFY_KW => WALLIFY_STMT,
        LADDER_KW => LADDER_STMT,
        STAIR_KW if context != Some(Context::Room) && stair_has_regions(p) => STAIR_REGION_STMT,
        STAIR_KW => STAIR_STMT,
        PORTAL_KW => PORTAL_STMT,
        TELEPORT_REGION_KW => TELEPORT_REGION_STMT,
        BRANCH_KW => BRANCH_STMT,
        ALTAR_KW => ALTAR_STMT,
        FOUNTAIN_KW => FOUNTAIN_STMT,
        SINK_KW => SINK_STMT,
        POOL_KW => POOL_STMT,
        GOLD_KW => GOLD_STMT,
        ENGRAVING_KW => ENGRAVING_STMT,
        NON_DIGGABLE_KW => NON_DIGGABLE_STMT,
        NON_PASSWALL_KW => NON_PASSWALL_STMT,
        REGION_KW => REGION_STMT,
        RANDOM_CORRIDORS_KW => RANDOM_CORRIDORS_STMT,
        CORRIDOR_KW => CORRIDOR_STMT,
        MAP_KW => {
            map_block(p);
            return;
        }
        ENDMAP_KW => {
            let range = p.current_range();
            p.error(
                Code::NH0012,
                range,
                "ENDMAP closes a MAP block, but no MAP is open here; remove it or add the MAP line",
            );
            p.bump_error();
            return;
        }
        IDENT => {
            unknown_word(p);
            return;
        }
        _ => {
            p.expected("a statement keyword such as MONSTER or OBJECT");
            p.bump_error();
            p.skip_until(at_statement_boundary);
            return;
        }
    };
    let keyword_range = p.current_range();
    p.start(node);
    p.bump();
    let parsed = statement_body(p, node);
    if parsed.is_some() && !at_statement_boundary(p) && !p.at(EOF) {
        text_after_statement(p, keyword_range);
    }
    p.recover_at_statement_end(None, at_statement_boundary, "");
    p.finish();
}

/// Reports what follows a complete statement on its line: most often one more argument, which
/// a variant's lev_comp may take but lev_comp 3.4.3 does not.
fn text_after_statement(p: &mut Parser<'_>, keyword_range: TextRange) {
    let source = p.source();
    let keyword = &source[keyword_range];
    let here = p.current_range();
    let line_end = source[here.start().into()..]
        .find('\n')
        .map_or(source.len(), |i| usize::from(here.start()) + i);
    let rest = source[here.start().into()..line_end].trim_end();
    let rest_range = TextRange::at(here.start(), TextSize::from(rest.len() as u32));
    let message = if p.at(COMMA) {
        let given = top_level_arguments(&source[keyword_range.end().into()..here.start().into()]);
        let extra = rest[1..].trim_start();
        if extra.is_empty() {
            p.error(
                Code::NH0001,
                rest_range,
                format!("a comma after the last argument of {keyword}; remove it"),
            );
            return;
        }
        format!(
            "{keyword} takes {given} argument{} here; `{extra}` is {}, which lev_comp 3.4.3 does not accept (a variant's lev_comp may). Remove it",
            if given == 1 { "" } else { "s" },
            ordinal(given + 1),
        )
    } else {
        format!(
            "`{rest}` after a complete {keyword} statement is not part of lev_comp 3.4.3's grammar (a variant's lev_comp may accept it). Remove it"
        )
    };
    p.error(Code::NH0001, rest_range, message);
}

/// How many comma-separated arguments `text` (a statement after its keyword) holds, counting
/// from its first `:` and ignoring commas inside parentheses, brackets, strings and characters.
fn top_level_arguments(text: &str) -> usize {
    let Some(colon) = text.find(':') else {
        return 0;
    };
    let (mut depth, mut count, mut quote) = (0i32, 1, None);
    for c in text[colon + 1..].chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(' | '[') => depth += 1,
            (None, ')' | ']') => depth -= 1,
            (None, ',') if depth == 0 => count += 1,
            _ => {}
        }
    }
    count
}

fn ordinal(n: usize) -> String {
    const WORDS: [&str; 11] = [
        "",
        "a first",
        "a second",
        "a third",
        "a fourth",
        "a fifth",
        "a sixth",
        "a seventh",
        "an eighth",
        "a ninth",
        "a tenth",
    ];
    WORDS
        .get(n)
        .map_or_else(|| format!("argument number {n}"), |w| (*w).to_string())
}

fn unknown_word(p: &mut Parser<'_>) {
    let word = p.current_text().to_string();
    let range = p.current_range();
    let mut diagnostic = Diagnostic::new(
        Code::NH0002,
        range,
        format!("`{word}` is not a lev_comp keyword"),
    );
    if let Some(suggestion) =
        crate::suggest::closest(&word, crate::nethack::lexer::KEYWORDS.iter().copied())
    {
        diagnostic.message = format!(
            "`{word}` is not a lev_comp keyword; did you mean `{suggestion}`? (keywords are case-sensitive)"
        );
        diagnostic =
            diagnostic.with_replacement(format!("Replace with `{suggestion}`"), range, suggestion);
    }
    p.push_diagnostic(diagnostic);
    p.bump_error();
    p.skip_until(at_statement_boundary);
}

/// `STAIR:` followed by a levregion or a four-number rectangle is the level-region form.
fn stair_has_regions(p: &Parser<'_>) -> bool {
    match p.nth(2) {
        LEVREGION_KW => true,
        L_PAREN => {
            let mut commas = 0;
            for n in 3.. {
                match p.nth(n) {
                    COMMA => commas += 1,
                    INT => {}
                    _ => break,
                }
            }
            commas >= 3
        }
        _ => false,
    }
}

fn string_or_random(p: &mut Parser<'_>, what: &str) -> Parsed {
    if p.at(RANDOM_KW) {
        p.bump();
        Some(())
    } else {
        p.string(what)
    }
}

/// `(a, b)`
fn coord(p: &mut Parser<'_>) -> Parsed {
    p.start(COORD);
    let parsed = (|| {
        p.expect(L_PAREN, "`(`")?;
        p.expect(INT, "a number")?;
        p.comma()?;
        p.expect(INT, "a number")?;
        p.expect(R_PAREN, "`)`")
    })();
    p.finish();
    parsed
}

/// `(x1, y1, x2, y2)`
fn rect(p: &mut Parser<'_>) -> Parsed {
    p.start(RECT);
    let parsed = rect_body(p);
    p.finish();
    parsed
}

fn rect_body(p: &mut Parser<'_>) -> Parsed {
    p.expect(L_PAREN, "`(` starting a region `(x1,y1,x2,y2)`")?;
    for i in 0..4 {
        if i > 0 {
            p.comma()?;
        }
        p.expect(INT, "a number")?;
    }
    p.expect(R_PAREN, "`)`")
}

/// A region in map coordinates or, with `levregion`, in level coordinates.
fn lev_region(p: &mut Parser<'_>) -> Parsed {
    if p.at(LEVREGION_KW) {
        p.start(LEV_REGION);
        p.bump();
        let parsed = rect_body(p);
        p.finish();
        parsed
    } else if p.at(L_PAREN) {
        rect(p)
    } else {
        p.expected("a region `(x1,y1,x2,y2)` or `levregion(x1,y1,x2,y2)`");
        None
    }
}

/// `place[i]` and its siblings.
fn register(p: &mut Parser<'_>) -> Parsed {
    p.start(REGISTER);
    p.bump();
    let parsed = (|| {
        p.expect(L_BRACK, "`[`")?;
        p.expect(INT, "a register index")?;
        p.expect(R_BRACK, "`]`")
    })();
    p.finish();
    parsed
}

fn coordinate(p: &mut Parser<'_>) -> Parsed {
    match p.current() {
        L_PAREN => coord(p),
        PLACE_REG_KW => register(p),
        RANDOM_KW => {
            p.bump();
            Some(())
        }
        _ => {
            p.expected("a coordinate `(x,y)`, `place[i]` or `random`");
            None
        }
    }
}

/// A class character, `random`, or a register of the given kind.
fn class(p: &mut Parser<'_>, register_kind: SyntaxKind, what: &str) -> Parsed {
    match p.current() {
        CHAR | RANDOM_KW => {
            p.bump();
            Some(())
        }
        k if k == register_kind => register(p),
        _ => {
            p.expected(what);
            None
        }
    }
}

fn alignment(p: &mut Parser<'_>) -> Parsed {
    match p.current() {
        ALIGNMENT | RANDOM_KW => {
            p.bump();
            Some(())
        }
        ALIGN_REG_KW => register(p),
        _ => {
            p.expected("an alignment (law, neutral, chaos, noalign, coaligned, noncoaligned), `align[i]` or `random`");
            None
        }
    }
}

fn percent_chance(p: &mut Parser<'_>, node: SyntaxKind) {
    if p.at(PERCENT) {
        if matches!(node, MONSTER_STMT | OBJECT_STMT | TRAP_STMT) {
            p.bump();
        } else {
            let range = p.current_range();
            p.error(
                Code::NH0001,
                range,
                "a `[n%]` chance is allowed only on MONSTER, OBJECT, CONTAINER and TRAP",
            );
            p.bump_error();
        }
    }
}

fn statement_body(p: &mut Parser<'_>, node: SyntaxKind) -> Parsed {
    percent_chance(p, node);
    match node {
        WALLIFY_STMT | NOMAP_STMT | RANDOM_CORRIDORS_STMT => return Some(()),
        _ => p.colon()?,
    }
    match node {
        MAZE_DECL => {
            p.string("the level name as a string")?;
            p.comma()?;
            p.one_of(
                &[CHAR, RANDOM_KW],
                "the fill character, such as ' ', or `random`",
            )
        }
        LEVEL_DECL => p.string("the level name as a string"),
        FLAGS_STMT => {
            p.one_of(
                &[FLAG_TYPE],
                "a flag (noteleport, hardfloor, nommap, shortsighted, arboreal)",
            )?;
            while p.eat(COMMA) {
                p.one_of(
                    &[FLAG_TYPE],
                    "a flag (noteleport, hardfloor, nommap, shortsighted, arboreal)",
                )?;
            }
            Some(())
        }
        INIT_MAP_STMT => {
            p.one_of(&[CHAR], "the foreground map character, such as '.'")?;
            p.comma()?;
            p.one_of(&[CHAR], "the background map character, such as ' '")?;
            p.comma()?;
            p.one_of(&[BOOLEAN], "`true` or `false` (smoothed)")?;
            p.comma()?;
            p.one_of(&[BOOLEAN], "`true` or `false` (joined)")?;
            p.comma()?;
            p.one_of(&[LIGHT_STATE, RANDOM_KW], "`lit`, `unlit` or `random`")?;
            p.comma()?;
            p.one_of(
                &[BOOLEAN, RANDOM_KW],
                "`true`, `false` or `random` (walled)",
            )
        }
        MESSAGE_STMT => p.string("the message text as a string"),
        GEOMETRY_STMT => {
            p.one_of(
                &[LEFT_OR_RIGHT, CENTER_KW],
                "a horizontal placement (left, half-left, center, half-right, right)",
            )?;
            p.comma()?;
            p.one_of(
                &[TOP_OR_BOT, CENTER_KW],
                "a vertical placement (top, center, bottom)",
            )
        }
        RANDOM_OBJECTS_STMT | RANDOM_MONSTERS_STMT => {
            p.one_of(&[CHAR], "a class character such as 'd'")?;
            while p.eat(COMMA) {
                p.one_of(&[CHAR], "a class character such as 'd'")?;
            }
            Some(())
        }
        RANDOM_PLACES_STMT => {
            coord(p)?;
            while p.eat(COMMA) {
                coord(p)?;
            }
            Some(())
        }
        ROOM_STMT | SUBROOM_STMT => {
            string_or_random(p, "a room type such as \"ordinary\", or `random`")?;
            p.comma()?;
            p.one_of(&[LIGHT_STATE, RANDOM_KW], "`lit`, `unlit` or `random`")?;
            p.comma()?;
            coord_or_random(p, "a position `(x,y)` or `random`")?;
            p.comma()?;
            if node == ROOM_STMT {
                room_align(p)?;
                p.comma()?;
                coord_or_random(p, "a size `(width,height)` or `random`")?;
            } else {
                coord_or_random(p, "a size `(width,height)` or `random`")?;
                p.comma()?;
                p.string("the parent room's name as a string")?;
            }
            if p.eat(COMMA) {
                p.one_of(&[BOOLEAN], "`true` or `false` (filled)")?;
            }
            Some(())
        }
        NAME_STMT => p.string("the room name as a string"),
        CHANCE_STMT => p.expect(INT, "a percentage"),
        ROOM_DOOR_STMT => {
            p.one_of(
                &[BOOLEAN, RANDOM_KW],
                "`true`, `false` or `random` (secret)",
            )?;
            p.comma()?;
            p.one_of(
                &[DOOR_STATE, RANDOM_KW],
                "a door state (open, closed, locked, nodoor, broken) or `random`",
            )?;
            p.comma()?;
            p.one_of(
                &[DIRECTION, RANDOM_KW],
                "a wall (north, south, east, west) or `random`",
            )?;
            p.comma()?;
            p.one_of(&[INT, RANDOM_KW], "a position on the wall or `random`")
        }
        DOOR_STMT => {
            p.one_of(
                &[DOOR_STATE, RANDOM_KW],
                "a door state (open, closed, locked, nodoor, broken) or `random`",
            )?;
            p.comma()?;
            coordinate(p)
        }
        MONSTER_STMT => {
            class(
                p,
                MONSTER_REG_KW,
                "a monster class such as 'd', `monster[i]` or `random`",
            )?;
            p.comma()?;
            string_or_random(p, "a monster name such as \"jackal\", or `random`")?;
            p.comma()?;
            coordinate(p)?;
            while p.eat(COMMA) {
                match p.current() {
                    STRING | UNTERMINATED_STRING | MON_ATTITUDE | MON_ALERTNESS => p.bump(),
                    ALIGNMENT | ALIGN_REG_KW | RANDOM_KW => alignment(p)?,
                    MON_APPEARANCE => {
                        p.start(APPEARANCE);
                        p.bump();
                        let parsed = p.string("what the mimic looks like, as a string");
                        p.finish();
                        parsed?;
                    }
                    _ => {
                        p.expected(
                            "a name, peaceful/hostile, asleep/awake, an alignment or an appearance",
                        );
                        return None;
                    }
                }
            }
            Some(())
        }
        OBJECT_STMT => {
            class(
                p,
                OBJECT_REG_KW,
                "an object class such as '(', `object[i]` or `random`",
            )?;
            p.comma()?;
            string_or_random(p, "an object name such as \"chest\", or `random`")?;
            p.comma()?;
            if !p.eat(CONTAINED_KW) {
                coordinate(p)?;
            }
            if p.eat(COMMA) {
                object_infos(p)?;
            }
            Some(())
        }
        TRAP_STMT => {
            string_or_random(p, "a trap name such as \"pit\", or `random`")?;
            p.comma()?;
            coordinate(p)
        }
        DRAWBRIDGE_STMT => {
            coordinate(p)?;
            p.comma()?;
            p.one_of(&[DIRECTION], "a direction (north, south, east, west)")?;
            p.comma()?;
            p.one_of(&[DOOR_STATE, RANDOM_KW], "`open`, `closed` or `random`")
        }
        MAZEWALK_STMT => {
            coordinate(p)?;
            p.comma()?;
            p.one_of(&[DIRECTION], "a direction (north, south, east, west)")
        }
        LADDER_STMT | STAIR_STMT => {
            coordinate(p)?;
            p.comma()?;
            p.one_of(&[UP_OR_DOWN], "`up` or `down`")
        }
        STAIR_REGION_STMT | PORTAL_STMT | TELEPORT_REGION_STMT | BRANCH_STMT => {
            lev_region(p)?;
            p.comma()?;
            lev_region(p)?;
            match node {
                STAIR_REGION_STMT => {
                    p.comma()?;
                    p.one_of(&[UP_OR_DOWN], "`up` or `down`")
                }
                PORTAL_STMT => {
                    p.comma()?;
                    p.string("the destination level's name as a string")
                }
                TELEPORT_REGION_STMT => {
                    if p.eat(COMMA) {
                        p.one_of(&[UP_OR_DOWN], "`up` or `down`")?;
                    }
                    Some(())
                }
                _ => Some(()),
            }
        }
        ALTAR_STMT => {
            coordinate(p)?;
            p.comma()?;
            alignment(p)?;
            p.comma()?;
            p.one_of(
                &[ALTAR_TYPE, RANDOM_KW],
                "`altar`, `shrine`, `sanctum` or `random`",
            )
        }
        FOUNTAIN_STMT | SINK_STMT | POOL_STMT => coordinate(p),
        GOLD_STMT => {
            p.one_of(&[INT, RANDOM_KW], "an amount of gold or `random`")?;
            p.comma()?;
            coordinate(p)
        }
        ENGRAVING_STMT => {
            coordinate(p)?;
            p.comma()?;
            p.one_of(
                &[ENGRAVING_TYPE, RANDOM_KW],
                "an engraving type (dust, engrave, burn, mark) or `random`",
            )?;
            p.comma()?;
            p.string("the engraved text as a string")
        }
        NON_DIGGABLE_STMT | NON_PASSWALL_STMT => rect(p),
        REGION_STMT => {
            rect(p)?;
            p.comma()?;
            p.one_of(&[LIGHT_STATE, RANDOM_KW], "`lit`, `unlit` or `random`")?;
            p.comma()?;
            string_or_random(p, "a room type such as \"ordinary\", or `random`")?;
            if p.eat(COMMA) {
                p.one_of(&[FILLING], "`filled` or `unfilled`")?;
                if p.eat(COMMA) {
                    p.one_of(&[BOOLEAN], "`true` or `false` (irregular)")?;
                }
            }
            Some(())
        }
        CORRIDOR_STMT => {
            corridor_spec(p)?;
            p.comma()?;
            if p.at(INT) {
                p.bump();
                Some(())
            } else {
                corridor_spec(p)
            }
        }
        _ => Some(()),
    }
}

fn coord_or_random(p: &mut Parser<'_>, what: &str) -> Parsed {
    match p.current() {
        RANDOM_KW => {
            p.bump();
            Some(())
        }
        L_PAREN => coord(p),
        _ => {
            p.expected(what);
            None
        }
    }
}

fn room_align(p: &mut Parser<'_>) -> Parsed {
    match p.current() {
        RANDOM_KW => {
            p.bump();
            Some(())
        }
        L_PAREN => {
            p.start(ALIGN_PAIR);
            let parsed = (|| {
                p.bump();
                p.one_of(
                    &[LEFT_OR_RIGHT, CENTER_KW],
                    "a horizontal alignment (left, center, right)",
                )?;
                p.comma()?;
                p.one_of(
                    &[TOP_OR_BOT, CENTER_KW],
                    "a vertical alignment (top, center, bottom)",
                )?;
                p.expect(R_PAREN, "`)`")
            })();
            p.finish();
            parsed
        }
        _ => {
            p.expected("an alignment `(h,v)` or `random`");
            None
        }
    }
}

fn corridor_spec(p: &mut Parser<'_>) -> Parsed {
    p.start(CORRIDOR_SPEC);
    let parsed = (|| {
        p.expect(L_PAREN, "`(` starting `(room, wall, door)`")?;
        p.expect(INT, "a room number")?;
        p.comma()?;
        p.one_of(&[DIRECTION], "a wall (north, south, east, west)")?;
        p.comma()?;
        p.one_of(&[INT, RANDOM_KW], "a door number or `random`")?;
        p.expect(R_PAREN, "`)`")
    })();
    p.finish();
    parsed
}

/// `, curse_state, monster_id, enchantment [, name]` and its shorter forms.
fn object_infos(p: &mut Parser<'_>) -> Parsed {
    let mut curse_given = false;
    if matches!(p.current(), CURSE_TYPE) || (p.at(RANDOM_KW) && p.nth(1) == COMMA) {
        // `random` first is the curse state unless it is the last value (then the enchantment).
        p.bump();
        p.comma()?;
        curse_given = true;
    }
    if p.at(STRING) {
        p.bump();
        p.comma()?;
    } else if !curse_given {
        p.expected("a curse state (blessed, uncursed, cursed, random) or a monster name");
        return None;
    }
    p.one_of(&[INT, RANDOM_KW], "an enchantment number or `random`")?;
    if p.eat(COMMA) {
        p.one_of(
            &[NONE_KW, STRING],
            "the object's name as a string, or `none`",
        )?;
    }
    Some(())
}
