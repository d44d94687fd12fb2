//! DCSS vaults to the Lua crawl generates: the text of its `-dump-maps` for a file's vaults,
//! in file order (file-level Lua is not part of it, as in crawl).

use levkit_model::dcss::{Segment, lua};

/// crawl's `-dump-maps` text for the vaults of one file, given its segments in order.
pub fn dump_maps<'a>(segments: impl IntoIterator<Item = &'a Segment>) -> String {
    let mut out = String::new();
    for segment in segments {
        if let Segment::Vault(vault) = segment {
            out.push_str(&lua::dump(vault));
        }
    }
    out
}
