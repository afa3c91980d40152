//! The symbols generated code may call: the byte kernels' `extern "C"` entry points by name.

use jitson_kernels::ffi::ENTRY_POINTS;

/// The address of the kernel entry point called `name`, if there is one.
pub fn kernel_symbol(name: &str) -> Option<*const u8> {
    ENTRY_POINTS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, p)| p)
}

/// Every kernel entry point as `(name, address)`, for registering with a JIT module builder.
pub fn kernel_symbols() -> impl Iterator<Item = (&'static str, *const u8)> {
    ENTRY_POINTS.iter().copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_symbol_is_unique_and_resolvable() {
        let names: Vec<_> = kernel_symbols().map(|(n, _)| n).collect();
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
