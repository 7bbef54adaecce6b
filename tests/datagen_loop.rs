//! `scripts/datagen_loop.sh`, the datagen loop, run for real against a stand-in engine in a
//! throw-away git repository: it builds the committed revision, starts self-play, restarts it
//! when it dies, pauses it while a timed match runs, rotates to a new segment when the committed
//! `DATAGEN_SEED` changes, takes a later build of the segment's Bench on `upgrade`, waits when a
//! segment has all its games (and goes on when the count is raised), keeps a
//! manifest line per segment that matches the file (and a copy of the manifest in the work tree,
//! from which a data directory lost with its machine gets its manifest back), and stops with its
//! self-play.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// A stand-in for `nullwindow`: `bench`, `--version`, and a `datagen` that appends one
/// 32-byte record (a game) every 50 ms to `--out` and keeps a progress file as the real one
/// does (resumes from it, cuts a torn tail, ends on SIGTERM after a whole record, or once it
/// has `--games` games).
const FAKE_ENGINE: &str = r#"#!/usr/bin/env bash
case "$1" in
bench) echo "4242 nodes 1 nps" ;;
--version) echo "Nullwindow fake"; echo "network: fake.nnue (embedded)" ;;
datagen)
    shift
    out="" seed="" want=""
    while [ $# -gt 0 ]; do
        case "$1" in --out) out=$2; shift ;; --seed) seed=$2; shift ;; --games) want=$2; shift ;; esac
        shift
    done
    [ -s "$out" ] || head -c 32 /dev/zero > "$out"
    games=$(sed -n 's/^games //p' "$out.progress" 2> /dev/null)
    games=${games:-0}
    # As the real one: a torn tail (a record the progress file does not count) is cut.
    bytes=$(sed -n 's/^bytes //p' "$out.progress" 2> /dev/null)
    [ -n "$bytes" ] && truncate -s "$bytes" "$out"
    # SIGTERM ends it after a whole record.
    stop=""
    trap 'stop=1' TERM
    while [ -z "$stop" ] && [ "$games" -lt "$want" ]; do
        head -c 32 /dev/zero >> "$out"
        games=$((games + 1))
        printf 'seed %s\nsettings fake\ngames %s\nbytes %s\n' "$seed" "$games" \
            "$(stat -c %s "$out")" > "$out.progress"
        sleep 0.05
    done
    ;;
esac
"#;

/// The parts of the real Makefile the loop reads: `print-VAR`, `datagen-args`, and a `pgo`
/// target that "builds" the stand-in.
fn makefile(seed: u32, games: u32) -> String {
    format!(
        "DATA_DIR ?= data\nDATAGEN_SEED ?= {seed}\nDATAGEN_THREADS ?= 2\n\
         DATAGEN_ARGS = --games {games} --threads $(DATAGEN_THREADS) --seed $(DATAGEN_SEED) \
         --out $(DATA_DIR)/gen$(DATAGEN_SEED).bin\n\
         datagen-args:\n\t@echo $(DATAGEN_ARGS)\n\
         print-%:\n\t@echo $($*)\n\
         pgo:\n\tmkdir -p target/pgo/release && cp fake-engine target/pgo/release/nullwindow\n"
    )
}

fn git(repo: &Path, args: &[&str]) {
    let st = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(repo)
        .output()
        .expect("git runs");
    assert!(st.status.success(), "git {args:?}: {st:?}");
}

fn commit_seed(repo: &Path, seed: u32) {
    commit_segment(repo, seed, 100_000);
}

fn commit_segment(repo: &Path, seed: u32, games: u32) {
    std::fs::write(repo.join("Makefile"), makefile(seed, games)).expect("write Makefile");
    commit_all(repo, &format!("seed {seed}, {games} games"));
}

/// Commits everything in the work tree.
fn commit_all(repo: &Path, message: &str) {
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-q", "-m", message]);
}

/// The pid of the loop's datagen process, as its pid file says.
fn datagen_pid(loop_dir: &Path) -> String {
    read(&loop_dir.join("datagen.pid")).trim().to_string()
}

