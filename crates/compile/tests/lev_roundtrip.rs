//! The `.lev` layout read back: whatever the writer writes decodes to exactly the records it
//! was written from (every field, every record at the offset the writer put it), for every
//! level of the corpus and of the fixtures, for mutated levels, and for arbitrary records.

mod common;

use common::analysed;
use std::path::{Path, PathBuf};

use levkit_compile::nethack::lev::{self, SpecialLevel, decode, encode};
use levkit_compile::nethack::{compile_file, compile_level, level_records};
use levkit_model::nethack::Level;
use proptest::prelude::*;

/// Writes a level and reads it back: the decoded records equal the records the writer built,
/// and every one of those records was laid out exactly once.
fn assert_round_trip(level: &Level, name: &str) {
    // Encoding turns each record's source key into its offset, as decoding does.
    let (mut records, sources) = level_records(level);
    let (bytes, origins) = encode(&mut records);
    assert_eq!(
        bytes,
        compile_level(level),
        "{name}: the writer is not records + encode"
    );
    let decoded = match decode(&bytes) {
        Ok(decoded) => decoded,
        Err(error) => panic!("{name}: the written level does not decode: {error}"),
    };
    assert_eq!(
        decoded, records,
        "{name}: decoded records differ from the written ones"
    );
    let mut keys: Vec<u32> = origins.iter().map(|&(_, key)| key).collect();
    keys.sort_unstable();
    let expected: Vec<u32> = (0..sources.len() as u32).collect();
    assert_eq!(
        keys, expected,
        "{name}: every keyed record is laid out once"
    );
    assert!(
        origins.windows(2).all(|w| w[0].0 < w[1].0),
        "{name}: records start at increasing offsets"
    );
}

/// Every level of a `.des` text that compiles (has no error); how many there were.
fn round_trip_file(path: &str, text: &[u8]) -> usize {
    let (model, diagnostics) = analysed(text);
    let mut checked = 0;
    for compiled in compile_file(&model, &diagnostics) {
        if compiled.bytes.is_some() {
            let name = format!("{path} {}", compiled.file_name.as_deref().unwrap_or("?"));
            assert_round_trip(compiled.level, &name);
            checked += 1;
        }
    }
    checked
}

fn des_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            des_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "des") {
            out.push(path);
        }
    }
}

#[test]
fn corpus_and_fixture_levels_decode_to_the_records_they_were_written_from() {
    let corpus =
        levkit_test_support::corpus("nethack-3.4.3", "write/decode round trip on the corpus");
    let mut files = Vec::new();
    des_files(&levkit_test_support::test_data(), &mut files);
    let fixtures = files.len();
    if let Some(corpus) = &corpus {
        des_files(corpus, &mut files);
    }
    let mut levels = [0, 0];
    for (i, path) in files.iter().enumerate() {
        let text = std::fs::read(path).unwrap();
        levels[usize::from(i >= fixtures)] += round_trip_file(&path.to_string_lossy(), &text);
    }
    eprintln!(
        "{} fixture levels and {} corpus levels round-tripped",
        levels[0], levels[1]
    );
    assert!(levels[0] >= 100, "the fixtures hold compilable levels");
    if corpus.is_some() {
        assert_eq!(levels[1], 113, "the corpus has 113 levels");
    }
}

