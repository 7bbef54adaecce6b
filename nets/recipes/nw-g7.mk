# nw-g7 (embedded at Bench 2072475 until nw-g8): nw-g6 continued on all of gen5 -
# gen9 and the first 17,922 games of gen10 (nw-g6's self-play), weight decay 0.3 toward zero,
# seed 1, no soup, sized like nw-g6; byte for byte when it was made. gen5 - gen10 were lost with
# the machine: each is made again only by a build of its own Bench and net (docs/history/nets.md,
# "Data segments"); no `datagen` line rebuilds them from this tree.
# Its data (data/ is DATA_DIR's default), each segment with a build of the self-play search
# that made it (docs/history/nets.md, "Data segments"):
#   head -c 51701984 data/gen10.bin > data/gen10-17922.bin   # gen5 ... gen10: see above
# then `make train RECIPE=nets/recipes/nw-g7.mk` writes nets/$(NET_NAME) (trained.nnue).
# Each variable is set with ?=, so the command line overrides it; what each means: Makefile.
# What differs from nw-g6's recipe, which gives the rest:
TRAIN_DATA ?= $(DATA_DIR)/gen5.bin,$(DATA_DIR)/gen6.bin,$(DATA_DIR)/gen7.bin,$(DATA_DIR)/gen8.bin,$(DATA_DIR)/gen9.bin,$(DATA_DIR)/gen10-17922.bin
TRAIN_INIT ?= nets/nw-g6.nnue
TRAIN_SIZE_LIKE ?= nets/nw-g6.nnue
include nets/recipes/nw-g6.mk
