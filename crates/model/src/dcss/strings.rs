//! The string rules crawl's spec parsers share: a spec's tags come off one by one (a flag
//! word once, a `key:` tag up to the next space), numbers are whole C ints, lists are split
//! with their pieces trimmed and empty ones dropped. The MONS/ITEM/KFEAT checks and the
//! overlays (COLOUR, tiles, KPROP, FHEIGHT, SUBVAULT) read specs with them.

/// crawl's `trim_string`: spaces, tabs and line ends off both ends.
pub fn trim(text: &str) -> &str {
    text.trim_matches([' ', '\t', '\n', '\r'])
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
    let at = text
        .find(&format!(" {tag} "))
        .or_else(|| text.starts_with(&format!("{tag} ")).then_some(0))
        .or_else(|| {
            text.find(&format!(" {tag}"))
                .filter(|pos| pos + tag.len() + 1 == text.len())
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

/// Takes the first `prefix…` word (at the start or after a space) off `text` with the space
/// after it, answering what follows the prefix up to the next space: crawl's
/// `strip_tag_prefix`, which answers nothing alike for a missing tag and an empty value.
pub fn strip_tag_prefix(text: &mut String, prefix: &str) -> String {
    let mut from = 0;
    let pos = loop {
        let Some(found) = text[from..].find(prefix) else {
            return String::new();
        };
        let pos = from + found;
        if pos == 0 || is_space(text.as_bytes()[pos - 1]) {
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
