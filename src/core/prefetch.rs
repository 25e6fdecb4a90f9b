//! Hints about memory: to the processor, to start loading a cache line that will be read
//! soon; to the kernel, to back the hash table with huge pages.
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
    // from a reference, so it is valid anyway (the uses of `unsafe`: see lib.rs).
    #[allow(unsafe_code)]
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// Asks the kernel to back `memory` with huge pages where it can (Linux's transparent huge
/// pages in `madvise` mode): the hash table is read at random, and with 4 KB pages nearly
/// every probe also misses the address-translation cache.
pub fn advise_huge_pages<T>(memory: &[T]) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = memory.as_ptr() as usize;
        let end = start + std::mem::size_of_val(memory);
        let first = start.next_multiple_of(HUGE);
        let last = end / HUGE * HUGE;
        if last > first {
            // SAFETY: the range lies inside `memory`, which this process owns; the advice
            // changes how the kernel backs it, never its contents, and a refusal is harmless.
            #[allow(unsafe_code)]
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = memory;
}
