# nw-g8 (embedded until nw-g9 the same day): nw-g7 continued on the first 12,147 games of gen11
# (nw-g7's self-play) with seed 1, averaged half and half with nw-g7; byte for byte when it was
# made.
# Its data (data/ is DATA_DIR's default), each segment with a build of the self-play search
# that made it (docs/history/nets.md, "Data segments"):
#   make datagen DATAGEN_SEED=11 DATAGEN_EVAL=nets/nw-g7.nnue DATAGEN_GAMES=12147
#   head -c 34710272 data/gen11.bin > data/gen11-12147.bin
# then `make train RECIPE=nets/recipes/nw-g8.mk` writes nets/$(NET_NAME) (trained.nnue).
# Each variable is set with ?=, so the command line overrides it; what each means: Makefile.
# What differs from nw-g7's recipe, which gives the rest:
TRAIN_DATA ?= $(DATA_DIR)/gen11-12147.bin
TRAIN_INIT ?= nets/nw-g7.nnue
TRAIN_SIZE_LIKE ?= nets/nw-g7.nnue
TRAIN_WD ?= 1.0
TRAIN_WD_TO_INIT ?= 1
TRAIN_SOUP ?= nets/nw-g7.nnue
TRAIN_SEEDS ?= 1
TRAIN_SOUP_SHARE ?= 0.5
include nets/recipes/nw-g7.mk
