# nw-g6 (embedded at Bench 1830241 until nw-g7): nw-g5 continued on all of gen5 - gen8 and the
# first 7,610 games of gen9 (nw-g5's self-play), weight decay 0.3 toward zero, seed 1, no soup, sized like
# nw-g5; byte for byte when it was made. Its data is lost as nw-g7's is (see nw-g7.mk).
# Its data (data/ is DATA_DIR's default), each segment with a build of the self-play search
# that made it (docs/history/nets.md, "Data segments"):
#   head -c 22446368 data/gen9.bin > data/gen9-7610.bin   # gen5 ... gen9: see nw-g7.mk
# then `make train RECIPE=nets/recipes/nw-g6.mk` writes nets/$(NET_NAME) (trained.nnue).
# Each variable is set with ?=, so the command line overrides it; what each means: Makefile.
TRAIN_DATA ?= $(DATA_DIR)/gen5.bin,$(DATA_DIR)/gen6.bin,$(DATA_DIR)/gen7.bin,$(DATA_DIR)/gen8.bin,$(DATA_DIR)/gen9-7610.bin
TRAIN_INIT ?= nets/nw-g5.nnue
TRAIN_SIZE_LIKE ?= nets/nw-g5.nnue
TRAIN_HIDDEN ?= 128
TRAIN_BUCKETS ?= 1
TRAIN_KING_BUCKETS ?=
TRAIN_FACTORISE ?=
TRAIN_EPOCHS ?= 10
TRAIN_BATCH ?= 4096
TRAIN_LR ?= 0.001
TRAIN_LAMBDA ?= 0
TRAIN_WD ?= 0.3
TRAIN_WD_TO_INIT ?=
TRAIN_SOUP ?=
TRAIN_SEEDS ?= 1 2
TRAIN_SOUP_SHARE ?= 0.7
TRAIN_THREADS ?= 2
TRAIN_VAL ?= 0.01
TRAIN_VAL_TAIL ?=
TRAIN_MIRROR ?=
