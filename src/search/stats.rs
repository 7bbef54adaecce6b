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

/// Switches for every search technique, so that each can be measured against the build
/// without it (UCI option `SearchFeatures`) and the lab can run a "pure" search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Null-move pruning.
    pub nmp: bool,
    /// Reverse futility pruning.
    pub rfp: bool,
    /// Razoring.
    pub razoring: bool,
    /// Futility pruning of quiet moves.
    pub futility: bool,
    /// Late move pruning.
    pub lmp: bool,
    /// SEE pruning in the main search.
    pub see_pruning: bool,
    /// Late move reductions.
    pub lmr: bool,
    /// Internal iterative reduction.
    pub iir: bool,
    /// ProbCut.
    pub probcut: bool,
    /// Singular extensions (with multi-cut).
    pub singular: bool,
    /// Check extension.
    pub check_ext: bool,
    /// Enhanced transposition cutoffs.
    pub etc: bool,
    /// Killer moves.
    pub killers: bool,
    /// Counter moves.
    pub counter: bool,
    /// History heuristic.
    pub history: bool,
    /// Continuation history: quiet moves ordered (and rewarded) by the moves 1, 2 and 4
    /// plies back too.
    pub cont_history: bool,
    /// Capture history: captures ordered by MVV-LVA plus what (piece, to, victim) earned in
    /// earlier cutoffs.
    pub capt_history: bool,
    /// Late move reductions read the butterfly plus continuation history of a quiet move
    /// (off: the butterfly history only).
    pub hist_lmr: bool,
    /// Quiet-history pruning: late quiets with a very bad continuation history are skipped
    /// at low depth.
    pub hist_prune: bool,
    /// Pawn correction history: the static evaluation that pruning decisions read is
    /// corrected by what searches found beyond it in positions with the same pawn structure.
    pub corr_hist: bool,
    /// Non-pawn correction history: as `corr_hist`, keyed by where each side's pieces other
    /// than pawns stand (one table per colour).
    pub corr_non_pawn: bool,
    /// Quiescence stands pat on the corrected static eval (of the correction tables that
    /// are on) instead of the raw one.
    pub corr_qsearch: bool,
    /// Delta pruning in quiescence.
    pub delta: bool,
    /// SEE pruning of losing captures in quiescence.
    pub qs_see: bool,
    /// TT cutoffs from entries searched deeper than needed (in quiescence: from any entry).
    /// Off, a cutoff needs an entry of exactly the depth needed (quiescence: a quiescence
    /// entry), so that every driver searches the same fixed-depth tree and finds the same
    /// value; with it, a transposition reached at a greater ply (1.e3 e6 2.e4 e5 against
    /// 1.e4 e5, king triangulations) may take a deeper result, whose value depends on which
    /// driver stored what first.
    pub tt_deeper: bool,
    /// LMR re-search depth: after a reduced search fails high, the re-search goes a ply
    /// deeper if the score is far above the best so far, a ply shallower if it is barely above.
    pub lmr_deeper: bool,
    /// `improving` looks four plies back when the eval two plies back is missing (in check),
    /// and counts as improving when neither exists.
    pub improving4: bool,
    /// Late move reductions reduce quiet moves a ply more when the TT move is noisy.
    pub tt_capture: bool,
    /// TT cutoffs in PV nodes too, from exact entries only (without it PV nodes never cut
    /// on the TT).
    pub pv_tt_exact: bool,
    /// MTD(f) driver: the first guess of an iteration is the mean of the last two iterations'
    /// values (off: the previous iteration's value), to damp the odd/even swing.
    pub mtd_avg: bool,
    /// MTD(f) driver: when successive passes move the same bound, the test value steps
    /// further each time (1, 2, 4, ... centipawns past the fail-soft value, `mtd_step_x100`),
    /// never past the midpoint once both bounds are known (bisection); off: Plaat's 1-cp
    /// steps from the fail-soft value.
    pub mtd_steps: bool,
    /// MTD(f) driver: after `mtd_max_passes` null-window passes without convergence (search
    /// instability from pruning and reductions), one PVS window search between the bounds
    /// found ends the iteration.
    pub mtd_fallback: bool,
    /// MTD(f) driver: each null-window pass searches the line of the best root move so far as
    /// PV nodes (as PVS treats its first line: no null move, reverse futility, razoring or
    /// ProbCut there, less reduction), the other moves as cut nodes as before.
    pub mtd_pv: bool,
    /// Stronger negative extensions of a TT move that is not singular (the search without it
    /// reached singular beta, but not beta): two plies off when the TT score is at least beta
    /// (one in PV nodes), two at a cut node, one when the TT score is no better than what
    /// the other moves reached; off: one ply off when the TT score is at least beta.
    pub neg_ext: bool,
    /// Triple extension: at non-PV nodes a quiet TT move whose alternatives fail far below
    /// singular beta (`se_triple_margin`) is extended three plies (counted against the
    /// double-extension limit of the path).
    pub triple_ext: bool,
    /// Futility and SEE pruning of a quiet move read the depth it would be searched at after
    /// late move reductions (node depth − 1 − its reduction), not the node's depth.
    pub lmr_prune: bool,
    /// The static evaluation shrinks toward a draw as the fifty-move counter runs:
    /// `eval · (200 − halfmove clock) / 200`, so that a search sees progress (a capture or a
    /// pawn move) as worth something and shuffling as worth less.
    pub fifty_scale: bool,
    /// The butterfly history keeps four tables per side, by whether the opponent attacks the
    /// move's from square and its to square (moving out of or into an attack).
    pub threat_hist: bool,
    /// The opponent's quiet move into this node earns butterfly history by how much it changed
    /// the static evaluation: −12·(eval before it + eval after it), within ±1600.
    pub eval_hist: bool,
    /// Late move reductions reduce a ply more when the children searched so far under the
    /// parent cut more than three times (Stockfish's `cutoffCnt`).
    pub cutoff_cnt: bool,
    /// Pawn history: a quiet move's (piece, to) score per pawn structure (its key modulo
    /// 1024), added to the ordering score and updated with the butterfly history.
    pub pawn_hist: bool,
    /// The TT keeps whether a position was on a principal variation (Stockfish's `ttPv`): a
    /// node that is, or whose entry was, gets one ply less late move reduction than other
    /// non-PV nodes and no reverse futility pruning.
    pub tt_pv: bool,
    /// Continuation correction history: a correction table indexed by the (piece, to) of the
    /// moves two plies and one ply back, added to the pawn and non-pawn corrections.
    pub cont_corr: bool,
    /// A fail-high score is pulled toward beta: in the node search by depth,
    /// `(score · depth + beta) / (depth + 1)`, in quiescence half way, `(score + beta) / 2`
    /// (not for mate or tablebase scores), so that one lucky deep line does not lift the
    /// bound the parent and the TT see.
    pub fh_blend: bool,
    /// Quiescence stands pat on the TT score instead of the static eval when the entry's
    /// bound says the true value lies beyond the eval in that direction (a lower bound above
    /// it, an upper bound below it, or an exact score), as the main search refines its eval.
    pub qs_tt_eval: bool,
    /// With `ttpv`, a PV-flagged node's late moves are reduced up to two plies less again:
    /// one when its TT score is above alpha, one when its TT entry is at least as deep as
    /// the node (Stockfish 16's `ttPv` reduction).
    pub tt_pv_lmr: bool,
    /// Late move reductions take a ply off a quiet move that is a killer or the counter move
    /// (as Ethereal does).
    pub lmr_killer: bool,
    /// A node that fails low rewards the opponent's quiet move that led to it (butterfly and
    /// continuation history, as Stockfish rewards the prior counter move): that move refuted
    /// every reply.
    pub fail_bonus: bool,
    /// Hindsight depth: a node reached by a move reduced three plies or more is searched a ply
    /// deeper unless the opponent's position got worse; one reached by any reduction is
    /// searched a ply shallower when both sides' static evals say the position is quiet for
    /// both (their sum above `HINDSIGHT_MARGIN`): Stockfish 17's `priorReduction`.
    pub hindsight: bool,
}

