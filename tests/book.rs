//! Opening books, black-box: `nullwindow book build` and `book probe` on a tiny PGN, and the
//! UCI options `OwnBook`, `BookFile`, `BookBestMove`, `BookDepth` in the real binary. Every
//! file is written by the test into its own directory under the system's temp dir.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::{Engine, bestmove};

/// Five games, one that cannot be played out (a second `e4` for Black).
///
/// From the start e4 scores 2 (won) + 1 (drawn) = 3 and d4 0 (lost) + 2 (won) = 2; after e4
/// Black's c5 (drawn, 1) beats e5 (lost, 0), which is dropped; in the Italian game
/// ([`ITALIAN`]) White castled and won (2).
const PGN: &str = r#"[Event "book test 1"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 {the Italian} Bc5 4. O-O Nf6 (4... d6) 5. d3 1-0

[Event "book test 2"]
[Result "1/2-1/2"]

1. e4 c5 2. Nf3 $1 d6 1/2-1/2

[Event "book test 3"]
[Result "0-1"]

1. d4 d5 2. c4 e6 0-1

[Event "book test 4"]
[Result "1-0"]

1. d4 Nf6 2. c4 1-0

[Event "broken"]
[Result "*"]

1. e4 e4 *
"#;

const ITALIAN: &str = "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5";

