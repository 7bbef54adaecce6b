# nw-g19, embedded from 2026-12-07 (g22b in the session's notes): nw-g18's recipe with sixteen
# king buckets (`kb16r`, kb8r split further: rank 1 a-b then each file, rank 2 a-c | d-e | f |
# g-h, rank 3 halves, rank 4, ranks 5-6, ranks 7-8), from nw-g17 on the same first 14,317,477
# positions of gen24 as nw-g18: each new block starts as a copy of nw-g17's block it lies in.
# Against nw-g18, 50k nodes, 1,800 games (seeds 221, 222): +14.3 [+3.5, +25.1];
# docs/history/nets.md, "g22b" and "nw-g19".
# `make train RECIPE=nets/recipes/nw-g19.mk NET_NAME=...` makes nets/nw-g19.nnue byte for byte;
# its data as in nets/recipes/nw-g18.mk.
TRAIN_KING_BUCKETS ?= kb16r
include nets/recipes/nw-g18.mk