/// Names of the switches, in the order of [`Features`].
pub const FEATURE_NAMES: [&str; 49] = [
    "nmp",
    "rfp",
    "razoring",
    "futility",
    "lmp",
    "see",
    "lmr",
    "iir",
    "probcut",
    "singular",
    "checkext",
    "etc",
    "killers",
    "counter",
    "history",
    "conthist",
    "capthist",
    "histlmr",
    "histprune",
    "corrhist",
    "corrnp",
    "corrqs",
    "delta",
    "qssee",
    "ttdeeper",
    "lmrdeeper",
    "improving4",
    "ttcapture",
    "pvttexact",
    "mtdavg",
    "mtdstep",
    "mtdfallback",
    "mtdpv",
    "negext",
    "tripleext",
    "lmrprune",
    "fiftyscale",
    "threathist",
    "evalhist",
    "cutoffcnt",
    "pawnhist",
    "ttpv",
    "contcorr",
    "fhblend",
    "qstteval",
    "ttpvlmr",
    "lmrkiller",
    "failbonus",
    "hindsight",
];

/// Techniques that are built and switchable but off in the engine's default setting, because
/// games measured a loss with them or no gain; every run is in the README's technique table
/// and docs/measurements.md. ETC (rebuilt): level at 5+0.05 (the first ETC lost 46 Elo);
/// capture history, history in LMR, quiet-history pruning, the stronger negative and the
/// triple singular extensions: level at 20,000 nodes a move; the LMR re-search depth,
/// improving from four plies back, LMR after a noisy TT move, exact TT cutoffs in PV nodes,
/// MTD(f)'s PV line, pruning at the reduced depth, the fifty-move damping of the evaluation,
/// the cutoff count in LMR and pawn history: level at 10,000 nodes a move; continuation
/// correction history, fail-high blending, the TT bound as stand pat, the stronger `ttpv`
/// reduction and less LMR for killers: level at 20,000 nodes a move.
pub const OFF_BY_DEFAULT: [&str; 21] = [
    "etc",
    "mtdpv",
    "capthist",
    "histlmr",
    "histprune",
    "lmrdeeper",
    "improving4",
    "ttcapture",
    "pvttexact",
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
];

