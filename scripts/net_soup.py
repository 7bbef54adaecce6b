#!/usr/bin/env python3
"""Average the weights of networks of one lineage (a "model soup").

    scripts/net_soup.py --out soup.nnue nets/nw-g6.nnue nets/nw-g7.nnue [--weights 1,1]
    scripts/net_soup.py --out soup.nnue --first-share 0.5 PARENT CHILD1 CHILD2 ...

--first-share F gives the first net the share F and the others equal shares of the rest: a
parent averaged with several continuations of it (one per seed), as `make train` does.

The nets must have the same hidden size, output buckets, QA and QB (docs/nnue.md, the file
layout), and all be horizontally mirrored (version 3) or none; --mirrored writes a mirrored net
from any of them, taking a plain net's weights as the start of a mirrored one (as
`train --hm --init` does: a parent averaged with its `--hm` continuations). Nets with king
buckets (version 4) must share their bucket map and mirroring; a net without king buckets mixed
with them takes part with its feature rows copied into each block (as `train --king-buckets
--init` starts from it), and the soup is written as version 4. Feature weights and biases are averaged as they are; the output layer is averaged
in centipawn units (each net's output weights and bias times its SCALE), then written at the
mean SCALE, so nets sized differently (`--size-like`) mix as their evaluations do. Weight
averaging only makes sense for nets that share an ancestor (each an `--init` continuation of
the other), whose weights lie close together.
"""

import argparse
import struct
import sys
from array import array

HEADER = 32
INPUTS = 768
KING_EXTENSION = 8 + 64


def fnv1a(data):
    h = 0x811C9DC5
    for b in data:
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h


def read_net(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"NWNN":
        sys.exit(f"{path}: not a Nullwindow network")
    version, hidden, qa, qb, scale, checksum, bucket_word = struct.unpack_from("<7I", data, 4)
    if version not in (1, 2, 3, 4):
        sys.exit(f"{path}: network file version {version}, this script reads 1 to 4")
    buckets = 1 if version == 1 else bucket_word
    body = data[HEADER:]
    if fnv1a(body) != checksum:
        sys.exit(f"{path}: checksum mismatch")
    # Version 4: flags (bit 0 mirrored), K and the 64-byte king bucket map come first.
    flags, kb, kmap = (1 if version == 3 else 0), 1, None
    if version == 4:
        flags, kb = struct.unpack_from("<2I", body, 0)
        kmap = bytes(body[8:KING_EXTENSION])
        body = body[KING_EXTENSION:]
    n16 = INPUTS * kb * hidden + hidden + buckets * 2 * hidden
    i16 = array("h")
    i16.frombytes(body[: 2 * n16])
    i32 = array("i")
    i32.frombytes(body[2 * n16 :])
    if sys.byteorder != "little":
        i16.byteswap()
        i32.byteswap()
    return dict(version=version, hidden=hidden, qa=qa, qb=qb, scale=scale, buckets=buckets,
                mirrored=bool(flags & 1), kb=kb, kmap=kmap, i16=i16, i32=i32)


def with_king_blocks(net, kb):
    """A net without king buckets with its feature rows copied into `kb` blocks."""
    if net["kb"] == kb:
        return net
    rows = INPUTS * net["hidden"]
    i16 = net["i16"]
    return dict(net, kb=kb, i16=i16[:rows] * kb + i16[rows:])


def clamp16(x):
    return max(-32768, min(32767, x))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("nets", nargs="+")
    ap.add_argument("--weights", help="comma-separated mixing weights (default: equal)")
    ap.add_argument("--first-share", type=float,
                    help="the first net's share (0 < F < 1); the others share the rest equally")
    ap.add_argument("--mirrored", action="store_true",
                    help="write a horizontally mirrored (version 3) net whatever the inputs are")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    if args.weights and args.first_share is not None:
        sys.exit("give --weights or --first-share, not both")
    nets = [read_net(p) for p in args.nets]
    if args.first_share is not None:
        f = args.first_share
        if not 0 < f < 1 or len(nets) < 2:
            sys.exit("--first-share needs 0 < F < 1 and at least two nets")
        ws = [f] + [(1 - f) / (len(nets) - 1)] * (len(nets) - 1)
    else:
        ws = [float(w) for w in args.weights.split(",")] if args.weights else [1.0] * len(nets)
    if len(ws) != len(nets) or min(ws) < 0 or sum(ws) <= 0:
        sys.exit("--weights needs one non-negative weight per net")
    ws = [w / sum(ws) for w in ws]
    kbs = {(n["kb"], n["kmap"], n["mirrored"]) for n in nets if n["kb"] > 1}
    if len(kbs) > 1:
        sys.exit("nets differ in their king buckets or mirroring")
    kb, kmap, kb_mirrored = kbs.pop() if kbs else (1, None, False)
    if kb > 1:
        # Nets without king buckets take part as copies, mirrored or not (as train starts).
        mirrored = args.mirrored or kb_mirrored
    else:
        mirrored = args.mirrored or nets[0]["mirrored"]
        if not args.mirrored and any(n["mirrored"] != mirrored for n in nets):
            sys.exit("nets differ in mirroring (--mirrored writes a mirrored net of them)")
    nets = [with_king_blocks(n, kb) for n in nets]
    first = nets[0]
    for n in nets[1:]:
        for key in ("hidden", "qa", "qb", "buckets"):
            if n[key] != first[key]:
                sys.exit(f"nets differ in {key}")
    hidden, buckets = first["hidden"], first["buckets"]
    n_ft = INPUTS * kb * hidden + hidden
    scale = sum(w * n["scale"] for w, n in zip(ws, nets))
    out_scale = max(1, round(scale))
    i16 = array("h", bytes(2 * len(first["i16"])))
    for i in range(len(i16)):
        if i < n_ft:
            v = sum(w * n["i16"][i] for w, n in zip(ws, nets))
        else:
            v = sum(w * n["i16"][i] * n["scale"] for w, n in zip(ws, nets)) / out_scale
        i16[i] = clamp16(round(v))
    i32 = array("i", [round(sum(w * n["i32"][b] * n["scale"] for w, n in zip(ws, nets)) / out_scale)
                      for b in range(buckets)])
    if sys.byteorder != "little":
        i16.byteswap()
        i32.byteswap()
    body = i16.tobytes() + i32.tobytes()
    if kb > 1:
        version = 4
        body = struct.pack("<2I", int(mirrored), kb) + kmap + body
    elif mirrored:
        version = 3
    else:
        version = 1 if buckets == 1 else 2
    header = b"NWNN" + struct.pack("<7I", version, hidden, first["qa"], first["qb"],
                                   out_scale, fnv1a(body), 0 if version == 1 else buckets)
    with open(args.out, "wb") as f:
        f.write(header + body)
    print(f"{args.out}: {len(nets)} nets, weights {','.join(f'{w:.3f}' for w in ws)}, "
          f"hidden {hidden}, SCALE {out_scale}" + (f", {kb} king buckets" if kb > 1 else ""))


if __name__ == "__main__":
    main()
