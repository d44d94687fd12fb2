//! What the compile tests share.

/// A `.des` text's model and its diagnostics, as the analysis makes them.
pub fn analysed(
    text: &[u8],
) -> (
    levkit_model::nethack::DesFile,
    Vec<levkit_diagnostics::Diagnostic>,
) {
    let (text, _) = levkit_syntax::decode(text);
    let parse = levkit_syntax::nethack::parse_compact(&text);
    let model = levkit_model::nethack::lower(&parse, &text);
    let mut diagnostics = parse.errors.clone();
    diagnostics.extend(levkit_check::nethack::check(&model));
    (model, diagnostics)
}