impl Default for Features {
    /// The engine's setting: every technique except those in [`OFF_BY_DEFAULT`].
    fn default() -> Self {
        Features::all().without(&OFF_BY_DEFAULT)
    }
}

impl Features {
    /// Every technique on.
    pub fn all() -> Features {
        Features {
            nmp: true,
            rfp: true,
            razoring: true,
            futility: true,
            lmp: true,
            see_pruning: true,
            lmr: true,
            iir: true,
            probcut: true,
            singular: true,
            check_ext: true,
            etc: true,
            killers: true,
            counter: true,
            history: true,
            cont_history: true,
            capt_history: true,
            hist_lmr: true,
            hist_prune: true,
            corr_hist: true,
            corr_non_pawn: true,
            corr_qsearch: true,
            delta: true,
            qs_see: true,
            tt_deeper: true,
            lmr_deeper: true,
            improving4: true,
            tt_capture: true,
            pv_tt_exact: true,
            mtd_avg: true,
            mtd_steps: true,
            mtd_fallback: true,
            mtd_pv: true,
            neg_ext: true,
            triple_ext: true,
            lmr_prune: true,
            fifty_scale: true,
            threat_hist: true,
            eval_hist: true,
            cutoff_cnt: true,
            pawn_hist: true,
            tt_pv: true,
            cont_corr: true,
            fh_blend: true,
            qs_tt_eval: true,
            tt_pv_lmr: true,
            lmr_killer: true,
            fail_bonus: true,
            hindsight: true,
        }
    }

    /// The setting of Plaat et al.: move ordering and the TT, no forward pruning, reductions
    /// or extensions (quiescence keeps its stand-pat and capture ordering only), and TT
    /// cutoffs only from entries of exactly the needed depth, so that all drivers search one
    /// fixed-depth tree and agree on its value (see [`Features::tt_deeper`]).
    pub fn pure() -> Features {
        Features {
            nmp: false,
            rfp: false,
            razoring: false,
            futility: false,
            lmp: false,
            see_pruning: false,
            lmr: false,
            iir: false,
            probcut: false,
            singular: false,
            check_ext: false,
            etc: false,
            killers: true,
            counter: true,
            history: true,
            cont_history: true,
            capt_history: true,
            hist_lmr: false,
            hist_prune: false,
            corr_hist: false,
            corr_non_pawn: false,
            corr_qsearch: false,
            delta: false,
            qs_see: false,
            tt_deeper: false,
            lmr_deeper: false,
            improving4: false,
            tt_capture: false,
            pv_tt_exact: false,
            mtd_avg: false,
            mtd_steps: false,
            mtd_fallback: false,
            mtd_pv: false,
            neg_ext: false,
            triple_ext: false,
            lmr_prune: false,
            fifty_scale: false,
            threat_hist: false,
            eval_hist: false,
            cutoff_cnt: false,
            pawn_hist: false,
            tt_pv: false,
            cont_corr: false,
            fh_blend: false,
            qs_tt_eval: false,
            tt_pv_lmr: false,
            lmr_killer: false,
            fail_bonus: false,
            hindsight: false,
        }
    }

