//! Numbers as NetHack's compilers read them.

/// C's `atoi` as lev_comp and dgn_comp get it from glibc on x86_64: an optional sign, then
/// digits up to the first other character, read by `strtol` (which stops at the ends of a
/// 64-bit `long`) and cut to a 32-bit `int`. So `4294967297` is 1, `5000000000` is
/// 705032704, and a run of digits too long for a `long` is -1.
pub fn atoi(text: &str) -> i64 {
    let (negative, magnitude) = sign_and_magnitude(text);
    let long = match (negative, i64::try_from(magnitude)) {
        (false, Ok(value)) => value,
        (false, Err(_)) => i64::MAX,
        (true, Ok(value)) => -value,
        (true, Err(_)) => i64::MIN,
    };
    // The cut to an `int` keeps the low 32 bits, as the compilers' assignment does.
    i64::from(long as i32)
}

/// When the number `text` lies outside a C `int`, so that `compiler` reads another number
/// than the one written: the message that says which.
pub fn beyond_int(text: &str, compiler: &str) -> Option<String> {
    let (negative, magnitude) = sign_and_magnitude(text);
    let limit = if negative { 1 << 31 } else { (1 << 31) - 1 };
    (magnitude > limit).then(|| {
        format!(
            "{compiler} reads `{text}` as {}: its numbers are C ints, from -2147483648 to 2147483647. Write the number you mean",
            atoi(text)
        )
    })
}

/// The sign and the digits' value (saturated) of an optional sign followed by digits.
fn sign_and_magnitude(text: &str) -> (bool, u64) {
    let (negative, rest) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let magnitude = rest
        .bytes()
        .take_while(u8::is_ascii_digit)
        .fold(0u64, |n, d| {
            n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
        });
    (negative, magnitude)
}

#[cfg(test)]
mod tests {
    use super::{atoi, beyond_int};

    #[test]
    fn as_glibc_reads_them() {
        assert_eq!(atoi("42"), 42);
        assert_eq!(atoi("-7"), -7);
        assert_eq!(atoi("+7"), 7);
        assert_eq!(atoi("12-3"), 12);
        assert_eq!(atoi(""), 0);
        assert_eq!(atoi("-"), 0);
        assert_eq!(atoi("2147483648"), -2147483648);
        assert_eq!(atoi("4294967297"), 1);
        assert_eq!(atoi("5000000000"), 705032704);
        assert_eq!(atoi("9223372036854775807"), -1);
        assert_eq!(atoi("88888888888888888888888"), -1);
        assert_eq!(atoi("-99999999999999999999999"), 0);
        assert!(beyond_int("2147483647", "cc").is_none());
        assert!(beyond_int("-2147483648", "cc").is_none());
        assert!(beyond_int("2147483648", "cc").is_some());
        assert!(beyond_int("-2147483649", "cc").is_some());
        assert!(beyond_int("88888888888888888888888", "cc").is_some());
    }
}
