//! The DCSS corpus loaded as the previewer's programs, with a library over all of it (tags
//! for SUBVAULT, file Lua by the names it defines).

#![allow(dead_code)]

pub mod stats;

use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;

use levkit_generate::dcss::{Catalogue, FileLua, Library, Program, Situation};
use levkit_model::dcss::{Segment, lower};

pub struct Vault {
    pub program: Arc<Program>,
    pub file: Arc<FileLua>,
    pub path: PathBuf,
}

impl Vault {
    /// The first place the vault's DEPTH or PLACE allows (D:1 when none).
    pub fn situation(&self) -> Situation {
        let mut situation = Situation::default();
        if let Some((branch, depth)) = self
            .program
            .depth
            .as_deref()
            .and_then(Situation::first_place)
        {
            situation.branch = branch;
            situation.depth = depth;
        }
        situation
    }
}

pub struct Corpus {
    pub vaults: Vec<Vault>,
    catalogue: Rc<Catalogue>,
}

fn des_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            des_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "des") {
            out.push(path);
        }
    }
}

impl Corpus {
    pub fn load(group: &str) -> Option<Corpus> {
        let dir = levkit_test_support::corpus("dcss-0.28.0", group)?;
        let mut paths = Vec::new();
        des_files(&dir.join("des"), &mut paths);
        paths.sort();
        Some(Corpus::from_files(
            paths
                .into_iter()
                .map(|p| {
                    let text = std::fs::read_to_string(&p).unwrap_or_default();
                    (p, text)
                })
                .collect(),
        ))
    }

    pub fn from_files(files: Vec<(PathBuf, String)>) -> Corpus {
        let mut vaults = Vec::new();
        let mut catalogued = Vec::new();
        for (path, text) in files {
            let mut globals = Vec::new();
            let mut programs = Vec::new();
            for segment in levkit_syntax::dcss::segments(&text) {
                let parse = levkit_syntax::dcss::parse_segment(&text[segment.range.clone()]);
                match lower(&parse.syntax()) {
                    Segment::Global(g) => globals.push(g),
                    Segment::Vault(v) => programs.push(Arc::new(Program::new(&v))),
                }
            }
            let file = Arc::new(FileLua::new(&globals));
            for program in &programs {
                vaults.push(Vault {
                    program: program.clone(),
                    file: file.clone(),
                    path: path.clone(),
                });
            }
            catalogued.push((file, programs));
        }
        Corpus {
            vaults,
            catalogue: Rc::new(Catalogue::new(catalogued)),
        }
    }

    pub fn library(&self) -> Rc<dyn Library> {
        self.catalogue.clone()
    }

    pub fn vault(&self, name: &str) -> Option<&Vault> {
        self.vaults.iter().find(|v| v.program.name == name)
    }
}
