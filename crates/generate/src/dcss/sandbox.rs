//! The Lua 5.1 state a vault's chunks run in: crawl's API as levkit models it (`api.lua`, in
//! levkit's own words, over the primitives below), and nothing that reaches outside: no `io`,
//! `os`, `package`/`require`, `debug`, `load`/`loadstring`/`dofile`/`loadfile`,
//! `string.dump`, `setfenv`/`getfenv`, coroutines or `collectgarbage`. Every run has a
//! budget: an instruction count and a time limit (checked every thousand instructions, so a
//! loop stops within milliseconds of either) and a memory limit; a
//! `pcall` cannot swallow the stop. Lua patterns, which run in C without instruction
//! counts, are refused when their cost could explode.
//!
//! One state serves many runs (the seeds of a preview): each run of a vault gets a fresh
//! environment table, as crawl gives each map its own; the files' own Lua runs once per state,
//! in the shared globals, as crawl runs it once at load.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use levkit_syntax::dcss::Chunk;
use mlua::{Function, HookTriggers, Lua, LuaOptions, StdLib, Table, Value, VmState};

use super::build::Build;
use super::grid::{Grid, NONE};
use super::program::{FileLua, Program};

/// The instructions one resolution may run (the corpus's busiest vault needs a fraction).
pub const INSTRUCTION_LIMIT: u64 = 50_000_000;
/// The time one resolution may take, on the clock of the thread that runs it: a busy machine
/// (a test suite beside a build) then slows a vault down without stopping it, while on an idle
/// one the limit is the wall-clock time a user waits.
pub const TIME_LIMIT: Duration = Duration::from_millis(80);
/// The memory a state may hold.
pub const MEMORY_LIMIT: usize = 48 << 20;

/// What the sandbox can ask of the workspace: the Lua of the files that define a name, and
/// the vaults of a tag (for SUBVAULT).
pub trait Library {
    /// File-level Lua of other files that mentions `name` (crawl loads every file's Lua into
    /// one state, so a vault may call a function another file defines).
    fn definitions(&self, name: &str) -> Vec<Arc<FileLua>>;
    /// The vaults carrying `tag`, with their files' Lua.
    fn tagged(&self, tag: &str) -> Vec<(Arc<Program>, Arc<FileLua>)>;
}

/// A library with nothing in it.
pub struct NoLibrary;

impl Library for NoLibrary {
    fn definitions(&self, _name: &str) -> Vec<Arc<FileLua>> {
        Vec::new()
    }
    fn tagged(&self, _tag: &str) -> Vec<(Arc<Program>, Arc<FileLua>)> {
        Vec::new()
    }
}

/// The run in progress: the builds (a subvault's on top of its parent's) and the budget.
#[derive(Default)]
struct Runs {
    builds: Vec<(Build, u64)>,
    /// The thread's CPU clock when the run started.
    started: Option<Duration>,
    instructions: u64,
    /// Why the run was stopped, once it was.
    stopped: Option<String>,
}

type Shared = Rc<RefCell<Runs>>;

pub struct Sandbox {
    lua: Lua,
    runs: Shared,
    /// The compiled chunks, by program.
    chunks: RefCell<HashMap<(u64, Chunk), Function>>,
    programs: RefCell<HashMap<*const Program, u64>>,
    /// Keeps the programs above alive, so that their addresses stay theirs.
    keep: RefCell<Vec<Arc<Program>>>,
    link: Rc<Link>,
}

/// A chunk's error, with the statement it points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LuaFailure {
    pub message: String,
    /// The statement ([`Program::sites`]) of the line Lua named, or [`NONE`].
    pub by: u32,
    /// Whether levkit's limits stopped it (rather than an error of the vault's own).
    pub stopped: bool,
}

const API: &str = include_str!("api.lua");

fn runtime(message: impl Into<String>) -> mlua::Error {
    mlua::Error::RuntimeError(message.into())
}

