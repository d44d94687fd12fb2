//! The whole analysis (decoding, parsing, lowering, checks) never panics, whatever the bytes.

use levkit_ide::{RootDatabase, diagnostics, nethack_model};
use proptest::prelude::*;

fn analyse(bytes: &[u8]) {
    let mut db = RootDatabase::default();
    let file = db.add_file("fuzz.des", bytes, Some(levkit_syntax::Dialect::NethackDes));
    let _ = nethack_model(&db, file);
    for d in diagnostics(&db, file) {
        assert!(usize::from(d.range.end()) <= file.text(&db).len());
    }
}

/// A small valid level, so that mutations explore the checks, not only the parser.
const SEED: &str = "MAZE:\"fort\",' '\nFLAGS:noteleport\nINIT_MAP:'.',' ',true,true,lit,false\nGEOMETRY:center,center\nMAP\n----\n|..|\n|.+|\n----\nENDMAP\nRANDOM_PLACES:(1,1),(2,1)\nMONSTER:'d',\"jackal\",place[1]\nDOOR:locked,(2,2)\nDRAWBRIDGE:(1,1),east,closed\nREGION:(1,1,2,2),lit,\"vault\",filled,true\nTRAP:\"pit\",(1,1)\nLEVEL:\"r\"\nROOM:\"shop\",lit,(1,1),(center,center),(4,4)\nNAME:\"a\"\nCHANCE:50\nSUBROOM:\"vault\",lit,(1,1),(2,2),\"a\"\nDOOR:true,open,north,1\nCORRIDOR:(0,north,0),(1,south,1)\n";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn any_bytes_are_analysed_without_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        analyse(&bytes);
    }

    #[test]
    fn mutated_levels_are_analysed_without_panic(
        cut in 0..SEED.len(),
        len in 0usize..40,
        insert in "[ -~\n]{0,12}",
    ) {
        let mut bytes = SEED.as_bytes().to_vec();
        let end = (cut + len).min(bytes.len());
        bytes.splice(cut..end, insert.bytes());
        analyse(&bytes);
    }
}
