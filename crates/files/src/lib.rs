//! Finding and reading level files on disk, the one place the edges (the CLI and the language
//! server) touch the file system for the analysis. Reading is defensive: only regular files
//! are opened (a FIFO would block forever, `/dev/zero` would never end), files above a size
//! no level file reaches are skipped, and a `.txt` found while walking (a name shared with any
//! text) is sniffed from its first bytes before it is read whole.

use std::io::{Read, Seek};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use levkit_syntax::Dialect;

/// No level file comes near this: the largest in any corpus is under 300 KB.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// About how many bytes the analysis holds per byte of a file's text (measured: 25 MB for a
/// 1.5 MB NetHack file, 55 MB for a 3.4 MB DCSS file), so that a named file whose analysis
/// cannot fit in the machine's memory is refused rather than read until the system kills
/// the process.
const ANALYSIS_BYTES_PER_BYTE: u64 = 16;

/// How much of a found `.txt` file is read to decide whether it is a description file.
const SNIFF_BYTES: u64 = 4096;

/// Why a file was not read.
#[derive(Debug)]
pub enum Skip {
    /// Not a regular file: a FIFO, a device, a socket, a directory.
    NotRegular,
    /// Larger than [`MAX_FILE_BYTES`].
    TooLarge(u64),
    /// A named file whose analysis would need more than the machine's memory (`memory`, in
    /// bytes).
    TooLargeForMemory { size: u64, memory: u64 },
    /// A `.txt` file found while walking whose content is not a level description.
    NotLevelText,
    /// The file system refused.
    Io(std::io::Error),
}

impl Skip {
    /// Whether the user should hear of it (a `.txt` that is not ours is none of their
    /// concern).
    pub fn is_worth_saying(&self) -> bool {
        !matches!(self, Skip::NotLevelText)
    }
}

impl std::fmt::Display for Skip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Skip::NotRegular => f.write_str(
                "it is not a regular file (a FIFO, a device or a socket), which levkit does not read",
            ),
            Skip::TooLarge(size) => write!(
                f,
                "it is {} MB, larger than any level file ({} MB at most); levkit does not read it",
                size >> 20,
                MAX_FILE_BYTES >> 20
            ),
            Skip::TooLargeForMemory { size, memory } => write!(
                f,
                "it is {} MB, and analysing it would take about {ANALYSIS_BYTES_PER_BYTE} times that in memory, more than this machine's {} MB; levkit does not read it",
                size >> 20,
                memory >> 20
            ),
            Skip::NotLevelText => f.write_str("it is not a level description"),
            Skip::Io(error) => write!(f, "{error}"),
        }
    }
}

