#!/usr/bin/env python3
"""Interleaved wall-time A/B of constmove CLIs: wall_ab.py ROUNDS BIN_A BIN_B [BIN_C...] [--pos start,kiwi,...]
Copy the binaries to paths of EQUAL length first (path length shifts the stack). Prints best-of-ROUNDS
seconds per position and each binary's ratio to the first (>1 = faster than the first)."""
import subprocess,time,sys
pos=[('start',7,'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'),
('kiwi',6,'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'),
('pos3',8,'8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1'),
('pos4',6,'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1'),
('pos5',6,'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8'),
('pos6',6,'r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10'),
('game0',6,'4r3/5k1p/7b/pN1p1pp1/1n1P4/2R1nKPP/Pr2rP2/7R w - - 7 38'),
('end0',7,'8/5pk1/6p1/7p/R7/6PP/r4PK1/8 w - - 0 1')]
args=sys.argv[1:]
if '--pos' in args:
  i=args.index('--pos'); want=args[i+1].split(','); del args[i:i+2]; pos=[p for p in pos if p[0] in want]
R=int(args[0]); bins=args[1:]
assert len({len(b) for b in bins})==1, "binary paths must have equal length"
best={}
for r in range(R):
  for name,d,f in pos:
    for b in bins:
      t=time.perf_counter(); subprocess.run([b,'perft',str(d),'--fen',f,'--threads','1','--backend','pext'],stdout=subprocess.PIPE,stderr=subprocess.DEVNULL,check=True); t=time.perf_counter()-t
      best[(name,b)]=min(best.get((name,b),9e9),t)
for name,d,f in pos:
  a=best[(name,bins[0])]
  print(f"{name} d{d} "+"  ".join(f"{b}: {best[(name,b)]:.3f}s ({a/best[(name,b)]:.3f})" for b in bins))
