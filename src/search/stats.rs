//! Search statistics and technique switches.

/// Counters kept per search, so that algorithms and techniques can be compared.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Positions visited in the main search (interior and frontier nodes).
    pub nodes: u64,
    /// Positions visited in quiescence search.
    pub qnodes: u64,
    /// Frontier nodes: hand-overs from the main search to quiescence at depth 0 (for SSS*, the
    /// quiescence calls at the leaves of the depth-`d` tree).
    pub leaves: u64,
    /// Interior nodes: main-search nodes entered with depth > 0 below the root (for SSS*, the
    /// non-frontier nodes popped live from OPEN, terminal ones included).
    pub interior: u64,
    /// SSS*: Γ expansions (rules 2 and 3: a live interior node's first or every child added).
    pub sss_expansions: u64,
    /// SSS*: the most states OPEN held at once (peak over the iterations).
    pub sss_peak_open: u64,
    /// Leaf evaluations (static evaluations actually computed).
    pub evals: u64,
    /// TT probes and hits.
    pub tt_probes: u64,
    /// TT probes that found the position.
    pub tt_hits: u64,
    /// Nodes cut off by a TT bound.
    pub tt_cutoffs: u64,
    /// Beta cutoffs by the index of the move that caused them (last bucket: 7 and later).
    pub cutoffs_by_index: [u64; 8],
    /// Null-window searches repeated with a full window (PVS) or after a reduction (LMR).
    pub pvs_researches: u64,
    /// LMR searches repeated at full depth.
    pub lmr_researches: u64,
    /// Aspiration windows that failed and were widened.
    pub aspiration_researches: u64,
    /// Root searches (one per aspiration window, MT call or full-window pass).
    pub root_searches: u64,
    /// MTD(f) iterations ended by a window search after too many passes (`mtdfallback`).
    pub mtd_fallbacks: u64,
    /// Null-move searches tried and those that cut.
    pub null_tries: u64,
    /// Null-move cutoffs.
    pub null_cutoffs: u64,
    /// Reverse futility cutoffs.
    pub rfp_cutoffs: u64,
    /// Razoring cutoffs.
    pub razor_cutoffs: u64,
    /// ProbCut cutoffs.
    pub probcut_cutoffs: u64,
    /// Enhanced transposition cutoff scans of the children, and the cutoffs they found.
    pub etc_probes: u64,
    /// Enhanced transposition cutoffs.
    pub etc_cutoffs: u64,
    /// Singular extensions granted.
    pub singular_extensions: u64,
    /// Multi-cut prunes from the singular search.
    pub multi_cuts: u64,
    /// Quiet moves pruned by futility, late move pruning and SEE.
    pub moves_pruned: u64,
    /// Syzygy probes that gave a result (root moves ranked, interior WDL probes).
    pub tb_hits: u64,
}

impl SearchStats {
    /// Adds the counters of `other` (another thread's search) to these; peaks take the larger.
    pub fn merge(&mut self, other: &SearchStats) {
        let SearchStats {
            nodes,
            qnodes,
            leaves,
            interior,
            sss_expansions,
            sss_peak_open,
            evals,
            tt_probes,
            tt_hits,
            tt_cutoffs,
            cutoffs_by_index,
            pvs_researches,
            lmr_researches,
            aspiration_researches,
            root_searches,
            mtd_fallbacks,
            null_tries,
            null_cutoffs,
            rfp_cutoffs,
            razor_cutoffs,
            probcut_cutoffs,
            etc_probes,
            etc_cutoffs,
            singular_extensions,
            multi_cuts,
            moves_pruned,
            tb_hits,
        } = other;
        self.nodes += nodes;
        self.qnodes += qnodes;
        self.leaves += leaves;
        self.interior += interior;
        self.sss_expansions += sss_expansions;
        self.sss_peak_open = self.sss_peak_open.max(*sss_peak_open);
        self.evals += evals;
        self.tt_probes += tt_probes;
        self.tt_hits += tt_hits;
        self.tt_cutoffs += tt_cutoffs;
        for (a, b) in self.cutoffs_by_index.iter_mut().zip(cutoffs_by_index) {
            *a += b;
        }
        self.pvs_researches += pvs_researches;
        self.lmr_researches += lmr_researches;
        self.aspiration_researches += aspiration_researches;
        self.root_searches += root_searches;
        self.mtd_fallbacks += mtd_fallbacks;
        self.null_tries += null_tries;
        self.null_cutoffs += null_cutoffs;
        self.rfp_cutoffs += rfp_cutoffs;
        self.razor_cutoffs += razor_cutoffs;
        self.probcut_cutoffs += probcut_cutoffs;
        self.etc_probes += etc_probes;
        self.etc_cutoffs += etc_cutoffs;
        self.singular_extensions += singular_extensions;
        self.multi_cuts += multi_cuts;
        self.moves_pruned += moves_pruned;
        self.tb_hits += tb_hits;
    }

