//! The allocator of the `levkit` binary, here so that the server's benchmarks run on it too.

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, Ordering};

/// mimalloc, asked for plain blocks wherever those are aligned enough, as the standard
/// library asks `malloc`: the `mimalloc` crate asks for every block by its alignment, a longer
/// path through mimalloc to the same block (2.5% of the instructions of checking the DCSS
/// corpus).
pub struct Allocator;

/// What mimalloc's plain blocks are aligned to (its `MI_MAX_ALIGN_SIZE`); a smaller block is
/// aligned to its own size.
const PLAIN_ALIGN: usize = 16;

/// The largest block mimalloc's small path serves (its `MI_SMALL_SIZE_MAX`).
const SMALL_MAX: usize = 128 * std::mem::size_of::<*mut c_void>();

unsafe extern "C" {
    fn mi_malloc(size: usize) -> *mut c_void;
    fn mi_malloc_small(size: usize) -> *mut c_void;
    fn mi_zalloc(size: usize) -> *mut c_void;
    fn mi_realloc(p: *mut c_void, new_size: usize) -> *mut c_void;
}

/// Whether medium blocks are rounded up to a power of two ([`Allocator::fewer_size_classes`]).
static FEWER_SIZE_CLASSES: AtomicBool = AtomicBool::new(false);

/// The sizes mimalloc keeps in pages of 512 KiB, one such page per size class and thread
/// (above its `MI_SMALL_MAX_OBJ_SIZE`; larger blocks get pages of their own size).
const MEDIUM: std::ops::RangeInclusive<usize> = (10 << 10) + 1..=64 << 10;

impl Allocator {
    /// From now on, medium blocks are rounded up to a power of two: 3 size classes rather
    /// than 11. Each thread fills a page of 512 KiB per size class, whose unused end huge pages
    /// zero all the same: the DCSS corpus check faulted 11 or 12 huge pages rather than 14,
    /// in the same instructions. For commands that turn huge pages on; the server, on small
    /// pages, keeps every size class.
    pub fn fewer_size_classes() {
        FEWER_SIZE_CLASSES.store(true, Ordering::Relaxed);
    }
}

/// `size`, rounded up to a power of two if it is medium and [`Allocator::fewer_size_classes`]
/// was asked for.
fn in_size_class(size: usize) -> usize {
    if MEDIUM.contains(&size) && FEWER_SIZE_CLASSES.load(Ordering::Relaxed) {
        size.next_power_of_two()
    } else {
        size
    }
}

/// Whether a plain block serves `layout`: a size is a multiple of its alignment, so a block
/// at least that size is aligned enough up to `PLAIN_ALIGN`.
fn plain(layout: Layout) -> bool {
    layout.align() <= PLAIN_ALIGN && layout.align() <= layout.size()
}

// SAFETY: plain blocks serve only the layouts `plain` accepts (see there); every other layout,
// and every free, goes to the `mimalloc` crate's allocator, and mimalloc frees and resizes
// any of its blocks however it was asked for.
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // Most blocks are small: `mi_malloc_small` takes them straight from their size's
        // page, without `mi_malloc`'s test of the size and call to its general path.
        if plain(layout) && layout.size() <= SMALL_MAX {
            unsafe { mi_malloc_small(layout.size()).cast() }
        } else if plain(layout) {
            unsafe { mi_malloc(in_size_class(layout.size())).cast() }
        } else {
            unsafe { mimalloc::MiMalloc.alloc(layout) }
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if plain(layout) {
            unsafe { mi_zalloc(layout.size()).cast() }
        } else {
            unsafe { mimalloc::MiMalloc.alloc_zeroed(layout) }
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { mimalloc::MiMalloc.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let grown = Layout::from_size_align(new_size, layout.align());
        if plain(layout) && grown.is_ok_and(plain) {
            unsafe { mi_realloc(ptr.cast(), in_size_class(new_size)).cast() }
        } else {
            unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every block is aligned as asked, through allocation, zeroing and growth, for the
    /// alignments on either side of the plain blocks' guarantee, with every size class and
    /// with medium sizes rounded up.
    #[test]
    fn blocks_are_aligned_as_asked() {
        blocks_are_aligned();
        Allocator::fewer_size_classes();
        blocks_are_aligned();
    }

    fn blocks_are_aligned() {
        for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
            for size in [
                align,
                align * 2,
                align * 3,
                24,
                40,
                1000,
                5000,
                12_000,
                40_000,
                70_000,
            ] {
                let Ok(layout) = Layout::from_size_align(size, align) else {
                    continue;
                };
                let layout = layout.pad_to_align();
                unsafe {
                    let p = Allocator.alloc(layout);
                    assert!(
                        !p.is_null() && (p as usize).is_multiple_of(align),
                        "{layout:?}"
                    );
                    let z = Allocator.alloc_zeroed(layout);
                    assert!((z as usize).is_multiple_of(align), "{layout:?}");
                    assert!(
                        std::slice::from_raw_parts(z, layout.size())
                            .iter()
                            .all(|&b| b == 0)
                    );
                    p.write_bytes(7, layout.size());
                    let grown = Allocator.realloc(p, layout, layout.size() * 3);
                    assert!((grown as usize).is_multiple_of(align), "{layout:?} grown");
                    assert!(
                        std::slice::from_raw_parts(grown, layout.size())
                            .iter()
                            .all(|&b| b == 7)
                    );
                    let grown_layout = Layout::from_size_align(layout.size() * 3, align).unwrap();
                    Allocator.dealloc(grown, grown_layout);
                    Allocator.dealloc(z, layout);
                }
            }
        }
    }
}
