//! The one text that a generated table file's strings are ranges of (see
//! `levkit_model::table_text`): each distinct string is stored once, and a table cell becomes
//! `Str::new(start, end)` under a comment that shows the string, so the file still reads
//! ([`TableText::write`]).

use std::collections::HashMap;
use std::fmt::Write as _;

/// One level of indentation, as rustfmt writes it.
pub const INDENT: &str = "    ";

#[derive(Default)]
pub struct TableText {
    /// The distinct strings, in the order first used.
    strings: Vec<String>,
    ranges: HashMap<String, (usize, usize)>,
    len: usize,
}

impl TableText {
    /// Writes the line `{indent}{label}Str::new(start, end),` for `value`, under a comment
    /// line that shows the string (none for an empty one). `label` is `field: ` in a struct
    /// literal and empty in a list.
    pub fn write(&mut self, out: &mut String, indent: &str, label: &str, value: &str) {
        let (start, end) = self.range(value);
        if !value.is_empty() {
            let _ = writeln!(out, "{indent}// {value:?}");
        }
        let _ = writeln!(out, "{indent}{label}Str::new({start}, {end}),");
    }

    /// Where `value` is in the text, added at its end the first time.
    fn range(&mut self, value: &str) -> (usize, usize) {
        match self.ranges.get(value) {
            Some(&range) => range,
            None => {
                let range = (self.len, self.len + value.len());
                self.len = range.1;
                self.ranges.insert(value.to_string(), range);
                self.strings.push(value.to_string());
                range
            }
        }
    }

    /// The text's definition, as rustfmt lays it out: the type it belongs to and the `Str`
    /// the tables above use.
    pub fn definition(&self) -> String {
        let mut out = String::from(
            "\n/// The text that every `Str` of these tables is a range of.\n\
             pub enum Text {}\n\n\
             impl crate::table_text::Text for Text {\n",
        );
        let _ = writeln!(out, "{INDENT}const TEXT: &'static str = concat!(");
        for string in &self.strings {
            let _ = writeln!(out, "{INDENT}{INDENT}{string:?},");
        }
        let _ = writeln!(out, "{INDENT});\n}}");
        out.push_str(
            "\n/// A string of these tables.\n\
             pub type Str = crate::table_text::Str<Text>;\n",
        );
        out
    }
}
