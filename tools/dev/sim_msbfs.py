"""A sequential model of gpu/msbfs.cu (one barrier a level): levels, parents and visited bits against scipy, with random interleavings of the edges of a level.  Run on any machine: python tools/dev/sim_msbfs.py"""
import numpy as np, random, scipy.sparse as sp, scipy.sparse.csgraph as csg
from la_graph import generators
def sim(indptr, indices, n, srcs, rng):
    k=len(srcs); vis=np.zeros(n,np.uint64); fr=[np.zeros(n,np.uint64),np.zeros(n,np.uint64)]
    lev=np.full((k,n),-1); par=np.full((k,n),-1)
    q=[[],[]]; st=[0,0,0]
    for i,s in enumerate(srcs):
        vis[s]|=np.uint64(1)<<np.uint64(i); fr[0][s]|=np.uint64(1)<<np.uint64(i); lev[i,s]=0; par[i,s]=s
    uq=sorted(set(srcs)); q[0]=list(uq); st[0]=len(uq)
    depth=1
    while True:
        c=(depth-1)&1; slot=(depth-1)%3; ln=st[slot]; st[(slot+2)%3]=0
        cur=q[c][:ln]; nxt=[]; front=fr[c]; nfront=fr[1-c]
        order=list(range(ln)); rng.shuffle(order)
        # edges processed in a random interleaving
        work=[(q[c][e], j) for e in order for j in range(indptr[q[c][e]], indptr[q[c][e]+1])]
        rng.shuffle(work)
        fcopy={u:front[u] for u in cur}
        for u,j in work:
            f=fcopy[u]; v=indices[j]
            nw=f & ~vis[v]
            if nw:
                old=vis[v]; vis[v]|=nw; mine=nw & ~old
                if mine:
                    o2=nfront[v]; nfront[v]|=mine
                    if o2==0: nxt.append(v); st[(slot+1)%3]+=1
                    for i in range(k):
                        if (int(mine)>>i)&1: lev[i,v]=depth; par[i,v]=u
        for u in cur: front[u]=0
        q[1-c]=nxt
        if st[(slot+1)%3]==0: break
        depth+=1
    return vis,lev,par
rng=random.Random(1)
for G in (generators.rmat(9,6,seed=3,directed=True), generators.grid_2d(15,11), generators.uniform(300,900,seed=2,directed=True)):
    srcs=[int(x) for x in np.random.default_rng(0).choice(G.n, 20)]+[0,0]
    vis,lev,par=sim(G.indptr,G.indices,G.n,srcs,rng)
    A=sp.csr_array((np.ones(G.nnz),G.indices,G.indptr),shape=(G.n,G.n))
    D=csg.shortest_path(A,directed=True,unweighted=True,indices=srcs)
    ref=np.where(np.isinf(D),-1,D).astype(int)
    assert (lev==ref).all()
    for i in range(len(srcs)):
        for v in range(G.n):
            if lev[i,v]>0: p=par[i,v]; assert lev[i,p]==lev[i,v]-1 and v in G.indices[G.indptr[p]:G.indptr[p+1]]
        assert all(((int(vis[v])>>i)&1)==(lev[i,v]>=0) for v in range(G.n))
print("simulation ok")
