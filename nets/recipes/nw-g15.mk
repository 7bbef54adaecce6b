# nw-g15, the embedded net since 1a502c1 (Bench 2064632): nw-g14 (four king buckets, `kb4`,
# trained through the factoriser) trained further on the two newest segments, the first
# 2,400,540 positions of gen16 (nw-g13's self-play) and the first 2,404,414 of gen17 (nw-g14's),
# each castling-less position also mirrored a<->h, with its weight decay pulling toward nw-g14's
# weights (`--wd 1.0 --wd-to-init`), the last 4% (whole games of gen17) held out, sized like
# nw-g14, once per seed of TRAIN_SEEDS, then averaged weight for weight with those continuations
# (nw-g14 30%, each continuation 35%). `make train` with this recipe made nw-g15 byte for byte
# (checked on 2026-12-03: `make train NET_NAME=check-g15.nnue`, `cmp` with nets/nw-g15.nnue).
# Its data, from a clone (data/ is DATA_DIR's default):
#   make datagen DATAGEN_SEED=16 DATAGEN_EVAL=nets/nw-g13.nnue DATAGEN_GAMES=26598   # ~1.6 h on 2 free cores
#   head -c 76817312 data/gen16.bin > data/gen16-2400540.bin
#   make datagen DATAGEN_SEED=17 DATAGEN_EVAL=nets/nw-g14.nnue DATAGEN_GAMES=26758
#   head -c 76941280 data/gen17.bin > data/gen17-2404414.bin
# then `make train RECIPE=nets/recipes/nw-g15.mk` writes nets/$(NET_NAME) (trained.nnue).
# Each variable is set with ?=, so the command line overrides it; what each means: Makefile.
# What differs from nw-g14's recipe, which gives the rest:
TRAIN_DATA ?= $(DATA_DIR)/gen16-2400540.bin,$(DATA_DIR)/gen17-2404414.bin
TRAIN_INIT ?= nets/nw-g14.nnue
TRAIN_SIZE_LIKE ?= nets/nw-g14.nnue
TRAIN_SOUP ?= nets/nw-g14.nnue
include nets/recipes/nw-g14.mk
