//! Position setup from arbitrary text: `FEN|move move ...`, in standard and Chess960 mode.
//!
//! Checks the invariants the search relies on for every position that is accepted: the
//! incremental Zobrist key equals the key from scratch after every move, the FEN round-trips,
//! make/unmake perft equals shakmaty's, every legal move survives the 16-bit TT packing, and
//! static exchange evaluation and evaluation do not panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nullwindow::eval::evaluate;
use nullwindow::position::{Position, perft, shakmaty_perft};
use nullwindow::tt::pack_move;

fuzz_target!(|data: &[u8]| {
    if data.len() > 4096 {
        return;
    }
    let text = String::from_utf8_lossy(data);
    let (fen, moves) = text.split_once('|').unwrap_or((&text, ""));
    for chess960 in [false, true] {
        let Ok(mut pos) = Position::from_fen(fen, chess960) else {
            continue;
        };
        let again = Position::from_fen(&pos.fen(), chess960).expect("own FEN parses");
        assert_eq!(again.fen(), pos.fen());
        assert_eq!(again.key(), pos.key());
        for text in moves.split_whitespace().take(64) {
            if let Ok(m) = pos.parse_uci_move(text) {
                pos.make(m);
                assert_eq!(pos.key(), pos.key_from_scratch(), "{}", pos.fen());
            }
        }
        pos.clear_undo();
        let _ = pos.is_repetition(0);
        let _ = pos.is_fifty_move_draw();
        let _ = evaluate(&pos);
        for m in pos.legal_moves() {
            assert_eq!(pos.unpack_move(pack_move(m)), Some(m), "{}", pos.fen());
            let _ = pos.see_ge(m, 0);
            let _ = pos.gives_check(m);
            let text = pos.move_to_uci(m);
            assert_eq!(pos.parse_uci_move(&text), Ok(m), "{text} in {}", pos.fen());
            pos.make(m);
            assert_eq!(pos.key(), pos.key_from_scratch(), "{}", pos.fen());
            if pos.make_null() {
                assert_eq!(pos.key(), pos.key_from_scratch(), "{}", pos.fen());
                pos.unmake();
            }
            pos.unmake();
        }
        assert_eq!(perft(&mut pos, 2), shakmaty_perft(&pos, 2), "{}", pos.fen());
    }
});
