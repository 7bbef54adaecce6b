//! A tolerant PGN reader: games as tag pairs, main-line SAN moves and a result.
//!
//! Read: tag pairs `[Name "value"]` (with `\"` and `\\` escapes), movetext with move numbers
//! (`12.`, `12...`, `12.e4`), SAN with `!`/`?` annotations, `0-0` for `O-O`, promotions with
//! or without `=`, comments `{...}` (over several lines) and `;` to the end of the line,
//! variations `(...)` (nested, skipped), NAGs `$n`, `%` escape lines and the result tokens
//! `1-0`, `0-1`, `1/2-1/2`, `*`. Moves are only split into tokens here; whether they are legal
//! is for the caller to find out ([`Game::play`]).

use crate::position::{Move, Position, PositionErr, START_FEN};

/// How a game ended, from the result token (or the `Result` tag).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*` or missing: unfinished or unknown.
    Unknown,
}

impl Outcome {
    fn parse(token: &str) -> Option<Outcome> {
        match token {
            "1-0" => Some(Outcome::WhiteWins),
            "0-1" => Some(Outcome::BlackWins),
            "1/2-1/2" | "½-½" => Some(Outcome::Draw),
            "*" => Some(Outcome::Unknown),
            _ => None,
        }
    }
}

/// One game as read: its tags, the main line's move tokens and its result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Game {
    /// Tag pairs in file order.
    pub tags: Vec<(String, String)>,
    /// Main-line moves as written (move numbers, annotations, comments removed).
    pub moves: Vec<String>,
    /// The result token ending the movetext, if any.
    pub result: Option<Outcome>,
}

impl Game {
    /// The value of tag `name` (case-sensitive, as PGN tags are).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The result: the termination token, else the `Result` tag, else unknown.
    pub fn outcome(&self) -> Outcome {
        self.result
            .or_else(|| self.tag("Result").and_then(Outcome::parse))
            .unwrap_or(Outcome::Unknown)
    }

    /// The start position (the `FEN` tag, or the standard start) and the game's moves played
    /// out from it. A game in a variant other than chess or Chess960, with a bad FEN, or with a
    /// move that is not legal (a null move too) is an error.
    pub fn play(&self) -> Result<(Position, Vec<Move>), String> {
        let chess960 = match self.tag("Variant").map(|v| v.to_ascii_lowercase()) {
            None => false,
            Some(v)
                if matches!(
                    v.as_str(),
                    "" | "standard" | "chess" | "normal" | "from position"
                ) =>
            {
                false
            }
            Some(v) if v.contains("960") || v.contains("fischer") => true,
            Some(v) => return Err(format!("variant '{v}' is not chess")),
        };
        let fen = self.tag("FEN").unwrap_or(START_FEN);
        let start = Position::from_fen(fen, chess960).map_err(|e| e.to_string())?;
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(self.moves.len());
        for (i, text) in self.moves.iter().enumerate() {
            let m = parse_san(&pos, text).map_err(|e| format!("ply {}: {e}", i + 1))?;
            pos.make(m);
            pos.clear_undo();
            moves.push(m);
        }
        Ok((start, moves))
    }
}

/// A SAN move as PGN files write it: annotation glyphs (`!`, `?`), `0-0` for `O-O`, `e8Q`
/// for `e8=Q` and a trailing `e.p.` are accepted.
pub fn parse_san(pos: &Position, text: &str) -> Result<Move, PositionErr> {
    let mut s = text.trim_end_matches(['!', '?']).to_string();
    if let Some(t) = s.strip_suffix("e.p.") {
        s = t.to_string();
    }
    let core = s.trim_end_matches(['+', '#']);
    if core.starts_with('0') {
        s = s.replace('0', "O");
    } else {
        // e8Q, exd8N: a promotion without '='.
        let b = core.as_bytes();
        if b.len() >= 3
            && b[0].is_ascii_lowercase()
            && matches!(b[b.len() - 2], b'1' | b'8')
            && matches!(b[b.len() - 1], b'N' | b'B' | b'R' | b'Q')
        {
            let at = core.len() - 1;
            s.insert(at, '=');
        }
    }
    pos.parse_san(&s)
}

