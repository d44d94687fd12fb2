//! Work over the files of a command, on every core.

use rayon::prelude::*;

/// `f` over `items` in order, on every core; a lone item stays on this thread, since starting
/// the pool's threads costs more than it saves there (a tenth of compiling one level file,
/// which is how NetHack's own makefile runs its level compiler).
pub fn map_files<'a, T: Sync, S: Clone + Send, R: Send>(
    items: &'a [T],
    mut state: S,
    f: impl Fn(&mut S, &'a T) -> R + Sync + Send,
) -> Vec<R> {
    if items.len() < 2 {
        items.iter().map(|item| f(&mut state, item)).collect()
    } else {
        pool_with_this_thread();
        items
            .par_iter()
            .map_with(state, |s, item| f(s, item))
            .collect()
    }
}

/// Makes the calling thread (the command's own) one of the pool's threads, once, rather than
/// leave it waiting while as many new threads as there are cores do the work: one thread
/// fewer to start, and the work runs on a heap already in use (the allocator keeps one per
/// thread, each faulting in pages of its own). If something built the pool first, it stays.
fn pool_with_this_thread() {
    static BUILT: std::sync::Once = std::sync::Once::new();
    BUILT.call_once(|| {
        let _ = rayon::ThreadPoolBuilder::new()
            .use_current_thread()
            .build_global();
    });
}
