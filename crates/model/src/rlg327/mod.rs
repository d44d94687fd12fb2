//! COM S 327 descriptions: entries and their fields as written, and the parsed values of the
//! fields that are well formed.

pub mod reference;

use levkit_syntax::SyntaxKind::*;
use levkit_syntax::compact::{CompactTree, Element, Node, Token};

use crate::{Spanned, TextRange, TextSize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Monster,
    Object,
}

impl Kind {
    pub fn word(self) -> &'static str {
        match self {
            Kind::Monster => "MONSTER",
            Kind::Object => "OBJECT",
        }
    }

    pub fn header(self) -> &'static str {
        match self {
            Kind::Monster => "RLG327 MONSTER DESCRIPTION 1",
            Kind::Object => "RLG327 OBJECT DESCRIPTION 1",
        }
    }

    /// The fields of an entry, in the order the assignment prints them.
    pub fn fields(self) -> &'static [&'static str] {
        match self {
            Kind::Monster => &[
                "NAME", "DESC", "SYMB", "COLOR", "SPEED", "ABIL", "HP", "DAM", "RRTY",
            ],
            Kind::Object => &[
                "NAME", "DESC", "TYPE", "COLOR", "HIT", "DAM", "DODGE", "DEF", "WEIGHT", "SPEED",
                "ATTR", "VAL", "ART", "RRTY",
            ],
        }
    }

    pub fn dice_fields(self) -> &'static [&'static str] {
        match self {
            Kind::Monster => &["SPEED", "HP", "DAM"],
            Kind::Object => &[
                "HIT", "DAM", "DODGE", "DEF", "WEIGHT", "SPEED", "ATTR", "VAL",
            ],
        }
    }
}

pub const COLORS: &[&str] = &[
    "RED", "GREEN", "BLUE", "CYAN", "YELLOW", "MAGENTA", "WHITE", "BLACK",
];
pub const ABILITIES: &[&str] = &[
    "SMART", "TELE", "TUNNEL", "ERRATIC", "PASS", "PICKUP", "DESTROY", "UNIQ", "BOSS",
];
pub const TYPES: &[&str] = &[
    "WEAPON",
    "OFFHAND",
    "RANGED",
    "ARMOR",
    "HELMET",
    "CLOAK",
    "GLOVES",
    "BOOTS",
    "RING",
    "AMULET",
    "LIGHT",
    "SCROLL",
    "BOOK",
    "FLASK",
    "GOLD",
    "AMMUNITION",
    "FOOD",
    "WAND",
    "CONTAINER",
];

/// `base+countdsides`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dice {
    pub base: i64,
    pub count: i64,
    pub sides: i64,
}

impl Dice {
    /// Strictly `-?N+NdN`, each number fitting 32 bits.
    pub fn parse(text: &str) -> Option<Dice> {
        let (base, rest) = text.split_once('+')?;
        let (count, sides) = rest.split_once('d')?;
        let number = |s: &str, signed: bool| -> Option<i64> {
            let digits = if signed {
                s.strip_prefix('-').unwrap_or(s)
            } else {
                s
            };
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 10
            {
                return None;
            }
            let value: i64 = s.parse().ok()?;
            (i64::from(i32::MIN)..=i64::from(u32::MAX))
                .contains(&value)
                .then_some(value)
        };
        Some(Dice {
            base: number(base, true)?,
            count: number(count, false)?,
            sides: number(sides, false)?,
        })
    }

    /// The smallest and largest rolls (zero sides roll nothing, as in the course's code).
    pub fn range(self) -> (i64, i64) {
        if self.sides == 0 {
            (self.base, self.base)
        } else {
            (self.base + self.count, self.base + self.count * self.sides)
        }
    }

    pub fn mean(self) -> f64 {
        if self.sides == 0 {
            self.base as f64
        } else {
            self.base as f64 + self.count as f64 * (self.sides as f64 + 1.0) / 2.0
        }
    }
}

impl std::fmt::Display for Dice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}+{}d{}", self.base, self.count, self.sides)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldValue {
    /// The rest of the line (NAME).
    Text(Spanned<String>),
    /// The words after the keyword.
    Words(Vec<Spanned<String>>),
    /// DESC: words on the keyword line (an error), the text lines, and the `.` line.
    Desc {
        inline: Vec<Spanned<String>>,
        lines: Vec<Spanned<String>>,
        end: Option<TextRange>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    pub range: TextRange,
    pub keyword: Spanned<String>,
    pub value: FieldValue,
}

