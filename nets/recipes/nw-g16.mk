# nw-g16, embedded from 2026-12-05: nw-g15 with **eight material output buckets** (its output
# layer copied into each), trained on a window of 14.30 M positions of three nets' games: all of
# gen21 (nw-g14's self-play, 4,268,029 positions), the first 7,616,536 positions of gen22
# (nw-g15's), gen18, gen19 and gen20 (nw-g15's, 2,325,637; the last 4%, gen20's tail, held out),
# each castling-less position also mirrored a<->h, its weight decay pulling toward nw-g15's
# weights (`--wd 1.0 --wd-to-init`), sized like nw-g15, one seed and no soup (a soup of two
# seeds held out no better; nw-g15's one output layer cannot be averaged with eight).
# `make train RECIPE=nets/recipes/nw-g16.mk NET_NAME=...` makes it byte for byte.
# Its data, from a clone (data/ is DATA_DIR's default; each file's exact command is in the
# datagen loop's data/manifest.tsv; the slice of gen22 has sha256 ba2ccc13…):
#   make datagen DATAGEN_SEED=21 DATAGEN_EVAL=nets/nw-g14.nnue DATAGEN_GAMES=47937
#   make datagen DATAGEN_SEED=22 DATAGEN_GAMES=G  (G: at least the games of 7,616,536 positions)
#   head -c 243729184 data/gen22.bin > data/gen22-7616536.bin
#   gen18, gen19, gen20: their lines of the manifest
# then `make train RECIPE=nets/recipes/nw-g16.mk` writes nets/$(NET_NAME) (trained.nnue).
# Each variable is set with ?=, so the command line overrides it; what each means: Makefile.
# What differs from nw-g15's recipe, which gives the rest:
TRAIN_DATA ?= $(DATA_DIR)/gen21.bin,$(DATA_DIR)/gen22-7616536.bin,$(DATA_DIR)/gen18.bin,$(DATA_DIR)/gen19.bin,$(DATA_DIR)/gen20.bin
TRAIN_INIT ?= nets/nw-g15.nnue
TRAIN_SIZE_LIKE ?= nets/nw-g15.nnue
TRAIN_BUCKETS ?= 8
TRAIN_SOUP ?=
TRAIN_SEEDS ?= 1
include nets/recipes/nw-g15.mk
