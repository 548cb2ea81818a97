#!/usr/bin/env bash
# Temperature replica exchange of alanine dipeptide in vacuum
# (tests/data/ala2_vac, ff14SB) over MPI: `mpirun -n 4 --oversubscribe
# vkmd-mpi ensemble --remd-range 300:450:4`, one replica per rank (4 ranks on
# whatever cores there are, each on the lavapipe device), exchanges every 50
# steps for 30,000 steps (60 ps per replica, 600 attempts, 300 per pair):
#   1. every pair's observed acceptance ratio (ensemble.json, exchange.csv)
#      equals the one predicted from the replicas' own potential energy
#      distributions at the two temperatures (replicas.csv: the mean over all
#      sample pairs of min(1, exp((b_i - b_j)(U_i - U_j)))) within
#      TOL_REMD_MD_SIGMAS combined standard errors (binomial error of the
#      observation and of the prediction, each sqrt(p (1 - p) / tries));
#   2. the ensemble's bookkeeping holds: the temperature indices are a
#      permutation at every round, the exchange log's accepted swaps move the
#      indices, the counts in ensemble.json equal the log's;
#   3. every temperature is visited by more than one replica (the replicas
#      walk the ladder).
# Arguments: $1 vkmd binary, $2 tests source dir, $3 scratch dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args mpi_remd "$@"
. "$src/mpi_lib.sh" && mpi_setup test_mpi_remd
steps=30000
[ "${VKMD_TEST_QUICK:-0}" = 1 ] && steps=3000
sigmas=$(awk '$2 == "TOL_REMD_MD_SIGMAS" {print $3}' "$src/tolerance.h")

"${mpirun[@]}" -n 4 "$vkmd_mpi" ensemble "$src/data/ala2_vac.prmtop" --remd-range 300:450:4 \
  --steps $steps --report-every 50 --exchange-every 50 --traj-every 0 --minimize \
  --precision mixed --seed 5 --out "$scratch/remd" >"$scratch/remd.log" 2>&1
rc=$?
cat "$scratch/remd.log"
cli_skip_without_device "$scratch/remd.log" test_mpi_remd
[ $rc = 0 ] && ok "4-replica REMD ran (exit 0)" || bad "4-replica REMD exit $rc"

"$py" - "$scratch/remd" "$sigmas" "$steps" <<'PY' || err "the acceptance check"
import csv, json, math, sys
import numpy as np
d, sigmas, steps = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
KB = 0.00198720425864083  # kcal/mol/K, engine/core/units.h
js = json.load(open(f"{d}/ensemble.json"))
ladder = js["ladder_k"]
n = len(ladder)
rows = list(csv.DictReader(open(f"{d}/replicas.csv")))
ex = list(csv.DictReader(open(f"{d}/exchange.csv")))
fails = 0
def check(cond, text):
    global fails
    print(("  ok   " if cond else "  FAIL ") + text)
    fails += 0 if cond else 1
check(len(rows) == steps // 50, f"{len(rows)} rounds logged (expected {steps // 50})")
# Energies by the temperature index they were sampled at.
by_t = [[] for _ in range(n)]
perm_ok = True
for r in rows:
    idx = [int(r[f"t_index_{k}"]) for k in range(n)]
    perm_ok &= sorted(idx) == list(range(n))
    for k in range(n):
        by_t[idx[k]].append(float(r[f"potential_{k}_kcal_mol"]))
check(perm_ok, "temperature indices are a permutation at every round")
# The log's accepted swaps are what the next round's indices show.
step_idx = {int(r["step"]): [int(r[f"t_index_{k}"]) for k in range(n)] for r in rows}
moved_ok = True
cur = None
for r in rows:
    s = int(r["step"])
    idx = step_idx[s]
    if cur is not None and idx != cur:
        moved_ok = False
    cur = list(idx)
    for e in (e for e in ex if int(e["step"]) == s):
        if int(e["accepted"]):
            lo, hi = int(e["replica_lo"]), int(e["replica_hi"])
            cur[lo], cur[hi] = cur[hi], cur[lo]
check(moved_ok, "accepted swaps in exchange.csv move the indices in replicas.csv")
visits = [set() for _ in range(n)]
for r in rows:
    for k in range(n):
        visits[int(r[f"t_index_{k}"])].add(k)
check(all(len(v) > 1 for v in visits), "every temperature held by more than one replica: "
      + ", ".join(str(sorted(v)) for v in visits))
for i in range(n - 1):
    tries = sum(1 for e in ex if int(e["pair"]) == i)
    acc = sum(int(e["accepted"]) for e in ex if int(e["pair"]) == i)
    p = js["pairs"][i]
    check(p["tries"] == tries and p["accepted"] == acc,
          f"pair {i}: ensemble.json counts {p['accepted']}/{p['tries']} = exchange.csv's {acc}/{tries}")
    ua, ub = np.array(by_t[i]), np.array(by_t[i + 1])
    db = 1 / (KB * ladder[i]) - 1 / (KB * ladder[i + 1])
    x = db * (ua[:, None] - ub[None, :])
    pred = float(np.mean(np.where(x >= 0, 1.0, np.exp(np.minimum(x, 0)))))
    obs = acc / tries
    se = math.sqrt(2 * pred * (1 - pred) / tries)
    check(abs(obs - pred) <= sigmas * se,
          f"pair {i} ({ladder[i]:.1f} K <-> {ladder[i + 1]:.1f} K): acceptance {obs:.3f} over "
          f"{tries} tries, predicted from the energy distributions {pred:.3f} "
          f"({(obs - pred) / se:+.2f} standard errors; limit {sigmas})")
sys.exit(1 if fails else 0)
PY
[ $? = 0 ] && ok "acceptance ratios and bookkeeping" || bad "acceptance ratios and bookkeeping"
cli_finish test_mpi_remd
