//! Syntax trees lowered to plain semantic models, one module per dialect. A model keeps the
//! source range of everything it holds, so checks, the compiler and the previewer can point
//! back at the text. Lowering never fails: what the text lacks is absent from the model.

pub mod dcss;
pub mod dungeon;
pub mod nethack;
pub mod rlg327;
pub mod table_text;

pub use rowan::{TextRange, TextSize};

/// A value and the text it came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Spanned<T> {
    pub value: T,
    pub range: TextRange,
}

impl<T> Spanned<T> {
    pub fn new(value: T, range: TextRange) -> Spanned<T> {
        Spanned { value, range }
    }

    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Spanned<U> {
        Spanned {
            value: f(self.value),
            range: self.range,
        }
    }

    pub fn as_ref(&self) -> Spanned<&T> {
        Spanned {
            value: &self.value,
            range: self.range,
        }
    }
}

impl<T> Spanned<Option<T>> {
    /// `Some` spanned value if the value is `Some`.
    pub fn transpose(self) -> Option<Spanned<T>> {
        let range = self.range;
        self.value.map(|value| Spanned { value, range })
    }
}

/// A string value without its quotes (an unterminated one without its opening quote).
pub(crate) fn string(value: &levkit_syntax::ast::Value) -> Option<Spanned<String>> {
    use levkit_syntax::SyntaxKind::{STRING, UNTERMINATED_STRING};
    let token = value.token()?;
    let text = token.text();
    let inner = match token.kind() {
        STRING => &text[1..text.len() - 1],
        UNTERMINATED_STRING => &text[1..],
        _ => return None,
    };
    Some(Spanned::new(inner.to_string(), token.text_range()))
}
