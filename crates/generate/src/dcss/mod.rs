//! DCSS vaults as the game resolves them when it places one, for a seed: the chunks in crawl's
//! order (file Lua once, then `veto`, and up to 25 attempts of `prelude`, the map rows,
//! `main` with its hooks, and `validate`), SUBVAULTs filled from the workspace, the mirrors and
//! quarter turns drawn at placement, then every cell resolved (KFEAT, KMONS, KITEM, MONS and
//! ITEM slots, the glyphs' own meanings), then the `post_place` hooks and the `epilogue`.
//!
//! A vault without Lua of its own runs its header calls directly (the same functions the Lua
//! API calls); one with Lua runs in a [`sandbox::Sandbox`]. What levkit does not model is a
//! [`build::Note`], never a silent difference.

pub mod api;
pub mod build;
pub mod catalogue;
pub mod grid;
pub mod look;
pub mod program;
pub mod reach;
pub mod rng;
pub mod sandbox;
pub mod situation;

use std::rc::{Rc, Weak};
use std::sync::Arc;

use levkit_syntax::dcss::Chunk;
use mlua::Value;

pub use build::{Build, Note, Orientation, Square};
pub use catalogue::Catalogue;
pub use grid::{Draw, Grid, NONE};
pub use program::{FileLua, Program};
pub use sandbox::{Library, LuaFailure, NoLibrary, Sandbox};
pub use situation::Situation;

use rng::Rng;

/// How many times crawl builds a vault whose `validate` says no before giving up on it.
pub const ATTEMPTS: u32 = 25;

/// How deep subvaults may nest (crawl does not check for cycles; levkit stops here).
const SUBVAULT_DEPTH: u32 = 4;

/// One resolution of a vault.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub program: Arc<Program>,
    pub seed: u64,
    pub situation: Situation,
    /// The map once `main` and `validate` have run, before it is mirrored or turned: what
    /// crawl's `map()` answers in a `validate` chunk.
    pub map: Vec<String>,
    /// The map as placed (mirrored and turned), with each cell's source.
    pub grid: Grid,
    /// Every cell of [`Outcome::grid`] resolved.
    pub squares: Vec<Square>,
    pub orientation: Orientation,
    /// ORIENT after the turns (`north` turned clockwise is `east`).
    pub orient: Option<String>,
    pub tags: Vec<String>,
    pub notes: Vec<Note>,
    /// What the vault's Lua printed.
    pub printed: Vec<String>,
    /// The random choices made, when asked for.
    pub draws: Vec<Draw>,
    /// The subvaults placed: name, and the statement that asked.
    pub subvaults: Vec<(String, u32)>,
    /// The Lua error that kept the vault from being built (the map shows how far it got).
    pub failure: Option<LuaFailure>,
    /// How many attempts `validate` turned down before this one.
    pub rejected: u32,
    /// Whether `validate` turned down every attempt (crawl then does not place the vault).
    pub gave_up: bool,
    /// Whether `veto` said no (crawl then picks another vault).
    pub vetoed: bool,
}

impl Outcome {
    pub fn width(&self) -> usize {
        self.grid.width
    }

    pub fn height(&self) -> usize {
        self.grid.height
    }

    pub fn square(&self, x: usize, y: usize) -> &Square {
        &self.squares[y * self.grid.width + x]
    }

    /// Whether any note names a function levkit does not model.
    pub fn has_unmodelled(&self) -> bool {
        self.notes.iter().any(|n| n.unmodelled)
    }
}

/// Resolves one vault for seed after seed, keeping its Lua state between them.
pub struct Resolver {
    program: Arc<Program>,
    file: Arc<FileLua>,
    library: Rc<dyn Library>,
    sandbox: Option<Rc<Sandbox>>,
    sandbox_error: Option<String>,
}

impl Resolver {
    pub fn new(program: Arc<Program>, file: Arc<FileLua>, library: Rc<dyn Library>) -> Resolver {
        Resolver {
            program,
            file,
            library,
            sandbox: None,
            sandbox_error: None,
        }
    }

    pub fn program(&self) -> &Arc<Program> {
        &self.program
    }