/// Reads a file the user named: any regular file, whatever its name, whose analysis fits in
/// the machine's memory.
pub fn read_named(path: &Path) -> Result<Arc<[u8]>, Skip> {
    let size = regular(path)?;
    // Where the system does not say, any size is read.
    let memory = physical_memory().unwrap_or(u64::MAX);
    let cap = memory / ANALYSIS_BYTES_PER_BYTE;
    let too_large = |size| Skip::TooLargeForMemory { size, memory };
    if size > cap {
        return Err(too_large(size));
    }
    let file = std::fs::File::open(path).map_err(Skip::Io)?;
    let bytes = read_sized(file, size, cap).map_err(Skip::Io)?;
    // The cap holds even if the file grew while it was read.
    if bytes.len() as u64 > cap {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

/// The machine's physical memory in bytes, where the system says (asked once: a command may
/// read hundreds of named files).
fn physical_memory() -> Option<u64> {
    static MEMORY: std::sync::OnceLock<Option<u64>> = std::sync::OnceLock::new();
    *MEMORY.get_or_init(ask_physical_memory)
}

fn ask_physical_memory() -> Option<u64> {
    #[cfg(unix)]
    {
        // SAFETY: sysconf only reads system configuration.
        let (pages, page_size) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        let pages = u64::try_from(pages).ok()?;
        let page_size = u64::try_from(page_size).ok()?;
        pages.checked_mul(page_size).filter(|&m| m > 0)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Reads a file found while walking a folder (see [`walk`]): a regular file within the size
/// cap, and for a `.txt`, one whose first bytes say it is a description file (or, when the
/// user chose the dialect, one whose dialect reads `.txt` files).
pub fn read_found(path: &Path, chosen: Option<Dialect>) -> Result<Arc<[u8]>, Skip> {
    let size = regular(path)?;
    if size > MAX_FILE_BYTES {
        return Err(Skip::TooLarge(size));
    }
    let mut file = std::fs::File::open(path).map_err(Skip::Io)?;
    if is_sniffed(path) {
        let mut head = Vec::new();
        (&mut file)
            .take(SNIFF_BYTES)
            .read_to_end(&mut head)
            .map_err(Skip::Io)?;
        let (text, _) = levkit_syntax::decode(&head);
        let claimed = match chosen {
            Some(dialect) => dialect.claims_found_file(path),
            None => Dialect::detect_txt(path, &text).is_some(),
        };
        if !claimed {
            return Err(Skip::NotLevelText);
        }
        // The whole file goes into one buffer from its start.
        file.rewind().map_err(Skip::Io)?;
    }
    let bytes = read_sized(file, size, MAX_FILE_BYTES).map_err(Skip::Io)?;
    // The size cap holds even if the file grew while it was read.
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(Skip::TooLarge(bytes.len() as u64));
    }
    Ok(bytes)
}

/// Whether [`read_found`] looks at the first bytes of a file before reading it whole: a
/// `.txt`, a name that any kind of text may have.
pub fn is_sniffed(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("txt"))
}

/// Reads `file`, whose size was `size` when asked, straight into the shared buffer its text
/// will live in: a tree of sources is then copied once, from the kernel, rather than read into
/// one buffer and copied into another (each fresh page costs a fault; on a virtual machine a
/// few microseconds), and the buffer is not zeroed first (the DCSS corpus's 4.5 MB: 1% of a
/// check's instructions). A file that changed size meanwhile is read as it now is, up to one
/// byte past `cap`.
fn read_sized(mut file: std::fs::File, size: u64, cap: u64) -> std::io::Result<Arc<[u8]>> {
    let size = usize::try_from(size.min(cap)).unwrap_or(usize::MAX);
    let mut buffer = Arc::<[u8]>::new_uninit_slice(size);
    let whole = Arc::get_mut(&mut buffer).expect("a new buffer has no other owner");
    let mut filled = 0;
    while filled < whole.len() {
        match read_uninit(&mut file, &mut whole[filled..]) {
            Ok(0) => return read_again(file, cap), // It shrank.
            Ok(n) => filled += n,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    // SAFETY: `read_uninit` wrote every byte of the buffer (`filled` reached its length).
    let buffer = unsafe { buffer.assume_init() };
    let mut more = Vec::new();
    file.take(cap.saturating_add(1).saturating_sub(filled as u64))
        .read_to_end(&mut more)?;
    if more.is_empty() {
        Ok(buffer)
    } else {
        // It grew.
        Ok([&buffer[..], &more[..]].concat().into())
    }
}

/// Reads `file` whole again from its start, up to one byte past `cap`: for a file that
/// shrank while it was read, a rare case not worth a buffer of its own.
fn read_again(mut file: std::fs::File, cap: u64) -> std::io::Result<Arc<[u8]>> {
    let mut bytes = Vec::new();
    file.rewind()?;
    file.take(cap.saturating_add(1)).read_to_end(&mut bytes)?;
    Ok(bytes.into())
}

/// `file.read` into bytes no one has written yet: how many it wrote, from the start of
/// `buffer`.
#[cfg(unix)]
fn read_uninit(
    file: &mut std::fs::File,
    buffer: &mut [std::mem::MaybeUninit<u8>],
) -> std::io::Result<usize> {
    use std::os::fd::AsRawFd;
    // SAFETY: read(2) writes at most `buffer.len()` bytes at its start, a buffer we hold alone.
    let read = unsafe { libc::read(file.as_raw_fd(), buffer.as_mut_ptr().cast(), buffer.len()) };
    usize::try_from(read).map_err(|_| std::io::Error::last_os_error())
}

/// `file.read` into bytes no one has written yet (zeroed first where there is no `read(2)`).
#[cfg(not(unix))]
fn read_uninit(
    file: &mut std::fs::File,
    buffer: &mut [std::mem::MaybeUninit<u8>],
) -> std::io::Result<usize> {
    let mut zeroed = vec![0; buffer.len()];
    let read = file.read(&mut zeroed)?;
    for (to, &from) in buffer.iter_mut().zip(&zeroed[..read]) {
        to.write(from);
    }
    Ok(read)
}

/// The size of a regular file (symbolic links followed), or why it is not one.
fn regular(path: &Path) -> Result<u64, Skip> {
    let metadata = std::fs::metadata(path).map_err(Skip::Io)?;
    if metadata.is_file() {
        Ok(metadata.len())
    } else {
        Err(Skip::NotRegular)
    }
}

/// The files under `dir` that may be level files (by name: see
/// [`Dialect::is_candidate_path`]), honouring `.gitignore`, sorted; and the errors met on the
/// way. Nothing is opened.
pub fn walk(dir: &Path) -> (Vec<PathBuf>, Vec<String>) {
    let mut found = Vec::new();
    let mut errors = Vec::new();
    // The user's global excludes as git finds them: by `$HOME`, never from the password
    // database (the statically linked binary would go through the system's NSS modules).
    let home = std::env::var_os("HOME").is_some_and(|home| !home.is_empty());
    let walker = ignore::WalkBuilder::new(dir)
        .require_git(false)
        .git_global(home)
        .build();
    for entry in walker {
        match entry {
            Ok(entry) => {
                let path = entry.path();
                if entry.file_type().is_some_and(|t| !t.is_dir())
                    && Dialect::is_candidate_path(path)
                {
                    found.push(path.to_path_buf());
                }
            }
            Err(error) => errors.push(error.to_string()),
        }
    }
    found.sort_unstable_by(|a, b| in_path_order(a, b));
    (found, errors)
}

/// `a.cmp(b)` for two paths of one walk, which differ only after their common root and are
/// joined with single separators: a separator then orders before every other byte, as a
/// component ends before a longer one. Comparing components whole, as `Path` does, took a
/// third of the walk of the DCSS corpus's 143 files.
fn in_path_order(a: &Path, b: &Path) -> std::cmp::Ordering {
    if !cfg!(unix) {
        return a.cmp(b);
    }
    let (a, b) = (
        a.as_os_str().as_encoded_bytes(),
        b.as_os_str().as_encoded_bytes(),
    );
    let common = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let rank = |path: &[u8]| {
        path.get(common)
            .map(|&byte| if byte == b'/' { 0 } else { u16::from(byte) + 1 })
    };
    rank(a).cmp(&rank(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of `len` bytes that takes no disk space.
    fn sparse(path: &Path, len: u64) {
        std::fs::File::create(path).unwrap().set_len(len).unwrap();
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("levkit-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn only_regular_files_of_a_sensible_size_are_read() {
        let dir = scratch("regular");
        std::fs::write(dir.join("a.des"), "MAZE:\"a\",' '\n").unwrap();
        std::fs::write(dir.join("notes.txt"), "shopping list\n".repeat(10_000)).unwrap();
        std::fs::write(
            dir.join("monster_desc.txt"),
            "RLG327 MONSTER DESCRIPTION 1\n",
        )
        .unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink("/dev/zero", dir.join("zero.des")).unwrap();
        let status = std::process::Command::new("mkfifo")
            .arg(dir.join("pipe.des"))
            .status();
        let (found, errors) = walk(&dir);
        assert!(errors.is_empty(), "{errors:?}");
        let outcome: Vec<String> = found
            .iter()
            .map(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                match read_found(p, None) {
                    Ok(bytes) => format!("{name}: {} bytes", bytes.len()),
                    Err(skip) => format!("{name}: {skip}"),
                }
            })
            .collect();
        let mut expected = vec![
            "a.des: 13 bytes".to_string(),
            "monster_desc.txt: 29 bytes".into(),
            "notes.txt: it is not a level description".into(),
        ];
        if status.is_ok_and(|s| s.success()) {
            expected.push(
                "pipe.des: it is not a regular file (a FIFO, a device or a socket), which levkit does not read".into(),
            );
        }
        expected.push(
            "zero.des: it is not a regular file (a FIFO, a device or a socket), which levkit does not read".into(),
        );
        assert_eq!(outcome, expected);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Paths of a walk are ordered as `Path` orders them, where a byte sorts before the
    /// separator (`a.b` and `a/b`) and a name is a prefix of another (`a` and `ab`).
    #[test]
    fn paths_of_a_walk_are_in_path_order() {
        let names = [
            "a", "ab", "a.b", "a-b", "a b", "é", "B", "a/b", "a/b/c", "ab/c", "a.b/c",
        ];
        for root in ["des", "des/", "./des", "/work/des"] {
            let paths: Vec<PathBuf> = names.iter().map(|n| Path::new(root).join(n)).collect();
            for a in &paths {
                for b in &paths {
                    assert_eq!(in_path_order(a, b), a.cmp(b), "{a:?} {b:?}");
                }
            }
        }
    }

    #[test]
    fn a_file_that_changed_size_since_it_was_asked_is_read_as_it_now_is() {
        let dir = scratch("resized");
        let path = dir.join("a.des");
        std::fs::write(&path, "0123456789").unwrap();
        let read = |asked: u64, cap: u64| {
            let file = std::fs::File::open(&path).unwrap();
            read_sized(file, asked, cap).unwrap().to_vec()
        };
        // As asked; shrunk since; grown since; grown past the cap (one byte over, which the
        // caller refuses).
        assert_eq!(read(10, u64::MAX), b"0123456789");
        assert_eq!(read(16, u64::MAX), b"0123456789");
        assert_eq!(read(4, u64::MAX), b"0123456789");
        assert_eq!(read(4, 6), b"0123456");
        // A file over the cap found while walking is refused, whatever its size said.
        let big = dir.join("big.des");
        sparse(&big, MAX_FILE_BYTES + 1);
        assert!(matches!(read_found(&big, None), Err(Skip::TooLarge(_))));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_named_file_is_read_whatever_its_size_unless_its_analysis_cannot_fit_in_memory() {
        let dir = scratch("named");
        let large = dir.join("large.des");
        sparse(&large, MAX_FILE_BYTES + 1);
        assert_eq!(read_named(&large).unwrap().len() as u64, MAX_FILE_BYTES + 1);
        // A sparse file of a terabyte takes no disk space, and would take all the memory.
        let huge = dir.join("huge.des");
        sparse(&huge, 1 << 40);
        let refused = read_named(&huge).unwrap_err().to_string();
        assert!(
            refused.starts_with("it is 1048576 MB, and analysing it would take about 16 times that in memory, more than this machine's "),
            "{refused}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
