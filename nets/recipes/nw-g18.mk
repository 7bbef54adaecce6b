# nw-g18, embedded from 2026-12-06 (g21k in the session's notes): nw-g17's recipe on the first
# 14,317,477 positions of gen24 (nw-g17's own games; the last 4% held out), its four king
# buckets split by rank into eight (`kb8r`: rank 1 and rank 2 each a-c | d-e | f-h, ranks 3-4,
# ranks 5-8; each new block starts as a copy of nw-g17's block it lies in, so the run starts at
# nw-g17). Against nw-g17, 50k nodes, 1,800 games (seeds 211, 212): +21.3 [+10.0, +32.6];
# docs/history/nets.md, "g21a, g21k" and "nw-g18".
# `make train RECIPE=nets/recipes/nw-g18.mk NET_NAME=...` makes nets/nw-g18.nnue byte for byte.
# Its data, from a clone (data/ is DATA_DIR's default; gen24's exact command is in the datagen
# loop's data/manifest.tsv and its copy nets/data-manifest.tsv):
#   make datagen DATAGEN_SEED=24 DATAGEN_GAMES=G   (G: at least 164,286 games)
#   head -c 458159296 data/gen24.bin > data/gen24-14317477.bin   (sha256 d33dac76…)
# Each variable is set with ?=, so the command line overrides it; what each means: Makefile.
# What differs from nw-g17's recipe, which gives the rest:
TRAIN_DATA ?= $(DATA_DIR)/gen24-14317477.bin
TRAIN_INIT ?= nets/nw-g17.nnue
TRAIN_SIZE_LIKE ?= nets/nw-g17.nnue
TRAIN_KING_BUCKETS ?= kb8r
include nets/recipes/nw-g17.mk
