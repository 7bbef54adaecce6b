# nw-g12 (embedded at Bench 2256549 until nw-g13): nw-g11 continued on the first 15,117 games
# of gen14 (nw-g11's self-play), no king buckets, a random 1% held out, seeds 1 and 2, souped
# nw-g11 70%, each continuation 15%; byte for byte when it was made.
# Its data (data/ is DATA_DIR's default), each segment with a build of the self-play search
# that made it (docs/history/nets.md, "Data segments"):
#   make datagen DATAGEN_SEED=14 DATAGEN_EVAL=nets/nw-g11.nnue DATAGEN_GAMES=15117
#   head -c 43939904 data/gen14.bin > data/gen14-15117.bin
# then `make train RECIPE=nets/recipes/nw-g12.mk` writes nets/$(NET_NAME) (trained.nnue).
# Each variable is set with ?=, so the command line overrides it; what each means: Makefile.
# What differs from nw-g11's recipe, which gives the rest:
TRAIN_DATA ?= $(DATA_DIR)/gen14-15117.bin
TRAIN_INIT ?= nets/nw-g11.nnue
TRAIN_SIZE_LIKE ?= nets/nw-g11.nnue
TRAIN_SOUP ?= nets/nw-g11.nnue
include nets/recipes/nw-g11.mk
