//! A hint to the processor to start loading a cache line that will be read soon.
//!
//! The search reads a child position's hash-table bucket and cached evaluation right after
//! the move is made, and both are in large tables the cache seldom holds: asking for the
//! line when the move is made lets the load run while the child settles repetitions and
//! the game's end. A hint only: it changes no value, and where no instruction for it is
//! known (WebAssembly) it does nothing.

/// Starts loading the cache line that holds `value`.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing the program sees and cannot fault; the pointer comes
    // from a reference, so it is valid anyway. The one use of `unsafe` outside the browser
    // page's input call (see lib.rs).
    #[allow(unsafe_code)]
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
