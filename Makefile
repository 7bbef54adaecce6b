# Nullwindow. `make` builds the release binary (OpenBench runs `make EXE=name`).
EXE ?= nullwindow
CARGO ?= cargo
BIN := target/release/nullwindow
SHARED ?= ../shared
TC ?= 5+0.05
GAMES ?= 100

.PHONY: all build test bench perft perft-full perft-bench lint fmt clean match

all: build
	@if [ "$(EXE)" != "nullwindow" ]; then cp $(BIN) $(EXE); fi

build:
	$(CARGO) build --release --locked

# The full test suite, release mode (what CI runs).
test:
	$(CARGO) test --profile release-test --locked

# The behaviour signature: last line 'N nodes M nps'.
bench: build
	$(BIN) bench

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

lint:
	$(CARGO) fmt --check
	$(CARGO) clippy --release --all-targets --locked -- -D warnings

fmt:
	$(CARGO) fmt

# A match against a reference engine with the shared match tool (not part of `make test`).
# make match OPP=/usr/games/glaurung OPP_OPT="--b-opt Threads=1" TC=5+0.05 GAMES=100
OPP ?= /usr/games/glaurung
OPP_OPT ?= --b-opt Threads=1
match: build
	python3 $(SHARED)/tools/match.py --a $(BIN) --b $(OPP) $(OPP_OPT) --tc $(TC) \
		--games $(GAMES) --concurrency 1 --openings $(SHARED)/data/openings/UHO_4060_v4.epd

clean:
	$(CARGO) clean
