"""Build a random sample (seed 40) of HeCBench CUDA programs that need no input file and no CUDA library, with
-lineinfo:  python3 benchmarks/fidelity/build_hecbench.py HECBENCH_CHECKOUT OUT  (OUT/bin, OUT/programs.txt)."""
import os, random, re, subprocess, sys, glob
root=os.path.join(sys.argv[1], 'src'); out=os.path.realpath(sys.argv[2]); os.makedirs(out+'/bin', exist_ok=True)
dirs=sorted(d for d in os.listdir(root) if d.endswith('-cuda'))
random.Random(40).shuffle(dirs)
ok=[]
for d in dirs:
    if len(ok) >= 36: break
    mk=os.path.join(root,d,'Makefile')
    if not os.path.exists(mk): continue
    m=open(mk).read()
    if re.search(r'-l(cublas|cusparse|cufft|curand|cusolver|nccl|mpi|cudnn|nvToolsExt|boost)', m) or 'cub' in m.lower() and 'cublas' in m.lower(): continue
    run=re.search(r'^run\s*:.*\n\t(.*)$', m, re.M)
    if not run: continue
    cmd=run.group(1).strip()
    if re.search(r'\.\./|\.txt|\.bin|\.dat|\.csv|\.bmp|\.png|\.ppm|\.pgm|\.graph|\.mtx|data/|\.fasta|\.fa\b|\.jpg|\.raw|/', cmd.replace('./$(program)','').replace('./main','')): continue
    srcs=glob.glob(os.path.join(root,d,'*.cu'))+glob.glob(os.path.join(root,d,'*.cpp'))
    if not srcs or len(srcs) > 4: continue
    name=d[:-5]
    r=subprocess.run(['nvcc','-O3','-lineinfo','-arch=sm_90','-std=c++17','-w','-I',os.path.join(root,d),'-I',os.path.join(root,'include'),*srcs,'-o',f'{out}/bin/{name}'],capture_output=True,text=True,timeout=300)
    if r.returncode: print('FAIL',name, r.stderr.strip().splitlines()[-1:] if r.stderr else ''); continue
    args=re.sub(r'^\S*(\$\(program\)|main)\s*','',cmd)
    ok.append((name,args)); print('ok',name,args, flush=True)
with open(out+'/programs.txt','w') as f:
    for n,a in ok: f.write(f"{n} | /tmp | $F/bin/{n} {a}\n")
