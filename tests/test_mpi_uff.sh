#!/usr/bin/env bash
# A UFF screen over MPI (`mpirun --oversubscribe vkmd-mpi uff relax|scan
# LIBRARY`) on the first 20 molecules of tests/data/uff/molecules.sdf, each
# rank on the lavapipe device:
#   1. relax on 2 ranks: the merged SDF and JSON equal the 1-rank run's byte
#      for byte (every molecule, in input order), 20 records each;
#   2. scan on 3 ranks (blocks of 6, 7 and 7 molecules): the merged JSON
#      equals the 1-rank run's byte for byte;
#   3. one molecule of the screen relaxed on its own by the plain `vkmd uff
#      relax` has the same final energy, steps and convergence as its entry
#      in the screen.
# Arguments: $1 vkmd binary, $2 tests source dir, $3 scratch dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args mpi_uff "$@"
. "$src/mpi_lib.sh" && mpi_setup test_mpi_uff
lib=$scratch/lib.sdf
awk '{print} /^\$\$\$\$/ {if (++n == 20) exit}' "$src/data/uff/molecules.sdf" >"$lib"
[ "$(grep -c '^\$\$\$\$' "$lib")" = 20 ] || err "library of 20 molecules not made"

for n in 1 2; do
  "${mpirun[@]}" -n $n "$vkmd_mpi" uff relax "$lib" --out "$scratch/relax$n.sdf" \
    --json-out "$scratch/relax$n.json" >"$scratch/relax$n.log" 2>&1 || {
    cat "$scratch/relax$n.log"
    cli_skip_without_device "$scratch/relax$n.log" test_mpi_uff
    bad "uff relax on $n rank(s)"
  }
  cat "$scratch/relax$n.log"
done
cmp -s "$scratch/relax1.sdf" "$scratch/relax2.sdf" && cmp -s "$scratch/relax1.json" "$scratch/relax2.json" &&
  ok "relax: 2 ranks' merged SDF and JSON = 1 rank's" || bad "relax: 2 ranks differ from 1 rank"
[ "$(grep -c '^\$\$\$\$' "$scratch/relax2.sdf")" = 20 ] && ok "relax: 20 records out" || bad "relax: record count"

for n in 1 3; do
  "${mpirun[@]}" -n $n "$vkmd_mpi" uff scan "$lib" --out "$scratch/scan$n.json" >"$scratch/scan$n.log" 2>&1 ||
    bad "uff scan on $n rank(s): $(tail -3 "$scratch/scan$n.log")"
done
cmp -s "$scratch/scan1.json" "$scratch/scan3.json" && ok "scan: 3 ranks' merged JSON = 1 rank's" ||
  bad "scan: 3 ranks differ from 1 rank"

# 3. Molecule 4 alone through the plain command.
awk 'BEGIN {r = 1} r == 4 {print} /^\$\$\$\$/ {r++}' "$lib" >"$scratch/one.sdf"
"$vkmd" uff relax "$scratch/one.sdf" --out "$scratch/one_out.sdf" --json >"$scratch/one.json" 2>"$scratch/one.err" ||
  bad "vkmd uff relax of molecule 4: $(cat "$scratch/one.err")"
"$py" - "$scratch/one.json" "$scratch/relax2.json" <<'PY' && ok "molecule 4: the screen's result = vkmd uff relax's" || bad "molecule 4 differs"
import json, sys
one = json.load(open(sys.argv[1]))
rep = one["replicas"][0]
scr = json.load(open(sys.argv[2]))["records"][3]
print("  vkmd uff relax:", rep)
print("  screen entry:  ", scr)
# The screen prints 6 decimals: equal to those of the plain command's value.
ok = (scr["name"] == one["molecule"]
      and f'{rep["energy_final_kcal_per_mol"]:.6f}' == f'{scr["energy_final_kcal_mol"]:.6f}'
      and rep["steps"] == scr["steps"] and rep["converged"] == scr["converged"])
sys.exit(0 if ok else 1)
PY
cli_finish test_mpi_uff
