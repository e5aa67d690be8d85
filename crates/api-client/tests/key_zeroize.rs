//! The key's bytes are zeroed before its memory is freed (issue 12, point 4): a spy allocator looks into
//! every block freed while armed and records whether it still held the secret. One test in this binary
//! (the allocator is global to it).
use contentdesk_api_client::ApiKey;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

struct Spy;
static ARMED: AtomicBool = AtomicBool::new(false);
static LEAKED: AtomicUsize = AtomicUsize::new(0);
/// In the binary's read-only data, never a freed block itself.
const NEEDLE: &[u8] = b"zqx7-secret-body-9w";

unsafe impl GlobalAlloc for Spy {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if ARMED.load(Ordering::SeqCst) {
            let block = unsafe { std::slice::from_raw_parts(ptr, layout.size()) };
            if block.windows(NEEDLE.len()).any(|w| w == NEEDLE) {
                LEAKED.fetch_add(1, Ordering::SeqCst);
            }
        }
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Spy = Spy;

#[test]
fn a_dropped_key_and_the_string_it_was_made_from_are_zeroed_before_they_are_freed() {
    let needle = std::str::from_utf8(NEEDLE).unwrap();
    ARMED.store(true, Ordering::SeqCst);
    {
        // Untrimmed on purpose: `new` copies the trimmed secret and must zero what it was given.
        let key = ApiKey::new(format!("  ch_live_{needle}\n"));
        let copy = key.clone();
        assert!(copy.expose().contains(needle));
        drop(copy);
        drop(key);
    }
    ARMED.store(false, Ordering::SeqCst);
    let leaked = LEAKED.load(Ordering::SeqCst);
    assert_eq!(leaked, 0, "freed block(s) still held the secret");
}
