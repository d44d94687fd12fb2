//! `levkit generate`: a random level as NetHack 3.4.3 builds it for a seed and depth.

use clap::Args;
use levkit_ide::RANDOM_LEVEL_DEPTHS;

use crate::{EXIT_OK, EXIT_TROUBLE};

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
    let Some(level) = levkit_ide::random_level(args.seed, args.depth, args.reveal) else {
        eprintln!(
            "levkit: --depth {} is not a level of the Dungeons of Doom: use {}..={}",
            args.depth,
            RANDOM_LEVEL_DEPTHS.start(),
            RANDOM_LEVEL_DEPTHS.end()
        );
        return EXIT_TROUBLE;
    };
    let text = match args.format {
        Format::Map => level.map,
        Format::Svg => level.picture.svg(),
        Format::Json => {
            let header = serde_json::json!({"seed": args.seed, "depth": args.depth});
            let json = level.picture.json(header);
            serde_json::to_string_pretty(&json).unwrap_or_default() + "\n"
        }
    };
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), text.as_bytes());
    EXIT_OK
}