    /// The sandbox, made on first use.
    fn sandbox(&mut self) -> Result<Rc<Sandbox>, String> {
        if let Some(sandbox) = &self.sandbox {
            return Ok(sandbox.clone());
        }
        if let Some(error) = &self.sandbox_error {
            return Err(error.clone());
        }
        match Sandbox::new(self.library.clone()) {
            Ok(sandbox) => {
                let sandbox = Rc::new(sandbox);
                install_subvault_hook(&sandbox, self.library.clone());
                sandbox.load_file(&self.file);
                self.sandbox = Some(sandbox.clone());
                Ok(sandbox)
            }
            Err(error) => {
                self.sandbox_error = Some(error.clone());
                Err(error)
            }
        }
    }

    fn needs_sandbox(&self) -> bool {
        self.program.has_lua
            || self
                .program
                .calls
                .iter()
                .any(|c| c.function == "subvault" || is_lua_marker_call(c))
    }

    /// The vault as placed for `seed` in `situation`; `trace` records every random choice.
    pub fn resolve(&mut self, seed: u64, situation: &Situation, trace: bool) -> Outcome {
        let sandbox = if self.needs_sandbox() {
            match self.sandbox() {
                Ok(s) => Some(s),
                Err(error) => {
                    let mut build = Build::new(
                        self.program.clone(),
                        situation.clone(),
                        Rng::new(seed),
                        trace,
                    );
                    build.note(format!("levkit could not start Lua: {error}"), NONE);
                    return finish(build, seed, Vec::new(), None, 0, false, false);
                }
            }
        } else {
            None
        };
        let rng = Rng::new(seed);
        resolve_program(
            sandbox.as_deref(),
            &*self.library,
            &self.program,
            situation,
            rng,
            trace,
            Placement::Vault,
            seed,
        )
        .0
    }
}

fn is_lua_marker_call(call: &program::Call) -> bool {
    call.function == "marker" && levkit_model::dcss::spec::is_lua_marker(&call.arg)
}

/// Where a build goes: a vault of its own, or a subvault asked to fill a space.
#[derive(Clone)]
enum Placement {
    Vault,
    Subvault {
        mask: Grid,
        depth: u32,
        tries: Rc<std::cell::Cell<u32>>,
    },
}

