#!/usr/bin/env python3
"""Fit the win/draw/loss model behind `UCI_ShowWDL` to Nullwindow's own self-play results.

The model (as in Stockfish), for a score v in centipawns from the side to move's view and the
material m on the board:

    P(win)  = 1 / (1 + exp((a(m) - v) / b(m)))
    P(loss) = 1 / (1 + exp((a(m) + v) / b(m)))
    P(draw) = 1 - P(win) - P(loss)

with a(m), b(m) cubic polynomials in x = clamp(m, 17, 78) / 58, where m counts pawn 1, knight
and bishop 3, rook 5, queen 9 over both sides (58 at most positions' middlegame scale, 78 in
the start position). The model is symmetric: P(win | v) = P(loss | -v), so White's view and
the side to move's view give the same fit.

Input: a data file of `nullwindow datagen` (format in docs/datagen-format.md: 32-byte header,
then 32-byte records with the board, the search score from White's view and the game result).
The file grows while datagen runs: copy it first.

    cp data/gen1.bin /tmp/wdl-data.bin
    python3 scripts/fit_wdl.py /tmp/wdl-data.bin

Method: maximum likelihood of the three-way outcome. First (a, b) per material value (Newton's
method on 2 parameters), a weighted cubic fit of those as the start, then all 8 coefficients
together by BFGS on the full log-likelihood. Prints the fit quality (log-loss per position
against a baseline that ignores the score, a calibration table by score) and the Rust constants
for src/search/wdl.rs. Needs numpy only.
"""

import argparse
import datetime
import os
import sys

import numpy as np

HEADER = 32
RECORD = 32
MAGIC = b"NWPOS\0\0\x01"
# Piece values by role code (0 unused, 1 pawn, 2 knight, 3 bishop, 4 rook, 5 queen, 6 king).
ROLE_VALUE = np.array([0, 1, 3, 3, 5, 9, 0, 0], dtype=np.int32)
MATERIAL_MIN, MATERIAL_MAX, MATERIAL_SCALE = 17, 78, 58.0


def load(path):
    """Scores (White's view), results (0 Black won, 1 draw, 2 White won) and material."""
    raw = open(path, "rb").read()
    if raw[:8] != MAGIC:
        sys.exit(f"{path}: not a Nullwindow data file")
    body = raw[HEADER:]
    n = len(body) // RECORD
    if n == 0:
        sys.exit(f"{path}: no records")
    rec = np.frombuffer(body[: n * RECORD], dtype=np.uint8).reshape(n, RECORD)
    pieces = rec[:, 8:24]
    nibbles = np.concatenate([pieces & 0x0F, pieces >> 4], axis=1)
    material = ROLE_VALUE[nibbles & 7].sum(axis=1)
    score = rec[:, 28:30].copy().view("<i2").reshape(n).astype(np.float64)
    result = rec[:, 30].astype(np.int64)
    if (result > 2).any():
        sys.exit(f"{path}: unknown result code")
    return score, result, material, n


def x_of(material):
    return np.clip(material, MATERIAL_MIN, MATERIAL_MAX) / MATERIAL_SCALE


def probs(v, a, b):
    w = 1.0 / (1.0 + np.exp((a - v) / b))
    l = 1.0 / (1.0 + np.exp((a + v) / b))
    d = np.clip(1.0 - w - l, 1e-12, 1.0)
    return np.clip(w, 1e-12, 1.0), d, np.clip(l, 1e-12, 1.0)


def nll_and_grad_ab(v, yw, yd, yl, a, b):
    """Negative log-likelihood (sum) and its gradient with respect to per-position a and b."""
    w, d, l = probs(v, a, b)
    nll = -(yw * np.log(w) + yd * np.log(d) + yl * np.log(l)).sum()
    p = (v - a) / b
    q = (-v - a) / b
    sw, sl = w * (1 - w), l * (1 - l)
    dw_da, dl_da = -sw / b, -sl / b
    dw_db, dl_db = -sw * p / b, -sl * q / b
    g_w, g_d, g_l = yw / w, yd / d, yl / l
    dll_da = g_w * dw_da + g_l * dl_da - g_d * (dw_da + dl_da)
    dll_db = g_w * dw_db + g_l * dl_db - g_d * (dw_db + dl_db)
    return nll, -dll_da, -dll_db


def poly(c, x):
    return c[0] + c[1] * x + c[2] * x * x + c[3] * x * x * x


def full_objective(theta, v, yw, yd, yl, x):
    a = poly(theta[:4], x)
    b = poly(theta[4:], x)
    if (b <= 1.0).any() or (a < 0).any():
        return np.inf, np.zeros(8)
    nll, ga, gb = nll_and_grad_ab(v, yw, yd, yl, a, b)
    powers = np.stack([np.ones_like(x), x, x * x, x * x * x])
    grad = np.concatenate([powers @ ga, powers @ gb])
    return nll, grad


def bfgs(f, theta, iters=500, tol=1e-7):
    """A small BFGS with backtracking (Armijo) line search."""
    fx, g = f(theta)
    h = np.eye(len(theta))
    for _ in range(iters):
        step = -h @ g
        if g @ step >= 0:
            h = np.eye(len(theta))
            step = -g
        t = 1.0
        while True:
            cand = theta + t * step
            fc, gc = f(cand)
            if fc <= fx + 1e-4 * t * (g @ step) or t < 1e-12:
                break
            t *= 0.5
        s, y = cand - theta, gc - g
        theta, done = cand, abs(fx - fc) < tol * max(1.0, abs(fx))
        fx, g = fc, gc
        if done:
            break
        sy = s @ y
        if sy > 1e-12:
            rho = 1.0 / sy
            i = np.eye(len(theta))
            h = (i - rho * np.outer(s, y)) @ h @ (i - rho * np.outer(y, s)) + rho * np.outer(s, s)
    return theta, fx


