//! The one text that a generated table file's strings are ranges of (see
//! `levkit_model::table_text`): each distinct string is stored once, and a table cell becomes
//! `Str::new(start, end)` under a comment that shows the string, so the file still reads.

use std::collections::HashMap;
use std::fmt::Write as _;

const INDENT: &str = "    ";

#[derive(Default)]
pub struct TableText {
    /// The distinct strings, in the order first used.
    strings: Vec<String>,
    ranges: HashMap<String, (usize, usize)>,
    len: usize,
}

impl TableText {
    /// The expression for `value` (a range of the text) and the comment that shows it.
    pub fn cell(&mut self, value: &str) -> (String, String) {
        let (start, end) = match self.ranges.get(value) {
            Some(&range) => range,
            None => {
                let range = (self.len, self.len + value.len());
                self.len = range.1;
                self.ranges.insert(value.to_string(), range);
                self.strings.push(value.to_string());
                range
            }
        };
        (format!("Str::new({start}, {end})"), format!("{value:?}"))
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