impl Sandbox {
    pub fn new(library: Rc<dyn Library>) -> Result<Sandbox, String> {
        let lua = Lua::new_with(
            StdLib::TABLE | StdLib::STRING | StdLib::MATH,
            LuaOptions::default(),
        )
        .map_err(|e| e.to_string())?;
        let runs: Shared = Rc::default();
        let link = Rc::new(Link {
            library,
            files: RefCell::default(),
            keep: RefCell::default(),
        });
        lua.set_app_data(SandboxLink(link.clone()));
        lua.set_app_data(RunsLink(runs.clone()));
        let sandbox = Sandbox {
            lua,
            runs,
            chunks: RefCell::default(),
            programs: RefCell::default(),
            keep: RefCell::default(),
            link,
        };
        sandbox.install().map_err(|e| e.to_string())?;
        Ok(sandbox)
    }

    fn install(&self) -> mlua::Result<()> {
        let lua = &self.lua;
        let globals = lua.globals();
        let native = lua.create_table()?;
        self.primitives(&native)?;
        globals.raw_set("__levkit", native)?;
        let unmodelled = lua.create_table()?;
        for entry in super::api::API.iter().filter(|e| !e.modelled()) {
            unmodelled.raw_set(entry.name, true)?;
        }
        globals.raw_set("__levkit_unmodelled", unmodelled)?;
        lua.load(API).set_name("=levkit-api").exec()?;
        for name in [
            "io",
            "os",
            "package",
            "require",
            "module",
            "debug",
            "load",
            "loadstring",
            "loadfile",
            "dofile",
            "setfenv",
            "getfenv",
            "coroutine",
            "newproxy",
            "gcinfo",
            "collectgarbage",
        ] {
            globals.raw_set(name, Value::Nil)?;
        }
        let string: Table = globals.raw_get("string")?;
        string.raw_set("dump", Value::Nil)?;
        // string.rep builds its result in C, where the instruction hook never runs: a huge
        // one is refused before it starts.
        lua.load(format!(
            "local rep = string.rep
             string.rep = function(s, n)
               if type(n) == 'number' and n > 0 and #tostring(s) * n > {limit} then
                 error(\"levkit stopped the vault's Lua: string.rep would use more than {mib} MiB (its memory limit)\", 2)
               end
               return rep(s, n)
             end",
            limit = MEMORY_LIMIT,
            mib = MEMORY_LIMIT >> 20
        ))
        .set_name("=levkit")
        .exec()?;
        lua.set_memory_limit(MEMORY_LIMIT)?;
        let runs = self.runs.clone();
        lua.set_hook(
            HookTriggers::new().every_nth_instruction(1000),
            move |_, _| {
                let mut runs = runs.borrow_mut();
                runs.instructions += 1000;
                if runs.stopped.is_none() {
                    let late = runs
                        .started
                        .is_some_and(|s| thread_time().saturating_sub(s) > TIME_LIMIT);
                    if runs.instructions > INSTRUCTION_LIMIT {
                        runs.stopped = Some(format!(
                            "levkit stopped the vault's Lua after {} million instructions (its limit)",
                            INSTRUCTION_LIMIT / 1_000_000
                        ));
                    } else if late {
                        runs.stopped = Some(format!(
                            "levkit stopped the vault's Lua after {} ms (its time limit)",
                            TIME_LIMIT.as_millis()
                        ));
                    }
                }
                match &runs.stopped {
                    Some(why) => Err(runtime(why.clone())),
                    None => Ok(VmState::Continue),
                }
            },
        )?;
        Ok(())
    }

    /// The functions `api.lua` builds crawl's API on.
    fn primitives(&self, native: &Table) -> mlua::Result<()> {
        let lua = &self.lua;
        let runs = self.runs.clone();

        // header(function, text): a header function on the current build.
        let r = runs.clone();
        native.set(
            "header",
            lua.create_function(move |lua, (function, text): (String, String)| {
                let by = current_site(lua, &r);
                let mut runs = r.borrow_mut();
                let Some((build, _)) = runs.builds.last_mut() else {
                    return Err(runtime("no vault is being resolved"));
                };
                build.apply(&function, &text, by).map_err(runtime)
            })?,
        )?;

        let r = runs.clone();
        native.set(
            "rows",
            lua.create_function(move |lua, ()| {
                let runs = r.borrow();
                let rows = match runs.builds.last() {
                    Some((build, _)) if build.padded => build.grid.rows(),
                    Some((build, _)) => build
                        .rows
                        .iter()
                        .map(|(row, _)| String::from_utf8_lossy(row).into_owned())
                        .collect(),
                    None => Vec::new(),
                };
                lua.create_sequence_from(rows)
            })?,
        )?;

        let r = runs.clone();
        native.set(
            "size",
            lua.create_function(move |_, ()| {
                let runs = r.borrow();
                Ok(runs.builds.last().map_or((0, 0), |(b, _)| {
                    if b.padded {
                        (b.grid.width, b.grid.height)
                    } else {
                        (
                            b.rows.iter().map(|(r, _)| r.len()).max().unwrap_or(0),
                            b.rows.len(),
                        )
                    }
                }))
            })?,
        )?;

        let r = runs.clone();
        native.set(
            "glyph",
            lua.create_function(move |_, (x, y): (i64, i64)| {
                let runs = r.borrow();
                let Some((build, _)) = runs.builds.last() else {
                    return Ok(None);
                };
                Ok(build
                    .grid
                    .get(x, y)
                    .map(|c| String::from_utf8_lossy(&[c.glyph]).into_owned()))
            })?,
        )?;

        let r = runs.clone();
        native.set(
            "set_glyph",
            lua.create_function(move |lua, (x, y, glyph): (i64, i64, String)| {
                let by = current_site(lua, &r);
                let mut runs = r.borrow_mut();
                let Some((build, _)) = runs.builds.last_mut() else {
                    return Ok(());
                };
                let Some(&g) = glyph.as_bytes().first() else {
                    return Ok(());
                };
                if x >= 0
                    && y >= 0
                    && (x as usize) < build.grid.width
                    && (y as usize) < build.grid.height
                {
                    let cell = build.grid.at_mut(x as usize, y as usize);
                    if cell.sub == NONE && cell.glyph != g {
                        cell.glyph = g;
                        cell.by = by;
                    }
                }
                Ok(())
            })?,
        )?;

        // set_rows(rows): the whole map replaced (extend_map and friends); cells keep their
        // source where their glyph stays.
        let r = runs.clone();
        native.set(
            "set_rows",
            lua.create_function(move |lua, rows: Vec<String>| {
                let by = current_site(lua, &r);
                let mut runs = r.borrow_mut();
                let Some((build, _)) = runs.builds.last_mut() else {
                    return Ok(());
                };
                let old = std::mem::take(&mut build.grid);
                let bytes: Vec<Vec<u8>> = rows.iter().map(|r| r.as_bytes().to_vec()).collect();
                let mut grid = Grid::from_rows(&bytes);
                for y in 0..grid.height {
                    for x in 0..grid.width {
                        let cell = grid.at_mut(x, y);
                        match old.get(x as i64, y as i64) {
                            Some(previous) if previous.glyph == cell.glyph => *cell = *previous,
                            Some(previous) => {
                                cell.origin = previous.origin;
                                cell.overlay = previous.overlay;
                                cell.by = by;
                            }
                            None => {
                                cell.origin = NONE;
                                cell.by = by;
                            }
                        }
                    }
                }
                build.grid = grid;
                build.padded = true;
                Ok(())
            })?,
        )?;

        let r = runs.clone();
        native.set(
            "random",
            lua.create_function(move |_, (what, a, b): (String, Option<f64>, Option<f64>)| {
                let mut runs = r.borrow_mut();
                let Some((build, _)) = runs.builds.last_mut() else {
                    return Ok(Value::Nil);
                };
                let rng = &mut build.rng;
                let a = a.unwrap_or(0.0);
                let b = b.unwrap_or(0.0);
                Ok(match what.as_str() {
                    "random2" => Value::Integer(rng.random2(a as i64) as _),
                    "range" => Value::Integer(rng.range(a as i64, b as i64) as _),
                    "coinflip" => Value::Boolean(rng.coinflip()),
                    "one_chance_in" => Value::Boolean(rng.one_chance_in(a as i64)),
                    "x_chance_in_y" => Value::Boolean(rng.x_chance_in_y(a as i64, b as i64)),
                    "real" => Value::Number(rng.real()),
                    "roll_dice" => Value::Integer(rng.roll_dice(a as i64, b as i64) as _),
                    "random2avg" => Value::Integer(rng.random2avg(a as i64, b as i64) as _),
                    "div_rand_round" => Value::Integer(rng.div_rand_round(a as i64, b as i64) as _),
                    _ => Value::Nil,
                })
            })?,
        )?;

        // The vault's facts: tags, orientation, name, whether it is a subvault and its space.
        let r = runs.clone();
        native.set(
            "facts",
            lua.create_function(move |lua, ()| {
                let runs = r.borrow();
                let t = lua.create_table()?;
                if let Some((build, _)) = runs.builds.last() {
                    t.set("name", build.program.name.clone())?;
                    t.set("tags", build.tags.join(" "))?;
                    t.set("orient", build.orient.clone().unwrap_or_default())?;
                    t.set("subvault", build.subvault_size.is_some())?;
                    let (w, h) = build.subvault_size.unwrap_or((0, 0));
                    t.set("subvault_width", w)?;
                    t.set("subvault_height", h)?;
                    let s = &build.situation;
                    t.set("branch", s.branch.clone())?;
                    t.set("depth", s.depth)?;
                    t.set("absdepth", s.absdepth())?;
                    t.set(
                        "branch_depth",
                        super::situation::Situation::branch_depth(&s.branch),
                    )?;
                    t.set("god", s.god.clone())?;
                    t.set("species", s.species.clone())?;
                    t.set("place", s.place())?;
                }
                Ok(t)
            })?,
        )?;

        native.set(
            "branch_depth",
            lua.create_function(|_, branch: String| {
                Ok(super::situation::Situation::branch_depth(&branch))
            })?,
        )?;

        let r = runs.clone();
        native.set(
            "subvault_cell",
            lua.create_function(move |_, (x, y): (i64, i64)| {
                let runs = r.borrow();
                Ok(runs
                    .builds
                    .last()
                    .and_then(|(b, _)| b.subvault_mask.as_ref())
                    .and_then(|m| m.get(x, y))
                    .is_some_and(|c| c.glyph != b' '))
            })?,
        )?;

        let r = runs.clone();
        native.set(
            "unmodelled",
            lua.create_function(move |lua, name: String| {
                let by = current_site(lua, &r);
                if let Some((build, _)) = r.borrow_mut().builds.last_mut() {
                    build.unmodelled(&name, by);
                }
                Ok(())
            })?,
        )?;

        let r = runs.clone();
        native.set(
            "note",
            lua.create_function(move |lua, text: String| {
                let by = current_site(lua, &r);
                if let Some((build, _)) = r.borrow_mut().builds.last_mut() {
                    build.note(text, by);
                }
                Ok(())
            })?,
        )?;

        let r = runs.clone();
        native.set(
            "print",
            lua.create_function(move |_, text: String| {
                if let Some((build, _)) = r.borrow_mut().builds.last_mut()
                    && build.printed.len() < 1000
                {
                    build.printed.push(text);
                }
                Ok(())
            })?,
        )?;

        let r = runs.clone();
        native.set(
            "set_feature_name",
            lua.create_function(move |_, (feature, name): (String, String)| {
                if let Some((build, _)) = r.borrow_mut().builds.last_mut() {
                    build.feature_names.insert(feature, name);
                }
                Ok(())
            })?,
        )?;

        let r = runs.clone();
        native.set(
            "marker",
            lua.create_function(move |lua, (key, what): (String, String)| {
                let by = current_site(lua, &r);
                if let Some((build, _)) = r.borrow_mut().builds.last_mut() {
                    for glyph in key.bytes() {
                        build.markers.push(super::build::Marker {
                            glyph: Some(glyph),
                            what: what.clone(),
                            by,
                        });
                    }
                }
                Ok(())
            })?,
        )?;

        let r = runs.clone();
        native.set(
            "stopped",
            lua.create_function(move |_, ()| Ok(r.borrow().stopped.clone()))?,
        )?;

        // definitions(name): runs the Lua of the workspace files that define `name`; whether
        // any did.
        native.set(
            "definitions",
            lua.create_function(|lua, name: String| {
                let link = lua.app_data_ref::<SandboxLink>().map(|l| l.0.clone());
                let Some(link) = link else { return Ok(false) };
                let files = link.library.definitions(&name);
                let mut ran = false;
                for file in files {
                    let key = Arc::as_ptr(&file);
                    if !link.files.borrow_mut().insert(key) {
                        continue;
                    }
                    link.keep.borrow_mut().push(file.clone());
                    for (text, _) in &file.pieces {
                        // A file whose Lua fails is left as crawl would have failed to load it.
                        let _ = lua.load(text.as_str()).set_name("=file").exec();
                    }
                    ran = true;
                }
                Ok(ran)
            })?,
        )?;

        // map_by_tag(tag, check_depth): the name of the vault crawl's search by tag picks
        // here (every word of `tag` among its tags, its DEPTH allowing the place when asked,
        // by weight; one tagged `dummy` stands for none), or nil.
        let r = runs.clone();
        native.set(
            "map_by_tag",
            lua.create_function(move |lua, (tag, check_depth): (String, bool)| {
                let link = lua.app_data_ref::<SandboxLink>().map(|l| l.0.clone());
                let Some(link) = link else { return Ok(None) };
                let words: Vec<&str> = tag.split_whitespace().collect();
                let Some(first) = words.first() else {
                    return Ok(None);
                };
                let candidates = link.library.tagged(first);
                let mut runs = r.borrow_mut();
                let Some((build, _)) = runs.builds.last_mut() else {
                    return Ok(None);
                };
                let eligible: Vec<&Program> = candidates
                    .iter()
                    .map(|(p, _)| &**p)
                    .filter(|p| p.weight > 0)
                    .filter(|p| words.iter().all(|w| p.tags.iter().any(|t| t == w)))
                    .filter(|p| {
                        !check_depth
                            || p.depth
                                .as_deref()
                                .is_none_or(|d| build.situation.is_within(d))
                    })
                    .collect();
                let pick = build
                    .rng
                    .weighted(eligible.iter().map(|p| u64::from(p.weight)));
                Ok(pick
                    .map(|i| eligible[i])
                    .filter(|p| !p.tags.iter().any(|t| t == "dummy"))
                    .map(|p| p.name.clone()))
            })?,
        )?;

        // subvault(text): SUBVAULT's resolution, done by the engine.
        native.set(
            "subvault",
            lua.create_function(|lua, text: String| {
                let resolver = lua.app_data_ref::<SubvaultHook>().map(|h| h.0.clone());
                let Some(resolver) = resolver else {
                    return Err(runtime("subvaults cannot be placed here"));
                };
                let by = {
                    let runs = lua.app_data_ref::<RunsLink>().map(|l| l.0.clone());
                    runs.map_or(NONE, |r| current_site(lua, &r))
                };
                (resolver)(lua, &text, by).map_err(runtime)
            })?,
        )?;
        Ok(())
    }

    /// Runs `file`'s Lua in the shared globals, once per state.
    pub fn load_file(&self, file: &Arc<FileLua>) {
        let key = Arc::as_ptr(file);
        if !self.link.files.borrow_mut().insert(key) {
            return;
        }
        self.link.keep.borrow_mut().push(file.clone());
        let outermost = self.runs.borrow().builds.is_empty();
        if outermost {
            self.reset_budget();
        }
        for (text, _) in &file.pieces {
            let _ = self.lua.load(text.as_str()).set_name("=file").exec();
        }
        if outermost {
            self.runs.borrow_mut().started = None;
        }
    }

    fn reset_budget(&self) {
        let mut runs = self.runs.borrow_mut();
        runs.started = Some(thread_time());
        runs.instructions = 0;
        runs.stopped = None;
    }

    fn program_id(&self, program: &Arc<Program>) -> u64 {
        let mut programs = self.programs.borrow_mut();
        let next = programs.len() as u64;
        let ptr = Arc::as_ptr(program);
        *programs.entry(ptr).or_insert_with(|| {
            self.keep.borrow_mut().push(program.clone());
            next
        })
    }

    fn compiled(
        &self,
        program: &Arc<Program>,
        chunk: Chunk,
    ) -> Result<Option<Function>, LuaFailure> {
        let id = self.program_id(program);
        if let Some(f) = self.chunks.borrow().get(&(id, chunk)) {
            return Ok(Some(f.clone()));
        }
        let Some(text) = program.chunk(chunk) else {
            return Ok(None);
        };
        let name = chunk_name(id, chunk);
        match self
            .lua
            .load(text.text.as_str())
            .set_name(name)
            .into_function()
        {
            Ok(f) => {
                self.chunks.borrow_mut().insert((id, chunk), f.clone());
                Ok(Some(f))
            }
            Err(error) => Err(self.failure(program, error)),
        }
    }

    /// Makes `build` the current one while `f` runs. Each build has a budget of its own: a
    /// subvault's run pauses its parent's clock and count, so that a parent made of many
    /// subvaults is not stopped for their work, while any one chunk still stops within the
    /// limits.
    pub(crate) fn with_build<T>(&self, build: Build, f: impl FnOnce(&Sandbox) -> T) -> (Build, T) {
        let id = self.program_id(&build.program);
        let parent = {
            let runs = self.runs.borrow();
            (runs.started, runs.instructions)
        };
        self.reset_budget();
        let entered = thread_time();
        self.runs.borrow_mut().builds.push((build, id));
        let value = f(self);
        let mut runs = self.runs.borrow_mut();
        let (build, _) = runs.builds.pop().expect("the build pushed above");
        // The parent's budget again, as it was when the subvault started.
        runs.started = parent.0.map(|s| s + thread_time().saturating_sub(entered));
        runs.instructions = parent.1;
        runs.stopped = None;
        drop(runs);
        (build, value)
    }

    /// A fresh environment for a run of the current vault (crawl gives each map its own).
    pub fn new_environment(&self) -> Result<Table, String> {
        let make: Function = self
            .lua
            .globals()
            .raw_get("__levkit_environment")
            .map_err(|e| e.to_string())?;
        make.call::<Table>(()).map_err(|e| e.to_string())
    }

    /// Runs one chunk of the current build's program in `env`; its result (for `validate`
    /// and `veto`).
    pub fn run_chunk(&self, chunk: Chunk, env: &Table) -> Result<Option<Value>, LuaFailure> {
        let program = {
            let runs = self.runs.borrow();
            runs.builds.last().map(|(b, _)| b.program.clone())
        };
        let Some(program) = program else {
            return Ok(None);
        };
        let Some(function) = self.compiled(&program, chunk)? else {
            return Ok(None);
        };
        let _ = function.set_environment(env.clone());
        self.enter(env);
        let result = function.call::<Value>(());
        self.leave();
        match result {
            Ok(value) => Ok(Some(value)),
            Err(error) => Err(self.failure(&program, error)),
        }
    }

    /// Calls the hooks a vault registered for `when` (`pre_main`, `post_main`, `post_place`...).
    pub fn run_hooks(&self, env: &Table, when: &str) -> Result<(), LuaFailure> {
        let program = {
            let runs = self.runs.borrow();
            runs.builds.last().map(|(b, _)| b.program.clone())
        };
        let Some(program) = program else {
            return Ok(());
        };
        let run: Function = match self.lua.globals().raw_get("__levkit_run_hooks") {
            Ok(f) => f,
            Err(_) => return Ok(()),
        };
        self.enter(env);
        let result = run.call::<()>((env.clone(), when));
        self.leave();
        result.map_err(|e| self.failure(&program, e))
    }

    fn enter(&self, env: &Table) {
        if let Ok(f) = self.lua.globals().raw_get::<Function>("__levkit_enter") {
            let _ = f.call::<()>(env.clone());
        }
    }

    fn leave(&self) {
        if let Ok(f) = self.lua.globals().raw_get::<Function>("__levkit_leave") {
            let _ = f.call::<()>(());
        }
    }

    /// A Lua error as crawl words it, at the statement of the line it names.
    fn failure(&self, program: &Program, error: mlua::Error) -> LuaFailure {
        let stopped = self.runs.borrow().stopped.clone();
        if let Some(why) = stopped {
            return LuaFailure {
                message: why,
                by: NONE,
                stopped: true,
            };
        }
        let mut message = match &error {
            mlua::Error::SyntaxError { message, .. } => message.clone(),
            mlua::Error::RuntimeError(message) => message.clone(),
            mlua::Error::MemoryError(_) => {
                return LuaFailure {
                    message: format!(
                        "levkit stopped the vault's Lua: it used more than {} MiB (its memory limit)",
                        MEMORY_LIMIT >> 20
                    ),
                    by: NONE,
                    stopped: true,
                };
            }
            mlua::Error::CallbackError { cause, .. } => {
                let mut cause = cause.as_ref();
                while let mlua::Error::CallbackError { cause: inner, .. } = cause {
                    cause = inner.as_ref();
                }
                match cause {
                    mlua::Error::RuntimeError(m) => m.clone(),
                    other => other.to_string(),
                }
            }
            other => other.to_string(),
        };
        // Messages carry the chunk's name and line: `main#3:12: ...`.
        let mut by = NONE;
        if let Some((place, rest)) = message.split_once(": ")
            && let Some((name, line)) = place.rsplit_once(':')
            && let Ok(line) = line.parse::<u32>()
            && let Some((chunk, _)) = name.split_once('#')
            && let Some(chunk) = Chunk::ALL.into_iter().find(|c| c.name() == chunk)
            && let Some(lua_chunk) = program.chunk(chunk)
        {
            let source_line = lua_chunk.first + line.saturating_sub(1);
            by = program.site_at(chunk, source_line).unwrap_or(NONE);
            message = rest.to_string();
        }
        // mlua adds a traceback to errors from callbacks.
        if let Some(at) = message.find("\nstack traceback:") {
            message.truncate(at);
        }
        LuaFailure {
            message,
            by,
            stopped: false,
        }
    }

    pub fn lua(&self) -> &Lua {
        &self.lua
    }

    pub(crate) fn set_subvault_hook(&self, hook: SubvaultFn) {
        self.lua.set_app_data(SubvaultHook(hook));
    }

    /// Whether the limits stopped the last run, and why.
    pub fn stopped(&self) -> Option<String> {
        self.runs.borrow().stopped.clone()
    }

    /// The instructions counted so far in this run (in thousands, as the hook counts).
    pub fn instructions(&self) -> u64 {
        self.runs.borrow().instructions
    }

    /// The current build (while [`Sandbox::with_build`] runs).
    pub(crate) fn build_mut<T>(&self, f: impl FnOnce(&mut Build) -> T) -> Option<T> {
        self.runs.borrow_mut().builds.last_mut().map(|(b, _)| f(b))
    }
}

/// What callbacks need of the sandbox: the library, and which files have run.
pub(crate) struct Link {
    pub library: Rc<dyn Library>,
    pub files: RefCell<HashSet<*const FileLua>>,
    pub keep: RefCell<Vec<Arc<FileLua>>>,
}

struct SandboxLink(Rc<Link>);
struct RunsLink(Shared);

pub(crate) type SubvaultFn = Rc<dyn Fn(&Lua, &str, u32) -> Result<(), String>>;
struct SubvaultHook(SubvaultFn);

fn chunk_name(id: u64, chunk: Chunk) -> String {
    format!("={}#{id}", chunk.name())
}

/// The statement the Lua being run is at: the innermost frame in the current vault's chunks.
fn current_site(lua: &Lua, runs: &Shared) -> u32 {
    let (program, id) = {
        let runs = runs.borrow();
        match runs.builds.last() {
            Some((b, id)) => (b.program.clone(), *id),
            None => return NONE,
        }
    };
    // The chunks' names, made once: this runs on every change a vault's Lua makes.
    let names: Vec<(Chunk, String)> = Chunk::ALL
        .into_iter()
        .map(|c| (c, chunk_name(id, c)))
        .collect();
    // Some(None): a frame of another chunk or file; None: no frame at that level.
    let chunk_at = |level: usize| {
        lua.inspect_stack(level, |debug| {
            let source = debug.source();
            let name = source.source.as_deref().unwrap_or("");
            names
                .iter()
                .find(|(_, n)| n == name)
                .map(|(c, _)| (*c, debug.current_line()))
        })
    };
    let site = |chunk: Chunk, line: Option<usize>| {
        let Some(lua_chunk) = program.chunk(chunk) else {
            return NONE;
        };
        let line = lua_chunk.first + line.unwrap_or(1).saturating_sub(1) as u32;
        program.site_at(chunk, line).unwrap_or(NONE)
    };
    // The innermost frame of the vault's chunks, near the top of the stack...
    const NEAR: usize = 64;
    for level in 1..NEAR {
        match chunk_at(level) {
            None => return NONE,
            Some(None) => continue,
            Some(Some((chunk, line))) => return site(chunk, line),
        }
    }
    // ...or, under deep recursion (a maze digger), from the bottom of the stack up: its depth
    // found by halving, so that a change costs a few look-ups, not one per frame.
    let (mut deep, mut shallow) = (NEAR, NEAR * 2);
    while chunk_at(shallow).is_some() {
        deep = shallow;
        shallow *= 2;
        if shallow > 1 << 20 {
            return NONE;
        }
    }
    while shallow - deep > 1 {
        let middle = (deep + shallow) / 2;
        if chunk_at(middle).is_some() {
            deep = middle;
        } else {
            shallow = middle;
        }
    }
    for level in (NEAR..=deep).rev() {
        if let Some(Some((chunk, line))) = chunk_at(level) {
            return site(chunk, line);
        }
    }
    NONE
}

/// The CPU time the calling thread has used, where the system tells it; elsewhere the time
/// since the thread first asked.
#[cfg(unix)]
pub fn thread_time() -> Duration {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid timespec to write into; the clock id is a constant.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    if status != 0 {
        return wall_time();
    }
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

#[cfg(not(unix))]
pub fn thread_time() -> Duration {
    wall_time()
}

fn wall_time() -> Duration {
    use std::time::Instant;
    thread_local! {
        static FIRST: Instant = Instant::now();
    }
    FIRST.with(|first| first.elapsed())
}
