//! A quick Lua 5.1 syntax check that can only say "surely valid". Loading a chunk with Lua
//! compiles it, about 200 instructions a byte, a fifth of a whole DCSS check; this reads it
//! at a tenth of that. Whatever it is unsure of goes to Lua, whose verdict and message are
//! the ones reported: every error, and everything near one of Lua's limits (locals,
//! upvalues, registers, nesting) or in a corner of its lexer (numbers other than plain
//! decimal or hex, escapes past 255, `[[` inside a long string, bytes beyond ASCII outside
//! strings). It must never accept a chunk Lua rejects: the tests hold it to Lua on the
//! corpus's chunks and on many mutations of them.

/// Whether Lua 5.1 surely loads `text`; `false` means "ask Lua", not "invalid".
pub(super) fn surely_valid(text: &str) -> bool {
    // Far below the size at which one block's code could outgrow Lua's jumps (2^17
    // instructions, a few hundred kilobytes of source); the corpus's largest chunk is 47 KB.
    if text.len() > MAX_TEXT {
        return false;
    }
    // One buffer of tokens per thread, reused: a fresh one per chunk (8 bytes a byte of Lua,
    // in as many allocator size classes as there are chunk sizes) spread over memory the
    // kernel had to zero first.
    thread_local! {
        static TOKENS: std::cell::RefCell<Vec<Token>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    TOKENS.with(|tokens| {
        let mut tokens = tokens.borrow_mut();
        lex(text, &mut tokens).is_some() && Parser::new(text, &tokens).main().is_some()
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Name,
    Number,
    String,
    // Keywords.
    And,
    Break,
    Do,
    Else,
    Elseif,
    End,
    False,
    For,
    Function,
    If,
    In,
    Local,
    Nil,
    Not,
    Or,
    Repeat,
    Return,
    Then,
    True,
    Until,
    While,
    // Symbols.
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Caret,
    Hash,
    Eq,
    Ne,
    Le,
    Ge,
    Lt,
    Gt,
    Assign,
    LParen,
    RParen,
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    Semi,
    Colon,
    Comma,
    Dot,
    Concat,
    Dots,
    Eof,
}

#[derive(Debug, Clone, Copy)]
struct Token {
    kind: Kind,
    /// Where the token is in the text, in bytes (a text is at most `MAX_TEXT` long).
    start: u32,
    end: u32,
    /// The lines the token starts and ends on (a long string may span several).
    first_line: u32,
    last_line: u32,
}

fn keyword(word: &str) -> Option<Kind> {
    Some(match word {
        "and" => Kind::And,
        "break" => Kind::Break,
        "do" => Kind::Do,
        "else" => Kind::Else,
        "elseif" => Kind::Elseif,
        "end" => Kind::End,
        "false" => Kind::False,
        "for" => Kind::For,
        "function" => Kind::Function,
        "if" => Kind::If,
        "in" => Kind::In,
        "local" => Kind::Local,
        "nil" => Kind::Nil,
        "not" => Kind::Not,
        "or" => Kind::Or,
        "repeat" => Kind::Repeat,
        "return" => Kind::Return,
        "then" => Kind::Then,
        "true" => Kind::True,
        "until" => Kind::Until,
        "while" => Kind::While,
        _ => return None,
    })
}

/// The tokens of `text` as Lua 5.1's lexer reads them, or `None` where it would fail or where
/// this lexer is unsure; into `tokens`, emptied first.
fn lex(text: &str, tokens: &mut Vec<Token>) -> Option<()> {
    let bytes = text.as_bytes();
    tokens.clear();
    let mut i = 0;
    let mut line = 1u32;
    while i < bytes.len() {
        let start = i;
        let first_line = line;
        let b = bytes[i];
        let kind = match b {
            b'\n' | b'\r' => {
                i = newline(bytes, i);
                line += 1;
                continue;
            }
            b' ' | b'\t' | 0x0b | 0x0c => {
                // Indentation comes in runs: passed over here rather than a byte a round.
                i = run_end(bytes, i + 1, |b| matches!(b, b' ' | b'\t'));
                continue;
            }
            b'-' if bytes.get(i + 1) == Some(&b'-') => {
                i += 2;
                if let Some(level) = long_bracket(bytes, i) {
                    i = long_string(bytes, i, level, &mut line)?;
                } else {
                    i = run_end(bytes, i, |b| !matches!(b, b'\n' | b'\r'));
                }
                continue;
            }
            b'[' => match long_bracket(bytes, i) {
                Some(level) => {
                    i = long_string(bytes, i, level, &mut line)?;
                    Kind::String
                }
                // `[=` without its second `[` is an error in Lua.
                None if bytes.get(i + 1) == Some(&b'=') => return None,
                None => {
                    i += 1;
                    Kind::LBracket
                }
            },
            b'"' | b'\'' => {
                i = short_string(bytes, i, &mut line)?;
                Kind::String
            }
            b'0'..=b'9' => {
                i = numeral(bytes, i)?;
                Kind::Number
            }
            b'.' => {
                if bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
                    i = numeral(bytes, i)?;
                    Kind::Number
                } else if bytes[i..].starts_with(b"...") {
                    i += 3;
                    Kind::Dots
                } else if bytes[i..].starts_with(b"..") {
                    i += 2;
                    Kind::Concat
                } else {
                    i += 1;
                    Kind::Dot
                }
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                i = run_end(bytes, i + 1, is_name_byte);
                keyword(&text[start..i]).unwrap_or(Kind::Name)
            }
            _ => {
                let (kind, len) = symbol(&bytes[i..])?;
                i += len;
                kind
            }
        };
        tokens.push(Token {
            kind,
            start: start as u32,
            end: i as u32,
            first_line,
            last_line: line,
        });
    }
    tokens.push(Token {
        kind: Kind::Eof,
        start: text.len() as u32,
        end: text.len() as u32,
        first_line: line,
        last_line: line,
    });
    Some(())
}

/// Where the run of bytes from `i` that `within` accepts ends: read through an iterator, with
/// no bounds check a byte (names, strings and indentation are most of a chunk's bytes).
fn run_end(bytes: &[u8], i: usize, within: impl Fn(u8) -> bool) -> usize {
    let rest = bytes.get(i..).unwrap_or_default();
    i + rest.iter().position(|&b| !within(b)).unwrap_or(rest.len())
}

/// The bytes of Lua names, one load each where the ranges take several comparisons, for the
/// lexers that read every byte of Lua: letters and `_`, and digits too after a name's start.
const fn name_bytes(digits: bool) -> [bool; 256] {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        table[b] = byte.is_ascii_alphabetic() || byte == b'_' || digits && byte.is_ascii_digit();
        b += 1;
    }
    table
}

/// Whether `byte` may be in a Lua name: a letter, a digit or `_`.
pub(super) fn is_name_byte(byte: u8) -> bool {
    const NAME_BYTES: [bool; 256] = name_bytes(true);
    NAME_BYTES[usize::from(byte)]
}

/// Whether a Lua name may start with `byte`: a letter or `_`.
pub(super) fn is_name_start(byte: u8) -> bool {
    const NAME_STARTS: [bool; 256] = name_bytes(false);
    NAME_STARTS[usize::from(byte)]
}

/// Past a line break at `i`: `\n`, `\r`, `\r\n` or `\n\r` (Lua counts each as one).
fn newline(bytes: &[u8], i: usize) -> usize {
    let first = bytes[i];
    match bytes.get(i + 1) {
        Some(&next) if matches!(next, b'\n' | b'\r') && next != first => i + 2,
        _ => i + 1,
    }
}

fn symbol(rest: &[u8]) -> Option<(Kind, usize)> {
    let two = |second: u8, pair: Kind, single: Kind| {
        if rest.get(1) == Some(&second) {
            (pair, 2)
        } else {
            (single, 1)
        }
    };
    Some(match rest[0] {
        b'+' => (Kind::Plus, 1),
        b'-' => (Kind::Minus, 1),
        b'*' => (Kind::Star, 1),
        b'/' => (Kind::Slash, 1),
        b'%' => (Kind::Percent, 1),
        b'^' => (Kind::Caret, 1),
        b'#' => (Kind::Hash, 1),
        b'=' => two(b'=', Kind::Eq, Kind::Assign),
        b'<' => two(b'=', Kind::Le, Kind::Lt),
        b'>' => two(b'=', Kind::Ge, Kind::Gt),
        b'~' if rest.get(1) == Some(&b'=') => (Kind::Ne, 2),
        b'(' => (Kind::LParen, 1),
        b')' => (Kind::RParen, 1),
        b'{' => (Kind::LBrace, 1),
        b'}' => (Kind::RBrace, 1),
        b']' => (Kind::RBracket, 1),
        b';' => (Kind::Semi, 1),
        b':' => (Kind::Colon, 1),
        b',' => (Kind::Comma, 1),
        // Anything else (`~`, `!`, `&`, bytes beyond ASCII...) Lua rejects, or is not sure.
        _ => return None,
    })
}

/// The level of a long bracket opening at `i` (`[[` is 0, `[==[` is 2), if one does.
fn long_bracket(bytes: &[u8], i: usize) -> Option<usize> {
    if bytes.get(i) != Some(&b'[') {
        return None;
    }
    let level = bytes[i + 1..].iter().take_while(|&&b| b == b'=').count();
    (bytes.get(i + 1 + level) == Some(&b'[')).then_some(level)
}

/// Past the long string or comment opening at `i`. Lua 5.1 refuses `[[` inside `[[...]]`;
/// any `[[` or `[=` inside is left to Lua.
fn long_string(bytes: &[u8], i: usize, level: usize, line: &mut u32) -> Option<usize> {
    let mut j = i + level + 2;
    while j < bytes.len() {
        match bytes[j] {
            b']' if bytes[j + 1..].iter().take_while(|&&b| b == b'=').count() == level
                && bytes.get(j + 1 + level) == Some(&b']') =>
            {
                return Some(j + level + 2);
            }
            b'[' if matches!(bytes.get(j + 1), Some(b'[' | b'=')) => return None,
            b'\n' | b'\r' => {
                j = newline(bytes, j);
                *line += 1;
            }
            _ => j += 1,
        }
    }
    None
}

/// Past the quoted string opening at `i` (counting the escaped line breaks in it): no line
/// break but an escaped one, decimal escapes up to 255.
fn short_string(bytes: &[u8], i: usize, line: &mut u32) -> Option<usize> {
    let quote = bytes[i];
    let mut j = i + 1;
    loop {
        // Only a quote, a `\` or a line break stops the string's plain bytes.
        j = run_end(bytes, j, |b| {
            !matches!(b, b'"' | b'\'' | b'\\' | b'\n' | b'\r')
        });
        match *bytes.get(j)? {
            b if b == quote => return Some(j + 1),
            b'\n' | b'\r' => return None,
            b'\\' => match *bytes.get(j + 1)? {
                // An escaped line break is part of the string.
                b'\n' | b'\r' => {
                    j = newline(bytes, j + 1);
                    *line += 1;
                }
                b'0'..=b'9' => {
                    let count = bytes[j + 1..]
                        .iter()
                        .take(3)
                        .take_while(|b| b.is_ascii_digit())
                        .count();
                    let digits = &bytes[j + 1..j + 1 + count];
                    let value = digits
                        .iter()
                        .fold(0u32, |n, &d| n * 10 + u32::from(d - b'0'));
                    if value > 255 {
                        return None;
                    }
                    j += 1 + count;
                }
                _ => j += 2,
            },
            _ => j += 1,
        }
    }
}

/// Past the numeral at `i`, read as Lua's lexer reads one (digits and dots, an exponent,
/// then any letters, digits and `_`), if it is surely a number: plain decimal, or hex digits
/// after `0x`.
fn numeral(bytes: &[u8], i: usize) -> Option<usize> {
    let mut j = i;
    while j < bytes.len() && (bytes[j].is_ascii_digit() || bytes[j] == b'.') {
        j += 1;
    }
    if j < bytes.len() && matches!(bytes[j], b'e' | b'E') {
        j += 1;
        if j < bytes.len() && matches!(bytes[j], b'+' | b'-') {
            j += 1;
        }
    }
    while j < bytes.len() && is_name_byte(bytes[j]) {
        j += 1;
    }
    let numeral = &bytes[i..j];
    let digits = |s: &[u8]| s.iter().take_while(|b| b.is_ascii_digit()).count();
    if let Some(hex) = numeral
        .strip_prefix(b"0x")
        .or_else(|| numeral.strip_prefix(b"0X"))
    {
        return (!hex.is_empty() && hex.iter().all(u8::is_ascii_hexdigit)).then_some(j);
    }
    // digits [. digits] [e [sign] digits], with digits before or after the dot.
    let whole = digits(numeral);
    let mut k = whole;
    let mut fraction = 0;
    if numeral.get(k) == Some(&b'.') {
        fraction = digits(&numeral[k + 1..]);
        k += 1 + fraction;
    }
    if whole + fraction == 0 {
        return None;
    }
    if matches!(numeral.get(k), Some(b'e' | b'E')) {
        k += 1;
        if matches!(numeral.get(k), Some(b'+' | b'-')) {
            k += 1;
        }
        let exponent = digits(&numeral[k..]);
        if exponent == 0 {
            return None;
        }
        k += exponent;
    }
    (k == numeral.len()).then_some(j)
}

/// Margins below Lua 5.1's limits (200 locals and 60 upvalues a function, 250 registers,
/// 200 nested calls of its parser, jumps over 2^17 instructions): past them, Lua decides.
const MAX_LOCALS: usize = 150;
const MAX_UPVALUES: usize = 40;
const MAX_REGISTERS: usize = 180;
const MAX_DEPTH: usize = 80;
const MAX_LIST: usize = 40;
const MAX_TEXT: usize = 96 * 1024;

/// One function being read.
#[derive(Default)]
struct Function<'t> {
    vararg: bool,
    /// Its active locals, innermost last.
    locals: Vec<&'t str>,
    upvalues: Vec<&'t str>,
    loops: usize,
    /// Registers held by expressions still being read.
    held: usize,
}

