# Nullwindow. `make` builds the release binary (OpenBench runs `make EXE=name`).
EXE ?= nullwindow
CARGO ?= cargo
BIN := target/release/nullwindow
# The tune build (search parameters as UCI options), in a target folder of its own so that it
# never takes the place of the release binary.
TUNE_BIN := target/tune/release/nullwindow
SHARED ?= ../shared
TC ?= 5+0.05
GAMES ?= 100

.PHONY: datagen train datagen-loop datagen-status datagen-pause datagen-resume datagen-stop datagen-upgrade datagen-manifest datagen-args
.PHONY: tune spsa
.PHONY: pgo
.PHONY: layers
.PHONY: calibrate
.PHONY: all build test bench bench-eval perft perft-full perft-bench lint fmt clean match latency fuzz fuzz-build soak timeusage lab lab-check lab-tt

all: build
	@if [ "$(EXE)" != "nullwindow" ]; then cp $(BIN) $(EXE); fi

# The CPU level of the build (scripts/cpu_level.sh): x86-64-v3 where this machine's CPU has AVX2,
# BMI2, FMA and their kin, as Ethereal's and Stockfish's builds take the machine's own level;
# `make PORTABLE=1` (or `CPU_LEVEL=`) builds rustc's portable x86-64 binary, for another machine.
# The same search either way (the bench node count does not change).
CPU_LEVEL ?= $(if $(PORTABLE),,$(shell sh scripts/cpu_level.sh 2> /dev/null))
ARCH_FLAGS := $(if $(CPU_LEVEL),-Ctarget-cpu=$(CPU_LEVEL))
build:
	RUSTFLAGS="$(ARCH_FLAGS)" $(CARGO) build --release --locked

# A profile-guided build (as Stockfish's `make profile-build`): an instrumented build runs
# `bench`, llvm-profdata merges what it counted, and the release build is made again with that
# profile into target/pgo/release/nullwindow (`make pgo EXE=name` also copies it). The same
# search (the bench node count does not change), about 5 - 8% more nodes per second
# (docs/history/measurements.md). PROFDATA must read the raw profiles of rustc's own LLVM (`rustc -vV`; LLVM
# 22 for Rust 1.95): `rustup component add llvm-tools` gives a matching one, Debian's
# llvm-profdata-19 reads them, llvm-profdata-14 does not ("unsupported ... format version").
PROFDATA ?= $(shell for p in llvm-profdata-22 llvm-profdata-21 llvm-profdata-20 llvm-profdata-19 \
	$(wildcard $(HOME)/.rustup/toolchains/*/lib/rustlib/*/bin/llvm-profdata) llvm-profdata; do \
	command -v $$p && break; done)
PGO_DIR := $(CURDIR)/target/pgo-data
# Extra rustc flags of both pgo builds: by default `make`'s CPU level (above; `make pgo
# PORTABLE=1` for the portable one). The datagen loop's build names its own: x86-64-v3 where the
# CPU has it (the same games, about 7% less CPU time a game than the portable pgo build,
# docs/history/measurements.md, "The fourth round").
PGO_RUSTFLAGS ?= $(ARCH_FLAGS)
pgo:
	@test -n "$(PROFDATA)" || { echo "make pgo: no llvm-profdata (rustup component add llvm-tools, or set PROFDATA=...)"; exit 1; }
	rm -rf $(PGO_DIR)
	RUSTFLAGS="-Cprofile-generate=$(PGO_DIR) $(PGO_RUSTFLAGS)" $(CARGO) build --release --locked --target-dir target/pgo-gen
	target/pgo-gen/release/nullwindow bench > /dev/null
	$(PROFDATA) merge -o $(PGO_DIR)/merged.profdata $(PGO_DIR)
	RUSTFLAGS="-Cprofile-use=$(PGO_DIR)/merged.profdata $(PGO_RUSTFLAGS)" $(CARGO) build --release --locked --target-dir target/pgo
	target/pgo/release/nullwindow bench | tail -1
	@if [ "$(EXE)" != "nullwindow" ]; then cp target/pgo/release/nullwindow $(EXE); fi

