//! What a resolution may draw on beyond its own vault: the vaults of the run by tag (for
//! SUBVAULT and `subvault()`) and the files whose Lua defines a name. Built once from every
//! file's programs; the editor's workspace and the corpus tests use the same one.

use std::collections::HashMap;
use std::sync::Arc;

use super::sandbox::Library;
use super::{FileLua, Program};

/// A vault of a tag, with its file's Lua.
type Tagged = (Arc<Program>, Arc<FileLua>);

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Catalogue {
    files: Vec<Arc<FileLua>>,
    /// A global name to the files (indexes into `files`) that define it.
    defined: HashMap<String, Vec<usize>>,
    tagged: HashMap<String, Vec<Tagged>>,
}

impl Catalogue {
    /// From each file's Lua and its vaults, in load order.
    pub fn new(files: impl IntoIterator<Item = (Arc<FileLua>, Vec<Arc<Program>>)>) -> Catalogue {
        let mut catalogue = Catalogue::default();
        for (file, programs) in files {
            for program in programs {
                for tag in &program.tags {
                    let entry = catalogue.tagged.entry(tag.clone()).or_default();
                    if !entry.iter().any(|(p, _)| Arc::ptr_eq(p, &program)) {
                        entry.push((program.clone(), file.clone()));
                    }
                }
            }
            for name in file.defined_names() {
                catalogue
                    .defined
                    .entry(name)
                    .or_default()
                    .push(catalogue.files.len());
            }
            catalogue.files.push(file);
        }
        catalogue
    }
}

impl Library for Catalogue {
    fn definitions(&self, name: &str) -> Vec<Arc<FileLua>> {
        self.defined.get(name).map_or_else(Vec::new, |files| {
            files.iter().map(|&i| self.files[i].clone()).collect()
        })
    }

    fn tagged(&self, tag: &str) -> Vec<(Arc<Program>, Arc<FileLua>)> {
        self.tagged.get(tag).cloned().unwrap_or_default()
    }
}

/// A shared catalogue serves as the library of many resolvers.
impl Library for Arc<Catalogue> {
    fn definitions(&self, name: &str) -> Vec<Arc<FileLua>> {
        (**self).definitions(name)
    }

    fn tagged(&self, tag: &str) -> Vec<(Arc<Program>, Arc<FileLua>)> {
        (**self).tagged(tag)
    }
}