/// Runs a program's chunks, orients and resolves it; answers the outcome and its build.
#[allow(clippy::too_many_arguments)]
fn resolve_program(
    sandbox: Option<&Sandbox>,
    library: &dyn Library,
    program: &Arc<Program>,
    situation: &Situation,
    mut rng: Rng,
    trace: bool,
    placement: Placement,
    seed: u64,
) -> (Outcome, Build) {
    let new_build = |rng: Rng| {
        let mut build = Build::new(program.clone(), situation.clone(), rng, trace);
        if let Placement::Subvault { mask, depth, tries } = &placement {
            build.subvault_size = Some((mask.width, mask.height));
            build.subvault_mask = Some(mask.clone());
            build.depth = *depth;
            build.subvault_tries = tries.clone();
        }
        build
    };
    let Some(sandbox) = sandbox else {
        let mut build = new_build(rng);
        let failure = run_calls(None, library, &mut build).err();
        let map = build.grid.rows();
        if failure.is_none() && matches!(placement, Placement::Vault) {
            build.orient_randomly();
        }
        let outcome = finish(build.clone(), seed, map, failure, 0, false, false);
        return (outcome, build);
    };
    let mut vetoed = false;
    let mut rejected = 0;
    let mut last: Option<(Build, Vec<String>, Option<LuaFailure>, bool)> = None;
    for attempt in 0..ATTEMPTS {
        let build = new_build(rng.clone());
        let (mut build, (map, failure, accepted, veto)) = sandbox.with_build(build, |sandbox| {
            let env = match sandbox.new_environment() {
                Ok(env) => env,
                Err(error) => {
                    return (
                        Vec::new(),
                        Some(LuaFailure {
                            message: error,
                            by: NONE,
                            stopped: false,
                        }),
                        true,
                        false,
                    );
                }
            };
            // crawl asks `veto` before it builds the vault.
            let mut veto = false;
            if attempt == 0 {
                match sandbox.run_chunk(Chunk::Veto, &env) {
                    Ok(Some(value)) => veto = truthy(&value),
                    Ok(None) => {}
                    Err(failure) => return (Vec::new(), Some(failure), true, false),
                }
            }
            let steps = [
                Step::Chunk(Chunk::Prelude),
                Step::Rows,
                Step::Hooks("pre_main"),
                Step::Chunk(Chunk::Main),
                Step::Hooks("post_main"),
            ];
            for step in steps {
                let result = match step {
                    Step::Chunk(chunk) => sandbox.run_chunk(chunk, &env).map(|_| ()),
                    Step::Rows => {
                        sandbox.build_mut(|b| {
                            for (row, site) in &b.program.rows.clone() {
                                b.rows.push((row.clone(), *site));
                            }
                            b.pad();
                        });
                        Ok(())
                    }
                    Step::Hooks(when) => sandbox.run_hooks(&env, when),
                };
                if let Err(failure) = result {
                    let map = sandbox.build_mut(|b| b.grid.rows()).unwrap_or_default();
                    return (map, Some(failure), true, veto);
                }
            }
            let accepted = match sandbox.run_chunk(Chunk::Validate, &env) {
                Ok(Some(value)) => truthy(&value) || matches!(value, Value::Nil),
                Ok(None) => true,
                Err(failure) => {
                    let map = sandbox.build_mut(|b| b.grid.rows()).unwrap_or_default();
                    return (map, Some(failure), true, veto);
                }
            };
            let map = sandbox.build_mut(|b| b.grid.rows()).unwrap_or_default();
            (map, None, accepted, veto)
        });
        vetoed |= veto;
        rng = build.rng.clone();
        if failure.is_some() || accepted {
            if failure.is_none() && matches!(placement, Placement::Vault) {
                build.orient_randomly();
            }
            last = Some((build, map, failure, true));
            break;
        }
        rejected += 1;
        last = Some((build, map, None, false));
    }
    let (mut build, map, failure, accepted) = last.expect("at least one attempt");
    let gave_up = !accepted;
    // After placement: the post_place hooks and the epilogue (what they change on the level
    // is not drawn; what they call is still modelled or noted).
    if failure.is_none() && matches!(placement, Placement::Vault) {
        let (b, _) = sandbox.with_build(build, |sandbox| {
            if let Ok(env) = sandbox.new_environment() {
                if let Err(failure) = sandbox.run_hooks(&env, "post_place") {
                    sandbox.build_mut(|b| {
                        b.note(
                            format!("a post_place hook failed: {}", failure.message),
                            failure.by,
                        )
                    });
                }
                if let Err(failure) = sandbox.run_chunk(Chunk::Epilogue, &env) {
                    sandbox.build_mut(|b| {
                        b.note(
                            format!("the epilogue failed: {}", failure.message),
                            failure.by,
                        )
                    });
                }
            }
        });
        build = b;
    }
    let outcome = finish(build.clone(), seed, map, failure, rejected, gave_up, vetoed);
    (outcome, build)
}