/// Splits PGN text into games. Never fails: what it cannot read as a tag or a token is a move
/// token that will not parse later.
pub fn read_games(text: &str) -> Vec<Game> {
    let mut games = Vec::new();
    let mut game = Game::default();
    // Movetext seen since the game's tags (a tag after movetext starts a new game).
    let mut in_moves = false;
    let mut depth = 0usize;
    let mut chars = text.chars().peekable();
    let mut at_line_start = true;
    let mut token = String::new();

    let finish = |game: &mut Game, games: &mut Vec<Game>| {
        let g = std::mem::take(game);
        if !g.moves.is_empty() || !g.tags.is_empty() || g.result.is_some() {
            games.push(g);
        }
    };

    while let Some(c) = chars.next() {
        let line_start = at_line_start;
        at_line_start = c == '\n';
        // Characters that end a token.
        if (c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | '[' | ';' | '$'))
            && !token.is_empty()
        {
            let t = std::mem::take(&mut token);
            if depth == 0 {
                push_token(&t, &mut game, &mut games, &mut in_moves);
            }
        }
        match c {
            '%' if line_start => skip_line(&mut chars, &mut at_line_start),
            ';' => skip_line(&mut chars, &mut at_line_start),
            '{' => {
                for d in chars.by_ref() {
                    if d == '}' {
                        break;
                    }
                }
            }
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            '$' => {
                while chars.peek().is_some_and(|d| d.is_ascii_digit()) {
                    chars.next();
                }
            }
            '[' if depth == 0 => {
                let (name, value) = read_tag(&mut chars);
                if in_moves {
                    finish(&mut game, &mut games);
                    in_moves = false;
                }
                if !name.is_empty() {
                    game.tags.push((name, value));
                }
            }
            c if c.is_whitespace() || matches!(c, '}' | '[') => {}
            c => token.push(c),
        }
    }
    if !token.is_empty() && depth == 0 {
        push_token(&token, &mut game, &mut games, &mut in_moves);
    }
    finish(&mut game, &mut games);
    games
}

/// Handles one movetext token at the top level.
/// A result token ends the game; movetext after it (with no tags) starts the next one.
fn push_token(token: &str, game: &mut Game, games: &mut Vec<Game>, in_moves: &mut bool) {
    if let Some(outcome) = Outcome::parse(token) {
        game.result = Some(outcome);
        games.push(std::mem::take(game));
        *in_moves = false;
        return;
    }
    // A move number ("12", "12.", "12...", "..."), or one glued to its move ("12.e4").
    let after_digits = token.trim_start_matches(|c: char| c.is_ascii_digit());
    let rest = if after_digits.is_empty() || after_digits.starts_with('.') {
        after_digits.trim_start_matches('.')
    } else {
        token
    };
    if rest.is_empty() {
        return;
    }
    game.moves.push(rest.to_string());
    *in_moves = true;
}

/// Skips to the end of the line.
fn skip_line(chars: &mut std::iter::Peekable<std::str::Chars<'_>>, at_line_start: &mut bool) {
    for d in chars.by_ref() {
        if d == '\n' {
            *at_line_start = true;
            return;
        }
    }
}