# The full test suite, release mode (what CI runs), then the tune build's tests of the search
# parameters as UCI options (tests/search_params.rs; the other tests run the default build).
test:
	$(CARGO) test --profile release-test --locked
	$(CARGO) test --profile release-test --locked --features tune --test search_params

# The tune build: every parameter of src/search/params.rs a UCI spin option, and `spsa` prints
# the OpenBench SPSA input. `make tune EXE=name` also copies the binary to `name`.
tune:
	$(CARGO) build --release --locked --features tune --target-dir target/tune
	@if [ "$(EXE)" != "nullwindow" ]; then cp $(TUNE_BIN) $(EXE); fi

# A local SPSA tune of the search parameters with scripts/spsa.py over the shared match tool
# (not part of `make test`; long). Resumable: run it again with the same state file.
# make spsa SPSA_OPT="--params RFP_MARGIN,FP_MARGIN --iterations 2000 --tc 5+0.05"
SPSA_OPT ?=
spsa: tune
	python3 scripts/spsa.py --engine $(TUNE_BIN) --match $(SHARED)/tools/match.py \
		--openings $(SHARED)/data/openings/UHO_4060_v4.epd $(SPSA_OPT)

# The behaviour signature: last line 'N nodes M nps'.
bench: build
	$(BIN) bench

# Bench speed of each evaluation, alternated 3 times: hand-crafted, NNUE (AVX2 where the CPU
# has it), NNUE with the portable kernels, NNUE with the AVX-512 kernels (where the CPU has
# them; off by default, see src/nnue/simd.rs). Run on an idle machine.
bench-eval: build
	@for i in 1 2 3; do \
		printf 'hce          '; $(BIN) bench hce | tail -1; \
		printf 'nnue %-7s ' "$$($(BIN) --version | grep -o 'avx2\|scalar' | head -1)"; $(BIN) bench nnue | tail -1; \
		printf 'nnue scalar  '; NULLWINDOW_SIMD=scalar $(BIN) bench nnue | tail -1; \
		printf 'nnue %-7s ' "$$(NULLWINDOW_SIMD=avx512 $(BIN) --version | grep -o 'avx512\|avx2\|scalar' | head -1)"; NULLWINDOW_SIMD=avx512 $(BIN) bench nnue | tail -1; \
	done

# Perft of the start position and Kiwipete.
perft: build
	$(BIN) perft 6
	$(BIN) perft 5 r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1

# Every depth of the classic suite and all 960 Chess960 positions (long).
perft-full:
	$(CARGO) test --profile release-test --locked --test perft -- --ignored --nocapture

# Perft speed next to a bare shakmaty::perft on the same positions.
perft-bench: build
	$(BIN) perft-bench 6
	$(BIN) perft-bench 5 r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1

# The chess lab (long: run when the CPU is free): every search driver at fixed depths on the
# bench positions, pure and engine modes, as Markdown tables, CSV and an SVG chart in docs/lab/.
# Pure mode runs every driver on one- and two-bound memory (LAB_BOUNDS) to LAB_DEPTH, SSS* and
# alpha-beta only to LAB_CAP's depths; finished searches go to a journal in out/, so an
# interrupted `make lab` resumes where it stopped (delete the journal for a fresh run).
LAB_DEPTH ?= 1-7
LAB_CAP ?= SSS=6,AlphaBeta=6
LAB_BOUNDS ?= 1,2
LAB_ENGINE_DEPTH ?= 1-6
LAB_HASH ?= 16
lab: build
	mkdir -p docs/lab out
	$(BIN) lab --pure --depth $(LAB_DEPTH) --cap $(LAB_CAP) --tt-bounds $(LAB_BOUNDS) \
		--hash $(LAB_HASH) --journal out/lab-pure.journal \
		--csv docs/lab/pure.csv --svg docs/lab/pure.svg > docs/lab/pure.md
	$(BIN) lab --engine --depth $(LAB_ENGINE_DEPTH) --hash $(LAB_HASH) \
		--csv docs/lab/engine.csv --svg docs/lab/engine.svg > docs/lab/engine.md

