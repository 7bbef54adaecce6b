# nw-g11 (embedded at Bench 2154765 until nw-g12): nw-g10 continued on the first 19,781 games
# of gen13 (nw-g10's self-play), seeds 1 and 2, souped nw-g10 70%, each continuation 15%; byte
# for byte when it was made.
# Its data (data/ is DATA_DIR's default), each segment with a build of the self-play search
# that made it (docs/history/nets.md, "Data segments"):
#   make datagen DATAGEN_SEED=13 DATAGEN_EVAL=nets/nw-g10.nnue DATAGEN_GAMES=19781
#   head -c 57118816 data/gen13.bin > data/gen13-19781.bin
# then `make train RECIPE=nets/recipes/nw-g11.mk` writes nets/$(NET_NAME) (trained.nnue).
# Each variable is set with ?=, so the command line overrides it; what each means: Makefile.
# What differs from nw-g10's recipe, which gives the rest:
TRAIN_DATA ?= $(DATA_DIR)/gen13-19781.bin
TRAIN_INIT ?= nets/nw-g10.nnue
TRAIN_SIZE_LIKE ?= nets/nw-g10.nnue
TRAIN_SOUP ?= nets/nw-g10.nnue
TRAIN_SOUP_SHARE ?= 0.7
include nets/recipes/nw-g10.mk
