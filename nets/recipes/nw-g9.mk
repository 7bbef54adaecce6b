# nw-g9 (embedded at Bench 2153762 until nw-g10): nw-g7 continued on the first 20,067 games of
# gen11 (nw-g7's self-play), seeds 1 and 2, souped nw-g7 half, each continuation a quarter
# (`--first-share 0.5`); byte for byte when it was made.
# Its data (data/ is DATA_DIR's default), each segment with a build of the self-play search
# that made it (docs/history/nets.md, "Data segments"):
#   make datagen DATAGEN_SEED=11 DATAGEN_EVAL=nets/nw-g7.nnue DATAGEN_GAMES=20067
#   head -c 57406816 data/gen11.bin > data/gen11-20067.bin
# then `make train RECIPE=nets/recipes/nw-g9.mk` writes nets/$(NET_NAME) (trained.nnue).
# Each variable is set with ?=, so the command line overrides it; what each means: Makefile.
# What differs from nw-g8's recipe, which gives the rest:
TRAIN_DATA ?= $(DATA_DIR)/gen11-20067.bin
TRAIN_SEEDS ?= 1 2
include nets/recipes/nw-g8.mk
