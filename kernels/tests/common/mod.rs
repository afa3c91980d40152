//! Test support shared by the kernel tests: guard-page placement and the exhaustive
//! "every special byte at every position" input generator.

#![allow(dead_code)] // each test binary uses a different subset

use std::ptr::NonNull;

/// The longest input length the exhaustive position tests cover (inclusive).
pub const MAX_EXHAUSTIVE_LEN: usize = 130;

/// Every input of length `0..=MAX_EXHAUSTIVE_LEN` made of `filler`, with each byte of
/// `specials` placed at each position in turn (plus the all-filler input of each length).
pub fn special_byte_inputs(filler: u8, specials: &[u8]) -> impl Iterator<Item = Vec<u8>> + '_ {
    (0..=MAX_EXHAUSTIVE_LEN).flat_map(move |len| {
        let plain = std::iter::once(vec![filler; len]);
        let placed = (0..len).flat_map(move |pos| {
            specials.iter().map(move |&s| {
                let mut v = vec![filler; len];
                v[pos] = s;
                v
            })
        });
        plain.chain(placed)
    })
}

/// A tiny deterministic PRNG (xorshift64*) so property-style loops are reproducible.
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed` (any value; 0 is remapped).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A value in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// `len` random bytes drawn from `alphabet`.
    pub fn bytes_from(&mut self, alphabet: &[u8], len: usize) -> Vec<u8> {
        (0..len).map(|_| alphabet[self.below(alphabet.len())]).collect()
    }
}

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

/// Runs `check` on `bytes` placed against a guard page, and on every suffix of `bytes` too
/// (each suffix also ends at the guard), so every tail length of every kernel is exercised.
pub fn for_each_guarded_suffix(bytes: &[u8], mut check: impl FnMut(&[u8])) {
    let mut region = GuardedRegion::new(bytes.len());
    for start in 0..=bytes.len() {
        check(region.place(&bytes[start..]));
    }
}

/// True when the AVX2 twins can be called on this machine.
pub fn avx2() -> bool {
    jitson_kernels::avx2_supported()
}
