# nw-g13 (embedded from f9d78d2, Bench 2022847, until nw-g14): nw-g12 spread over four king
# buckets (`kb4`) through the factoriser, continued on gen15's first 2,383,922 positions (nw-g12's
# self-play; no mirrored samples), the last 4% held out, seeds 1 and 2, souped nw-g12 30%, each
# continuation 35%; byte for byte (checked when it was made).
# Its data (data/ is DATA_DIR's default), each segment with a build of the self-play search
# that made it (docs/history/nets.md, "Data segments"):
#   make datagen DATAGEN_SEED=15 DATAGEN_EVAL=nets/nw-g12.nnue DATAGEN_GAMES=27000
#   head -c 76285536 data/gen15.bin > data/gen15-2383922.bin
# then `make train RECIPE=nets/recipes/nw-g13.mk` writes nets/$(NET_NAME) (trained.nnue).
# Each variable is set with ?=, so the command line overrides it; what each means: Makefile.
# What differs from nw-g12's recipe, which gives the rest:
TRAIN_DATA ?= $(DATA_DIR)/gen15-2383922.bin
TRAIN_INIT ?= nets/nw-g12.nnue
TRAIN_SIZE_LIKE ?= nets/nw-g12.nnue
TRAIN_KING_BUCKETS ?= kb4
TRAIN_FACTORISE ?= 1
TRAIN_SOUP ?= nets/nw-g12.nnue
TRAIN_SOUP_SHARE ?= 0.3
TRAIN_VAL ?= 0.04
TRAIN_VAL_TAIL ?= 1
include nets/recipes/nw-g12.mk
