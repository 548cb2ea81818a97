#!/usr/bin/env bash
# The built-in water box starts at equilibrium, and run summaries report what
# means something (issue 19), headless on whatever device there is:
#   1. `vkmd run water:216 --steps 2000` with no minimisation, reports every
#      50 steps: the mean temperature of every 1 ps block after the first ps
#      at 300 +- 15 K, and every single report within 300 +- 47 K (4 sigma:
#      216 rigid waters, 1293 degrees of freedom, have an instantaneous
#      temperature sd of 300 sqrt(2/1293) = 11.8 K, so single reports at
#      +- 15 K would be a test of the seed, not of the box);
#   2. that Langevin run's JSON summary: mean and sd of the temperature and
#      the mean density (0.997 g/cm^3, fixed box), no energy drift; its text
#      summary likewise;
#   3. a Verlet (NVE) run's summary: the energy drift, in JSON and text.
# Arguments: $1 vkmd binary, $2 tests source dir, $3 scratch dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args cli_water_tile "$@"
steps=2000
[ "${VKMD_TEST_QUICK:-0}" = 1 ] && steps=1000

# 1 and 2. Langevin 300 K from the tile, no minimisation.
if "$vkmd" run water:216 --no-window --steps $steps --report-every 50 --traj-every 0 \
  --out "$scratch/lv" --json >"$scratch/lv.json" 2>"$scratch/lv.err"; then
  ok "vkmd run water:216 --steps $steps (no --minimize) exits 0"
else
  cli_skip_without_device "$scratch/lv.err" test_cli_water_tile
  bad "vkmd run water:216: $(tail -3 "$scratch/lv.err")"
fi
if $py - "$scratch/lv/energy.csv" <<'PY'; then ok "water:216 at 300 K from the start: 1 ps block means within 15 K, reports within 47 K"; else bad "water:216 temperatures"; fi
import sys
lines = [l for l in open(sys.argv[1]).read().splitlines() if l and not l.startswith("#")]
hdr = lines[0].split(",")
rows = [dict(zip(hdr, map(float, l.split(",")))) for l in lines[1:]]
print("    every 250 steps: " + ", ".join("%.1f ps %.1f K" % (r["time_ps"], r["temperature_K"])
                                    for r in rows if int(r["step"]) % 250 == 0))
late = [r for r in rows if r["time_ps"] > 1.0]
blocks = {}
for r in late:
    blocks.setdefault(int((r["time_ps"] - 1e-9) // 1.0), []).append(r["temperature_K"])
means = [(b + 1, sum(t) / len(t), len(t)) for b, t in sorted(blocks.items())]
print("    1 ps block means after the first ps: " +
      ", ".join("%d ps %.1f K (%d reports)" % m for m in means))
outside = [r for r in late if abs(r["temperature_K"] - 300) > 15]
print("    reports after 1 ps: %d, outside 300 +- 15 K: %d, range %.1f..%.1f K" %
      (len(late), len(outside), min(r["temperature_K"] for r in late),
       max(r["temperature_K"] for r in late)))
ok = len(means) >= 1 and all(abs(m - 300) <= 15 for _, m, _ in means)
ok = ok and all(abs(r["temperature_K"] - 300) <= 47 for r in rows[1:])
sys.exit(0 if ok else 1)
PY
if $py - "$scratch/lv.json" <<'PY'; then ok "Langevin JSON summary: mean T, sd T, mean density, no drift"; else bad "Langevin JSON summary"; fi
import json, sys
d = json.load(open(sys.argv[1]))
print("    mean T %.2f +- %.2f K, density %.4f +- %.4f g/cm^3" %
      (d["mean_temperature_K"], d["sd_temperature_K"], d["mean_density_g_cm3"], d["sd_density_g_cm3"]))
assert d["integrator"] == "langevin", d
assert abs(d["mean_temperature_K"] - 300) < 15 and 0 < d["sd_temperature_K"] < 30, d
assert abs(d["mean_density_g_cm3"] - 0.997) < 1e-3 and d["sd_density_g_cm3"] < 1e-9, d
assert not [k for k in d if "drift" in k], [k for k in d if "drift" in k]
PY
"$vkmd" run water:216 --no-window --steps 40 --report-every 20 --traj-every 0 --out "$scratch/lt" \
  >"$scratch/lt.txt" 2>"$scratch/lt.err"
if grep -q "T [0-9.]* +- [0-9.]* K[^,]*, density 0.99[0-9]* +- [0-9.]* g/cm^3" "$scratch/lt.txt" &&
  ! grep -q "drift" "$scratch/lt.txt"; then
  ok "Langevin text summary: $(head -c 200 "$scratch/lt.txt")"
else
  bad "Langevin text summary: $(cat "$scratch/lt.txt" "$scratch/lt.err")"
fi

# 3. Verlet (NVE): the drift, JSON and text.
"$vkmd" run water:216 --no-window --integrator verlet --steps 100 --report-every 20 --traj-every 0 \
  --out "$scratch/nve" --json >"$scratch/nve.json" 2>"$scratch/nve.err"
if $py - "$scratch/nve.json" <<'PY'; then ok "Verlet JSON summary: mean T, sd T, density and the drift"; else bad "Verlet JSON summary: $(cat "$scratch/nve.err")"; fi
import json, math, sys
d = json.load(open(sys.argv[1]))
print("    NVE: mean T %.2f +- %.2f K, drift %.4g kcal/mol/ns (%.3g kT/ns/dof)" %
      (d["mean_temperature_K"], d["sd_temperature_K"], d["energy_drift_kcal_mol_per_ns"],
       d["energy_drift_kT_per_ns_per_dof"]))
assert d["integrator"] == "verlet", d
for k in ("energy_drift_kcal_mol_per_ns", "energy_drift_stderr_kcal_mol_per_ns",
          "energy_drift_kT_per_ns_per_dof", "mean_temperature_K", "sd_temperature_K",
          "mean_density_g_cm3"):
    assert k in d and math.isfinite(d[k]), k
PY
"$vkmd" run water:216 --no-window --integrator verlet --steps 40 --report-every 20 --traj-every 0 \
  --out "$scratch/nt" >"$scratch/nt.txt" 2>"$scratch/nt.err"
if grep -q "T [0-9.]* +- [0-9.]* K[^,]*, density .*, energy drift .* kcal/mol/ns" "$scratch/nt.txt"; then
  ok "Verlet text summary: $(head -c 240 "$scratch/nt.txt")"
else
  bad "Verlet text summary: $(cat "$scratch/nt.txt" "$scratch/nt.err")"
fi

cli_finish test_cli_water_tile
