//! Guard-page memory for tests and fuzz harnesses: places bytes so that they end exactly
//! before an inaccessible page, which turns any read past the end into a crash.
//!
//! This is test support, not engine code; it lives here because the kernel tests, the fuzz
//! oracles and later layers all need the same proof that no kernel reads out of bounds.

#![cfg(unix)]

use std::ptr::NonNull;

/// Memory laid out as `[PROT_NONE page][data pages][PROT_NONE page]`, for placing an input so
/// that its last byte is the last readable byte before an inaccessible page: any read past
/// the input's end (or before its start, when it fills whole pages) faults.
pub struct GuardedRegion {
    base: NonNull<u8>,
    total: usize,
    page: usize,
    data_pages: usize,
}

impl GuardedRegion {
    /// A region whose data part can hold `capacity` bytes.
    pub fn new(capacity: usize) -> GuardedRegion {
        // SAFETY: sysconf has no preconditions.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) } as usize;
        let data_pages = capacity.div_ceil(page).max(1);
        let total = (data_pages + 2) * page;
        // SAFETY: an anonymous private mapping with no address hint; checked below.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                total,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        assert_ne!(base, libc::MAP_FAILED, "mmap failed");
        let base = base.cast::<u8>();
        // SAFETY: both ranges are whole pages inside the mapping just made.
        unsafe {
            assert_eq!(libc::mprotect(base.cast(), page, libc::PROT_NONE), 0);
            let tail = base.add((data_pages + 1) * page);
            assert_eq!(libc::mprotect(tail.cast(), page, libc::PROT_NONE), 0);
        }
        GuardedRegion {
            base: NonNull::new(base).expect("mmap returned null"),
            total,
            page,
            data_pages,
        }
    }

    /// Copies `bytes` so they end exactly at the trailing guard page and returns that slice.
    pub fn place(&mut self, bytes: &[u8]) -> &[u8] {
        self.place_mut(bytes)
    }

    /// Like [`place`](Self::place), but returns the placed bytes mutably.
    pub fn place_mut(&mut self, bytes: &[u8]) -> &mut [u8] {
        let cap = self.data_pages * self.page;
        assert!(bytes.len() <= cap, "input larger than the guarded region");
        // SAFETY: the data pages span `page..page + cap` of the mapping, readable and
        // writable, and `&mut self` makes this the only live view of them.
        unsafe {
            let end = self.base.as_ptr().add(self.page + cap);
            let start = end.sub(bytes.len());
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), start, bytes.len());
            std::slice::from_raw_parts_mut(start, bytes.len())
        }
    }

    /// A writable slice of `len` bytes ending exactly at the trailing guard page (for output
    /// buffers: a write past the end faults).
    pub fn tail_mut(&mut self, len: usize) -> &mut [u8] {
        self.place_mut(&vec![0; len])
    }
}

impl Drop for GuardedRegion {
    fn drop(&mut self) {
        // SAFETY: unmaps exactly the mapping made in `new`; no slice into it outlives `self`.
        unsafe { libc::munmap(self.base.as_ptr().cast(), self.total) };
    }
}

// SAFETY: the region owns its mapping exclusively; moving it to another thread moves that
// ownership, and all access goes through `&mut self` or `&self`.
unsafe impl Send for GuardedRegion {}