def fit_bucket(v, yw, yd, yl):
    """(a, b) for one material value, by BFGS on two parameters."""

    def f(t):
        a, b = t
        if b <= 1.0 or a < 0:
            return np.inf, np.zeros(2)
        nll, ga, gb = nll_and_grad_ab(v, yw, yd, yl, np.full_like(v, a), np.full_like(v, b))
        return nll, np.array([ga.sum(), gb.sum()])

    t, _ = bfgs(f, np.array([150.0, 100.0]), iters=200)
    return t


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("data", help="datagen binary file (a copy: datagen appends to it)")
    ap.add_argument("--clip", type=float, default=2000.0, help="clip |score| to this (cp)")
    args = ap.parse_args()

    v, result, material, n = load(args.data)
    v = np.clip(v, -args.clip, args.clip)
    yw = (result == 2).astype(np.float64)
    yd = (result == 1).astype(np.float64)
    yl = (result == 0).astype(np.float64)
    x = x_of(material)
    print(f"{n} positions from {args.data} ({os.path.getsize(args.data)} bytes)")
    print(f"results (White's view): W {yw.mean():.3f} D {yd.mean():.3f} L {yl.mean():.3f}")

    # 1. Per material value.
    rows = []
    for m in range(MATERIAL_MIN, MATERIAL_MAX + 1):
        sel = np.clip(material, MATERIAL_MIN, MATERIAL_MAX) == m
        if sel.sum() < 500:
            continue
        a, b = fit_bucket(v[sel], yw[sel], yd[sel], yl[sel])
        rows.append((m, sel.sum(), a, b))
    ms = np.array([r[0] for r in rows], dtype=np.float64) / MATERIAL_SCALE
    ws = np.sqrt(np.array([r[1] for r in rows], dtype=np.float64))
    a0 = np.polyfit(ms, [r[2] for r in rows], 3, w=ws)[::-1]
    b0 = np.polyfit(ms, [r[3] for r in rows], 3, w=ws)[::-1]

    # 2. All coefficients together.
    def f(t):
        return full_objective(t, v, yw, yd, yl, x)

    theta0 = np.concatenate([a0, b0])
    if not np.isfinite(f(theta0)[0]):
        theta0 = np.array([150.0, 0, 0, 0, 100.0, 0, 0, 0])
    theta, nll = bfgs(f, theta0, iters=2000, tol=1e-10)

    # Fit quality.
    base = -(yw * np.log(yw.mean()) + yd * np.log(yd.mean()) + yl * np.log(yl.mean())).sum()
    bucket_nll = 0.0
    for m, _, a, b in rows:
        sel = np.clip(material, MATERIAL_MIN, MATERIAL_MAX) == m
        bucket_nll += nll_and_grad_ab(
            v[sel], yw[sel], yd[sel], yl[sel], np.full(sel.sum(), a), np.full(sel.sum(), b)
        )[0]
    covered = sum(r[1] for r in rows)
    sel = np.isin(np.clip(material, MATERIAL_MIN, MATERIAL_MAX), [r[0] for r in rows])
    model_on_covered = nll_and_grad_ab(
        v[sel], yw[sel], yd[sel], yl[sel], poly(theta[:4], x[sel]), poly(theta[4:], x[sel])
    )[0]
    print("\nper material value (>= 500 positions): m, positions, a, b")
    for m, cnt, a, b in rows:
        xm = m / MATERIAL_SCALE
        print(
            f"  {m:3d} {cnt:7d}  a {a:7.1f} b {b:6.1f}   cubic a {poly(theta[:4], xm):7.1f}"
            f" b {poly(theta[4:], xm):6.1f}"
        )
    print(f"\nlog-loss per position (nats): model {nll / n:.4f}; without the score {base / n:.4f}")
    print(
        f"  on the {covered} positions of the per-material fits: cubic model"
        f" {model_on_covered / covered:.4f}, free (a, b) per material value {bucket_nll / covered:.4f}"
    )

    # Calibration by score (side to move's view is the same by symmetry).
    a, b = poly(theta[:4], x), poly(theta[4:], x)
    pw, pd, pl = probs(v, a, b)
    print("\ncalibration by score (White's view): bucket, positions, predicted W/D/L, observed W/D/L")
    edges = [-2000, -400, -200, -100, -50, -20, 20, 50, 100, 200, 400, 2001]
    worst = 0.0
    for lo, hi in zip(edges, edges[1:]):
        s = (v >= lo) & (v < hi)
        if s.sum() == 0:
            continue
        pred = (pw[s].mean(), pd[s].mean(), pl[s].mean())
        obs = (yw[s].mean(), yd[s].mean(), yl[s].mean())
        worst = max(worst, max(abs(p - o) for p, o in zip(pred, obs)))
        print(
            f"  [{lo:5d},{hi:5d}) {s.sum():7d}  {pred[0]:.3f} {pred[1]:.3f} {pred[2]:.3f}"
            f"   {obs[0]:.3f} {obs[1]:.3f} {obs[2]:.3f}"
        )
    print(f"largest calibration gap: {worst:.3f}")

    today = datetime.date.today().isoformat()
    print(f"\n// Fitted {today} by scripts/fit_wdl.py on {n} positions;")
    print(f"// log-loss {nll / n:.4f} nats/position (without the score {base / n:.4f}).")
    print(f"const AS: [f64; 4] = [{', '.join(f'{c:.4f}' for c in theta[:4])}];")
    print(f"const BS: [f64; 4] = [{', '.join(f'{c:.4f}' for c in theta[4:])}];")


if __name__ == "__main__":
    main()
