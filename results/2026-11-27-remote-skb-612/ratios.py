#!/usr/bin/env python3
# ratios.py [BENCH_JSON]: the remote suite's skb rows of bench.json (run 1,
# default: the one beside this script) and the ratios the READMEs quote, to
# standard output.
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
j = json.load(open(sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, 'bench.json')))
R = {}
for x in j['records']:
    if x['suite'] == 'remote' and x['case'] == 'skb' and x['run'] == 1:
        R[(x['kernel'], x['variant'], x['n'])] = x
print("remote/skb, series kernel, run 1: per skb (insn, atomics, xfer, modelled cycles) and ratios")
for n in (16, 64, 256, 1024):
    def g(v, k='series'):
        return R[(k, v, n)]
    print(f"n={n}")
    for v in ('consume_loop', 'napi_consume', 'irq_completion', 'kfree_skb_list', 'kfree_skb_bulk', 'waitlist'):
        x = g(v)
        print(f"  {v:15s} insn {x['cost_insn_per_obj']:7.1f} atomics {x['atomics_per_obj']:.2f} xfer {x['xfer_per_obj']:.2f} cycles {x['cycles_per_obj']:7.1f}")
    for a, b in (('waitlist', 'napi_consume'), ('kfree_skb_bulk', 'consume_loop'), ('kfree_skb_bulk', 'napi_consume')):
        print(f"  {a}/{b}: insn {g(a)['cost_insn_per_obj'] / g(b)['cost_insn_per_obj']:.3f} cycles {g(a)['cycles_per_obj'] / g(b)['cycles_per_obj']:.3f}")
    for v in ('napi_consume', 'irq_completion', 'consume_loop'):
        print(f"  {v} series/base: insn {g(v)['cost_insn_per_obj'] / g(v, 'base')['cost_insn_per_obj']:.3f} cycles {g(v)['cycles_per_obj'] / g(v, 'base')['cycles_per_obj']:.3f}")