/// A small level of each kind using most statements, for mutations to start from.
const SEED: &str = "MAZE:\"fort\",' '\nFLAGS:noteleport,hardfloor\n\
INIT_MAP:'.',' ',true,true,random,random\nMESSAGE:\"Hello\"\nMESSAGE:\"there\"\n\
GEOMETRY:center,center\nMAP\n------\n|....|\n|....+\n|....|\n------\nENDMAP\n\
RANDOM_PLACES:(1,1),(2,1)\nRANDOM_MONSTERS:'d','a'\nRANDOM_OBJECTS:'[',')'\n\
MONSTER:'d',\"jackal\",place[1],\"Rex\",peaceful,asleep\nMONSTER:monster[0],random,(1,1)\n\
MONSTER:'m',\"giant mimic\",(2,2),m_object \"boulder\"\n\
OBJECT:'(',\"chest\",(1,1),blessed,2,\"Box\"\nOBJECT:object[1],random,random\n\
DOOR:locked,(5,2)\nMAZEWALK:(1,1),west\nWALLIFY\n\
REGION:(1,1,2,2),lit,\"temple\",unfilled,true\nNON_DIGGABLE:(0,0,5,4)\nNON_PASSWALL:(0,0,5,4)\n\
TRAP:\"pit\",(3,3)\nTRAP:random,random\nLADDER:(4,1),up\nSTAIR:(4,3),down\nALTAR:(3,1),align[0],shrine\n\
FOUNTAIN:(2,3)\nGOLD:50,(1,1)\nENGRAVING:(1,1),burn,\"Elbereth\"\n\
TELEPORT_REGION:levregion(1,1,10,10),(0,0,5,4),up\nPORTAL:(1,1,1,1),(0,0,0,0),\"fire\"\n\
BRANCH:levregion(60,1,70,20),(0,0,0,0)\n\
GEOMETRY:left,top\nMAP\n}}}\n}}|\nENDMAP\nDRAWBRIDGE:(1,1),east,closed\n\
LEVEL:\"rooms\"\nRANDOM_OBJECTS:'!'\nROOM:\"temple\",lit,(1,1),(center,center),(4,4)\nNAME:\"a\"\nCHANCE:50\n\
FOUNTAIN:(1,1)\nSINK:(2,2)\nPOOL:(3,3)\nALTAR:(0,0),chaos,altar\nMONSTER:'d',\"jackal\",random\n\
SUBROOM:\"ordinary\",lit,(1,1),(2,2),\"a\"\nDOOR:true,open,north,1\n\
ROOM:\"ordinary\",random,random,random,random\nDOOR:false,closed,south,random\nTRAP:\"arrow\",(1,1)\n\
CORRIDOR:(0,north,0),(2,south,1)\nCORRIDOR:(0,east,0),(2,west,random)\n";

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 400,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Arbitrary levels: the seed with a random slice replaced by random text. Those that
    /// still compile decode to their records.
    #[test]
    fn mutated_levels_decode_to_the_records_they_were_written_from(
        cut in 0..SEED.len(),
        len in 0usize..40,
        insert in "[ -~\n]{0,12}",
    ) {
        let mut text = SEED.as_bytes().to_vec();
        let end = (cut + len).min(text.len());
        text.splice(cut..end, insert.bytes());
        round_trip_file("mutated.des", &text);
    }

    /// Arbitrary records, within what the layout can hold (counts below 128, one to nine
    /// parts, a message of at most 255 bytes): encoding then decoding gives them back, and
    /// encoding what was decoded gives the same bytes.
    #[test]
    fn arbitrary_records_decode_to_themselves(mut level in special_level()) {
        let (bytes, _) = encode(&mut level);
        let decoded = decode(&bytes);
        prop_assert_eq!(decoded.as_ref(), Ok(&level));
        let mut decoded = decoded.unwrap();
        prop_assert_eq!(encode(&mut decoded).0, bytes);
    }
}

#[test]
fn the_seed_levels_compile() {
    let (_, diagnostics) = analysed(SEED.as_bytes());
    let errors: Vec<String> = diagnostics
        .iter()
        .map(|d| format!("{:?} {:?}: {}", d.range, &SEED[d.range], d.message))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    assert_eq!(round_trip_file("seed.des", SEED.as_bytes()), 2);
}

fn coord() -> impl Strategy<Value = lev::Coord> {
    any::<(i8, i8)>()
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![Just(String::new()), "\\PC{1,8}"]
}

fn list<T: std::fmt::Debug>(item: impl Strategy<Value = T>) -> impl Strategy<Value = Vec<T>> {
    prop::collection::vec(item, 0..4)
}

fn area() -> impl Strategy<Value = lev::Area> + Clone {
    any::<[i8; 4]>().prop_map(|[x1, y1, x2, y2]| lev::Area { x1, y1, x2, y2 })
}

