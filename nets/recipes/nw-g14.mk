# nw-g14 (embedded from ea9eb98, Bench 2255101, until nw-g15): nw-g13 continued on gen15's
# first 2,383,922 positions (nw-g12's self-play) and gen16's first 2,400,540 (nw-g13's), mirrored
# samples, the last 4% (whole gen16 games) held out, seeds 1 and 2, souped nw-g13 30%, each
# continuation 35%: the recipe nw-g15 took over with the data window moved one segment on.
# Its data (data/ is DATA_DIR's default), each segment with a build of the self-play search
# that made it (docs/history/nets.md, "Data segments"):
#   make datagen DATAGEN_SEED=15 DATAGEN_EVAL=nets/nw-g12.nnue DATAGEN_GAMES=27000
#   head -c 76285536 data/gen15.bin > data/gen15-2383922.bin
#   make datagen DATAGEN_SEED=16 DATAGEN_EVAL=nets/nw-g13.nnue DATAGEN_GAMES=26598
#   head -c 76817312 data/gen16.bin > data/gen16-2400540.bin
# then `make train RECIPE=nets/recipes/nw-g14.mk` writes nets/$(NET_NAME) (trained.nnue).
# Each variable is set with ?=, so the command line overrides it; what each means: Makefile.
# What differs from nw-g13's recipe, which gives the rest:
TRAIN_DATA ?= $(DATA_DIR)/gen15-2383922.bin,$(DATA_DIR)/gen16-2400540.bin
TRAIN_INIT ?= nets/nw-g13.nnue
TRAIN_SIZE_LIKE ?= nets/nw-g13.nnue
TRAIN_SOUP ?= nets/nw-g13.nnue
TRAIN_MIRROR ?= 1
include nets/recipes/nw-g13.mk
