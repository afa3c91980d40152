//! The symbols generated code may call: the byte kernels' `extern "C"` entry points by name.

use jitson_kernels::ffi::entry_point;

/// The address of the kernel entry point called `name`, if there is one: on a CPU the AVX2
/// kernels run on, the number readers' entries that call the AVX2 twin directly
/// ([`jitson_kernels::ffi::entry_point`]).
pub fn kernel_symbol(name: &str) -> Option<*const u8> {
    entry_point(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use jitson_kernels::ffi::ENTRY_POINTS;

    #[test]
    fn every_symbol_is_unique_and_resolvable() {
        let names: Vec<_> = ENTRY_POINTS.iter().map(|&(n, _)| n).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len(), "duplicate kernel symbol names");
        for name in names {
            assert!(kernel_symbol(name).is_some_and(|p| !p.is_null()), "{name}");
        }
        assert_eq!(kernel_symbol("no_such_kernel"), None);
    }
}
