import json
def idx(d, kernel):
    out={}
    for r in json.load(open('bench-%s/bench.json'%d))['records']:
        if r['kernel']==kernel and r['run']==1:
            out[(r['suite'],r['case'],r['variant'],r['n'])]=r
    return out
B=idx('B','base'); F=idx('B','series')
S={s:idx(s,'base') for s in ('S1','S2','S3')}
variants=sorted({k[2] for k in B}); print(variants)
rows=[('seq',1),('seq',2),('seq',8),('seq',32),('seq',250),('seq',2048),('holes3',1024),('half',1024),('ilv2',32),('ilv4',32),('ilv4',128),('ilv8',32),('ilv8',128),('ilv16',32),('ilv16',1024),('rand',128),('rand',1024),('scat',32),('scat',128),('scat',1024),('mix6',64),('mix6',250)]
print("  array       n    loop   6.12  walk  table  stop   all  | slow/obj 6.12 walk table stop all")
for c,n in rows:
    suite='kfree_bulk' if c=='mix6' else 'slab_free'
    def g(d,v):
        k=(suite,c,v,n); return d.get(k)
    lv='loop'; bv='bulk'
    loop=g(F,lv); 
    vals=[g(B,bv)]+[g(S[s],bv) for s in ('S1','S2','S3')]+[g(F,bv)]
    if loop is None or None in vals: print(c,n,'missing'); continue
    print("  %-7s %5d  %6.1f  "%(c,n,loop['insn_per_obj'])+"  ".join("%5.1f"%v['insn_per_obj'] for v in vals)+"  | "+" ".join("%.3f"%(v['slowpath_per_obj'] or 0) for v in vals))