/// A directory of its own for one test, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!(
            "nullwindow-book-test-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create temp dir");
        TempDir(dir)
    }

    fn path(&self, file: &str) -> PathBuf {
        self.0.join(file)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `nullwindow ARGS`: (success, stdout, stderr).
fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nullwindow"))
        .args(args)
        .output()
        .expect("run nullwindow");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Builds the test book from [`PGN`] with the `book build` command; returns its path.
fn build_book(dir: &TempDir) -> PathBuf {
    let pgn = dir.path("games.pgn");
    std::fs::write(&pgn, PGN).expect("write pgn");
    let book = dir.path("book.bin");
    let (ok, out, err) = run(&[
        "book",
        "build",
        "--pgn",
        pgn.to_str().unwrap(),
        "--out",
        book.to_str().unwrap(),
    ]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("read 5 games (1 skipped)"), "{out}");
    // The Italian game's 9 plies, 2 more positions of game 2, 3 of game 3, 1 of game 4; the
    // start position has two moves.
    assert!(out.contains("wrote 15 positions, 16 entries"), "{out}");
    assert!(err.contains("game 5: ply 2"), "{err}");
    book
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

/// Sends `setoption name BookFile value PATH` and returns what came before `readyok`.
fn set_book(e: &mut Engine, path: &str) -> Vec<String> {
    e.send(&format!("setoption name BookFile value {path}"));
    e.sync()
}

/// Output of one `go` up to its `bestmove`, and the move.
fn go(e: &mut Engine, cmd: &str) -> (Vec<String>, String) {
    let from = e.seen.len();
    e.send(cmd);
    let bm = e.expect("bestmove");
    (e.seen[from..].to_vec(), bestmove(&bm))
}

fn searched(out: &[String]) -> bool {
    out.iter().any(|l| l.starts_with("info depth"))
}

#[test]
fn build_and_probe_a_book() {
    let dir = TempDir::new("probe");
    let book = build_book(&dir);
    assert_eq!(std::fs::metadata(&book).unwrap().len(), 16 * 16);

    let (ok, out, err) = run(&["book", "probe", "--book", path_str(&book)]);
    assert!(ok, "{err}");
    assert!(out.contains("key 463b96181691fc9c"), "{out}");
    assert!(out.contains("\ne2e4 weight 3 share 60.0%\n"), "{out}");
    assert!(out.contains("\nd2d4 weight 2 share 40.0%\n"), "{out}");

    let (_, out, _) = run(&[
        "book",
        "probe",
        "--book",
        path_str(&book),
        "--moves",
        "e2e4",
    ]);
    assert!(out.contains("\nc7c5 weight 1 share 100.0%\n"), "{out}");
    assert!(!out.contains("e7e5 weight"), "{out}");

    // Castling is stored as king takes rook and shown as the notation asks.
    let mut args = vec!["book", "probe", "--book", path_str(&book), "--moves"];
    args.extend(ITALIAN.split(' '));
    let (_, out, _) = run(&args);
    assert!(out.contains("\ne1g1 weight 2 share 100.0%\n"), "{out}");
    args.push("--960");
    let (_, out, _) = run(&args);
    assert!(out.contains("\ne1h1 weight 2 share 100.0%\n"), "{out}");

    let (_, out, _) = run(&[
        "book",
        "probe",
        "--book",
        path_str(&book),
        "--fen",
        "4k3/8/8/8/8/8/8/4K3",
        "w",
        "-",
        "-",
        "0",
        "1",
    ]);
    assert!(out.contains("no book moves"), "{out}");

    // Bad input: an error message and exit status 2, no panic.
    let missing = dir.path("missing.pgn");
    for bad in [
        vec!["book"],
        vec![
            "book",
            "build",
            "--pgn",
            path_str(&missing),
            "--out",
            "x.bin",
        ],
        vec!["book", "probe", "--book", path_str(&missing)],
        vec![
            "book",
            "probe",
            "--book",
            path_str(&book),
            "--fen",
            "not a fen",
        ],
        vec![
            "book",
            "probe",
            "--book",
            path_str(&book),
            "--moves",
            "e2e5",
        ],
    ] {
        let (ok, _, err) = run(&bad);
        assert!(!ok && err.starts_with("error: "), "{bad:?}: {err}");
        assert!(!err.contains("panicked"), "{bad:?}: {err}");
    }
    let (ok, out, _) = run(&["book", "--help"]);
    assert!(
        ok && out.starts_with("usage: nullwindow book build"),
        "{out}"
    );
}

#[test]
fn book_move_is_played_instantly() {
    let dir = TempDir::new("instant");
    let book = build_book(&dir);
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok");
    for opt in [
        "option name OwnBook type check default false",
        "option name BookFile type string default <empty>",
        "option name BookBestMove type check default false",
        "option name BookDepth type spin default 255 min 1 max 255",
    ] {
        assert!(e.seen.iter().any(|l| l == opt), "missing '{opt}'");
    }
    e.send("setoption name OwnBook value true");
    let out = set_book(&mut e, path_str(&book));
    assert!(
        out.iter().any(|l| l.starts_with("info string book '")),
        "{out:?}"
    );
    let mut seen = std::collections::HashSet::new();
    for _ in 0..20 {
        e.send("position startpos");
        let t = Instant::now();
        let (out, mv) = go(&mut e, "go wtime 1000 btime 1000");
        assert!(
            t.elapsed() < Duration::from_millis(500),
            "{:?}",
            t.elapsed()
        );
        assert!(mv == "e2e4" || mv == "d2d4", "{mv}");
        assert!(!searched(&out), "{out:?}");
        assert!(
            out.contains(&format!("info string book move {mv}")),
            "{out:?}"
        );
        seen.insert(mv);
    }
    // Weights 3 and 2: both come up in 20 tries (all but certainly: 0.6^20 + 0.4^20).
    assert_eq!(seen.len(), 2, "{seen:?}");

    // BookBestMove: always the heaviest.
    e.send("setoption name BookBestMove value true");
    for _ in 0..5 {
        e.send("position startpos");
        assert_eq!(go(&mut e, "go movetime 1000").1, "e2e4");
    }
    // searchmoves limit the book moves too.
    let (out, mv) = go(&mut e, "go depth 3 searchmoves d2d4 g1f3");
    assert_eq!(mv, "d2d4");
    assert!(!searched(&out));
    let (out, mv) = go(&mut e, "go depth 3 searchmoves g1f3");
    assert_eq!(mv, "g1f3");
    assert!(searched(&out));

    // Castling from the book, in both notations.
    e.send(&format!("position startpos moves {ITALIAN}"));
    assert_eq!(go(&mut e, "go depth 5").1, "e1g1");
    e.send("setoption name UCI_Chess960 value true");
    e.send(&format!("position startpos moves {ITALIAN}"));
    e.send("go depth 5");
    assert_eq!(bestmove(&e.expect("bestmove")), "e1h1");
}

#[test]
fn out_of_book_depth_and_search_modes_fall_back_to_search() {
    let dir = TempDir::new("fallback");
    let book = build_book(&dir);
    let mut e = Engine::start();
    set_book(&mut e, path_str(&book));
    // OwnBook is off by default.
    e.send("position startpos");
    assert!(searched(&go(&mut e, "go depth 3").0));
    e.send("setoption name OwnBook value true");
    // Not in the book.
    e.send("position startpos moves a2a3");
    let (out, mv) = go(&mut e, "go depth 3");
    assert!(searched(&out), "{out:?}");
    assert!(!out.iter().any(|l| l.contains("book move")));
    assert!(!mv.is_empty());
    // Ply 6 is in the book; BookDepth 5 stops before it, 6 reaches it.
    e.send("setoption name BookDepth value 5");
    e.send(&format!("position startpos moves {ITALIAN}"));
    assert!(searched(&go(&mut e, "go depth 3").0));
    e.send("setoption name BookDepth value 6");
    let (out, mv) = go(&mut e, "go depth 3");
    assert_eq!(mv, "e1g1");
    assert!(!searched(&out));
    // go infinite and go mate search.
    e.send("position startpos");
    e.send("go infinite");
    e.wait_for(Duration::from_secs(10), |l| l.starts_with("info depth 2"));
    e.send("stop");
    e.expect("bestmove");
    assert!(searched(&go(&mut e, "go depth 3 mate 2").0));
    // go ponder: the book move waits for ponderhit, then comes at once.
    e.send("setoption name Ponder value true");
    e.send("position startpos");
    e.send("go ponder wtime 1000 btime 1000");
    e.expect("info string book move");
    let early = e.drain(300);
    assert!(
        early.iter().all(|l| !l.starts_with("bestmove")),
        "{early:?}"
    );
    e.send("ponderhit");
    let mv = bestmove(&e.expect("bestmove"));
    assert!(mv == "e2e4" || mv == "d2d4", "{mv}");
}

#[test]
fn bad_book_files_are_refused_and_the_old_book_kept() {
    let dir = TempDir::new("refused");
    let book = build_book(&dir);
    let bytes = std::fs::read(&book).unwrap();
    let truncated = dir.path("truncated.bin");
    std::fs::write(&truncated, &bytes[..bytes.len() - 5]).unwrap();
    let unsorted = dir.path("unsorted.bin");
    let mut reversed: Vec<u8> = bytes.chunks(16).rev().flatten().copied().collect();
    reversed.extend_from_slice(&[0; 16]);
    std::fs::write(&unsorted, &reversed).unwrap();
    let missing = dir.path("missing.bin");

    let mut e = Engine::start();
    e.send("setoption name OwnBook value true");
    e.send("setoption name BookBestMove value true");
    set_book(&mut e, path_str(&book));
    for (bad, why) in [
        (path_str(&truncated), "not a multiple of 16"),
        (path_str(&unsorted), "not sorted"),
        (path_str(&missing), "cannot read"),
        (path_str(&dir.0), "not a regular file"),
    ] {
        let out = set_book(&mut e, bad);
        let err = out
            .iter()
            .find(|l| l.starts_with("info string error: BookFile"))
            .unwrap_or_else(|| panic!("no error for {bad}: {out:?}"));
        assert!(err.contains(why), "{err}");
        assert!(
            err.contains(&format!("keeping '{}'", path_str(&book))),
            "{err}"
        );
        // Still answering, still playing from the old book.
        e.send("position startpos");
        let (out, mv) = go(&mut e, "go wtime 1000 btime 1000");
        assert_eq!(mv, "e2e4");
        assert!(!searched(&out));
    }
    // No book: an empty value unloads it, silently.
    let out = set_book(&mut e, "<empty>");
    assert!(out.is_empty(), "{out:?}");
    e.send("position startpos");
    assert!(searched(&go(&mut e, "go depth 2").0));
    let out = set_book(&mut e, path_str(&truncated));
    assert!(
        out.iter().any(|l| l.ends_with("keeping no book")),
        "{out:?}"
    );
    for bad in [
        "setoption name BookDepth value 0",
        "setoption name BookDepth value 256",
        "setoption name OwnBook value maybe",
    ] {
        e.send(bad);
        let out = e.sync();
        assert!(
            out.iter().any(|l| l.starts_with("info string error: ")),
            "{bad}: {out:?}"
        );
    }
}

/// A game White loses out of the book: 1. e4 (the book's choice between e4 and d4), the
/// Italian from the book (no choice there), then the Blackburne Shilling trap, played by the
/// script whatever the engine answers: 3... Nd4 4. Nxe5? Qg5 5. Nxf7 Qxg2 6. Rf1 Qxe4+
/// 7. Be2 Nf3#.
const TRAP: &str = "e2e4 e7e5 g1f3 b8c6 f1c4 c6d4 f3e5 d8g5 e5f7 g5g2 h1f1 g2e4 c4e2 d4f3";

/// Plays [`TRAP`] with the engine as White (`go` at each White turn, the first restricted to
/// e2e4 so that the book move is that one whatever was learned), sends the mated position and
/// `ucinewgame`; returns the output.
fn lose_a_game(e: &mut Engine) -> Vec<String> {
    let from = e.seen.len();
    let moves: Vec<&str> = TRAP.split(' ').collect();
    for i in (0..moves.len()).step_by(2) {
        if i == 0 {
            e.send("position startpos");
            let (out, mv) = go(e, "go depth 3 searchmoves e2e4");
            assert_eq!(mv, "e2e4");
            assert!(!searched(&out), "{out:?}");
        } else {
            e.send(&format!("position startpos moves {}", moves[..i].join(" ")));
            go(e, "go depth 3");
        }
    }
    e.send(&format!("position startpos moves {TRAP}"));
    e.send("ucinewgame");
    e.sync();
    e.seen[from..].to_vec()
}

/// An engine with the book loaded, `OwnBook`, `BookBestMove` and `BookLearning` on; returns
/// it with what it said on loading the book.
fn learning_engine(book: &Path) -> (Engine, Vec<String>) {
    let mut e = Engine::start();
    e.send("setoption name OwnBook value true");
    e.send("setoption name BookBestMove value true");
    e.send("setoption name BookLearning value true");
    let out = set_book(&mut e, path_str(book));
    (e, out)
}

/// `book probe` of the start position.
fn probe_start(book: &Path) -> String {
    let (ok, out, err) = run(&["book", "probe", "--book", path_str(book)]);
    assert!(ok, "{err}");
    out
}

fn learn_file(book: &Path) -> PathBuf {
    PathBuf::from(format!("{}.learn", path_str(book)))
}

#[test]
fn book_learning_lowers_the_chance_of_a_move_that_lost() {
    let dir = TempDir::new("learning");
    let book = build_book(&dir);
    let bin = std::fs::read(&book).unwrap();
    assert!(probe_start(&book).contains("\ne2e4 weight 3 share 60.0%\n"));
    assert!(!learn_file(&book).exists());

    let (mut e, out) = learning_engine(&book);
    assert!(
        out.iter()
            .any(|l| l.ends_with(".learn': nothing learned yet")),
        "{out:?}"
    );
    // Unlearned, the heavier e4 is the best book move.
    e.send("position startpos");
    assert_eq!(go(&mut e, "go depth 3").1, "e2e4");
    e.send("ucinewgame");

    let out = lose_a_game(&mut e);
    assert!(
        out.iter().any(
            |l| l.starts_with("info string book learning '") && l.ends_with(": 1 move updated")
        ),
        "{out:?}"
    );
    let p = probe_start(&book);
    assert!(p.contains("\nlearn "), "{p}");
    assert!(
        p.contains("\ne2e4 weight 3 learn -100 games 1 share 42.9%\n"),
        "{p}"
    );
    lose_a_game(&mut e);
    let p = probe_start(&book);
    assert!(
        p.contains("\ne2e4 weight 3 learn -200 games 2 share 27.3%\n"),
        "{p}"
    );
    assert!(
        p.contains("\nd2d4 weight 2 learn 0 games 0 share 72.7%\n"),
        "{p}"
    );
    // The moves without a choice (Nf3, Bc4) learn nothing; the book itself is untouched.
    let (_, p, _) = run(&[
        "book",
        "probe",
        "--book",
        path_str(&book),
        "--moves",
        "e2e4",
        "e7e5",
    ]);
    assert!(
        p.contains("\ng1f3 weight 2 learn 0 games 0 share 100.0%\n"),
        "{p}"
    );
    assert_eq!(std::fs::read(&book).unwrap(), bin);
    // Now the best book move is d4, in this engine and after a restart.
    e.send("position startpos");
    assert_eq!(go(&mut e, "go depth 3").1, "d2d4");
    e.send("quit");
    assert!(e.exited_within(Duration::from_secs(10)));
    let (mut e, out) = learning_engine(&book);
    assert!(
        out.iter().any(|l| l.ends_with(".learn': 1 move learned")),
        "{out:?}"
    );
    e.send("position startpos");
    let (out, mv) = go(&mut e, "go depth 3");
    assert_eq!(mv, "d2d4");
    assert!(!searched(&out));
    // Learning off: the book as its file says, and the learn file stays as it is.
    let learned = std::fs::read(learn_file(&book)).unwrap();
    e.send("setoption name BookLearning value false");
    e.send("position startpos");
    assert_eq!(go(&mut e, "go depth 3").1, "e2e4");
    lose_a_game(&mut e);
    assert_eq!(std::fs::read(learn_file(&book)).unwrap(), learned);
}

#[test]
fn bad_learn_files_are_refused_and_the_book_still_plays() {
    let dir = TempDir::new("learn-refused");
    let book = build_book(&dir);
    // A good learn file, from one lost game.
    let (mut e, _) = learning_engine(&book);
    lose_a_game(&mut e);
    drop(e);
    let good = std::fs::read(learn_file(&book)).expect("learn file written");
    let mut flipped = good.clone();
    flipped[20] ^= 1;
    let mut v9 = good.clone();
    v9[8] = 9;
    for (bytes, why) in [
        (b"hello, world".to_vec(), "not a Nullwindow learn file"),
        (std::fs::read(&book).unwrap(), "not a Nullwindow learn file"),
        (flipped, "checksum mismatch"),
        (good[..good.len() - 4].to_vec(), "truncated or corrupt"),
        (v9, "format version 9"),
    ] {
        std::fs::write(learn_file(&book), &bytes).unwrap();
        let (mut e, out) = learning_engine(&book);
        let err = out
            .iter()
            .find(|l| l.starts_with("info string error: book learn file '"))
            .unwrap_or_else(|| panic!("no error for '{why}': {out:?}"));
        assert!(err.contains(why), "{err}");
        // The book plays, unlearned (e4, the heavier, though the good file had lowered it).
        e.send("position startpos");
        let (out, mv) = go(&mut e, "go depth 3");
        assert_eq!(mv, "e2e4", "{why}");
        assert!(!searched(&out));
        // A game later the refused file is still as it was.
        let out = lose_a_game(&mut e);
        assert!(!out.iter().any(|l| l.contains("updated")), "{out:?}");
        assert_eq!(std::fs::read(learn_file(&book)).unwrap(), bytes, "{why}");
        // `book probe` warns and shows the shares without learning.
        let (ok, p, err) = run(&["book", "probe", "--book", path_str(&book)]);
        assert!(ok && err.contains(why), "{err}");
        assert!(p.contains("\ne2e4 weight 3 share 60.0%\n"), "{p}");
    }
}
