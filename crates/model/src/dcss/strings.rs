//! The string rules crawl's spec parsers share: a spec's tags come off one by one (a flag
//! word once, a `key:` tag up to the next space), numbers are whole C ints, lists are split
//! with their pieces trimmed and empty ones dropped. The MONS/ITEM/KFEAT checks and the
//! overlays (COLOUR, tiles, KPROP, FHEIGHT, SUBVAULT) read specs with them.

/// crawl's `trim_string`: spaces, tabs and line ends off both ends.
pub fn trim(text: &str) -> &str {
    // Bytes rather than characters: every character trimmed is ASCII.
    let blank = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
    let bytes = text.as_bytes();
    let start = bytes.iter().position(|b| !blank(b)).unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|b| !blank(b))
        .map_or(start, |i| i + 1);
    &text[start..end]
}

/// C's `isspace`.
pub fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// Takes the flag word `tag` off `text` once (the whole text, a word inside, the first word,
/// or the last word when its first ` tag` is the last), as crawl's `strip_tag` does.
pub fn strip_tag(text: &mut String, tag: &str) -> bool {
    if text == tag {
        text.clear();
        return true;
    }
    let bytes = text.as_bytes();
    let tag_bytes = tag.as_bytes();
    // Most tags are absent: one search says so.
    let Some(first) = find(bytes, tag_bytes, 0) else {
        return false;
    };
    let spaced = |pos: usize| pos > 0 && bytes[pos - 1] == b' ';
    let end = |pos: usize| pos + tag.len();
    // ` tag ` anywhere, else `tag ` at the start, else the first ` tag` if it ends the text.
    let mut inside = None;
    let mut from = first;
    while let Some(pos) = find(bytes, tag_bytes, from) {
        if spaced(pos) && bytes.get(end(pos)) == Some(&b' ') {
            inside = Some(pos - 1);
            break;
        }
        from = pos + 1;
    }
    let at = inside
        .or_else(|| (first == 0 && bytes.get(tag.len()) == Some(&b' ')).then_some(0))
        .or_else(|| {
            let mut from = first;
            let first_spaced = loop {
                let pos = find(bytes, tag_bytes, from)?;
                if spaced(pos) {
                    break pos;
                }
                from = pos + 1;
            };
            (end(first_spaced) == bytes.len()).then_some(first_spaced - 1)
        });
    match at {
        Some(pos) => {
            text.replace_range(pos..pos + tag.len() + 1, "");
            *text = trim(text).to_string();
            true
        }
        None => false,
    }
}

/// Where `needle` first occurs in `haystack` from `from`: each candidate found by its first
/// byte, for the short texts of specs and Lua lines (a `str` search builds its searcher anew
/// on every call).
pub fn find(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    let (&first, rest) = needle.split_first()?;
    let mut at = from;
    while at + needle.len() <= haystack.len() {
        at += memchr::memchr(first, &haystack[at..])?;
        if haystack[at + 1..].starts_with(rest) {
            return Some(at);
        }
        at += 1;
    }
    None
}

/// Takes the first `prefix…` word (at the start or after a space) off `text` with the space
/// after it, answering what follows the prefix up to the next space: crawl's
/// `strip_tag_prefix`, which answers nothing alike for a missing tag and an empty value.
pub fn strip_tag_prefix(text: &mut String, prefix: &str) -> String {
    let bytes = text.as_bytes();
    let mut from = 0;
    let pos = loop {
        let Some(pos) = find(bytes, prefix.as_bytes(), from) else {
            return String::new();
        };
        if pos == 0 || is_space(bytes[pos - 1]) {
            break pos;
        }
        from = pos + 1;
    };
    let end = text[pos..].find(' ').map_or(text.len(), |i| pos + i);
    let value = text[pos + prefix.len()..end].to_string();
    text.replace_range(pos..(end + 1).min(text.len()), "");
    *text = trim(text).to_string();
    value
}

/// C's `strtol` over the whole text (leading blanks, a sign, digits, nothing after), within an
/// `int`: crawl's `parse_int`.
pub fn parse_int(text: &str) -> Option<i32> {
    let text = text.trim_start_matches(|c: char| c.is_ascii() && is_space(c as u8));
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<i64>().ok().and_then(|n| i32::try_from(n).ok())
}

/// crawl's `strip_number_tag`: the tag is taken off whatever its value; a value that is not a
/// whole number counts as no tag.
pub fn strip_number_tag(text: &mut String, prefix: &str) -> Option<i32> {
    parse_int(&strip_tag_prefix(text, prefix))
}

/// The generation weight tag (`weight:`, else `w:`), taken off: crawl's `find_weight`.
pub fn strip_weight(text: &mut String) -> Option<i32> {
    strip_number_tag(text, "weight:").or_else(|| strip_number_tag(text, "w:"))
}

/// crawl's `split_string` with its defaults: pieces trimmed, empty ones dropped.
pub fn split(text: &str, separator: char) -> Vec<&str> {
    text.split(separator)
        .map(trim)
        .filter(|piece| !piece.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strip_tag_takes_one_word_as_crawl_does() {
        let mut text = "orc band band".to_string();
        assert!(strip_tag(&mut text, "band"));
        assert_eq!(text, "orc band");
        let mut text = "orc bandx band".to_string();
        assert!(!strip_tag(&mut text, "band"));
        let mut text = "band".to_string();
        assert!(strip_tag(&mut text, "band"));
        assert_eq!(text, "");
        let mut text = "band orc".to_string();
        assert!(strip_tag(&mut text, "band"));
        assert_eq!(text, "orc");
        let mut text = "orc band".to_string();
        assert!(strip_tag(&mut text, "band"));
        assert_eq!(text, "orc");
        let mut text = "orc xband".to_string();
        assert!(!strip_tag(&mut text, "band"));
        let mut text = "orc band x band".to_string();
        assert!(strip_tag(&mut text, "band"));
        assert_eq!(text, "orc x band");
    }

    #[test]
    fn strip_tag_prefix_answers_the_value_up_to_a_space() {
        let mut text = "orc god:trog col:red".to_string();
        assert_eq!(strip_tag_prefix(&mut text, "col:"), "red");
        assert_eq!(text, "orc god:trog");
        let mut text = "dbname:x name:y".to_string();
        assert_eq!(strip_tag_prefix(&mut text, "name:"), "y");
        assert_eq!(text, "dbname:x");
        let mut text = "orc xw:5".to_string();
        assert_eq!(strip_tag_prefix(&mut text, "w:"), "");
        assert_eq!(text, "orc xw:5");
    }

    #[test]
    fn numbers_are_whole_ints() {
        assert_eq!(parse_int("+5"), Some(5));
        assert_eq!(parse_int(" -5"), Some(-5));
        assert_eq!(parse_int("5 "), None);
        assert_eq!(parse_int("5x"), None);
        assert_eq!(parse_int(""), None);
        assert_eq!(parse_int("3000000000"), None);
    }
}
