#!/usr/bin/env python3
# txq.py [BENCH_JSON]: the figures patch 29's message and the covers quote,
# from a make bench run with BENCH_ALT (the series without patch 29), run 1:
# the skb_free "tx" rows of irq_completion on the three kernels, the atomics
# an skb, how far the rows patch 29 does not touch moved (series/alt), and
# the remote "skb" rows of irq_completion, series/base.
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
j = json.load(open(sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, 'bench.json')))
R = {}
for x in j['records']:
    if x['run'] == 1:
        R[(x['kernel'], x['suite'], x['case'], x['variant'], x['n'])] = x


def get(k, s, c, v, n):
    return R.get((k, s, c, v, n))


print("skb_free/tx irq_completion, run 1, per skb: insn cycles (base, alt, series), series/alt")
for n in (1, 8, 16, 32, 64, 128):
    b, a, s = (get(k, 'skb_free', 'tx', 'irq_completion', n) for k in ('base', 'alt', 'series'))
    print(f"{n:6d} {b['cost_insn_per_obj']:8.1f} {b['cycles_per_obj']:7.1f}"
          f" {a['cost_insn_per_obj']:8.1f} {a['cycles_per_obj']:7.1f}"
          f" {s['cost_insn_per_obj']:8.1f} {s['cycles_per_obj']:7.1f}"
          f"   {s['cost_insn_per_obj'] / a['cost_insn_per_obj']:.3f} {s['cycles_per_obj'] / a['cycles_per_obj']:.3f}"
          f"   atomics alt {a['atomics_per_obj']:.2f} series {s['atomics_per_obj']:.2f}")
lo, hi, at = 9, 0, None
for (k, su, c, v, n), s in R.items():
    if k != 'series' or su != 'skb_free' or c != 'tx' or v == 'irq_completion':
        continue
    a = get('alt', su, c, v, n)
    if not a:
        continue
    r = s['cycles_per_obj'] / a['cycles_per_obj']
    if r < lo:
        lo = r
    if r > hi:
        hi, at = r, (v, n)
print(f"untouched tx rows, series/alt cycles: {lo:.3f}-{hi:.3f} (highest: {at})")
ri, rc = [], []
for n in (16, 64, 256, 1024):
    b, s = get('base', 'remote', 'skb', 'irq_completion', n), get('series', 'remote', 'skb', 'irq_completion', n)
    if b and s:
        ri.append(s['cost_insn_per_obj'] / b['cost_insn_per_obj'])
        rc.append(s['cycles_per_obj'] / b['cycles_per_obj'])
        print(f"remote/skb irq_completion n={n}: series/base insn {ri[-1]:.3f} cycles {rc[-1]:.3f}")
if ri:
    print(f"remote/skb irq_completion series/base: cycles {min(rc):.3f}-{max(rc):.3f}, insn {min(ri):.3f}-{max(ri):.3f}")