impl Field {
    pub fn words(&self) -> &[Spanned<String>] {
        match &self.value {
            FieldValue::Words(words) => words,
            FieldValue::Desc { inline, .. } => inline,
            FieldValue::Text(_) => &[],
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub range: TextRange,
    /// The `BEGIN` keyword.
    pub begin: TextRange,
    /// The words after BEGIN (normally one: MONSTER or OBJECT).
    pub kind_words: Vec<Spanned<String>>,
    pub fields: Vec<Field>,
    /// The END keyword and the words after it on its line.
    pub end: Option<(TextRange, Vec<Spanned<String>>)>,
}

impl Entry {
    pub fn field(&self, keyword: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.keyword.value == keyword)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DescFile {
    pub kind: Kind,
    pub header: Option<Spanned<String>>,
    pub entries: Vec<Entry>,
    /// Non-blank lines outside entries.
    pub strays: Vec<Spanned<String>>,
    /// The CRs that the course's reference parser reads otherwise than levkit, which takes
    /// CR LF for a line end (and a CR between words for a blank).
    pub reference_crs: Vec<reference::ReferenceCr>,
    /// Where the file ends without a final newline.
    pub no_final_newline: Option<TextSize>,
}

fn spanned(token: &Token<'_>) -> Spanned<String> {
    Spanned::new(token.text().to_string(), token.text_range())
}

/// The model of a description file: `tree` is the tree of `text`
/// (`levkit_syntax::rlg327::parse_compact`), which costs a keystroke, which lowers the whole
/// file, less than a rowan tree would to build and walk.
pub fn lower(text: &str, tree: &CompactTree, kind: Kind) -> DescFile {
    let mut file = DescFile {
        kind,
        header: None,
        entries: Vec::new(),
        strays: Vec::new(),
        reference_crs: if text.contains('\r') {
            reference::read(text.as_bytes(), kind).crs
        } else {
            Vec::new()
        },
        no_final_newline: (!text.is_empty() && !text.ends_with('\n')).then(|| TextSize::of(text)),
    };
    for node in tree.root(text).into_iter().flat_map(Node::children) {
        match node.kind() {
            RLG_HEADER => {
                file.header = node
                    .tokens()
                    .find(|t| t.kind() == RLG_HEADER_TEXT)
                    .map(|t| spanned(&t))
            }
            RLG_STRAY => file.strays.extend(
                node.tokens()
                    .find(|t| t.kind() == RLG_TEXT)
                    .map(|t| spanned(&t)),
            ),
            RLG_ENTRY => file.entries.push(lower_entry(node)),
            _ => {}
        }
    }
    file
}

fn lower_entry(node: Node<'_>) -> Entry {
    let mut entry = Entry {
        range: node.text_range(),
        begin: node.text_range(),
        kind_words: Vec::new(),
        fields: Vec::new(),
        end: None,
    };
    let mut after_end = false;
    for element in node.children_with_tokens() {
        match element {
            Element::Token(t) => match t.kind() {
                RLG_BEGIN_KW => entry.begin = t.text_range(),
                RLG_END_KW => {
                    entry.end = Some((t.text_range(), Vec::new()));
                    after_end = true;
                }
                RLG_WORD if after_end => {
                    if let Some((_, words)) = &mut entry.end {
                        words.push(spanned(&t));
                    }
                }
                RLG_WORD => entry.kind_words.push(spanned(&t)),
                _ => {}
            },
            Element::Node(field) => {
                let mut all = field.tokens();
                let Some(keyword) = all.next().map(|t| spanned(&t)) else {
                    continue;
                };
                // The tokens after the keyword, walked again for each kind of value.
                let rest = all;
                let words: Vec<Spanned<String>> = rest
                    .clone()
                    .filter(|t| t.kind() == RLG_WORD)
                    .map(|t| spanned(&t))
                    .collect();
                let value = match keyword.value.as_str() {
                    "NAME" => FieldValue::Text(
                        rest.clone()
                            .find(|t| t.kind() == RLG_TEXT)
                            .map(|t| spanned(&t))
                            .unwrap_or_else(|| {
                                Spanned::new(String::new(), TextRange::empty(keyword.range.end()))
                            }),
                    ),
                    "DESC" | "DES" | "DESCRIPTION" | "desc" => FieldValue::Desc {
                        inline: words,
                        lines: rest
                            .clone()
                            .filter(|t| t.kind() == RLG_DESC_LINE)
                            .map(|t| spanned(&t))
                            .collect(),
                        end: rest
                            .clone()
                            .find(|t| t.kind() == RLG_DESC_END)
                            .map(|t| t.text_range()),
                    },
                    _ => FieldValue::Words(words),
                };
                entry.fields.push(Field {
                    range: field.text_range(),
                    keyword,
                    value,
                });
            }
        }
    }
    entry
}