enum Step {
    Chunk(Chunk),
    Rows,
    Hooks(&'static str),
}

fn truthy(value: &Value) -> bool {
    !matches!(value, Value::Nil | Value::Boolean(false))
}

/// The header calls of a vault without Lua; SUBVAULT through the engine.
fn run_calls(
    sandbox: Option<&Sandbox>,
    library: &dyn Library,
    build: &mut Build,
) -> Result<(), LuaFailure> {
    let program = build.program.clone();
    for (row, site) in &program.rows {
        build.rows.push((row.clone(), *site));
    }
    build.pad();
    for call in &program.calls {
        let result = if call.function == "subvault" {
            place_subvault(sandbox, library, build, &call.arg, call.site)
        } else if is_lua_marker_call(call) {
            // A Lua marker acts during play; its expression is not run at placement.
            Ok(())
        } else {
            build.apply(call.function, &call.arg, call.site)
        };
        result.map_err(|message| LuaFailure {
            message,
            by: call.site,
            stopped: false,
        })?;
    }
    Ok(())
}

fn finish(
    build: Build,
    seed: u64,
    map: Vec<String>,
    failure: Option<LuaFailure>,
    rejected: u32,
    gave_up: bool,
    vetoed: bool,
) -> Outcome {
    let mut build = build;
    let squares = build.resolve();
    let subvaults = build
        .subvaults
        .iter()
        .map(|p| (p.build.program.name.clone(), p.by))
        .collect();
    // A subvault's notes are the parent's, at its SUBVAULT statement.
    let mut notes = build.notes.clone();
    for placed in &build.subvaults {
        for note in &placed.build.notes {
            let n = Note {
                message: format!(
                    "in subvault {}: {}",
                    placed.build.program.name, note.message
                ),
                by: placed.by,
                unmodelled: note.unmodelled,
            };
            if !notes.contains(&n) {
                notes.push(n);
            }
        }
    }
    Outcome {
        program: build.program.clone(),
        seed,
        situation: build.situation.clone(),
        map,
        grid: build.grid.clone(),
        squares,
        orientation: build.orientation,
        orient: build.orient.clone(),
        tags: build.tags.clone(),
        notes,
        printed: build.printed.clone(),
        draws: build.trace.clone().unwrap_or_default(),
        subvaults,
        failure,
        rejected,
        gave_up,
        vetoed,
    }
}

/// SUBVAULT `K : tag / tag:N`: the bounding box of the cells holding K is the space, those
/// cells the mask; a vault of a chosen tag that fits (turned if that helps, up to 100 tries)
/// is resolved and merged, placed at random when smaller.
fn place_subvault(
    sandbox: Option<&Sandbox>,
    library: &dyn Library,
    parent: &mut Build,
    text: &str,
    by: u32,
) -> Result<(), String> {
    let request = subvault_request(parent, text)?;
    let Some(request) = request else {
        return Ok(());
    };
    let mut rng = parent.rng.clone();
    let child = resolve_subvault(sandbox, library, parent, &request, &mut rng);
    parent.rng = rng;
    merge_subvault(parent, &request, child, by, text);
    Ok(())
}

struct SubvaultRequest {
    tags: Vec<(String, u32)>,
    x: usize,
    y: usize,
    mask: Grid,
}

fn subvault_request(parent: &Build, text: &str) -> Result<Option<SubvaultRequest>, String> {
    let overlay = levkit_model::dcss::spec::subvault(text).map_err(|e| e.message)?;
    let cells = parent.grid.positions(overlay.keys.as_bytes());
    if cells.is_empty() {
        return Ok(None);
    }
    let w = parent.grid.width;
    let (mut x1, mut y1, mut x2, mut y2) = (usize::MAX, usize::MAX, 0, 0);
    for &at in &cells {
        let (x, y) = (at % w, at / w);
        x1 = x1.min(x);
        y1 = y1.min(y);
        x2 = x2.max(x);
        y2 = y2.max(y);
    }
    let rows: Vec<Vec<u8>> = (y1..=y2)
        .map(|y| {
            (x1..=x2)
                .map(|x| {
                    if cells.contains(&(y * w + x)) {
                        b'.'
                    } else {
                        b' '
                    }
                })
                .collect()
        })
        .collect();
    Ok(Some(SubvaultRequest {
        tags: overlay
            .options
            .iter()
            .map(|o| (o.value.clone(), o.weight))
            .collect(),
        x: x1,
        y: y1,
        mask: Grid::from_rows(&rows),
    }))
}

fn resolve_subvault(
    sandbox: Option<&Sandbox>,
    library: &dyn Library,
    parent: &mut Build,
    request: &SubvaultRequest,
    rng: &mut Rng,
) -> Result<Build, String> {
    if parent.depth >= SUBVAULT_DEPTH {
        return Err(format!(
            "subvaults nested more than {SUBVAULT_DEPTH} deep (a cycle?)"
        ));
    }
    let Some(pick) = rng.weighted(request.tags.iter().map(|t| u64::from(t.1))) else {
        return Err("no tag to choose a subvault by".into());
    };
    let tag = &request.tags[pick].0;
    let candidates = library.tagged(tag);
    if candidates.is_empty() {
        return Err(format!("No vault found for tag '{tag}'"));
    }
    let (w, h) = (request.mask.width, request.mask.height);
    // A vault without Lua has the size of its rows: one that cannot fit, turned or not, is
    // not tried.
    let fits = |p: &Program| {
        if p.has_lua {
            return true;
        }
        let pw = p.rows.iter().map(|(r, _)| r.len()).max().unwrap_or(0);
        let ph = p.rows.len();
        pw > 0 && ((pw <= w && ph <= h) || (ph <= w && pw <= h))
    };
    let candidates: Vec<_> = candidates.into_iter().filter(|(p, _)| fits(p)).collect();
    for _ in 0..100 {
        let left = parent.subvault_tries.get();
        if left == 0 {
            return Err(format!(
                "levkit stopped resolving subvaults after {} tries for this placement",
                build::SUBVAULT_TRIES
            ));
        }
        parent.subvault_tries.set(left - 1);
        let Some(i) = rng.weighted(candidates.iter().map(|(p, _)| u64::from(p.weight.max(1))))
        else {
            break;
        };
        let (program, file) = &candidates[i];
        if let Some(sandbox) = sandbox {
            sandbox.load_file(file);
        }
        let placement = Placement::Subvault {
            mask: request.mask.clone(),
            depth: parent.depth + 1,
            tries: parent.subvault_tries.clone(),
        };
        let needs_lua = program.has_lua || program.calls.iter().any(|c| c.function == "subvault");
        if needs_lua && sandbox.is_none() {
            continue;
        }
        let (outcome, mut child) = resolve_program(
            sandbox.filter(|_| needs_lua),
            library,
            program,
            &parent.situation,
            rng.clone(),
            parent.trace.is_some(),
            placement,
            0,
        );
        *rng = child.rng.clone();
        match &outcome.failure {
            // The limits stopped it: another try would be stopped too.
            Some(failure) if failure.stopped => return Err(failure.message.clone()),
            Some(_) => continue,
            None => {}
        }
        // Mirrored and turned at random, then turned once more if that makes it fit.
        child.orient_randomly();
        *rng = child.rng.clone();
        if child.grid.width > w || child.grid.height > h {
            if !child.has_tag("no_rotate") && child.grid.height <= w && child.grid.width <= h {
                child.grid.rotate(true);
            } else {
                continue;
            }
        }
        return Ok(child);
    }
    Err(format!("Could not fit a vault tagged '{tag}' in {w}x{h}"))
}

fn merge_subvault(
    parent: &mut Build,
    request: &SubvaultRequest,
    child: Result<Build, String>,
    by: u32,
    text: &str,
) {
    let child = match child {
        Ok(child) => child,
        Err(message) => {
            parent.note(
                format!("SUBVAULT: {text}: {message}; the space keeps its glyphs"),
                by,
            );
            return;
        }
    };
    let (w, h) = (request.mask.width, request.mask.height);
    let dx = parent.rng.random2((w - child.grid.width) as i64 + 1) as usize;
    let dy = parent.rng.random2((h - child.grid.height) as i64 + 1) as usize;
    let index = parent.subvaults.len() as u32;
    for cy in 0..child.grid.height {
        for cx in 0..child.grid.width {
            let cell = *child.grid.at(cx, cy);
            let (mx, my) = (dx + cx, dy + cy);
            if cell.glyph == b' ' || request.mask.at(mx, my).glyph == b' ' {
                continue;
            }
            let target = parent.grid.at_mut(request.x + mx, request.y + my);
            target.glyph = cell.glyph;
            target.sub = index;
            target.sub_at = (cy * child.grid.width + cx) as u32;
            target.by = by;
        }
    }
    parent.subvaults.push(build::Placed {
        build: Box::new(child),
        x: request.x + dx,
        y: request.y + dy,
        by,
    });
}

/// Lets the Lua `subvault()` call reach the engine.
fn install_subvault_hook(sandbox: &Rc<Sandbox>, library: Rc<dyn Library>) {
    let weak: Weak<Sandbox> = Rc::downgrade(sandbox);
    sandbox.set_subvault_hook(Rc::new(move |_lua, text, by| {
        let Some(sandbox) = weak.upgrade() else {
            return Ok(());
        };
        let request = sandbox
            .build_mut(|b| subvault_request(b, text))
            .unwrap_or(Ok(None))?;
        let Some(request) = request else {
            return Ok(());
        };
        // The parent leaves the stack's top only as data: the child runs above it.
        let parent = sandbox.build_mut(|b| b.clone());
        let Some(mut parent) = parent else {
            return Ok(());
        };
        let mut rng = parent.rng.clone();
        let child = resolve_subvault(Some(&sandbox), &*library, &mut parent, &request, &mut rng);
        sandbox.build_mut(|b| {
            b.rng = rng;
            merge_subvault(b, &request, child, by, text);
        });
        Ok(())
    }));
}
