#!/usr/bin/env bash
# Replica exchange in implicit solvent over MPI, the textbook use of
# generalized Born (docs/IMPLICIT.md): alanine dipeptide with mbondi3 radii
# (written by tests/oracles/openmm_gb.py, fixture openmm_gb_data) in GBn2,
# `mpirun -n 4 vkmd-mpi ensemble --implicit gbn2 --remd-range 300:400:4`:
#   1. it runs and reports every pair's acceptance (ensemble.json, the log);
#   2. every replica's start is the GBn2 energy of vkmd energy --implicit gbn2
#      on the same coordinates (the ranks took the implicit solvent);
#   3. exchanges happen (the swaps' total acceptance is above zero).
# Detailed balance of the exchanges is test_mpi_remd's (in vacuum).
# Arguments: $1 vkmd binary, $2 tests source dir, $3 build testdata dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args mpi_implicit "$@"
. "$src/mpi_lib.sh" && mpi_setup test_mpi_implicit
ala=$gen/gb_ala2_vac_mbondi3.prmtop
[ -f "$ala" ] || { err "missing $ala (the openmm_gb_data fixture writes it)"; cli_finish mpi_implicit; }
steps=2000
"${mpirun[@]}" -n 4 "$vkmd_mpi" ensemble "$ala" --coords "$src/data/ala2_vac.inpcrd" \
  --implicit gbn2 --remd-range 300:400:4 --steps $steps --report-every 50 --exchange-every 50 \
  --traj-every 0 --seed 3 --out "$scratch/remd" >"$scratch/remd.log" 2>&1
rc=$?
cli_skip_without_device "$scratch/remd.log" test_mpi_implicit
[ $rc = 0 ] && ok "4-replica REMD in GBn2 ran (exit 0)" || bad "REMD in GBn2: exit $rc: $(tail -3 "$scratch/remd.log")"
grep 'swaps accepted' "$scratch/remd.log" | sed 's/^/  /'
"$vkmd" energy "$ala" --coords "$src/data/ala2_vac.inpcrd" --implicit gbn2 --device gpu --json \
  >"$scratch/e.json" 2>"$scratch/e.err" || bad "vkmd energy --implicit gbn2: $(cat "$scratch/e.err")"
"$py" - "$scratch/remd" "$scratch/e.json" "$steps" <<'PY' && ok "acceptance reported, exchanges made, GBn2 at every rank" || bad "REMD in GBn2 outputs"
import csv, json, sys
d, e, steps = sys.argv[1], json.load(open(sys.argv[2])), int(sys.argv[3])
js = json.load(open(f"{d}/ensemble.json"))
assert len(js["ladder_k"]) == 4, js["ladder_k"]
text = json.dumps(js)
assert "accept" in text, sorted(js)
ex = list(csv.DictReader(open(f"{d}/exchange.csv")))
accepted = sum(1 for r in ex if str(r.get("accepted", "")).strip() in ("1", "true", "yes"))
print("  %d exchange attempts, %d accepted" % (len(ex), accepted))
assert len(ex) > 0 and accepted > 0, (len(ex), accepted)
# step 0 of every replica: the same start, so the same potential as vkmd energy's total
for r in range(4):
    rows = [l for l in open(f"{d}/replica_{r}/energy.csv") if not l.startswith("#")]
    first = dict(zip(rows[0].strip().split(","), rows[1].strip().split(",")))
    pot = float(first["potential_kcal_mol"])
    assert abs(pot - e["total"]) < 1e-3 * max(1.0, abs(e["total"])), (r, pot, e["total"])
PY
cli_finish mpi_implicit