fn script(repo: &Path, arg: &str) -> String {
    let out = Command::new("bash")
        .arg(repo.join("scripts/datagen_loop.sh"))
        .arg(arg)
        .env("DATAGEN_LOOP_POLL", "1")
        .env("DATAGEN_LOOP_GATE_POLL", "1")
        // The loop yields to "timed matches" whose command line has this test's own tag (not
        // to a real match that may run on the machine beside the tests).
        .env("DATAGEN_YIELD_TO", yield_tag())
        .current_dir(repo)
        .output()
        .expect("the loop script runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// What this test's stand-in for a timed match has in its command line.
fn yield_tag() -> String {
    format!("nwtest-timed-match-{}", std::process::id())
}

/// A stand-in for a timed match: a process whose command line has [`yield_tag`] and `--tc`.
fn stand_in_match() -> std::process::Child {
    stand_in(&format!("{} --tc 1+0", yield_tag()))
}

/// A process whose command line is `line` (a sleep under another name).
fn stand_in(line: &str) -> std::process::Child {
    Command::new("bash")
        .args(["-c", &format!("exec -a '{line}' sleep 60")])
        .spawn()
        .expect("a stand-in match")
}

/// Waits until the loop's log has `line` `times` times.
fn wait_for_log(loop_dir: &Path, line: &str, times: usize) {
    wait_for(line, || {
        read(&loop_dir.join("loop.log")).matches(line).count() >= times
    });
}

/// Ends a stand-in match.
fn end_match(mut timed: std::process::Child) {
    timed.kill().expect("end the match");
    timed.wait().expect("reap the match");
}

/// The size of `file`, which must exist.
fn file_len(file: &Path) -> u64 {
    std::fs::metadata(file)
        .unwrap_or_else(|e| panic!("{}: {e}", file.display()))
        .len()
}

/// Half a second later, `file` still has `size` bytes.
fn stays(file: &Path, size: u64, what: &str) {
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(file_len(file), size, "{what}");
}

/// A segment's file does not grow: at most its header and one record half a second on.
fn paused_from_its_start(file: &Path) {
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        std::fs::metadata(file).map_or(0, |m| m.len()) <= 64,
        "{} paused from its start",
        file.display()
    );
}

/// Stops the loop of `repo` and waits for it and its datagen to end.
fn stop_loop(repo: &Path, loop_dir: &Path) {
    let child = datagen_pid(loop_dir);
    let looper = read(&loop_dir.join("loop.pid")).trim().to_string();
    assert!(script(repo, "stop").contains("stopped"));
    wait_for("the loop and datagen end", || {
        !alive(&child) && !alive(&looper)
    });
}

/// The state letter of process `pid` (`T` when stopped).
fn proc_state(pid: &str) -> String {
    read(Path::new(&format!("/proc/{pid}/stat")))
        .rsplit_once(") ")
        .and_then(|(_, rest)| rest.split_whitespace().next().map(str::to_string))
        .unwrap_or_default()
}

/// Waits (at most 60 s) until `what` holds.
fn wait_for(what: &str, mut ok: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ok() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "timed out: {what}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_default()
}

fn alive(pid: &str) -> bool {
    !pid.is_empty() && Path::new(&format!("/proc/{pid}")).exists()
}

/// The manifest's line of `file`, split into its tab-separated fields.
fn manifest_line(data: &Path, file: &str) -> Option<Vec<String>> {
    read(&data.join("manifest.tsv"))
        .lines()
        .find(|l| l.starts_with(&format!("{file}\t")))
        .map(|l| l.split('\t').map(str::to_string).collect())
}

/// Stops the loop of `repo` when the test ends, passed or failed, so that no loop is left
/// running behind a failed assertion.
struct StopOnDrop(PathBuf);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        if self.0.exists() {
            let _ = Command::new("bash")
                .arg(self.0.join("scripts/datagen_loop.sh"))
                .arg("stop")
                .current_dir(&self.0)
                .output();
        }
    }
}

