//! The course's reference parser's print-out (`--compat`): the entries that
//! `levkit_model::rlg327::reference` says it accepts, printed its way (see the research note
//! on RLG327, section 3).

use levkit_model::rlg327::Kind;
use levkit_model::rlg327::reference::{self, Accepted};

fn color_name(color: &str) -> &str {
    // The reference stores BLACK as white (black is invisible on a terminal) and prints by
    // value, so both print as BLACK.
    if color == "WHITE" { "BLACK" } else { color }
}

fn print(entry: &Accepted, kind: Kind, out: &mut String) {
    let dice = |name: &str| entry.dice(name).map_or_else(String::new, |d| d.to_string());
    out.push_str(&entry.name);
    out.push('\n');
    out.push_str(&entry.description);
    out.push('\n');
    match kind {
        Kind::Monster => {
            out.push_str(&String::from_utf8_lossy(&[entry.symbol]));
            out.push('\n');
            for color in &entry.colors {
                out.push_str(color_name(color));
                out.push(' ');
            }
            out.push('\n');
            out.push_str(&dice("SPEED"));
            out.push('\n');
            if entry.abilities.is_empty() {
                out.push_str("Monster failing to live up to full potential");
            }
            // Sorted, which is the reference's order.
            for ability in &entry.abilities {
                out.push_str(ability);
                out.push(' ');
            }
            out.push('\n');
            for name in ["HP", "DAM"] {
                out.push_str(&dice(name));
                out.push('\n');
            }
        }
        Kind::Object => {
            out.push_str(entry.item_type);
            out.push('\n');
            out.push_str(entry.colors.first().map_or("", |c| color_name(c)));
            out.push('\n');
            for name in kind.dice_fields() {
                out.push_str(&dice(name));
                out.push('\n');
            }
            out.push_str(if entry.artifact { "1" } else { "0" });
            out.push('\n');
        }
    }
    out.push_str(&entry.rarity.to_string());
    out.push_str("\n\n");
}

/// What the reference program prints for a file of `kind`: nothing when its header is not
/// exactly right or when it never finishes, otherwise every entry it accepts.
pub fn print_compat(bytes: &[u8], kind: Kind) -> String {
    let reading = reference::read(bytes, kind);
    let mut out = String::new();
    if reading.stop.is_none() {
        for entry in &reading.entries {
            print(entry, kind, &mut out);
        }
    }
    out
}