# MT-SSS*, MTD(f) and PVS at one depth over hash sizes 1..256 MB (pure mode), into docs/lab/.
LAB_TT_DEPTH ?= 5
lab-tt: build
	mkdir -p docs/lab
	$(BIN) lab --tt-sweep --pure --depth $(LAB_TT_DEPTH) --csv docs/lab/tt-sweep.csv \
		> docs/lab/tt-sweep.md

# Pure mode: every driver returns the same value on every bench position at depths 5 and 6
# (depths 1-4 are part of `make test`). Long: SSS* dominates (its leaves need exact quiescence
# values; depth 5 on the first 10 bench positions alone took about a minute of CPU).
lab-check:
	$(CARGO) test --profile release-test --locked --test lab_chess -- --ignored --nocapture

# NNUE pipeline (not part of `make test`; long). Data lives outside git, in $(DATA_DIR).
# `make datagen` is resumable: run it again after an interrupt. `make train` turns the data
# into nets/$(NET_NAME); copy it over the embedded net (see README, "NNUE") to ship it.
DATA_DIR ?= data
# The segment of this build: seed 26, nw-g19's games (the embedded net), toward the window of
# issue 68 (>= 20 M, then 50 M) beside its parents' segments. Each segment the loop made (file,
# seed, commit, Bench, net, games, sha256 and the exact command that makes it again) is a line of
# the manifest ($(DATA_DIR)/manifest.tsv, kept in git as nets/data-manifest.tsv); every segment
# and the net each fed: docs/history/nets.md, "Data segments". A closed segment is made again
# while the search is the same with its seed, game count and net: `make datagen DATAGEN_SEED=S
# DATAGEN_GAMES=N DATAGEN_EVAL=nets/NET.nnue` (DATAGEN_EVAL plays with a network file instead of
# the embedded net). The self-play search leaves `matscale` off and begins from book openings: a
# random line of DATAGEN_BOOK (noob_3moves: human openings; not UHO, the test book) and 2 or 3
# random plies; positions expected not to be kept are searched with 1250 soft nodes
# (DATAGEN_NOISY_NODES), a 2 MB table a thread (DATAGEN_HASH; the oldest segments' settings are
# in their manifest lines). Why the games begin from a book: docs/nnue.md, "Where the games
# begin". Without the book (a clone without ../shared): `make datagen DATAGEN_BOOK=
# DATAGEN_RANDOM_PLIES=8` (the old openings). A run is reproducible for a seed whatever the
# thread count.
DATAGEN_SEED ?= 26
# The segment's cap: 600000 games is about 53 M positions (issue 68's 50 M window from one net's
# play); raised from 200000 (17.7 M) during gen23, which the count does not change.
DATAGEN_GAMES ?= 600000
DATAGEN_NODES ?= 5000
DATAGEN_THREADS ?= 2
DATAGEN_NICE ?= nice -n 19
DATAGEN_BOOK ?= $(SHARED)/data/openings/noob_3moves.epd
DATAGEN_RANDOM_PLIES ?= 2
DATAGEN_EVAL ?=
# Soft node limit of a position that is expected not to be kept (`datagen --noisy-nodes`; empty:
# DATAGEN_NODES for every position, as in every segment before gen19).
DATAGEN_NOISY_NODES ?= 1250
# The table of each datagen thread (MB): 2 since gen20 (gen19 and before: 8, datagen's default);
# at 5000 soft nodes a move 2 MB are as good a memory and about 6% faster (docs/nnue.md).
DATAGEN_HASH ?= 2
# The one declaration of a segment's arguments: `make datagen` and the loop both use it.
DATAGEN_ARGS = --games $(DATAGEN_GAMES) --threads $(DATAGEN_THREADS) \
	--seed $(DATAGEN_SEED) --nodes $(DATAGEN_NODES) --random-plies $(DATAGEN_RANDOM_PLIES) \
	$(if $(DATAGEN_NOISY_NODES),--noisy-nodes $(DATAGEN_NOISY_NODES)) --hash $(DATAGEN_HASH) \
	$(if $(DATAGEN_BOOK),--openings $(DATAGEN_BOOK)) $(if $(DATAGEN_EVAL),--eval $(DATAGEN_EVAL)) \
	--out $(DATA_DIR)/gen$(DATAGEN_SEED).bin
