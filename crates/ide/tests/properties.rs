//! The whole analysis (decoding, parsing, lowering, checks, every feature) never panics,
//! whatever the bytes and whatever the dialect.

use levkit_diagnostics::TextSize;
use levkit_ide::{AnalysisHost, PreviewRequest};
use levkit_syntax::Dialect;
use proptest::prelude::*;

fn analyse(bytes: &[u8], dialect: Option<Dialect>) {
    let mut host = AnalysisHost::new();
    let file = host.set_file_bytes("fuzz.des", bytes);
    host.set_dialect_override(file, dialect);
    let analysis = host.analysis();
    let len = analysis.file_text(file).unwrap().len();
    for d in analysis.diagnostics(file).unwrap() {
        assert!(usize::from(d.range.end()) <= len);
    }
    let middle = TextSize::from((len / 2) as u32);
    analysis.hover(file, middle).unwrap();
    analysis.completions(file, middle).unwrap();
    analysis.symbols(file).unwrap();
    analysis.highlights(file).unwrap();
    analysis.preview(file, &PreviewRequest::default()).unwrap();
}

/// A small valid level, so that mutations explore the checks, not only the parser.
const SEED: &str = "MAZE:\"fort\",' '\nFLAGS:noteleport\nINIT_MAP:'.',' ',true,true,lit,false\nGEOMETRY:center,center\nMAP\n----\n|..|\n|.+|\n----\nENDMAP\nRANDOM_PLACES:(1,1),(2,1)\nMONSTER:'d',\"jackal\",place[1]\nDOOR:locked,(2,2)\nDRAWBRIDGE:(1,1),east,closed\nREGION:(1,1,2,2),lit,\"vault\",filled,true\nTRAP:\"pit\",(1,1)\nLEVEL:\"r\"\nROOM:\"shop\",lit,(1,1),(center,center),(4,4)\nNAME:\"a\"\nCHANCE:50\nSUBROOM:\"vault\",lit,(1,1),(2,2),\"a\"\nDOOR:true,open,north,1\nCORRIDOR:(0,north,0),(1,south,1)\n";

fn any_dialect() -> impl Strategy<Value = Option<Dialect>> {
    proptest::option::of(proptest::sample::select(Dialect::ALL.to_vec()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn any_bytes_are_analysed_without_panic(
        bytes in proptest::collection::vec(any::<u8>(), 0..400),
        dialect in any_dialect(),
    ) {
        analyse(&bytes, dialect);
    }

    #[test]
    fn mutated_levels_are_analysed_without_panic(
        cut in 0..SEED.len(),
        len in 0usize..40,
        insert in "[ -~\n]{0,12}",
        dialect in any_dialect(),
    ) {
        let mut bytes = SEED.as_bytes().to_vec();
        let end = (cut + len).min(bytes.len());
        bytes.splice(cut..end, insert.bytes());
        analyse(&bytes, dialect);
    }
}
