#!/bin/bash
# The --jobs table of docs/parallel.md: per program, rounds of one `bench/run` per
# configuration (jobs2, jobs8; each also runs one process as its baseline), the test files
# deleted after each run; prints speed-up, efficiency and replayed instructions.
# Usage: bench/parallel/speedup.sh SEAR ROUNDS [dfs|default]   (OUT=dir for the runs, default
# on tmpfs). The searcher: DFS (the bench suite's, configs jobs2/jobs8 against `default`) or
# sear's default searcher (default-search-jobs2/-jobs8 against `default-search`).
SEAR=$(realpath "$1"); ROUNDS=${2:-2}; SEARCH=${3:-dfs}
case $SEARCH in
  dfs) BASE=default; J2=jobs2; J8=jobs8 ;;
  default) BASE=default-search; J2=default-search-jobs2; J8=default-search-jobs8 ;;
  *) echo "speedup.sh: the searcher is dfs or default" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/../.."
OUT=${OUT:-/dev/shm/sear-parallel}; rm -rf "$OUT"; mkdir -p "$OUT"
for r in $(seq 1 $ROUNDS); do
for p in lex-ini:3 maze:14 bytecode-vm:9 url-decode:9 rle-decode:9 dfa-tokens:10; do
  prog=${p%%:*}; size=${p##*:}
  for c in $J2 $J8; do
    d=$OUT/$prog-$c-$r
    bench/run --programs $prog --configs $c --baseline $BASE --reps 1 --sear $SEAR --size $prog=$size --out $d >/dev/null 2>&1
    find $d -name 'test*' -delete 2>/dev/null
  done
done
done
python3 - $OUT $BASE $J2 $J8 <<'PY'
import json,sys,glob,statistics as st,collections
recs=collections.defaultdict(list)
for f in glob.glob(sys.argv[1]+'/*/runs.jsonl'):
    for l in open(f):
        r=json.loads(l); recs[(r['program'],r['config'])].append(r)
progs=['lex-ini','maze','bytecode-vm','url-decode','rle-decode','dfa-tokens']
for p in progs:
    d=recs[(p,sys.argv[2])]
    if not d: continue
    w1=st.median(r['wall_s'] for r in d); c1=st.median(r['cpu_s'] for r in d); ipc1=st.median(r['instructions']/r['cpu_s'] for r in d)
    row=[p, d[0]['size'], d[0]['paths'], 'w1 %s'%' '.join('%.2f'%r['wall_s'] for r in d)]
    for c in sys.argv[3:5]:
        j=recs[(p,c)]
        if not j: continue
        wj=st.median(r['wall_s'] for r in j)
        eff=st.median(((r['instructions']-(r['replay_instructions'] or 0))/r['cpu_s'])/ipc1 for r in j)
        same=all(r['traces']==d[0]['traces'] for r in j)
        row.append('%s: %s speedup %.2f eff %.0f%% replay %s same=%s status=%s'%(c,' '.join('%.2f'%r['wall_s'] for r in j), w1/wj, 100*eff, [r['replay_instructions'] for r in j], same, [r['status'] for r in j]))
    print(' | '.join(str(x) for x in row))
PY