/// What an expression read as a statement's start turned out to be.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Suffixed {
    Call,
    Assignable,
    Other,
}

struct Parser<'a, 't> {
    text: &'t str,
    tokens: &'a [Token],
    pos: usize,
    functions: Vec<Function<'t>>,
    depth: usize,
}

impl<'a, 't> Parser<'a, 't> {
    fn new(text: &'t str, tokens: &'a [Token]) -> Self {
        Parser {
            text,
            tokens,
            pos: 0,
            functions: Vec::new(),
            depth: 0,
        }
    }

    /// The main chunk, which takes `...`.
    fn main(&mut self) -> Option<()> {
        self.functions.push(Function {
            vararg: true,
            ..Function::default()
        });
        self.statements()?;
        self.expect(Kind::Eof)
    }

    fn at(&self, kind: Kind) -> bool {
        self.tokens[self.pos].kind == kind
    }

    fn current(&self) -> Token {
        self.tokens[self.pos]
    }

    fn bump(&mut self) -> Token {
        let token = self.tokens[self.pos];
        if token.kind != Kind::Eof {
            self.pos += 1;
        }
        token
    }

    fn eat(&mut self, kind: Kind) -> bool {
        let found = self.at(kind);
        if found {
            self.bump();
        }
        found
    }

    fn text_of(&self, token: Token) -> &'t str {
        &self.text[token.start as usize..token.end as usize]
    }

    fn expect(&mut self, kind: Kind) -> Option<()> {
        self.eat(kind).then_some(())
    }

    fn name(&mut self) -> Option<&'t str> {
        self.at(Kind::Name).then(|| {
            let token = self.bump();
            self.text_of(token)
        })
    }

    fn function(&mut self) -> &mut Function<'t> {
        self.functions
            .last_mut()
            .expect("a function is always open")
    }

    fn enter(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= MAX_DEPTH).then_some(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    fn declare(&mut self, name: &'t str) -> Option<()> {
        let function = self.function();
        function.locals.push(name);
        (function.locals.len() <= MAX_LOCALS
            && function.locals.len() + function.held <= MAX_REGISTERS)
            .then_some(())
    }

    fn hold(&mut self, registers: usize) -> Option<()> {
        let function = self.function();
        function.held += registers;
        (function.locals.len() + function.held <= MAX_REGISTERS).then_some(())
    }

    fn release(&mut self, registers: usize) {
        self.function().held -= registers;
    }

    /// A name used in an expression: a local, an upvalue (counted in every function between
    /// its own and this one) or a global.
    fn resolve(&mut self, name: &'t str) -> Option<()> {
        let innermost = self.functions.len() - 1;
        if self.functions[innermost].locals.contains(&name) {
            return Some(());
        }
        let Some(owner) = (0..innermost)
            .rev()
            .find(|&f| self.functions[f].locals.contains(&name))
        else {
            return Some(()); // a global
        };
        for function in &mut self.functions[owner + 1..] {
            if !function.upvalues.contains(&name) {
                function.upvalues.push(name);
                if function.upvalues.len() > MAX_UPVALUES {
                    return None;
                }
            }
        }
        Some(())
    }

    fn block_follows(&self) -> bool {
        matches!(
            self.current().kind,
            Kind::Else | Kind::Elseif | Kind::End | Kind::Until | Kind::Eof
        )
    }

    /// A block with its own scope.
    fn block(&mut self) -> Option<()> {
        let scope = self.function().locals.len();
        self.statements()?;
        self.function().locals.truncate(scope);
        Some(())
    }

    fn loop_block(&mut self) -> Option<()> {
        self.function().loops += 1;
        self.block()?;
        self.function().loops -= 1;
        Some(())
    }

    /// Statements up to the end of a block, the last maybe `return` or `break`.
    fn statements(&mut self) -> Option<()> {
        self.enter()?;
        while !self.block_follows() {
            match self.current().kind {
                Kind::Return => {
                    self.bump();
                    if !self.block_follows() && !self.at(Kind::Semi) {
                        self.expression_list()?;
                    }
                    self.eat(Kind::Semi);
                    break;
                }
                Kind::Break => {
                    if self.function().loops == 0 {
                        return None;
                    }
                    self.bump();
                    self.eat(Kind::Semi);
                    break;
                }
                _ => {
                    self.statement()?;
                    self.eat(Kind::Semi);
                }
            }
        }
        self.leave();
        Some(())
    }

    fn statement(&mut self) -> Option<()> {
        match self.current().kind {
            Kind::If => {
                self.bump();
                self.condition_then()?;
                while self.eat(Kind::Elseif) {
                    self.condition_then()?;
                }
                if self.eat(Kind::Else) {
                    self.block()?;
                }
                self.expect(Kind::End)
            }
            Kind::While => {
                self.bump();
                self.expression()?;
                self.expect(Kind::Do)?;
                self.loop_block()?;
                self.expect(Kind::End)
            }
            Kind::Do => {
                self.bump();
                self.block()?;
                self.expect(Kind::End)
            }
            Kind::For => self.for_loop(),
            Kind::Repeat => {
                self.bump();
                // The condition sees the body's locals.
                let scope = self.function().locals.len();
                self.function().loops += 1;
                self.statements()?;
                self.function().loops -= 1;
                self.expect(Kind::Until)?;
                self.expression()?;
                self.function().locals.truncate(scope);
                Some(())
            }
            Kind::Function => {
                self.bump();
                let first = self.name()?;
                self.resolve(first)?;
                let mut method = false;
                while self.eat(Kind::Dot) {
                    self.name()?;
                }
                if self.eat(Kind::Colon) {
                    self.name()?;
                    method = true;
                }
                self.function_body(method)
            }
            Kind::Local => {
                self.bump();
                if self.eat(Kind::Function) {
                    let name = self.name()?;
                    self.declare(name)?;
                    return self.function_body(false);
                }
                let mut names = vec![self.name()?];
                while self.eat(Kind::Comma) {
                    names.push(self.name()?);
                }
                if names.len() > MAX_LIST {
                    return None;
                }
                if self.eat(Kind::Assign) {
                    self.expression_list()?;
                }
                for name in names {
                    self.declare(name)?;
                }
                Some(())
            }
            _ => self.expression_statement(),
        }
    }

    fn condition_then(&mut self) -> Option<()> {
        self.expression()?;
        self.expect(Kind::Then)?;
        self.block()
    }

    fn for_loop(&mut self) -> Option<()> {
        self.bump();
        let first = self.name()?;
        let scope = self.function().locals.len();
        if self.eat(Kind::Assign) {
            self.expression()?;
            self.expect(Kind::Comma)?;
            self.expression()?;
            if self.eat(Kind::Comma) {
                self.expression()?;
            }
            // Three hidden control variables and the loop's own.
            for name in ["(for index)", "(for limit)", "(for step)"] {
                self.declare(name)?;
            }
            self.declare(first)?;
        } else {
            let mut names = vec![first];
            while self.eat(Kind::Comma) {
                names.push(self.name()?);
            }
            if names.len() > MAX_LIST {
                return None;
            }
            self.expect(Kind::In)?;
            self.expression_list()?;
            for name in ["(for generator)", "(for state)", "(for control)"] {
                self.declare(name)?;
            }
            for name in names {
                self.declare(name)?;
            }
        }
        self.expect(Kind::Do)?;
        self.loop_block()?;
        self.function().locals.truncate(scope);
        self.expect(Kind::End)
    }

    /// A call, or an assignment to one or more variables.
    fn expression_statement(&mut self) -> Option<()> {
        let first = self.suffixed()?;
        if first == Suffixed::Call && !matches!(self.current().kind, Kind::Comma | Kind::Assign) {
            return Some(());
        }
        if first != Suffixed::Assignable {
            return None;
        }
        let mut targets = 1;
        while self.eat(Kind::Comma) {
            if self.suffixed()? != Suffixed::Assignable {
                return None;
            }
            targets += 1;
            if targets > MAX_LIST {
                return None;
            }
        }
        self.expect(Kind::Assign)?;
        // Each target may hold a table and a key until the values are stored.
        self.hold(2 * targets)?;
        self.expression_list()?;
        self.release(2 * targets);
        Some(())
    }

    /// A name or a parenthesised expression, then fields, indexes and calls.
    fn suffixed(&mut self) -> Option<Suffixed> {
        let mut kind = match self.current().kind {
            Kind::Name => {
                let token = self.bump();
                let name = self.text_of(token);
                self.resolve(name)?;
                Suffixed::Assignable
            }
            Kind::LParen => {
                self.bump();
                self.expression()?;
                self.expect(Kind::RParen)?;
                Suffixed::Other
            }
            _ => return None,
        };
        loop {
            match self.current().kind {
                Kind::Dot => {
                    self.bump();
                    self.name()?;
                    kind = Suffixed::Assignable;
                }
                Kind::LBracket => {
                    self.bump();
                    self.hold(1)?;
                    self.expression()?;
                    self.release(1);
                    self.expect(Kind::RBracket)?;
                    kind = Suffixed::Assignable;
                }
                Kind::Colon => {
                    self.bump();
                    self.name()?;
                    self.hold(2)?;
                    self.arguments()?;
                    self.release(2);
                    kind = Suffixed::Call;
                }
                Kind::LParen | Kind::String | Kind::LBrace => {
                    self.hold(1)?;
                    self.arguments()?;
                    self.release(1);
                    kind = Suffixed::Call;
                }
                _ => return Some(kind),
            }
        }
    }

    fn arguments(&mut self) -> Option<()> {
        match self.current().kind {
            Kind::String => {
                self.bump();
                Some(())
            }
            Kind::LBrace => self.table(),
            Kind::LParen => {
                // Lua 5.1 refuses a call whose `(` starts a new line ("ambiguous syntax").
                let previous = self.tokens[self.pos.checked_sub(1)?];
                if previous.last_line != self.current().first_line {
                    return None;
                }
                self.bump();
                if !self.eat(Kind::RParen) {
                    self.expression_list()?;
                    self.expect(Kind::RParen)?;
                }
                Some(())
            }
            _ => None,
        }
    }

    fn expression_list(&mut self) -> Option<()> {
        let mut items = 0;
        loop {
            self.expression()?;
            items += 1;
            if items > MAX_LIST {
                return None;
            }
            if !self.eat(Kind::Comma) {
                break;
            }
            self.hold(1)?;
        }
        self.release(items - 1);
        Some(())
    }

    /// Unary operators, operands and binary operators. Precedence does not change whether a
    /// chunk loads, so it is not followed; but every operator counts as one more level of
    /// nesting and each binary one as a held register, as many as Lua could need (its
    /// parser recurses into the operand after an operator, and keeps a `..` chain's
    /// operands in registers), and a long chain is left to Lua.
    fn expression(&mut self) -> Option<()> {
        self.enter()?;
        let mut levels = 1;
        let mut binary = 0;
        loop {
            while matches!(self.current().kind, Kind::Not | Kind::Minus | Kind::Hash) {
                self.bump();
                self.enter()?;
                levels += 1;
            }
            self.simple()?;
            if !matches!(
                self.current().kind,
                Kind::Plus
                    | Kind::Minus
                    | Kind::Star
                    | Kind::Slash
                    | Kind::Percent
                    | Kind::Caret
                    | Kind::Concat
                    | Kind::Eq
                    | Kind::Ne
                    | Kind::Lt
                    | Kind::Le
                    | Kind::Gt
                    | Kind::Ge
                    | Kind::And
                    | Kind::Or
            ) {
                break;
            }
            self.bump();
            binary += 1;
            if binary > MAX_LIST {
                return None;
            }
            self.enter()?;
            levels += 1;
            self.hold(1)?;
        }
        self.release(binary);
        self.depth -= levels;
        Some(())
    }

    fn simple(&mut self) -> Option<()> {
        match self.current().kind {
            Kind::Number | Kind::String | Kind::Nil | Kind::True | Kind::False => {
                self.bump();
                Some(())
            }
            Kind::Dots => {
                self.bump();
                self.function().vararg.then_some(())
            }
            Kind::LBrace => self.table(),
            Kind::Function => {
                self.bump();
                self.function_body(false)
            }
            _ => self.suffixed().map(|_| ()),
        }
    }

    fn table(&mut self) -> Option<()> {
        self.expect(Kind::LBrace)?;
        self.hold(1)?;
        // Lua stores list items in batches of 50: at most that many are held at once.
        let mut held = 0;
        while !self.at(Kind::RBrace) {
            if self.at(Kind::LBracket) {
                self.bump();
                self.expression()?;
                self.expect(Kind::RBracket)?;
                self.expect(Kind::Assign)?;
                self.hold(1)?;
                self.expression()?;
                self.release(1);
            } else if self.at(Kind::Name) && self.tokens[self.pos + 1].kind == Kind::Assign {
                self.bump();
                self.bump();
                self.expression()?;
            } else {
                self.expression()?;
                if held < 50 {
                    self.hold(1)?;
                    held += 1;
                }
            }
            if !self.eat(Kind::Comma) && !self.eat(Kind::Semi) {
                break;
            }
        }
        self.release(held + 1);
        self.expect(Kind::RBrace)
    }

    /// Parameters and body; `method` adds `self`.
    fn function_body(&mut self, method: bool) -> Option<()> {
        self.enter()?;
        self.functions.push(Function::default());
        if method {
            self.declare("self")?;
        }
        self.expect(Kind::LParen)?;
        if !self.at(Kind::RParen) {
            loop {
                if self.eat(Kind::Dots) {
                    // Lua 5.1 also gives such a function a local `arg`.
                    self.function().vararg = true;
                    self.declare("arg")?;
                    break;
                }
                let name = self.name()?;
                self.declare(name)?;
                if !self.eat(Kind::Comma) {
                    break;
                }
            }
        }
        self.expect(Kind::RParen)?;
        self.block()?;
        self.expect(Kind::End)?;
        self.functions.pop();
        self.leave();
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::surely_valid;

    #[test]
    fn plain_vault_lua_is_surely_valid() {
        for chunk in [
            "",
            " kfeat(\"A = altar_xom\")\n local x = crawl.random2(5)",
            " if x == 1 then subst('x = .') elseif x > 2 then nsubst(\"y\") else end",
            " for i = 1, 10 do t[i] = i * 2 end for k, v in pairs(t) do print(k, v) end",
            " local function f(a, b, ...) return a .. b, ... end",
            " function callback.foo(data, triggerable, triggerer, marker, ev) end",
            " obj:method{ a = 1, [2] = \"x\"; 3 } f\"s\" f[[long\nstring]]",
            " repeat local y = 1 until y == 1",
            " while true do break end return",
            " x = 0x1F + 1.5e3 + .5 - #t % 2 ^ 3 <= 4 and not nil or false",
            " --[==[ a long\ncomment ]==] -- a line comment\n a = \"\\065\\n\\\"\"",
            " local t = { a.b.c, (f)(), ('x'):rep(3) }",
            " f(\"a line \\\n and the next\", 'and \\\r\n another')",
        ] {
            assert!(surely_valid(chunk), "{chunk:?}");
        }
    }

    /// Any bytes at all (as UTF-8): an answer, never a panic.
    #[test]
    fn any_text_gets_an_answer() {
        const PIECES: &[&str] = &[
            "(", ")", "{", "}", "[", "]", "[[", "]]", "[=[", "]=]", "--", "--[[", "\"", "'", "\\",
            "\n", "\r", " ", "x", "1", ".", "..", "...", "0x", "e", "=", ",", ";", ":", "end",
            "function", "local", "if", "then", "for", "in", "do", "return", "break", "repeat",
            "until", "not", "-", "#", "\u{e9}", "\0",
        ];
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        for _ in 0..20_000 {
            let len = next(40);
            let text: String = (0..len).map(|_| PIECES[next(PIECES.len())]).collect();
            let _ = surely_valid(&text);
        }
    }

    /// Each of these Lua 5.1 refuses (or this check is not sure of): all go to Lua.
    #[test]
    fn errors_and_corners_go_to_lua() {
        for chunk in [
            "x",
            "f() = 1",
            "(a) = 1",
            "local x = ",
            "if x then",
            "break",
            "function f() ... end",
            "f\n(g)",
            // A call whose string spans two lines, then `(` on a third: ambiguous.
            "x = f\"a \\\n b\"\n(g)()",
            "x = 1..2",
            "x = 3e",
            "x = 0x",
            "x = 1 // 2",
            "x = a ~ b",
            "goto done",
            ";",
            "s = \"unfinished",
            "s = \"\\300\"",
            "s = [[a [[ b]]",
            "s = [=x",
            "x = 'caf\u{e9}' y = \u{e9}",
            "return 1 x = 2",
            "local a <const> = 1",
        ] {
            assert!(!surely_valid(chunk), "{chunk:?}");
        }
    }
}