#[test]
fn the_loop_builds_restarts_rotates_and_records() {
    let dir: PathBuf = std::env::temp_dir().join(format!("nullwindow-loop-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let repo = dir.join("repo");
    std::fs::create_dir_all(repo.join("scripts")).expect("mkdir");
    for script in ["datagen_loop.sh", "cpu_level.sh"] {
        std::fs::copy(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("scripts")
                .join(script),
            repo.join("scripts").join(script),
        )
        .expect("copy the loop's scripts");
    }
    let engine = repo.join("fake-engine");
    std::fs::write(&engine, FAKE_ENGINE).expect("write the stand-in");
    Command::new("chmod")
        .args(["+x"])
        .arg(&engine)
        .arg(repo.join("scripts/datagen_loop.sh"))
        .status()
        .expect("chmod");
    std::fs::write(repo.join(".gitignore"), "/data\n").expect("gitignore");
    git(&repo, &["init", "-q"]);
    commit_seed(&repo, 1);
    let data = repo.join("data");
    let loop_dir = data.join("loop");

    // Start: the committed revision is built and its segment grows.
    let _stop = StopOnDrop(repo.clone());
    let said = script(&repo, "start");
    assert!(said.contains("datagen loop started"), "{said}");
    wait_for("gen1.bin grows", || {
        std::fs::metadata(data.join("gen1.bin")).is_ok_and(|m| m.len() > 32 * 5)
    });
    // A second start leaves the running loop alone.
    assert!(script(&repo, "start").contains("is running"));
    // `status` names the build the self-play runs, and how it was made.
    let status = script(&repo, "status");
    assert!(status.contains("datagen: the build of"), "{status}");
    assert!(status.contains("make pgo"), "{status}");

    // The self-play dies: the loop starts it again, and the file goes on from where it was.
    let first = datagen_pid(&loop_dir);
    assert!(alive(&first), "datagen pid {first}");
    Command::new("kill")
        .args(["-KILL", &first])
        .status()
        .expect("kill");
    wait_for("a new datagen process", || {
        let p = datagen_pid(&loop_dir);
        p != first && alive(&p)
    });
    // The pid file is written just before the log line: wait for the line too.
    wait_for_log(&loop_dir, "datagen gen1 started", 2);
    let log = read(&loop_dir.join("loop.log"));
    assert_eq!(log.matches("datagen gen1 started").count(), 2, "{log}");

    // A timed match starts: the datagen is stopped while it runs and goes on after it.
    let datagen = datagen_pid(&loop_dir);
    let timed = stand_in_match();
    wait_for("datagen paused for the match", || {
        proc_state(&datagen) == "T"
    });
    let size = file_len(&data.join("gen1.bin"));
    stays(
        &data.join("gen1.bin"),
        size,
        "no self-play beside a timed match",
    );
    // `resume` by hand does not undo the loop's pause while the match runs.
    assert!(script(&repo, "resume").contains("stays paused"));
    assert_eq!(proc_state(&datagen), "T");
    end_match(timed);
    wait_for("datagen resumed after the match", || {
        proc_state(&datagen) != "T"
            && std::fs::metadata(data.join("gen1.bin")).is_ok_and(|m| m.len() > size)
    });
    // A match against the depth-bound Stockfish of `make calibrate` (its `--tc` nominal) is not
    // waited for: the datagen goes on beside it.
    let calibration = stand_in(&format!(
        "{} --b python3 scripts/uci_depth.py --stockfish-elo 1500 --tc 60+0.6",
        yield_tag()
    ));
    let size = std::fs::metadata(data.join("gen1.bin"))
        .expect("gen1")
        .len();
    std::thread::sleep(Duration::from_millis(3000));
    assert_ne!(
        proc_state(&datagen),
        "T",
        "no pause for a calibration match"
    );
    wait_for("self-play beside a calibration match", || {
        std::fs::metadata(data.join("gen1.bin")).is_ok_and(|m| m.len() > size)
    });
    end_match(calibration);
    // A pause by hand holds until `resume`, match or not.
    assert!(script(&repo, "pause").contains("paused"));
    std::thread::sleep(Duration::from_millis(2500));
    assert_eq!(proc_state(&datagen), "T", "a pause by hand holds");
    assert!(script(&repo, "resume").contains("resumed"));
    assert_ne!(proc_state(&datagen), "T");

    // A new seed committed while a timed match runs: gen1 is closed with its manifest line, and
    // gen2's build (which takes the cores) waits for the match to end, then its datagen starts.
    let timed = stand_in_match();
    wait_for_log(&loop_dir, "a timed match runs", 2);
    commit_seed(&repo, 2);
    wait_for_log(&loop_dir, "waits for the timed match to end", 1);
    std::thread::sleep(Duration::from_millis(2500));
    let log = read(&loop_dir.join("loop.log"));
    assert!(
        !log.contains("datagen gen2 started") && !data.join("gen2.bin").exists(),
        "no build nor datagen of gen2 beside the match: {log}"
    );
    end_match(timed);
    wait_for("gen2.bin grows", || {
        std::fs::metadata(data.join("gen2.bin")).is_ok_and(|m| m.len() > 32 * 3)
    });
    let line = manifest_line(&data, "gen1.bin").expect("gen1's manifest line");
    let bytes: u64 = line[7].parse().expect("bytes");
    let gen1 = std::fs::read(data.join("gen1.bin")).expect("gen1");
    assert_eq!(
        gen1.len() as u64,
        bytes,
        "gen1 closed at its manifest's size"
    );
    assert_eq!(line[1], "1");
    assert_eq!(line[3], "4242", "the build's Bench");
    assert_eq!(line[4], "fake.nnue");
    assert_eq!(line[6], ((bytes - 32) / 32).to_string(), "positions");
    let sha = Command::new("sha256sum")
        .arg(data.join("gen1.bin"))
        .output()
        .expect("sha256sum");
    assert!(
        String::from_utf8_lossy(&sha.stdout).starts_with(&line[8]),
        "sha256 of gen1"
    );
    assert!(
        line[10].contains("--games ") && line[10].contains("--seed 1"),
        "{}",
        line[10]
    );
    // gen1 no longer grows.
    std::thread::sleep(Duration::from_millis(400));
    assert_eq!(
        std::fs::metadata(data.join("gen1.bin"))
            .expect("gen1")
            .len(),
        bytes
    );

    // Stop: the loop and its self-play end.
    stop_loop(&repo, &loop_dir);

    // A commit that changes no source (docs): a loop started again uses the build of the same
    // sources instead of building.
    std::fs::write(repo.join("NOTES.md"), "docs\n").expect("write a doc");
    commit_all(&repo, "docs");
    assert!(script(&repo, "start").contains("datagen loop started"));
    wait_for_log(&loop_dir, "datagen gen2 started", 2);
    let log = read(&loop_dir.join("loop.log"));
    assert!(log.contains("its binary reused"), "{log}");
    let builds = log
        .lines()
        .filter(|l| l.split_whitespace().nth(2) == Some("built"))
        .count();
    assert_eq!(builds, 2, "two builds (seeds 1 and 2): {log}");

    // `upgrade`: a later build of the segment's Bench takes over the running segment, whose
    // file goes on from where it was.
    std::fs::create_dir_all(repo.join("src")).expect("mkdir src");
    // Another binary with the same Bench.
    let faster = format!("{FAKE_ENGINE}# faster\n");
    std::fs::write(&engine, &faster).expect("rewrite");
    std::fs::write(repo.join("src/speed.rs"), "// faster\n").expect("a source change");
    commit_all(&repo, "a speed-up");
    let before = datagen_pid(&loop_dir);
    let said = script(&repo, "upgrade");
    assert!(said.contains("built"), "{said}");
    wait_for_log(&loop_dir, "upgrade: gen2 goes on with the build of", 1);
    wait_for("a new datagen process after the upgrade", || {
        let p = datagen_pid(&loop_dir);
        p != before && alive(&p)
    });
    let size = std::fs::metadata(data.join("gen2.bin"))
        .expect("gen2")
        .len();
    wait_for("gen2 grows after the upgrade", || {
        std::fs::metadata(data.join("gen2.bin")).is_ok_and(|m| m.len() > size)
    });
    // The same build again (a commit of docs): nothing to restart.
    std::fs::write(repo.join("NOTES.md"), "more docs\n").expect("write a doc");
    commit_all(&repo, "more docs");
    let running = datagen_pid(&loop_dir);
    assert!(script(&repo, "upgrade").contains("built"));
    wait_for_log(&loop_dir, "upgrade: gen2 already runs the build of", 1);
    assert_eq!(datagen_pid(&loop_dir), running);
    // A build of another Bench under the same seed is refused: the datagen goes on as it was.
    std::fs::write(&engine, FAKE_ENGINE.replace("4242 nodes", "4343 nodes")).expect("rewrite");
    std::fs::write(repo.join("src/speed.rs"), "// another search\n").expect("a search change");
    commit_all(&repo, "another search");
    let running = datagen_pid(&loop_dir);
    assert!(script(&repo, "upgrade").contains("Bench 4343"));
    wait_for_log(&loop_dir, "upgrade refused: ", 1);
    assert_eq!(datagen_pid(&loop_dir), running);
    assert!(alive(&running));
    // Back to the segment's search (what follows restarts the loop from HEAD).
    std::fs::write(&engine, &faster).expect("rewrite");
    std::fs::write(repo.join("src/speed.rs"), "// faster\n").expect("back");
    commit_all(&repo, "back");
    stop_loop(&repo, &loop_dir);

    // Started again beside a timed match, its build at hand: the datagen starts paused.
    let timed = stand_in_match();
    let size = file_len(&data.join("gen2.bin"));
    assert!(script(&repo, "start").contains("datagen loop started"));
    wait_for("the datagen started paused", || {
        let p = datagen_pid(&loop_dir);
        alive(&p) && proc_state(&p) == "T"
    });
    stays(&data.join("gen2.bin"), size, "gen2 paused from its restart");
    end_match(timed);
    stop_loop(&repo, &loop_dir);

    // The work tree keeps a copy of the manifest (a tracked file), the same lines.
    let kept = repo.join("nets/data-manifest.tsv");
    assert_eq!(read(&kept), read(&data.join("manifest.tsv")));
    // The data directory lost (a new machine): the manifest comes back from the kept copy,
    // gen1's remake command with it, and a line of the kept copy that the data directory never
    // had survives the next write.
    let lost_line = "gen0.bin\t0\tabc\t1\tx.nnue\t1\t1\t64\t00\tthen\tmake datagen\n";
    std::fs::write(&kept, format!("{}{lost_line}", read(&kept))).expect("add a line");
    std::fs::remove_dir_all(&data).expect("lose the data");
    let shown = script(&repo, "manifest");
    assert!(
        shown.contains(&line[10]),
        "gen1's remake command restored: {shown}"
    );
    let restored = manifest_line(&data, "gen2.bin").expect("gen2's restored line");
    // Started beside a timed match on a machine without its build: the build waits for the
    // match to end, and no self-play runs meanwhile.
    let timed = stand_in_match();
    assert!(script(&repo, "start").contains("datagen loop started"));
    wait_for_log(&loop_dir, "waits for the timed match to end", 1);
    paused_from_its_start(&data.join("gen2.bin"));
    let log = read(&loop_dir.join("loop.log"));
    assert!(
        !log.contains("building "),
        "no build beside the match: {log}"
    );
    end_match(timed);
    // gen2 is made again from nothing; its line is rewritten for the new file, in both copies.
    wait_for("gen2's line written again", || {
        manifest_line(&data, "gen2.bin").is_some_and(|l| l != restored)
            && read(&kept) == read(&data.join("manifest.tsv"))
    });
    // The Bench of the line comes from the binary's build where the commit that started the
    // segment was never built on this machine.
    assert_eq!(
        manifest_line(&data, "gen2.bin").expect("gen2's line")[3],
        "4242"
    );
    let kept_now = read(&kept);
    assert!(kept_now.contains(lost_line), "{kept_now}");
    assert!(kept_now.contains(&line[10]), "{kept_now}");

    // A segment that has all its games waits (said once) rather than restarting a datagen that
    // would end at once; a higher game count, through `upgrade`, lets it go on.
    let len = |f: &str| std::fs::metadata(data.join(f)).map_or(0, |m| m.len());
    commit_segment(&repo, 3, 20);
    wait_for_log(&loop_dir, "gen3 is complete (20 games)", 1);
    std::thread::sleep(Duration::from_millis(2500));
    let log = read(&loop_dir.join("loop.log"));
    assert_eq!(log.matches("datagen gen3 started").count(), 1, "{log}");
    assert_eq!(log.matches("gen3 is complete").count(), 1, "{log}");
    assert_eq!(len("gen3.bin"), 32 + 20 * 32);
    commit_segment(&repo, 3, 30);
    assert!(script(&repo, "upgrade").contains("built"));
    wait_for_log(&loop_dir, "gen3 is complete (30 games)", 1);
    assert_eq!(len("gen3.bin"), 32 + 30 * 32);
    assert_eq!(
        manifest_line(&data, "gen3.bin").expect("gen3's line")[5],
        "30"
    );
    stop_loop(&repo, &loop_dir);
    let _ = std::fs::remove_dir_all(&dir);
}