    /// These settings with the named techniques switched off (unknown names are ignored).
    fn without(mut self, names: &[&str]) -> Features {
        for n in names {
            if let Some(b) = self.flag(n) {
                *b = false;
            }
        }
        self
    }

    fn flag(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "nmp" => &mut self.nmp,
            "rfp" => &mut self.rfp,
            "razoring" => &mut self.razoring,
            "futility" => &mut self.futility,
            "lmp" => &mut self.lmp,
            "see" => &mut self.see_pruning,
            "lmr" => &mut self.lmr,
            "iir" => &mut self.iir,
            "probcut" => &mut self.probcut,
            "singular" => &mut self.singular,
            "checkext" => &mut self.check_ext,
            "etc" => &mut self.etc,
            "killers" => &mut self.killers,
            "counter" => &mut self.counter,
            "history" => &mut self.history,
            "conthist" => &mut self.cont_history,
            "capthist" => &mut self.capt_history,
            "histlmr" => &mut self.hist_lmr,
            "histprune" => &mut self.hist_prune,
            "corrhist" => &mut self.corr_hist,
            "corrnp" => &mut self.corr_non_pawn,
            "corrqs" => &mut self.corr_qsearch,
            "delta" => &mut self.delta,
            "qssee" => &mut self.qs_see,
            "ttdeeper" => &mut self.tt_deeper,
            "lmrdeeper" => &mut self.lmr_deeper,
            "improving4" => &mut self.improving4,
            "ttcapture" => &mut self.tt_capture,
            "pvttexact" => &mut self.pv_tt_exact,
            "mtdavg" => &mut self.mtd_avg,
            "mtdstep" => &mut self.mtd_steps,
            "mtdfallback" => &mut self.mtd_fallback,
            "mtdpv" => &mut self.mtd_pv,
            "negext" => &mut self.neg_ext,
            "tripleext" => &mut self.triple_ext,
            "lmrprune" => &mut self.lmr_prune,
            "fiftyscale" => &mut self.fifty_scale,
            "threathist" => &mut self.threat_hist,
            "evalhist" => &mut self.eval_hist,
            "cutoffcnt" => &mut self.cutoff_cnt,
            "pawnhist" => &mut self.pawn_hist,
            "ttpv" => &mut self.tt_pv,
            "contcorr" => &mut self.cont_corr,
            "fhblend" => &mut self.fh_blend,
            "qstteval" => &mut self.qs_tt_eval,
            "ttpvlmr" => &mut self.tt_pv_lmr,
            "lmrkiller" => &mut self.lmr_killer,
            "failbonus" => &mut self.fail_bonus,
            "hindsight" => &mut self.hindsight,
            _ => return None,
        })
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
        let f = Features::parse("all -conthist -capthist -histlmr -histprune").unwrap();
        assert!(!f.cont_history && !f.capt_history && !f.hist_lmr && !f.hist_prune && f.history);
        // Every name parses, and `none` switches all of them off.
        for name in FEATURE_NAMES {
            assert!(
                Features::parse(&format!("none +{name}")).unwrap() != none,
                "{name}"
            );
        }
        assert!(Features::pure().cont_history && !Features::pure().hist_prune);
        let f = Features::parse("default +corrhist +corrnp -corrqs").unwrap();
        assert!(f.corr_hist && f.corr_non_pawn && !f.corr_qsearch);
        assert!(!Features::pure().corr_hist && !Features::pure().corr_non_pawn);
        assert!(Features::all().corr_hist && Features::all().corr_qsearch);
        let f = Features::parse("default +negext +tripleext").unwrap();
        assert!(f.neg_ext && f.triple_ext);
        assert!(!Features::default().neg_ext && !Features::default().triple_ext);
        assert!(!Features::pure().neg_ext && !Features::pure().triple_ext);
    }
}