datagen: build
	mkdir -p $(DATA_DIR)
	$(DATAGEN_NICE) $(BIN) datagen $(DATAGEN_ARGS)

# The datagen loop (scripts/datagen_loop.sh): self-play at nice 19 that restarts itself, builds
# each segment from a committed revision (`make pgo` where it can), rotates to the new segment
# when DATAGEN_SEED changes in the committed Makefile, and keeps $(DATA_DIR)/manifest.tsv (file,
# seed, commit, Bench, net, positions, sha256, the command that remakes it). Safe to run again:
# a running loop is left alone. `make datagen-status`, `make datagen-pause` / `datagen-resume`
# (SIGSTOP/SIGCONT, for timed matches), `make datagen-stop`; `make datagen-upgrade` builds HEAD
# beside the running datagen and the loop goes on with it if its Bench is the segment's.
datagen-loop datagen-status datagen-pause datagen-resume datagen-stop datagen-upgrade datagen-manifest:
	@DATA_DIR=$(DATA_DIR) scripts/datagen_loop.sh $(subst datagen-,,$(subst datagen-loop,start,$@))
datagen-args:
	@echo $(DATAGEN_ARGS)
# The value of any variable: `make -s print-DATAGEN_SEED`.
print-%:
	@echo $($*)

# A net's recipe is a file of nets/recipes/ that sets the variables below: the data, the parent
# net and every option of `train`. `make train` uses the recipe of the embedded net (nw-g19);
# `make train RECIPE=nets/recipes/nw-g14.mk` rebuilds another net, and any variable given on the
# command line overrides its recipe (`make train TRAIN_DATA=...`). Each recipe file also names the
# `make datagen` and `head -c` commands that make its data again. The variables: TRAIN_DATA, data
# files (comma-separated); TRAIN_INIT, the net continued (`--init`, empty: random weights);
# TRAIN_SIZE_LIKE, the net whose evaluation size the result takes (`--size-like`); TRAIN_HIDDEN,
# N; TRAIN_BUCKETS, material output buckets (1: one output layer, every shipped net before
# nw-g16's 8; with an --init net of one bucket, B > 1 copies its output layer into every bucket);
# TRAIN_KING_BUCKETS (`kb4` from nw-g13, `kb8r` from nw-g18, `kb16r` from nw-g19; empty: none) and TRAIN_FACTORISE (any non-empty value:
# `--factorise`); TRAIN_EPOCHS, TRAIN_BATCH, TRAIN_LR, TRAIN_LAMBDA, TRAIN_WD, TRAIN_THREADS (a
# run is the same for a seed and a thread count); TRAIN_WD_TO_INIT (non-empty: the weight decay
# pulls toward TRAIN_INIT's weights); TRAIN_VAL, the held-out fraction, with TRAIN_VAL_TAIL
# (non-empty) the last positions in file order (whole games) instead of a random sample;
# TRAIN_MIRROR (non-empty: each castling-less position also mirrored a<->h); TRAIN_SEEDS and, with
# TRAIN_SOUP, the soup (scripts/net_soup.py): TRAIN_SOUP with the share TRAIN_SOUP_SHARE, the
# continuations equal shares of the rest. Empty TRAIN_SOUP and TRAIN_WD_TO_INIT give a plain
# continuation. TRAIN_QA, TRAIN_QB (empty: the trainer's 255 and 64, every net to nw-g16; nw-g17: 181, fit): the
# written net's quantisation (`--qa`, `--qb`; TRAIN_QB=fit: the largest on the fast kernel). The nets' lineage: docs/history/nets.md.
RECIPE ?= nets/recipes/nw-g19.mk
include $(RECIPE)
NET_NAME ?= trained.nnue
# With TRAIN_SOUP: one continuation per seed of TRAIN_SEEDS into $(DATA_DIR)/ftS-NET_NAME, then
# the soup: TRAIN_SOUP with the share TRAIN_SOUP_SHARE, the continuations equal shares of the
# rest. Without it: the first seed's net is the result.
TRAIN_RUN_SEEDS := $(if $(TRAIN_SOUP),$(TRAIN_SEEDS),$(firstword $(TRAIN_SEEDS)))
TRAIN_OUT = $(if $(TRAIN_SOUP),$(DATA_DIR)/ft$(1)-$(NET_NAME),nets/$(NET_NAME))
train: build
	set -e; for s in $(TRAIN_RUN_SEEDS); do \
	$(BIN) train --data $(TRAIN_DATA) --hidden $(TRAIN_HIDDEN) --buckets $(TRAIN_BUCKETS) --epochs $(TRAIN_EPOCHS) \
		--batch $(TRAIN_BATCH) --lr $(TRAIN_LR) --lambda $(TRAIN_LAMBDA) --wd $(TRAIN_WD) --seed $$s \
		--threads $(TRAIN_THREADS) --val $(TRAIN_VAL) $(if $(TRAIN_VAL_TAIL),--val-tail) $(if $(TRAIN_INIT),--init $(TRAIN_INIT)) $(if $(TRAIN_WD_TO_INIT),--wd-to-init) \
		$(if $(TRAIN_KING_BUCKETS),--king-buckets $(TRAIN_KING_BUCKETS)) $(if $(TRAIN_FACTORISE),--factorise) $(if $(TRAIN_MIRROR),--mirror) \
		$(if $(TRAIN_SIZE_LIKE),--size-like $(TRAIN_SIZE_LIKE)) $(if $(TRAIN_QA),--qa $(TRAIN_QA)) $(if $(TRAIN_QB),--qb $(TRAIN_QB)) \
		--out $(call TRAIN_OUT,$$s); done
	$(if $(TRAIN_SOUP),python3 scripts/net_soup.py --first-share $(TRAIN_SOUP_SHARE) --out nets/$(NET_NAME) \
		$(TRAIN_SOUP) $(foreach s,$(TRAIN_SEEDS),$(call TRAIN_OUT,$(s))))

