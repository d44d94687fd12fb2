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
        items
            .par_iter()
            .map_with(state, |s, item| f(s, item))
            .collect()
    }
}
