//! The parser machinery every dialect's grammar shares: a token cursor that hides trivia,
//! builds a rowan green tree as it goes, and collects errors without ever stopping; and the
//! grammar helpers that do not depend on a dialect (expecting a token, a string, the end of a
//! statement, which node the blanks and line ends of a line-based format belong to).

use levkit_diagnostics::{Code, Diagnostic, TextRange, TextSize};
use rowan::{GreenNode, GreenNodeBuilder};

use crate::compact::{CompactBuilder, CompactTree};

use crate::SyntaxKind::{self, *};

/// A token of the source text: its kind and where it lies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    pub kind: SyntaxKind,
    pub range: TextRange,
    /// A DCSS header keyword's header, as its lexer recognised it (none for every other
    /// token, and for tokens read back from a tree): the grammar and the model read it here
    /// rather than matching the keyword's text again. It fits in the token's padding.
    pub header: Option<crate::dcss::Header>,
}

// The header rides in the padding: a token is no larger for it.
const _: () = assert!(std::mem::size_of::<Token>() == 12);

/// What a lexer hands the parser.
#[derive(Debug, Default)]
pub struct Lexed {
    pub tokens: Vec<Token>,
    pub errors: Vec<Diagnostic>,
    /// The error of the run of foreign characters being read, and where the run starts.
    foreign_run: Option<(usize, usize)>,
}

impl Lexed {
    pub fn with_token_capacity(tokens: usize) -> Lexed {
        Lexed {
            tokens: Vec::with_capacity(tokens),
            ..Lexed::default()
        }
    }

    pub fn push(&mut self, kind: SyntaxKind, start: usize, end: usize) {
        self.tokens.push(Token {
            kind,
            range: TextRange::new(offset(start), offset(end)),
            header: None,
        });
    }

    /// A DCSS header keyword, with the header it is.
    pub(crate) fn push_header(&mut self, header: crate::dcss::Header, start: usize, end: usize) {
        self.tokens.push(Token {
            kind: DCSS_HEADER_KW,
            range: TextRange::new(offset(start), offset(end)),
            header: Some(header),
        });
    }

    pub fn error(&mut self, code: Code, start: usize, end: usize, message: impl Into<String>) {
        let range = TextRange::new(offset(start), offset(end));
        self.errors.push(Diagnostic::new(code, range, message));
    }

    /// A character the language does not have. Characters outside printable ASCII next to
    /// each other (pasted text in another script, a binary file) make one error for the run,
    /// not one per character; `message` gets the run (its start only, when long).
    pub fn unknown_character(
        &mut self,
        code: Code,
        text: &str,
        start: usize,
        end: usize,
        message: impl Fn(&str) -> String,
    ) {
        let foreign = !text
            .get(start..end)
            .unwrap_or_default()
            .bytes()
            .all(|b| b.is_ascii_graphic());
        let mut run_start = start;
        if let Some((index, from)) = self.foreign_run.filter(|_| foreign)
            && index + 1 == self.errors.len()
            && let Some(last) = self.errors.last()
            && last.code == code
            && usize::from(last.range.end()) == start
        {
            run_start = from;
            self.errors.pop();
        }
        let run = text.get(run_start..end).unwrap_or_default();
        const SHOWN: usize = 16;
        let shown = match run.char_indices().nth(SHOWN) {
            Some((cut, _)) => format!("{}…", &run[..cut]),
            None => run.to_string(),
        };
        self.error(code, run_start, end, message(&shown));
        self.foreign_run = foreign.then_some((self.errors.len() - 1, run_start));
    }
}

pub(crate) fn offset(n: usize) -> TextSize {
    TextSize::from(u32::try_from(n).unwrap_or(u32::MAX))
}

/// Tokens the grammar never sees. Error characters are reported by the lexer and then skipped,
/// so one stray byte costs one diagnostic, not a lost statement.
fn is_skipped(kind: SyntaxKind) -> bool {
    kind.is_trivia() || kind == ERROR_CHAR
}

/// The first token from `from` on that the grammar sees (the number of tokens when none).
#[inline]
fn first_significant(tokens: &[Token], from: usize) -> usize {
    let mut i = from.min(tokens.len());
    while tokens.get(i).is_some_and(|t| is_skipped(t.kind)) {
        i += 1;
    }
    i
}

/// What a grammar function returns: `None` once it has reported a syntax error, so that `?`
/// abandons the rest of the statement and its caller recovers.
pub(crate) type Parsed = Option<()>;

