import re,sys
def load(log,cm):
    rows={}
    L=[l for l in open(log) if 'bench suite=' in l]
    C={int(m.group(1)):m for m in (re.search(r'seq=(\d+) sections=(\d+).*insns=(\d+)',l) for l in open(cm)) if m}
    for l in L:
        d=dict(kv.split('=') for kv in l.split('bench ')[1].split() if '=' in kv)
        s=int(d['cost_seq']); m=C.get(s)
        if not m or int(d['objs'])==0: continue
        rows[(d['suite'],d['case'],d['variant'],d['n'])]=int(m.group(3))/int(d['objs'])
    return rows
a=load(sys.argv[1],sys.argv[2]); b=load(sys.argv[3],sys.argv[4])
w=[]
for k in a:
    if k in b and a[k]:
        w.append((abs(b[k]-a[k])/a[k]*100,k,a[k],b[k]))
w.sort(reverse=True)
for x in w[:8]: print('%.2f%% %s %.1f %.1f'%x)