/// Reads a tag pair after its `[`: `Name "value"]`.
fn read_tag(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> (String, String) {
    let mut name = String::new();
    while let Some(&c) = chars.peek() {
        if c == '"' || c == ']' || c == '\n' {
            break;
        }
        chars.next();
        if !c.is_whitespace() {
            name.push(c);
        }
    }
    let mut value = String::new();
    if chars.peek() == Some(&'"') {
        chars.next();
        while let Some(c) = chars.next() {
            match c {
                '\\' => {
                    if let Some(d) = chars.next() {
                        value.push(d);
                    }
                }
                '"' | '\n' => break,
                c => value.push(c),
            }
        }
    }
    // The rest of the tag, up to its `]` (not past the line).
    while let Some(&c) = chars.peek() {
        chars.next();
        if c == ']' || c == '\n' {
            break;
        }
    }
    (name, value)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PGN: &str = r#"[Event "Test"]
[Site "?"]
[White "A \"quoted\" name"]
[Result "1-0"]

1. e4 e5 2.Nf3 {a comment
over two lines (with a paren)} Nc6 $1 3. Bb5!? (3. Bc4 Bc5 (3... Nf6) 4. c3) 3...a6
; a line comment 4. d4
4. Ba4 Nf6 5. 0-0 1-0

[Event "Second"]
[Result "1/2-1/2"]
%escaped line 1. h4
1. d4 d5 *

1. c4 e5 0-1
"#;

    #[test]
    fn reads_tags_moves_and_results() {
        let games = read_games(PGN);
        assert_eq!(games.len(), 3, "{games:#?}");
        let g = &games[0];
        assert_eq!(g.tag("White"), Some("A \"quoted\" name"));
        assert_eq!(
            g.moves,
            ["e4", "e5", "Nf3", "Nc6", "Bb5!?", "a6", "Ba4", "Nf6", "0-0"]
        );
        assert_eq!(g.outcome(), Outcome::WhiteWins);
        let (_, moves) = g.play().unwrap();
        assert_eq!(moves.len(), 9);
        let g = &games[1];
        assert_eq!(g.moves, ["d4", "d5"]);
        // The token says unfinished; it wins over the tag.
        assert_eq!(g.outcome(), Outcome::Unknown);
        let g = &games[2];
        assert!(g.tags.is_empty());
        assert_eq!(g.moves, ["c4", "e5"]);
        assert_eq!(g.outcome(), Outcome::BlackWins);
    }

    #[test]
    fn fen_tag_variant_and_bad_moves() {
        let text = "[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n1. a8Q+ Kd7 *\n\n\
                    [Variant \"Crazyhouse\"]\n1. e4 *\n\n1. e4 e4 *\n\n1. e4 -- 2. d4 *";
        let games = read_games(text);
        assert_eq!(games.len(), 4);
        let (start, moves) = games[0].play().unwrap();
        assert_eq!(start.fen(), "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(moves.len(), 2);
        assert!(games[1].play().err().is_some_and(|e| e.contains("variant")));
        assert!(games[2].play().err().is_some_and(|e| e.contains("ply 2")));
        assert!(games[3].play().is_err());
    }

    #[test]
    fn san_forms() {
        let pos = Position::from_fen("r3k3/1P6/8/3pP3/8/8/8/R3K2R w KQq d6 0 1", false).unwrap();
        for (san, uci) in [
            ("O-O", "e1g1"),
            ("0-0-0", "e1c1"),
            ("b8Q", "b7b8q"),
            ("bxa8=N+", "b7a8n"),
            ("exd6e.p.", "e5d6"),
            ("exd6!!", "e5d6"),
            ("Rh8+?", "h1h8"),
        ] {
            let m = parse_san(&pos, san).unwrap_or_else(|e| panic!("{san}: {e}"));
            assert_eq!(pos.move_to_uci(m), uci, "{san}");
        }
        for bad in ["", "Z9", "Ke3", "--", "O-O-O-O", "b8K"] {
            assert!(parse_san(&pos, bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn garbage_does_not_panic() {
        for text in [
            "",
            "[",
            "[Event",
            "[Event \"x",
            "{",
            "(((",
            ")))1. e4",
            "$",
            "1.",
            "...",
            "\u{0}\u{ffff}é",
        ] {
            for g in read_games(text) {
                let _ = g.play();
            }
        }
    }
}
