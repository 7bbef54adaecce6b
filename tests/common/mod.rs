//! A black-box driver for the real binary: write UCI lines, read its output with timeouts.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    out: Receiver<String>,
    /// Every line read so far.
    pub seen: Vec<String>,
}

impl Engine {
    /// Starts the binary built by cargo for this test run.
    pub fn start() -> Engine {
        Engine::start_with_env(&[])
    }

    /// Starts the binary with these environment variables set.
    pub fn start_with_env(vars: &[(&str, &str)]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_nullwindow"))
            .envs(vars.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start engine");
        let stdout = child.stdout.take().expect("stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut line = String::new();
            while r.read_line(&mut line).map(|n| n > 0).unwrap_or(false) {
                if tx.send(line.trim_end().to_string()).is_err() {
                    break;
                }
                line.clear();
            }
        });
        Engine {
            child,
            stdin,
            out: rx,
            seen: Vec::new(),
        }
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends raw bytes.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        if let Some(s) = self.stdin.as_mut() {
            s.write_all(bytes).expect("write");
            s.flush().expect("flush");
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Closes stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Reads lines until one satisfies `pred` (returned) or the timeout passes (panic).
    pub fn wait_for(&mut self, timeout: Duration, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.out.recv_timeout(left) {
                Ok(l) => {
                    self.seen.push(l.clone());
                    if pred(&l) {
                        return l;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("timed out; output so far:\n{}", self.seen.join("\n"))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("engine exited; output so far:\n{}", self.seen.join("\n"))
                }
            }
        }
    }

    /// Reads lines up to one that starts with `prefix`.
    pub fn expect(&mut self, prefix: &str) -> String {
        let p = prefix.to_string();
        self.wait_for(Duration::from_secs(30), move |l| l.starts_with(&p))
    }

    /// Sends `stop` and waits for the `bestmove` line: the line and how long it took.
    pub fn stop_timed(&mut self) -> (String, Duration) {
        let t = Instant::now();
        self.send("stop");
        let bm = self.expect("bestmove");
        (bm, t.elapsed())
    }

    /// Sends `isready` and collects every line up to `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        let from = self.seen.len();
        self.send("isready");
        self.expect("readyok");
        self.seen[from..self.seen.len() - 1].to_vec()
    }

    /// The FEN the engine reports with `d`.
    pub fn fen(&mut self) -> String {
        self.send("d");
        let l = self.expect("Fen: ");
        l.trim_start_matches("Fen: ").to_string()
    }

    /// Lines read that are not yet consumed, waiting up to `ms` for more.
    pub fn drain(&mut self, ms: u64) -> Vec<String> {
        let mut v = Vec::new();
        while let Ok(l) = self.out.recv_timeout(Duration::from_millis(ms)) {
            self.seen.push(l.clone());
            v.push(l);
        }
        v
    }

    /// Waits for the process to exit, at most `timeout`; true if it did.
    pub fn exited_within(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        false
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The move of a `bestmove` line.
pub fn bestmove(line: &str) -> String {
    line.split_whitespace().nth(1).unwrap_or("").to_string()
}