    /// One-line summary for `info string`.
    pub fn summary(&self) -> String {
        let cut_total: u64 = self.cutoffs_by_index.iter().sum();
        let first = if cut_total > 0 {
            self.cutoffs_by_index[0] as f64 * 100.0 / cut_total as f64
        } else {
            0.0
        };
        format!(
            "nodes {} qnodes {} leaves {} interior {} evals {} tthits {}/{} ttcuts {} cutoffs {} firstcut {:.1}% \
             bymove {:?} pvsre {} lmrre {} aspre {} rootsearches {} mtdfallback {} null {}/{} rfp {} razor {} probcut {} etc {}/{} \
             singular {} multicut {} pruned {} sssexp {} ssspeak {} tbhits {}",
            self.nodes,
            self.qnodes,
            self.leaves,
            self.interior,
            self.evals,
            self.tt_hits,
            self.tt_probes,
            self.tt_cutoffs,
            cut_total,
            first,
            self.cutoffs_by_index,
            self.pvs_researches,
            self.lmr_researches,
            self.aspiration_researches,
            self.root_searches,
            self.mtd_fallbacks,
            self.null_cutoffs,
            self.null_tries,
            self.rfp_cutoffs,
            self.razor_cutoffs,
            self.probcut_cutoffs,
            self.etc_cutoffs,
            self.etc_probes,
            self.singular_extensions,
            self.multi_cuts,
            self.moves_pruned,
            self.sss_expansions,
            self.sss_peak_open,
            self.tb_hits
        )
    }
}

