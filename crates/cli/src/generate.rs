//! `levkit generate`: a random level as NetHack 3.4.3 builds it for a seed and depth.

use clap::Args;
use levkit_generate::level::Place;
use levkit_generate::mklev::{makelevel, map_text};
use levkit_generate::rng::Rng;

use crate::{EXIT_OK, EXIT_TROUBLE};

/// The reference dungeon's Dungeons of Doom has 27 levels.
const DEEPEST: i32 = 27;

#[derive(Args)]
pub struct GenerateArgs {
    /// The game's random seed (`srandom(seed)`).
    #[arg(long, default_value_t = 1)]
    seed: u32,
    /// Depth in the Dungeons of Doom (1..=27): it sets the stairs, the lighting and the
    /// niches' traps.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    depth: i32,
    /// Show secret doors as `S` and secret corridors as `C`.
    #[arg(long)]
    reveal: bool,
    /// `map`: the reference maps' format (rows, then the rooms); `svg`, `json`: pictures
    /// as `levkit preview` draws them.
    #[arg(long, value_enum, default_value_t = Format::Map)]
    format: Format,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Map,
    Svg,
    Json,
}

pub fn run(args: &GenerateArgs) -> u8 {
    if !(1..=DEEPEST).contains(&args.depth) {
        eprintln!(
            "levkit: --depth {} is not a level of the Dungeons of Doom: use 1..={DEEPEST}",
            args.depth
        );
        return EXIT_TROUBLE;
    }
    let generated = makelevel(&mut Rng::new(args.seed), &Place::doom(args.depth));
    let picture = || levkit_render::Picture::new(&generated.level, &|_| None);
    let text = match args.format {
        Format::Map => map_text(&generated, args.reveal),
        Format::Svg => picture().svg(),
        Format::Json => {
            let header = serde_json::json!({"seed": args.seed, "depth": args.depth});
            let json = picture().json(header);
            serde_json::to_string_pretty(&json).unwrap_or_default() + "\n"
        }
    };
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), text.as_bytes());
    EXIT_OK
}
