//! Arbitrary text through the UCI command handler, line by line, as stdin would bring it.
//!
//! The handler is sandboxed (`Uci::sandboxed`): no threads, no output, every `go` a search of
//! at most `SANDBOX_NODES` nodes that answers at once, perft cut short, the hash table kept
//! small and `bench` refused, so that every input finishes. Anything else (a panic, an
//! overflow, a hang) is a bug.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nullwindow::uci::{Output, Uci};

fuzz_target!(|data: &[u8]| {
    // Long inputs only slow the fuzzer down; the 10,000-ply line is in the test suite.
    if data.len() > 16 * 1024 {
        return;
    }
    let text = String::from_utf8_lossy(data);
    let mut uci = Uci::sandboxed(Output::Discard);
    for line in text.split('\n') {
        if !uci.command(line) {
            break;
        }
    }
    uci.shutdown();
});