/// Declares every search technique once: its field, its `SearchFeatures` name, whether the
/// engine's default setting has it on and whether the "pure" setting does. From that one list
/// come [`Features`], [`FEATURE_NAMES`], [`OFF_BY_DEFAULT`], [`Features::all`],
/// [`Features::pure`] and the name lookup of [`Features::parse`].
macro_rules! features {
    ($( $(#[$doc:meta])* $field:ident: $name:literal, default $def:ident, pure $pure:ident; )*) => {
        /// Switches for every search technique, so that each can be measured against the build
        /// without it (UCI option `SearchFeatures`) and the lab can run a "pure" search.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Features {
            $( $(#[$doc])* pub $field: bool, )*
        }

        /// Names of the switches, in the order of [`Features`].
        pub const FEATURE_NAMES: [&str; FEATURE_COUNT] = [$($name),*];
        const FEATURE_COUNT: usize = [$($name),*].len();
        /// Whether the engine's default setting has each switch on, in the order of
        /// [`FEATURE_NAMES`].
        const DEFAULT_ON: [bool; FEATURE_COUNT] = [$(features!(@on $def)),*];

        impl Features {
            /// Every technique on.
            pub fn all() -> Features {
                Features { $($field: true),* }
            }

            /// The setting of Plaat et al.: move ordering and the TT, no forward pruning,
            /// reductions or extensions (quiescence keeps its stand-pat and capture ordering
            /// only), and TT cutoffs only from entries of exactly the needed depth, so that all
            /// drivers search one fixed-depth tree and agree on its value (see
            /// [`Features::tt_deeper`]).
            pub fn pure() -> Features {
                Features { $($field: features!(@on $pure)),* }
            }

            fn flag(&mut self, name: &str) -> Option<&mut bool> {
                Some(match name {
                    $($name => &mut self.$field,)*
                    _ => return None,
                })
            }
        }
    };
    (@on on) => { true };
    (@on off) => { false };
}

features! {
    /// Null-move pruning.
    nmp: "nmp", default on, pure off;
    /// Reverse futility pruning.
    rfp: "rfp", default on, pure off;
    /// Razoring.
    razoring: "razoring", default on, pure off;
    /// Futility pruning of quiet moves.
    futility: "futility", default on, pure off;
    /// Late move pruning.
    lmp: "lmp", default on, pure off;
    /// SEE pruning in the main search.
    see_pruning: "see", default on, pure off;
    /// Late move reductions.
    lmr: "lmr", default on, pure off;
    /// Internal iterative reduction.
    iir: "iir", default on, pure off;
    /// ProbCut.
    probcut: "probcut", default on, pure off;
    /// Singular extensions (with multi-cut).
    singular: "singular", default on, pure off;
    /// Check extension.
    check_ext: "checkext", default on, pure off;
    /// Enhanced transposition cutoffs.
    etc: "etc", default off, pure off;
    /// Killer moves.
    killers: "killers", default on, pure on;
    /// Counter moves.
    counter: "counter", default on, pure on;
    /// History heuristic.
    history: "history", default on, pure on;
    /// Continuation history: quiet moves ordered (and rewarded) by the moves 1, 2 and 4
    /// plies back too.
    cont_history: "conthist", default on, pure on;
    /// Capture history: captures ordered by MVV-LVA plus what (piece, to, victim) earned in
    /// earlier cutoffs.
    capt_history: "capthist", default off, pure on;
    /// Pawn correction history: the static evaluation that pruning decisions read is
    /// corrected by what searches found beyond it in positions with the same pawn structure.
    corr_hist: "corrhist", default on, pure off;
    /// Non-pawn correction history: as `corr_hist`, keyed by where each side's pieces other
    /// than pawns stand (one table per colour).
    corr_non_pawn: "corrnp", default on, pure off;
    /// Quiescence stands pat on the corrected static eval (of the correction tables that
    /// are on) instead of the raw one.
    corr_qsearch: "corrqs", default on, pure off;
    /// Delta pruning in quiescence.
    delta: "delta", default on, pure off;
    /// SEE pruning of losing captures in quiescence.
    qs_see: "qssee", default on, pure off;
    /// TT cutoffs from entries searched deeper than needed (in quiescence: from any entry).
    /// Off, a cutoff needs an entry of exactly the depth needed (quiescence: a quiescence
    /// entry), so that every driver searches the same fixed-depth tree and finds the same
    /// value; with it, a transposition reached at a greater ply (1.e3 e6 2.e4 e5 against
    /// 1.e4 e5, king triangulations) may take a deeper result, whose value depends on which
    /// driver stored what first.
    tt_deeper: "ttdeeper", default on, pure off;
    /// MTD(f) driver: the first guess of an iteration is the mean of the last two iterations'
    /// values (off: the previous iteration's value), to damp the odd/even swing.
    mtd_avg: "mtdavg", default on, pure off;
    /// MTD(f) driver: when successive passes move the same bound, the test value steps
    /// further each time (1, 2, 4, ... centipawns past the fail-soft value, `mtd_step_x100`),
    /// never past the midpoint once both bounds are known (bisection); off: Plaat's 1-cp
    /// steps from the fail-soft value.
    mtd_steps: "mtdstep", default on, pure off;
    /// MTD(f) driver: after `mtd_max_passes` null-window passes without convergence (search
    /// instability from pruning and reductions), one PVS window search between the bounds
    /// found ends the iteration.
    mtd_fallback: "mtdfallback", default on, pure off;
    /// MTD(f) driver: each null-window pass searches the line of the best root move so far as
    /// PV nodes (as PVS treats its first line: no null move, reverse futility, razoring or
    /// ProbCut there, less reduction), the other moves as cut nodes as before.
    mtd_pv: "mtdpv", default off, pure off;
    /// The butterfly history keeps four tables per side, by whether the opponent attacks the
    /// move's from square and its to square (moving out of or into an attack).
    threat_hist: "threathist", default on, pure off;
    /// The opponent's quiet move into this node earns butterfly history by how much it changed
    /// the static evaluation: −12·(eval before it + eval after it), within ±1600.
    eval_hist: "evalhist", default on, pure off;
    /// The TT keeps whether a position was on a principal variation (Stockfish's `ttPv`): a
    /// node that is, or whose entry was, gets one ply less late move reduction than other
    /// non-PV nodes and no reverse futility pruning.
    tt_pv: "ttpv", default on, pure off;
    /// Hindsight depth: a node reached by a move reduced three plies or more is searched a ply
    /// deeper unless the opponent's position got worse; one reached by any reduction is
    /// searched a ply shallower when both sides' static evals say the position is quiet for
    /// both (their sum above `HINDSIGHT_MARGIN`): Stockfish 17's `priorReduction`.
    hindsight: "hindsight", default on, pure off;
    /// The network's evaluation is scaled by the material on the board,
    /// `eval · (matscale_base + material / 24) / 1024` (material: both sides' pieces at
    /// 100/300/300/500/900 cp), so that a positional edge counts for more with more pieces
    /// left: ahead, keep material; behind, trade. The hand-crafted evaluation is left alone.
    mat_scale: "matscale", default on, pure off;
}

const OFF_COUNT: usize = {
    let (mut i, mut n) = (0, 0);
    while i < FEATURE_COUNT {
        if !DEFAULT_ON[i] {
            n += 1;
        }
        i += 1;
    }
    n
};

/// Techniques that are built and switchable but off in the engine's default setting: `etc`
/// (the lab's enhanced transposition cutoffs; the first ETC lost 46 Elo, the rebuilt one was
/// level at 5+0.05), `capthist` (capture history: level at 20,000 nodes a move, on in the
/// lab's pure setting) and `mtdpv` (the MTD(f) driver's PV line, level at 10,000 nodes a
/// move). Generated from the `default off` rows of the list above (a test holds these three
/// names). The switches that lost and were removed are in [`REMOVED`].
pub const OFF_BY_DEFAULT: [&str; OFF_COUNT] = {
    let mut off = [""; OFF_COUNT];
    let (mut i, mut n) = (0, 0);
    while i < FEATURE_COUNT {
        if !DEFAULT_ON[i] {
            off[n] = FEATURE_NAMES[i];
            n += 1;
        }
        i += 1;
    }
    off
};

/// Switches that were measured, lost or stayed level, and were removed with their code (issue
/// 70): each has an entry in docs/history/experiments.md (what it did, its measured Elo, the
/// last commit that had it). `SearchFeatures` refuses them with a pointer there.
pub const REMOVED: [&str; 23] = [
    "histlmr",
    "histprune",
    "lmrdeeper",
    "improving4",
    "ttcapture",
    "pvttexact",
    "alpharaise",
    "capfutility",
    "qsevasion",
    "negext",
    "tripleext",
    "lmrprune",
    "fiftyscale",
    "cutoffcnt",
    "pawnhist",
    "contcorr",
    "fhblend",
    "qstteval",
    "ttpvlmr",
    "lmrkiller",
    "failbonus",
    "aspfh",
    "egscale",
];

impl Default for Features {
    /// The engine's setting: every technique except those in [`OFF_BY_DEFAULT`].
    fn default() -> Self {
        Features::all().without(&OFF_BY_DEFAULT)
    }
}

impl Features {
    /// These settings with the named techniques switched off (unknown names are ignored).
    fn without(mut self, names: &[&str]) -> Features {
        for n in names {
            if let Some(b) = self.flag(n) {
                *b = false;
            }
        }
        self
    }

    /// Parses a spec such as `default`, `all -etc -probcut`, `pure +lmr`: a base (`default`,
    /// the engine's setting; `all`, every technique; `pure`; `none`; without one, `default`)
    /// followed by `+name`/`-name` switches.
    pub fn parse(spec: &str) -> Result<Features, String> {
        let mut f = Features::default();
        for (i, tok) in spec.split_whitespace().enumerate() {
            let tok = tok.to_ascii_lowercase();
            match tok.as_str() {
                "default" if i == 0 => f = Features::default(),
                "all" if i == 0 => f = Features::all(),
                "pure" if i == 0 => f = Features::pure(),
                "none" if i == 0 => f = Features::all().without(&FEATURE_NAMES),
                t => {
                    let (on, name) = match t.split_at_checked(1) {
                        Some(("+", n)) => (true, n),
                        Some(("-", n)) => (false, n),
                        _ => return Err(format!("'{t}': expected +name or -name")),
                    };
                    match f.flag(name) {
                        Some(b) => *b = on,
                        None if REMOVED.contains(&name) => {
                            return Err(format!(
                                "feature '{name}' was removed (it lost or stayed level in \
                                 games; docs/history/experiments.md)"
                            ));
                        }
                        None => {
                            return Err(format!(
                                "unknown feature '{name}' (known: {})",
                                FEATURE_NAMES.join(" ")
                            ));
                        }
                    }
                }
            }
        }
        Ok(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_feature_specs() {
        assert_eq!(Features::parse("").unwrap(), Features::default());
        assert_eq!(Features::parse("default").unwrap(), Features::default());
        assert_eq!(Features::parse("all").unwrap(), Features::all());
        assert!(Features::all().etc && !Features::default().etc && Features::default().lmr);
        assert!(Features::default().cont_history && !Features::default().capt_history);
        assert!(Features::parse("default +etc").unwrap().etc);
        let f = Features::parse("all -etc -probcut").unwrap();
        assert!(!f.etc && !f.probcut && f.lmr);
        let f = Features::parse("pure +lmr").unwrap();
        assert!(f.lmr && !f.nmp);
        assert!(Features::parse("-nonsense").is_err());
        assert!(Features::parse("etc").is_err());
        let none = Features::parse("none").unwrap();
        assert!(!none.lmr && !none.history && !none.killers && !none.tt_deeper);
        assert!(!Features::pure().tt_deeper && Features::all().tt_deeper);
        let f = Features::parse("all -conthist -capthist").unwrap();
        assert!(!f.cont_history && !f.capt_history && f.history);
        // Every name parses, and `none` switches all of them off.
        for name in FEATURE_NAMES {
            assert!(
                Features::parse(&format!("none +{name}")).unwrap() != none,
                "{name}"
            );
        }
        assert!(Features::pure().cont_history && !Features::pure().threat_hist);
        let f = Features::parse("default +corrhist +corrnp -corrqs").unwrap();
        assert!(f.corr_hist && f.corr_non_pawn && !f.corr_qsearch);
        assert!(!Features::pure().corr_hist && !Features::pure().corr_non_pawn);
        assert!(Features::all().corr_hist && Features::all().corr_qsearch);
    }

    /// The removed switches are refused with a pointer to where they are recorded, and none
    /// of them is a switch today.
    #[test]
    fn removed_switches_are_refused() {
        for name in REMOVED {
            assert!(!FEATURE_NAMES.contains(&name), "{name}");
            for spec in [format!("default +{name}"), format!("all -{name}")] {
                let e = Features::parse(&spec).unwrap_err();
                assert!(e.contains("removed") && e.contains("experiments.md"), "{e}");
            }
        }
        assert!(
            Features::parse("default +nonsense")
                .unwrap_err()
                .contains("unknown")
        );
    }

    /// The lists generated from the one declaration agree: the default setting has exactly
    /// the switches of `OFF_BY_DEFAULT` off, and every name is known once.
    #[test]
    fn off_by_default_is_what_the_default_switches_off() {
        let default = Features::default();
        for name in FEATURE_NAMES {
            let off = OFF_BY_DEFAULT.contains(&name);
            let mut f = default;
            assert_eq!(f.flag(name).map(|b| *b), Some(!off), "{name}");
            assert_eq!(
                FEATURE_NAMES.iter().filter(|n| **n == name).count(),
                1,
                "{name}"
            );
        }
        assert!(OFF_BY_DEFAULT.iter().all(|n| FEATURE_NAMES.contains(n)));
        // The doc comment of `OFF_BY_DEFAULT` names these.
        assert_eq!(OFF_BY_DEFAULT, ["etc", "capthist", "mtdpv"]);
    }
}
