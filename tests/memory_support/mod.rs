//! Shared by the memory tests (here and in jit/tests): the process's resident set size.

/// Resident set size in bytes, from /proc/self/statm.
pub fn rss() -> usize {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("/proc/self/statm");
    let pages: usize = statm
        .split_whitespace()
        .nth(1)
        .expect("resident field")
        .parse()
        .expect("a number");
    pages * 4096
}
