//! `.lev` files back to readable text (filled in below).

pub fn inspect(_bytes: &[u8]) -> Result<String, String> {
    Err("not yet".into())
}
