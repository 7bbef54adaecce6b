# nw-g17, embedded from 2026-12-06: nw-g16's recipe (continued from nw-g16, weight decay toward
# it, sized like it, 8 output buckets, N = 128) on the first 13,116,509 positions of gen23
# (nw-g16's own games; the last 4% held out), written at QA 181 and the largest QB on the
# engine's fast output kernel (`--qb fit`: 114). The same float net at QB 64 (g18a) played +11.6
# against nw-g16; this one +24.0 [+8.9, +39.1] (900 games, 50k nodes, seed 95; docs/history/nets.md,
# "g18a, g18r" and "nw-g17"). Judged as the candidate g18a-q.
# `make train RECIPE=nets/recipes/nw-g17.mk NET_NAME=...` makes nets/nw-g17.nnue byte for byte.
# Its data, from a clone (data/ is DATA_DIR's default; gen23's exact command is in the datagen
# loop's data/manifest.tsv and its copy nets/data-manifest.tsv):
#   make datagen DATAGEN_SEED=23 DATAGEN_GAMES=G   (G: at least 148,505 games)
#   head -c 419728320 data/gen23.bin > data/gen23-13116509.bin   (sha256 2984d7d3…)
# Each variable is set with ?=, so the command line overrides it; what each means: Makefile.
# What differs from nw-g16's recipe, which gives the rest:
TRAIN_DATA ?= $(DATA_DIR)/gen23-13116509.bin
TRAIN_INIT ?= nets/nw-g16.nnue
TRAIN_SIZE_LIKE ?= nets/nw-g16.nnue
TRAIN_QA ?= 181
TRAIN_QB ?= fit
include nets/recipes/nw-g16.mk