lint:
	$(CARGO) fmt --check
	$(CARGO) clippy --release --all-targets --locked -- -D warnings
	$(CARGO) clippy --release --all-targets --locked --features tune -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --no-deps --locked

fmt:
	$(CARGO) fmt

# Import circles and imports from a lower layer of src/ to a higher one (scripts/check_layers.py
# names the layers); exits 1 when there is either.
layers:
	python3 scripts/check_layers.py

# A match against a reference engine with the shared match tool (not part of `make test`).
# make match OPP=/usr/games/glaurung OPP_OPT="--b-opt Threads=1" TC=5+0.05 GAMES=100
OPP ?= /usr/games/glaurung
OPP_OPT ?= --b-opt Threads=1
match: build
	python3 $(SHARED)/tools/match.py --a $(BIN) --b $(OPP) $(OPP_OPT) --tc $(TC) \
		--games $(GAMES) --concurrency 1 --openings $(SHARED)/data/openings/UHO_4060_v4.epd

# The UCI_Elo calibration (scripts/calibrate.py; unattended; about 2 hours at concurrency 1, 30
# minutes with CALIB_CONCURRENCY=2 on two cores; the bottom three knots at 1500 games since
# nw-g18, whose levels 1000 and 1450 came 4 Elo apart at 600 – 1500 games, and 1250 and 1450 14
# apart after the bottom levels' extra lines): each knot a match of an
# internal level against Stockfish 15.1's UCI_LimitStrength (CALIB_KNOTS, LEVEL:SF_UCI_ELO[:GAMES], else CALIB_GAMES), both
# bound by nodes or depth, so load does not change a game; the joint fit written into CALIBRATION
# (src/search/strength.rs) and the engine built again; then the checks (CALIB_CHECKS,
# UCI_ELO:SF_UCI_ELO) against what they ask for. Resumable: a match whose complete log is in
# CALIB_DIR is not played again. After a new net, a new CALIB_DIR. The runs:
# docs/history/measurements.md, "UCI_Elo calibration with nw-g18" (the method: "... with nw-g15").
STOCKFISH ?= /usr/games/stockfish
CALIB_DIR ?= data-calib
CALIB_GAMES ?= 200
CALIB_CONCURRENCY ?= 1
CALIB_KNOTS ?= 1000:1350:1500,1250:1350:1500,1450:1400:1500,1525:1500,1600:1550,1600:1700,1700:1700,1700:1800:1000,1750:1800:1000,1800:1850,1800:1950,1900:1872,2200:2035,2500:2190
CALIB_CHECKS ?= 1320:1350,1400:1350,1500:1491,1650:1598,2000:1785,2500:2035
calibrate: build
	python3 scripts/calibrate.py --out $(CALIB_DIR) --games $(CALIB_GAMES) \
		--concurrency $(CALIB_CONCURRENCY) --knots $(CALIB_KNOTS) --checks $(CALIB_CHECKS) \
		--stockfish $(STOCKFISH) --match $(SHARED)/tools/match.py \
		--openings $(SHARED)/data/openings/noob_3moves.epd --write