fn things() -> impl Strategy<Value = lev::Things> {
    let monster = (
        text(),
        text(),
        any::<i16>(),
        coord(),
        any::<[i8; 6]>(),
        any::<u32>(),
    )
        .prop_map(
            |(
                name,
                appear_as,
                id,
                at,
                [align, chance, class, appear, peaceful, asleep],
                origin,
            )| {
                lev::MonsterRec {
                    name,
                    appear_as,
                    id,
                    align,
                    at,
                    chance,
                    class,
                    appear,
                    peaceful,
                    asleep,
                    origin,
                }
            },
        );
    let object = (
        text(),
        any::<i32>(),
        any::<[i16; 2]>(),
        coord(),
        any::<[i8; 4]>(),
        any::<u32>(),
    )
        .prop_map(
            |(name, corpsenm, [id, spe], at, [chance, class, containment, curse], origin)| {
                lev::ObjectRec {
                    name,
                    corpsenm,
                    id,
                    spe,
                    at,
                    chance,
                    class,
                    containment,
                    curse,
                    origin,
                }
            },
        );
    let gold = (coord(), any::<i32>(), any::<u32>())
        .prop_map(|(at, amount, origin)| lev::GoldRec { at, amount, origin });
    let engraving =
        (coord(), text(), any::<i8>(), any::<u32>()).prop_map(|(at, text, kind, origin)| {
            lev::EngravingRec {
                at,
                text,
                kind,
                origin,
            }
        });
    (list(monster), list(object), list(gold), list(engraving)).prop_map(
        |(monsters, objects, gold, engravings)| lev::Things {
            monsters,
            objects,
            gold,
            engravings,
        },
    )
}

fn stair() -> impl Strategy<Value = lev::StairRec> {
    (coord(), any::<bool>(), any::<u32>()).prop_map(|(at, up, origin)| lev::StairRec {
        at,
        up,
        origin,
    })
}

fn altar() -> impl Strategy<Value = lev::AltarRec> {
    (coord(), any::<[i8; 2]>(), any::<u32>()).prop_map(|(at, [align, shrine], origin)| {
        lev::AltarRec {
            at,
            align,
            shrine,
            origin,
        }
    })
}

fn area_rec() -> impl Strategy<Value = lev::AreaRec> {
    (area(), any::<u32>()).prop_map(|(area, origin)| lev::AreaRec { area, origin })
}

fn spot() -> impl Strategy<Value = lev::SpotRec> {
    (coord(), any::<u32>()).prop_map(|(at, origin)| lev::SpotRec { at, origin })
}

fn trap() -> impl Strategy<Value = lev::TrapRec> {
    (coord(), any::<[i8; 2]>(), any::<u32>()).prop_map(|(at, [chance, kind], origin)| {
        lev::TrapRec {
            at,
            chance,
            kind,
            origin,
        }
    })
}

fn registers() -> impl Strategy<Value = Vec<i8>> {
    list(any::<i8>())
}

fn part() -> impl Strategy<Value = lev::MazePart> {
    let map = (-1i8..6, -1i8..6).prop_flat_map(|(xsize, ysize)| {
        let width = xsize.max(0) as usize;
        let height = ysize.max(0) as usize;
        let rows = prop::collection::vec(prop::collection::vec(any::<i8>(), width), height);
        (Just(xsize), Just(ysize), rows)
    });
    let lev_region = (
        area(),
        area(),
        any::<[bool; 2]>(),
        any::<i8>(),
        text(),
        any::<u32>(),
    )
        .prop_map(
            |(inarea, delarea, [in_islev, del_islev], rtype, name, origin)| lev::LevRegion {
                inarea,
                delarea,
                in_islev,
                del_islev,
                rtype,
                name,
                origin,
            },
        );
    let region = (area(), any::<[i8; 2]>(), any::<bool>(), any::<u32>()).prop_map(
        |(area, [rtype, rlit], irregular, origin)| lev::RegionRec {
            area,
            rtype,
            rlit,
            irregular,
            origin,
        },
    );
    let door = (coord(), any::<i8>(), any::<u32>()).prop_map(|(at, mask, origin)| lev::DoorRec {
        at,
        mask,
        origin,
    });
    let drawbridge =
        (coord(), any::<i8>(), any::<bool>(), any::<u32>()).prop_map(|(at, dir, open, origin)| {
            lev::DrawbridgeRec {
                at,
                dir,
                open,
                origin,
            }
        });
    let walk = (coord(), any::<i8>(), any::<u32>()).prop_map(|(at, dir, origin)| lev::WalkRec {
        at,
        dir,
        origin,
    });
    (
        (any::<[i8; 2]>(), map, list(lev_region), any::<u32>()),
        (registers(), list(coord()), registers()),
        (list(region), list(door), list(drawbridge), list(walk)),
        (
            list(area_rec()),
            list(area_rec()),
            list(stair()),
            list(stair()),
        ),
        (list(altar()), list(spot()), list(trap()), things()),
    )
        .prop_map(
            |(
                ([halign, valign], (xsize, ysize, map), lev_regions, origin),
                (object_registers, place_registers, monster_registers),
                (regions, doors, drawbridges, walks),
                (non_diggable, non_passwall, ladders, stairs),
                (altars, fountains, traps, things),
            )| lev::MazePart {
                halign,
                valign,
                xsize,
                ysize,
                map,
                lev_regions,
                object_registers,
                place_registers,
                monster_registers,
                regions,
                doors,
                drawbridges,
                walks,
                non_diggable,
                non_passwall,
                ladders,
                stairs,
                altars,
                fountains,
                traps,
                things,
                origin,
            },
        )
}