/// A parse without a tree: the tokens, and the nodes just below the root as spans of tokens.
/// What a caller that only reads the top-level constructs needs (the DCSS checks), for less
/// than building a tree costs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlatParse {
    pub root: SyntaxKind,
    pub tokens: Vec<Token>,
    /// The children of the root that are nodes, with their tokens (indices into `tokens`).
    pub nodes: Vec<(SyntaxKind, std::ops::Range<usize>)>,
    pub errors: Vec<Diagnostic>,
}

/// Where the parser puts what it recognises.
enum Sink {
    Tree(GreenNodeBuilder<'static>),
    /// The same tree in one array (see [`crate::compact`]).
    Compact(CompactBuilder),
    Flat {
        root: SyntaxKind,
        depth: usize,
        /// The node below the root being built, and its first token.
        open: Option<(SyntaxKind, usize)>,
        nodes: Vec<(SyntaxKind, std::ops::Range<usize>)>,
    },
}

pub(crate) struct Parser<'t> {
    text: &'t str,
    tokens: Vec<Token>,
    /// Index of the next token not yet added to the tree (trivia included).
    pos: usize,
    /// Index of the first significant token from `pos` on (the number of tokens when none is
    /// left), and just past the last significant token before `pos` (0 when none): kept as
    /// the parser moves, since the grammar asks for them several times per token.
    next: usize,
    after_last: usize,
    sink: Sink,
    pub(crate) errors: Vec<Diagnostic>,
    /// The dialect's code for "the grammar does not allow this token here".
    unexpected: Code,
}