# stop->bestmove and isready->readyok latency, 100 tries mid-search per position (prints ms).
latency:
	$(CARGO) test --release --locked --test timing -- --ignored --nocapture latency_figures

# Fuzzing with cargo-fuzz (not part of `make test`): the UCI command handler (sandboxed) and
# position setup, FUZZ_SECONDS in all, split evenly over FUZZ_TARGETS. Needs `cargo install
# cargo-fuzz` and a nightly toolchain (without one, RUSTC_BOOTSTRAP=1 on stable is tried).
# Crashes land in fuzz/artifacts/<target>/; the corpus grows in fuzz/corpus/<target>/.
FUZZ_SECONDS ?= 1800
FUZZ_TARGETS ?= uci_commands position_setup
FUZZ_NICE ?= nice -n 19
FUZZ_CARGO := $(if $(shell rustup toolchain list 2>/dev/null | grep -q '^nightly' && echo y),$(CARGO) +nightly,RUSTC_BOOTSTRAP=1 $(CARGO))
fuzz-build:
	$(FUZZ_NICE) $(FUZZ_CARGO) fuzz build
fuzz: fuzz-build
	@n=$(words $(FUZZ_TARGETS)); each=$$(( $(FUZZ_SECONDS) / $$n )); \
	for t in $(FUZZ_TARGETS); do \
		mkdir -p fuzz/corpus/$$t; \
		echo "fuzzing $$t for $$each s"; \
		$(FUZZ_NICE) $(FUZZ_CARGO) fuzz run $$t $(CURDIR)/fuzz/corpus/$$t $(CURDIR)/fuzz/seeds/$$t -- \
			-max_total_time=$$each -dict=$(CURDIR)/fuzz/uci.dict -max_len=4096 || exit 1; \
	done

# Many fast games for time losses, illegal moves and crashes (not part of `make test`; hours):
# 1000 games at 1+0.01 against PREV (default: itself), 200 at 10+0.1 and 200 at 40/10
# against OPP. More options: SOAK_OPT="--phases self --self-games 2", see scripts/soak.py -h.
PREV ?= $(BIN)
SOAK_OPT ?=
soak: build
	python3 scripts/soak.py --engine $(BIN) --previous $(PREV) --reference $(OPP) \
		--shared $(SHARED) $(SOAK_OPT)

# Clock usage in two real 60+0.6 games against OPP: time per move, clock at move 60 (Markdown).
timeusage: build
	python3 scripts/timeusage.py --engine $(BIN) --opponent $(OPP) --tc 60+0.6 --games 2 \
		--openings $(SHARED)/data/openings/UHO_4060_v4.epd

clean:
	$(CARGO) clean