fn room() -> impl Strategy<Value = lev::RoomRec> {
    let door = (any::<[i8; 4]>(), any::<u32>()).prop_map(|([wall, pos, secret, mask], origin)| {
        lev::RoomDoorRec {
            wall,
            pos,
            secret,
            mask,
            origin,
        }
    });
    (
        (text(), text(), any::<[i8; 10]>(), any::<u32>()),
        (list(door), list(stair()), list(altar())),
        (
            list(spot()),
            list(spot()),
            list(spot()),
            list(trap()),
            things(),
        ),
    )
        .prop_map(
            |(
                (name, parent, [x, y, w, h, xalign, yalign, rtype, chance, rlit, filled], origin),
                (doors, stairs, altars),
                (fountains, sinks, pools, traps, things),
            )| lev::RoomRec {
                name,
                parent,
                x,
                y,
                w,
                h,
                xalign,
                yalign,
                rtype,
                chance,
                rlit,
                filled,
                doors,
                stairs,
                altars,
                fountains,
                sinks,
                pools,
                traps,
                things,
                origin,
            },
        )
}

fn special_level() -> impl Strategy<Value = SpecialLevel> {
    let init = (any::<[bool; 3]>(), any::<[i8; 4]>()).prop_map(
        |([present, smoothed, joined], [fg, bg, lit, walled])| lev::InitMap {
            present,
            fg,
            bg,
            smoothed,
            joined,
            lit,
            walled,
        },
    );
    let corridor_end =
        any::<[i8; 3]>().prop_map(|[room, wall, door]| lev::CorridorEnd { room, wall, door });
    let corridor = (corridor_end.clone(), corridor_end, any::<u32>())
        .prop_map(|(src, dest, origin)| lev::CorridorRec { src, dest, origin });
    let body = prop_oneof![
        (any::<i8>(), prop::collection::vec(part(), 1..4))
            .prop_map(|(filling, parts)| lev::Body::Maze(lev::Maze { filling, parts })),
        (registers(), registers(), list(room()), list(corridor)).prop_map(
            |(object_registers, monster_registers, rooms, corridors)| {
                lev::Body::Rooms(lev::RoomLevel {
                    object_registers,
                    monster_registers,
                    rooms,
                    corridors,
                })
            }
        ),
    ];
    (any::<[u64; 4]>(), init, any::<u64>(), "\\PC{0,40}", body).prop_map(
        |(version, init, flags, message, mut body)| {
            // A map the layout does not store is no part of the records.
            if let lev::Body::Maze(maze) = &mut body {
                for part in &mut maze.parts {
                    if !lev::map_is_stored(init.present, part.xsize, part.ysize) {
                        part.map.clear();
                    }
                }
            }
            SpecialLevel {
                version,
                init,
                flags,
                message,
                body,
            }
        },
    )
}

/// Levels the fuzzer built from mutated bytes (`test-data/nethack-lev/decode-cases/`): what
/// decodes re-encodes to bytes that decode to the same records; what does not decode says
/// where and why (`verdicts.txt`).
#[test]
fn decoded_levels_re_encode_to_themselves() {
    let dir = levkit_test_support::test_data().join("nethack-lev/decode-cases");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "lev"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no cases in {}", dir.display());
    let mut verdicts = String::new();
    for path in &paths {
        let name = path.file_name().unwrap().to_string_lossy();
        let bytes = std::fs::read(path).unwrap();
        let level = match decode(&bytes) {
            Ok(level) => level,
            Err(error) => {
                verdicts += &format!("{name}: {error}\n");
                continue;
            }
        };
        let mut again = level.clone();
        let (written, _) = encode(&mut again);
        match decode(&written) {
            Ok(decoded) => assert_eq!(decoded, again, "{name}: records change"),
            Err(error) => panic!("{name}: re-encoded level does not decode: {error}"),
        }
        verdicts += &format!("{name}: decodes and re-encodes\n");
    }
    expect_test::expect_file![dir.join("verdicts.txt")].assert_eq(&verdicts);
}