impl<'t> Parser<'t> {
    pub(crate) fn new(text: &'t str, lexed: Lexed, unexpected: Code) -> Parser<'t> {
        Parser::with_sink(text, lexed, unexpected, Sink::Tree(GreenNodeBuilder::new()))
    }

    fn with_sink(text: &'t str, lexed: Lexed, unexpected: Code, sink: Sink) -> Parser<'t> {
        Parser {
            text,
            next: first_significant(&lexed.tokens, 0),
            after_last: 0,
            tokens: lexed.tokens,
            pos: 0,
            sink,
            errors: lexed.errors,
            unexpected,
        }
    }

    /// A parser that builds no tree (see [`FlatParse`]).
    pub(crate) fn flat(text: &'t str, lexed: Lexed, unexpected: Code) -> Parser<'t> {
        // A top-level node (a header, a map, a Lua line) takes a handful of tokens.
        let nodes = Vec::with_capacity(lexed.tokens.len() / 4);
        let sink = Sink::Flat {
            root: SyntaxKind::ERROR,
            depth: 0,
            open: None,
            nodes,
        };
        Parser::with_sink(text, lexed, unexpected, sink)
    }

    /// A parser that builds a [`CompactTree`] (finished by `finish_compact`).
    pub(crate) fn compact(text: &'t str, lexed: Lexed, unexpected: Code) -> Parser<'t> {
        let builder = CompactBuilder::with_capacity(lexed.tokens.len());
        Parser::with_sink(text, lexed, unexpected, Sink::Compact(builder))
    }

    // Inlined, as are `finish_node` and `advance`: the grammar moves the cursor for every
    // token and opens a node every few, and the sinks that take no tokens do little there.
    #[inline]
    fn start_node(&mut self, kind: SyntaxKind) {
        match &mut self.sink {
            Sink::Tree(builder) => builder.start_node(kind.into()),
            Sink::Compact(builder) => builder.start_node(kind, self.pos),
            Sink::Flat {
                root, depth, open, ..
            } => {
                *depth += 1;
                match *depth {
                    1 => *root = kind,
                    2 => *open = Some((kind, self.pos)),
                    _ => {}
                }
            }
        }
    }

    #[inline]
    fn finish_node(&mut self) {
        match &mut self.sink {
            Sink::Tree(builder) => builder.finish_node(),
            Sink::Compact(builder) => builder.finish_node(self.pos),
            Sink::Flat {
                depth, open, nodes, ..
            } => {
                if *depth == 2
                    && let Some((kind, start)) = open.take()
                {
                    nodes.push((kind, start..self.pos));
                }
                *depth = depth.saturating_sub(1);
            }
        }
    }

    fn next_significant(&self) -> Option<usize> {
        (self.next < self.tokens.len()).then_some(self.next)
    }

    /// The kind of the next significant token, `EOF` at the end.
    pub(crate) fn current(&self) -> SyntaxKind {
        // `next` is kept on a significant token (or the end), so no trivia to skip here.
        self.tokens.get(self.next).map_or(EOF, |t| t.kind)
    }

    /// The kind of the `n`-th significant token from here.
    pub(crate) fn nth(&self, n: usize) -> SyntaxKind {
        self.tokens[self.next..]
            .iter()
            .filter(|t| !is_skipped(t.kind))
            .nth(n)
            .map_or(EOF, |t| t.kind)
    }

    pub(crate) fn at(&self, kind: SyntaxKind) -> bool {
        self.current() == kind
    }

    pub(crate) fn current_text(&self) -> &'t str {
        match self.next_significant() {
            Some(i) => &self.text[self.tokens[i].range],
            None => "",
        }
    }

    /// The whole text being parsed.
    pub(crate) fn source(&self) -> &'t str {
        self.text
    }

    pub(crate) fn current_range(&self) -> TextRange {
        match self.next_significant() {
            Some(i) => self.tokens[i].range,
            None => TextRange::empty(offset(self.text.len())),
        }
    }

    /// The header the lexer recognised in the next significant token, if it is a DCSS header
    /// keyword.
    pub(crate) fn current_header(&self) -> Option<crate::dcss::Header> {
        self.tokens.get(self.next).and_then(|t| t.header)
    }

    /// Whether a line break separates the last consumed token from the next significant one.
    pub(crate) fn at_line_start(&self) -> bool {
        // From the last significant token consumed (trivia already added to the tree counts
        // too, since a node may have been opened after it) to the next one.
        let (start, end) = (self.after_last, self.next);
        self.tokens[start..end].iter().any(|t| t.kind == NEWLINE) || start == 0
    }

    fn flush_trivia(&mut self) {
        self.add_trivia_to(self.next);
    }

    /// Adds the tokens from `pos` up to `end`, all trivia (`end` is at most `next`), to the
    /// tree and moves past them. Only a rowan tree takes tokens one by one: the other sinks
    /// see where nodes start and end, so the parser jumps there.
    fn add_trivia_to(&mut self, end: usize) {
        debug_assert!(self.pos <= end && end <= self.next);
        if let Sink::Tree(builder) = &mut self.sink {
            add_to_tree(builder, self.text, &self.tokens[self.pos..end]);
        }
        self.pos = end;
    }

    /// Adds the token at `pos` to the tree and moves past it.
    #[inline]
    fn advance(&mut self) {
        self.add_token(self.pos);
        if self.pos == self.next {
            self.after_last = self.pos + 1;
            self.next = first_significant(&self.tokens, self.pos + 1);
        }
        self.pos += 1;
    }

    fn add_token(&mut self, index: usize) {
        if let Sink::Tree(builder) = &mut self.sink {
            add_to_tree(builder, self.text, &self.tokens[index..index + 1]);
        }
    }

    /// Adds the next significant token (and the trivia before it) to the tree.
    #[inline]
    pub(crate) fn bump(&mut self) {
        self.flush_trivia();
        if self.pos < self.tokens.len() {
            self.advance();
        }
    }

    /// Consumes the significant tokens from here on while they are of `kind`, with the trivia
    /// between them: `while p.at(kind) { p.bump() }`. The sinks that take no tokens move past
    /// the run in one step: a map's rows or a Lua block's lines are most of a vault's tokens.
    pub(crate) fn bump_while(&mut self, kind: SyntaxKind) {
        if let Sink::Tree(_) = self.sink {
            while self.at(kind) {
                self.bump();
            }
            return;
        }
        let mut last = None;
        let mut i = self.next;
        while let Some(token) = self.tokens.get(i) {
            if token.kind == kind {
                last = Some(i);
            } else if !is_skipped(token.kind) {
                break;
            }
            i += 1;
        }
        self.skip_to(last, i);
    }

    /// Consumes the significant tokens from here on while `is_part` holds and they stand on
    /// the line of the last token consumed, or on the line after a `continuation` token, with
    /// the trivia between them: a value that goes on over its line ends only after a `\`.
    /// As with [`Parser::bump_while`], the sinks that take no tokens move past it in one step.
    pub(crate) fn bump_continued(
        &mut self,
        is_part: impl Fn(SyntaxKind) -> bool,
        continuation: SyntaxKind,
    ) {
        let mut continued = false;
        if let Sink::Tree(_) = self.sink {
            while is_part(self.current()) && (continued || !self.at_line_start()) {
                continued = self.at(continuation);
                self.bump();
            }
            return;
        }
        let mut line_break = self.at_line_start();
        let mut last = None;
        let mut i = self.next;
        while let Some(token) = self.tokens.get(i) {
            if is_skipped(token.kind) {
                line_break |= token.kind == NEWLINE;
            } else if is_part(token.kind) && (continued || !line_break) {
                continued = token.kind == continuation;
                line_break = false;
                last = Some(i);
            } else {
                break;
            }
            i += 1;
        }
        self.skip_to(last, i);
    }

    /// Moves past the run of tokens a sink without a tree takes in one step: through the
    /// significant token at `last` (if the run took any), with the next significant token at
    /// `next`.
    fn skip_to(&mut self, last: Option<usize>, next: usize) {
        if let Some(last) = last {
            self.pos = last + 1;
            self.after_last = last + 1;
            self.next = next;
        }
    }

    #[inline]
    pub(crate) fn eat(&mut self, kind: SyntaxKind) -> bool {
        if self.at(kind) {
            self.bump();
            true
        } else {
            false
        }
    }

    /// Opens the root node; leading trivia belongs inside it.
    pub(crate) fn start_root(&mut self, kind: SyntaxKind) {
        self.start_node(kind);
    }

    /// Adds the trivia before the next significant token to the current node, up to the start
    /// of that token's line (all of it at the end of the file): the line ends and blank lines
    /// after a node's last line belong to it, the next line's indentation to what follows.
    #[inline]
    pub(crate) fn bump_trivia_to_line_start(&mut self) {
        let next = self.next_significant().unwrap_or(self.tokens.len());
        let end = if next == self.tokens.len() {
            next
        } else {
            self.tokens[self.pos..next]
                .iter()
                .rposition(|t| t.kind == NEWLINE)
                .map_or(self.pos, |i| self.pos + i + 1)
        };
        self.add_trivia_to(end);
    }

    /// Adds the blanks after the last token, up to the line end, to the current node.
    pub(crate) fn bump_trailing_blanks(&mut self) {
        while self
            .tokens
            .get(self.pos)
            .is_some_and(|t| t.kind == WHITESPACE)
        {
            self.advance();
        }
    }

    /// Opens a node at the start of the next significant token's line, so that the line's
    /// indentation belongs inside it.
    #[inline]
    pub(crate) fn start_at_line_start(&mut self, kind: SyntaxKind) {
        self.bump_trivia_to_line_start();
        self.start_node(kind);
    }

    pub(crate) fn start(&mut self, kind: SyntaxKind) {
        self.flush_trivia();
        self.start_node(kind);
    }

    pub(crate) fn finish(&mut self) {
        self.finish_node();
    }

    pub(crate) fn error(&mut self, code: Code, range: TextRange, message: impl Into<String>) {
        self.errors.push(Diagnostic::new(code, range, message));
    }

    pub(crate) fn push_diagnostic(&mut self, diagnostic: Diagnostic) {
        self.errors.push(diagnostic);
    }

    /// Range of the last significant token already consumed.
    pub(crate) fn previous_range(&self) -> Option<TextRange> {
        let last = self.after_last.checked_sub(1)?;
        Some(self.tokens[last].range)
    }

    /// Reports that `what` was expected here. When the statement ended on the previous line,
    /// the error points just past the last token of the statement, where the fix goes.
    pub(crate) fn expected(&mut self, what: &str) {
        let found = self.describe_current();
        let range = match self.previous_range() {
            Some(prev) if self.at_line_start() || self.at(EOF) => TextRange::empty(prev.end()),
            _ => self.current_range(),
        };
        let found = if self.at_line_start() && !self.at(EOF) {
            "the end of the line".to_string()
        } else {
            found
        };
        self.error(
            self.unexpected,
            range,
            format!("expected {what}, found {found}"),
        );
    }

    pub(crate) fn describe_current(&self) -> String {
        describe(self.current(), self.current_text())
    }

    /// Consumes a token of `kind`, or reports that `what` was expected.
    pub(crate) fn expect(&mut self, kind: SyntaxKind, what: &str) -> Parsed {
        self.one_of(&[kind], what)
    }

    /// Consumes one token of any of `kinds`, or reports that `what` was expected.
    pub(crate) fn one_of(&mut self, kinds: &[SyntaxKind], what: &str) -> Parsed {
        if kinds.contains(&self.current()) {
            self.bump();
            Some(())
        } else {
            self.expected(what);
            None
        }
    }

    /// A string literal. An unterminated one, already reported by the lexer, stands for the
    /// string: the text up to the line end is its value.
    pub(crate) fn string(&mut self, what: &str) -> Parsed {
        self.one_of(&[STRING, UNTERMINATED_STRING], what)
    }

    pub(crate) fn colon(&mut self) -> Parsed {
        self.expect(COLON, "`:`")
    }

    pub(crate) fn comma(&mut self) -> Parsed {
        self.expect(COMMA, "`,`")
    }

    /// Adds the next significant token to the tree inside an ERROR node of its own.
    pub(crate) fn bump_error(&mut self) {
        self.start(ERROR);
        self.bump();
        self.finish();
    }

    /// Ends a statement: after a syntax error (`parsed` is `None`), skips to the next point
    /// where `stop` holds; after a complete statement, reports what is left before that point
    /// (`advice` is appended to the message) and skips it too. So an error costs one statement.
    pub(crate) fn recover_at_statement_end(
        &mut self,
        parsed: Parsed,
        stop: impl Fn(&Parser<'_>) -> bool,
        advice: &str,
    ) {
        if parsed.is_some() && !stop(self) && !self.at(EOF) {
            let found = self.describe_current();
            let range = self.current_range();
            self.error(
                self.unexpected,
                range,
                format!("unexpected {found} after a complete statement{advice}"),
            );
        }
        self.skip_until(stop);
    }

    /// Wraps every token up to the next point where `stop` holds (or the end) in an ERROR node.
    pub(crate) fn skip_until(&mut self, stop: impl Fn(&Parser<'_>) -> bool) {
        if self.at(EOF) || stop(self) {
            return;
        }
        self.start(ERROR);
        while !self.at(EOF) && !stop(self) {
            self.bump();
        }
        self.finish();
    }

    pub(crate) fn finish_tree(mut self) -> (GreenNode, Vec<Diagnostic>) {
        while self.pos < self.tokens.len() {
            self.advance();
        }
        self.finish_node();
        match self.sink {
            Sink::Tree(builder) => (builder.finish(), self.errors),
            // (Flat and compact parsers are finished by `finish_flat` and `finish_compact`.)
            Sink::Flat { .. } | Sink::Compact(_) => (
                GreenNode::new(SyntaxKind::ERROR.into(), Vec::new()),
                self.errors,
            ),
        }
    }

    /// The tree of a [`Parser::compact`] parser, and the errors found.
    pub(crate) fn finish_compact(mut self) -> (CompactTree, Vec<Diagnostic>) {
        self.pos = self.tokens.len();
        self.finish_node();
        match self.sink {
            Sink::Compact(builder) => (builder.finish(self.tokens, self.text.len()), self.errors),
            Sink::Tree(_) | Sink::Flat { .. } => (CompactTree::default(), self.errors),
        }
    }

    /// The parse of a [`Parser::flat`] parser.
    pub(crate) fn finish_flat(mut self) -> FlatParse {
        self.pos = self.tokens.len();
        self.finish_node();
        let (root, nodes) = match self.sink {
            Sink::Flat { root, nodes, .. } => (root, nodes),
            Sink::Tree(_) | Sink::Compact(_) => (SyntaxKind::ERROR, Vec::new()),
        };
        FlatParse {
            root,
            tokens: self.tokens,
            nodes,
            errors: self.errors,
        }
    }
}

/// Adds `tokens` to a rowan tree. Out of line: the parser's moves stay small enough to inline
/// for the sinks that take no tokens.
#[inline(never)]
fn add_to_tree(builder: &mut GreenNodeBuilder<'static>, text: &str, tokens: &[Token]) {
    for token in tokens {
        builder.token(token.kind.into(), &text[token.range]);
    }
}

/// How a token is named in messages.
pub(crate) fn describe(kind: SyntaxKind, text: &str) -> String {
    match kind {
        EOF => "the end of the file".into(),
        STRING | UNTERMINATED_STRING => "a string".into(),
        INT => format!("the number `{text}`"),
        CHAR => format!("the character {text}"),
        MAP_ROW => "a map row".into(),
        _ => format!("`{text}`"),
    }
}
