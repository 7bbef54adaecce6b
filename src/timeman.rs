//! Time manager: turns the `go` limits into a soft bound (do not start another iteration past
//! it) and a hard bound (stop now).

use crate::limits::SearchLimits;
use crate::position::Color;

/// Lowest bound the manager hands out, so that a move is always produced.
const MIN_TIME_MS: u64 = 2;
/// Moves the remaining time is spread over in sudden death.
const DEFAULT_MOVES_TO_GO: u64 = 30;

/// Bounds for one search, in milliseconds from its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBounds {
    /// Do not start a new iteration after this.
    pub soft_ms: u64,
    /// Stop the search at once after this.
    pub hard_ms: u64,
}

/// Computes time bounds for the side `us`, or `None` when the search is not on the clock.
pub fn bounds(limits: &SearchLimits, us: Color, move_overhead_ms: u64) -> Option<TimeBounds> {
    if let Some(mt) = limits.movetime {
        let t = mt.saturating_sub(move_overhead_ms).max(MIN_TIME_MS);
        return Some(TimeBounds {
            soft_ms: t,
            hard_ms: t,
        });
    }
    let c = &limits.clock;
    let (time, inc) = match us {
        Color::White => (c.wtime?, c.winc),
        Color::Black => (c.btime?, c.binc),
    };
    let avail = time.saturating_sub(move_overhead_ms);
    let mtg = c.movestogo.map_or(DEFAULT_MOVES_TO_GO, |m| {
        (m as u64).clamp(1, DEFAULT_MOVES_TO_GO)
    });
    // Never plan to use more than 80% of what is left, whatever the increment says, and
    // unless this is the last move before the control never stop later than at half of it.
    let ceiling = avail / 10 * 8;
    let hard_ceiling = if mtg == 1 { ceiling } else { avail / 2 };
    let soft = (avail / mtg + inc / 2).min(ceiling);
    let hard = soft.saturating_mul(3).min(hard_ceiling);
    Some(TimeBounds {
        soft_ms: soft.max(MIN_TIME_MS / 2),
        hard_ms: hard.max(MIN_TIME_MS),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Clock;

    fn clock(wtime: u64, winc: u64, movestogo: Option<u32>) -> SearchLimits {
        SearchLimits {
            clock: Clock {
                wtime: Some(wtime),
                btime: Some(wtime),
                winc,
                binc: winc,
                movestogo,
            },
            ..Default::default()
        }
    }

    #[test]
    fn sudden_death_uses_a_thirtieth() {
        let b = bounds(&clock(60_000, 0, None), Color::White, 0).unwrap();
        assert_eq!(b.soft_ms, 2000);
        assert_eq!(b.hard_ms, 6000);
    }

    #[test]
    fn tiny_clock_never_underflows() {
        let b = bounds(&clock(5, 0, None), Color::Black, 50).unwrap();
        assert!(b.hard_ms >= 1 && b.hard_ms <= 5);
        let b = bounds(&clock(0, 0, Some(1)), Color::White, 1000).unwrap();
        assert!(b.hard_ms <= MIN_TIME_MS);
    }

    #[test]
    fn last_move_before_control_keeps_a_margin() {
        let b = bounds(&clock(10_000, 0, Some(1)), Color::White, 10).unwrap();
        assert!(b.hard_ms < 10_000 - 10);
    }

    #[test]
    fn movetime_minus_overhead() {
        let l = SearchLimits {
            movetime: Some(1000),
            ..Default::default()
        };
        let b = bounds(&l, Color::White, 30).unwrap();
        assert_eq!((b.soft_ms, b.hard_ms), (970, 970));
    }

    #[test]
    fn no_clock_no_bounds() {
        assert!(bounds(&SearchLimits::default(), Color::White, 10).is_none());
    }
}
