# nw-g10 (embedded at Bench 2233526 until nw-g11): nw-g9 continued on the first 24,084 games of
# gen12 (nw-g9's self-play), seeds 1 and 2, souped nw-g9 half, each continuation a quarter; byte
# for byte when it was made.
# Its data (data/ is DATA_DIR's default), each segment with a build of the self-play search
# that made it (docs/history/nets.md, "Data segments"):
#   make datagen DATAGEN_SEED=12 DATAGEN_EVAL=nets/nw-g9.nnue DATAGEN_GAMES=24084
#   head -c 69263808 data/gen12.bin > data/gen12-24084.bin
# then `make train RECIPE=nets/recipes/nw-g10.mk` writes nets/$(NET_NAME) (trained.nnue).
# Each variable is set with ?=, so the command line overrides it; what each means: Makefile.
# What differs from nw-g9's recipe, which gives the rest:
TRAIN_DATA ?= $(DATA_DIR)/gen12-24084.bin
TRAIN_INIT ?= nets/nw-g9.nnue
TRAIN_SIZE_LIKE ?= nets/nw-g9.nnue
TRAIN_SOUP ?= nets/nw-g9.nnue
include nets/recipes/nw-g9.mk
