//! The app process's idle memory (the desktop benchmark's "idle PSS", docs/desktop.md).
//!
//! glibc's malloc gives every thread that allocates its own arena (up to 8 per core) and keeps freed
//! memory inside them: the start's burst (the sandbox's seeding and migrations, the UI's first board,
//! GTK and WebKit's own start) leaves megabytes that no one uses at idle. Two small calls:
//! - [`limit_arenas`] at the very start of `main` (before any thread): at most two arenas, so the
//!   tokio workers, the blocking pool and GTK's threads share them instead of each fragmenting its own;
//! - [`release_free`] once the first data render is on screen (`ui_ready`): hands the free pages back
//!   to the system (`malloc_trim`, which also releases free pages inside the heap, not only at its top).
//!
//! Neither changes what the app does. On the other systems (docs/ARCHITECTURE.md, "Other systems"):
//! - macOS: libmalloc has no per-thread arenas to cap (its magazines are per core and already few), so
//!   [`limit_arenas`] does nothing; [`release_free`] asks every malloc zone to hand its free pages back
//!   (`malloc_zone_pressure_relief(NULL, 0)`, what the system itself calls under memory pressure);
//! - Windows: the process heap (Rust's allocator there) has no arenas either; [`release_free`] compacts
//!   it (`HeapCompact`, which also decommits free ranges) and trims the working set
//!   (`SetProcessWorkingSetSize(-1, -1)`: pages stay in the standby list and fault back in if used);
//! - other C libraries on Linux (musl): nothing.
//!
//! The macOS and Windows code is not built on this Linux machine (no standard library for those
//! targets); the release workflow builds it.

/// At most this many malloc arenas (glibc's default is 8 per core).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const ARENAS: i32 = 2;

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod glibc {
    extern "C" {
        fn mallopt(param: i32, value: i32) -> i32;
        fn malloc_trim(pad: usize) -> i32;
    }
    /// `M_ARENA_MAX` in glibc's malloc.h.
    const M_ARENA_MAX: i32 = -8;

    pub fn limit_arenas(n: i32) -> bool {
        // SAFETY: mallopt only sets a tunable of the allocator; called before any other thread exists.
        unsafe { mallopt(M_ARENA_MAX, n) == 1 }
    }

    pub fn release_free() -> bool {
        // SAFETY: malloc_trim takes the allocator's own locks; any thread may call it at any time.
        unsafe { malloc_trim(0) == 1 }
    }
}

#[cfg(target_os = "macos")]
mod libmalloc {
    extern "C" {
        /// libSystem's malloc.h: `size_t malloc_zone_pressure_relief(malloc_zone_t *zone, size_t goal)`;
        /// a null zone means every zone, a goal of 0 as much as possible. Returns the bytes released.
        fn malloc_zone_pressure_relief(zone: *mut std::ffi::c_void, goal: usize) -> usize;
    }

    pub fn release_free() -> usize {
        // SAFETY: takes each zone's own locks; any thread may call it at any time.
        unsafe { malloc_zone_pressure_relief(std::ptr::null_mut(), 0) }
    }
}

#[cfg(target_os = "windows")]
mod win32 {
    use std::ffi::c_void;
    #[link(name = "kernel32")]
    extern "system" {
        fn GetProcessHeap() -> *mut c_void;
        /// Returns the largest free block after compacting (0 on failure or when none is free).
        fn HeapCompact(heap: *mut c_void, flags: u32) -> usize;
        fn GetCurrentProcess() -> *mut c_void;
        fn SetProcessWorkingSetSize(process: *mut c_void, min: usize, max: usize) -> i32;
    }

    pub fn release_free() -> bool {
        // SAFETY: the process heap's handle is always valid; HeapCompact serialises on the heap's lock
        // (flags 0: not HEAP_NO_SERIALIZE). (SIZE_T)-1 for both sizes trims the working set; the
        // pseudo-handle of GetCurrentProcess needs no closing.
        unsafe {
            HeapCompact(GetProcessHeap(), 0);
            SetProcessWorkingSetSize(GetCurrentProcess(), usize::MAX, usize::MAX) != 0
        }
    }
}

/// Caps glibc's malloc arenas; call first thing in `main`, before any thread starts.
pub fn limit_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if !glibc::limit_arenas(ARENAS) {
        eprintln!("mallopt(M_ARENA_MAX) refused; the default malloc arenas are used");
    }
}

/// Returns the allocator's free pages to the system (after the start's burst of allocations).
pub fn release_free() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let released = glibc::release_free();
        tracing::debug!(released, "malloc_trim after the first render");
    }
    #[cfg(target_os = "macos")]
    {
        let bytes = libmalloc::release_free();
        tracing::debug!(bytes, "malloc_zone_pressure_relief after the first render");
    }
    #[cfg(target_os = "windows")]
    {
        let trimmed = win32::release_free();
        tracing::debug!(trimmed, "HeapCompact and working-set trim after the first render");
    }
}

/// Linux without a GPU render node (`/dev/dri/renderD*`: a VM, a remote session, Xvfb) draws WebKit's
/// accelerated compositing with Mesa's software renderer (llvmpipe): the CPU does the same work either
/// way, but every composited layer then holds its buffers in the web process's memory (measured on Xvfb:
/// Content Desk's web process 228 MiB with it, 124 MiB without; the empty window 150 and 91). Without a
/// GPU the web view therefore paints without compositing; with one nothing changes. A value the user set
/// for `WEBKIT_DISABLE_COMPOSITING_MODE` is left as it is. macOS (WKWebView) and Windows (WebView2) choose
/// their own GPU or software path and read no such variable: nothing to set there.
pub fn no_software_compositing() {
    #[cfg(target_os = "linux")]
    if std::env::var_os("WEBKIT_DISABLE_COMPOSITING_MODE").is_none() && !has_render_node(std::path::Path::new("/dev/dri")) {
        // Before the web view and any other thread exist (first thing in `run`).
        std::env::set_var("WEBKIT_DISABLE_COMPOSITING_MODE", "1");
    }
}

#[cfg(target_os = "linux")]
fn has_render_node(dri: &std::path::Path) -> bool {
    std::fs::read_dir(dri)
        .map(|d| d.flatten().any(|e| e.file_name().to_string_lossy().starts_with("renderD")))
        .unwrap_or(false)
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::has_render_node;

    #[test]
    fn a_gpu_is_a_render_node_not_a_display_card_alone() {
        let dir = std::env::temp_dir().join(format!("contentdesk-dri-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        assert!(!has_render_node(&dir), "no /dev/dri at all: software GL");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("card0"), b"").unwrap();
        assert!(!has_render_node(&dir), "a display card without a render node (KMS only): software GL");
        std::fs::write(dir.join("renderD128"), b"").unwrap();
        assert!(has_render_node(&dir), "a render node: a GPU, compositing stays on");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
