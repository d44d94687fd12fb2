//! Numbers as NetHack's compilers read them.

/// C's `atoi` as lev_comp and dgn_comp get it from glibc on x86_64: an optional sign, then
/// digits up to the first other character, read by `strtol` (which stops at the ends of a
/// 64-bit `long`) and cut to a 32-bit `int`. So `4294967297` is 1, `5000000000` is
/// 705032704, and a run of digits too long for a `long` is -1.
pub fn atoi(text: &str) -> i64 {
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
    let long = match (negative, i64::try_from(magnitude)) {
        (false, Ok(value)) => value,
        (false, Err(_)) => i64::MAX,
        (true, Ok(value)) => -value,
        (true, Err(_)) => i64::MIN,
    };
    // The cut to an `int` keeps the low 32 bits, as the compilers' assignment does.
    i64::from(long as i32)
}

/// Whether the number `text` (an optional sign, then digits) lies outside a C `int`, so that
/// [`atoi`] reads another number than the one written.
pub fn overflows_int(text: &str) -> bool {
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
    let limit = if negative { 1 << 31 } else { (1 << 31) - 1 };
    magnitude > limit
}

#[cfg(test)]
mod tests {
    use super::{atoi, overflows_int};

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
        assert!(!overflows_int("2147483647") && !overflows_int("-2147483648"));
        assert!(overflows_int("2147483648") && overflows_int("-2147483649"));
        assert!(overflows_int("88888888888888888888888"));
    }
}
