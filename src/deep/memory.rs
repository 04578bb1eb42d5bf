//! Zeroed memory for the shared tables: a slice of atomics that owns its memory, mapped
//! from the kernel on Linux so that no start-up pass writes the whole table.

/// Types whose all-zero bytes are a valid value.
///
/// # Safety
/// An all-zero bit pattern must be a valid `Self` (atomics and integers only).
pub(crate) unsafe trait Zeroable: Sync {}

/// `len` zeroed values of `T`: a slice that owns its memory.
pub(crate) struct ZeroedMemory<T: Zeroable> {
    start: core::ptr::NonNull<T>,
    len: usize,
}

// SAFETY: the values are atomics (`Zeroable: Sync`), shared between threads by reference
// like any `[T]`; the memory is owned by this value alone.
unsafe impl<T: Zeroable> Send for ZeroedMemory<T> {}
// SAFETY: as above.
unsafe impl<T: Zeroable> Sync for ZeroedMemory<T> {}

impl<T: Zeroable> ZeroedMemory<T> {
    /// `len >= 1` zeroed values, or `None` if the memory cannot be had.
    ///
    /// Linux: an anonymous private mapping (zeroed by the kernel page by page on first touch)
    /// with `MADV_HUGEPAGE` before any page is touched: probes land at random, and with
    /// 4 KiB pages nearly every probe into a large table would also miss the TLB. The advice
    /// is a hint (honoured when transparent huge pages are in `madvise` or `always` mode).
    #[cfg(target_os = "linux")]
    pub(crate) fn zeroed(len: usize) -> Option<ZeroedMemory<T>> {
        let bytes = len.checked_mul(core::mem::size_of::<T>())?;
        if len == 0 || bytes > isize::MAX as usize {
            return None;
        }
        // SAFETY: a fresh anonymous mapping names or changes no existing memory; the advice
        // covers exactly that mapping (if made), and MADV_HUGEPAGE changes only how the
        // kernel backs its pages, never what they hold.
        let address = unsafe {
            let address = libc::mmap(
                core::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            if address != libc::MAP_FAILED {
                libc::madvise(address, bytes, libc::MADV_HUGEPAGE);
            }
            address
        };
        if address == libc::MAP_FAILED {
            return None;
        }
        // Page-aligned, so aligned for any `T` of alignment up to 4 KiB.
        debug_assert!(core::mem::align_of::<T>() <= 4096);
        let start = core::ptr::NonNull::new(address.cast::<T>())?;
        Some(ZeroedMemory { start, len })
    }

    /// `len >= 1` zeroed values from the global allocator.
    #[cfg(not(target_os = "linux"))]
    pub(crate) fn zeroed(len: usize) -> Option<ZeroedMemory<T>> {
        let layout = std::alloc::Layout::array::<T>(len).ok()?;
        if len == 0 || layout.size() == 0 {
            return None;
        }
        // SAFETY: the layout has a non-zero size (checked above).
        let address = unsafe { std::alloc::alloc_zeroed(layout) };
        let start = core::ptr::NonNull::new(address.cast::<T>())?;
        Some(ZeroedMemory { start, len })
    }
}

impl<T: Zeroable> core::ops::Deref for ZeroedMemory<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `start` points to `len` initialised (zeroed, `Zeroable`) values owned by
        // `self`.
        unsafe { core::slice::from_raw_parts(self.start.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for ZeroedMemory<T> {
    fn drop(&mut self) {
        let bytes = self.len * core::mem::size_of::<T>();
        // SAFETY: `start` and `bytes` are exactly what `zeroed` got: the mapping on Linux,
        // else the global allocator's block of this layout; nothing borrows the values any
        // more (`&mut self`).
        unsafe {
            #[cfg(target_os = "linux")]
            libc::munmap(self.start.as_ptr().cast(), bytes);
            #[cfg(not(target_os = "linux"))]
            std::alloc::dealloc(
                self.start.as_ptr().cast(),
                std::alloc::Layout::from_size_align_unchecked(bytes, core::mem::align_of::<T>()),
            );
        }
    }
}
