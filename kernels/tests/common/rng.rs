//! The one deterministic PRNG of the workspace's tests (xorshift64*), so every property-style
//! loop is reproducible. The kernel, facade (integration and unit) and CLI tests include this file
//! with `#[path]`.

#![allow(dead_code)] // each test binary uses a different subset

/// A small deterministic PRNG (xorshift64*).
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed` (any value; 0 is remapped).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    /// A generator seeded by a hash (FNV-1a) of `bytes`, so different inputs draw different
    /// streams. (The first draw's shifts bring FNV's well-mixed high bits down to the low
    /// bits `below` reads.)
    pub fn for_bytes(bytes: &[u8]) -> Rng {
        let fnv = bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        });
        Rng::new(fnv)
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

    /// A value in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `1 / n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// True with probability `percent / 100`.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// One element of `items` (cloned).
    pub fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())].clone()
    }

    /// `n` random decimal digits.
    pub fn digits(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| char::from(b'0' + self.below(10) as u8))
            .collect()
    }

    /// `len` random bytes drawn from `alphabet`.
    pub fn bytes_from(&mut self, alphabet: &[u8], len: usize) -> Vec<u8> {
        (0..len).map(|_| self.pick(alphabet)).collect()
    }
}
