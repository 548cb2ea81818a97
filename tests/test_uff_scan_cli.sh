#!/usr/bin/env bash
# `vkmd uff scan` and `vkmd uff energy --device N` end to end:
#   - 25 displaced conformations of xylitol as a multi-record SDF and as a
#     multi-frame XYZ (generated here, deterministic); the CPU reference scan
#     of both agrees; the Vulkan scan in batches of 7 (4 dispatches) agrees
#     with it per conformation and term (1e-5 relative, 1e-6 kcal/mol floor)
#     and in forces (RMS-relative 1e-5, the --forces files);
#   - the Vulkan results do not depend on the batch size (7, 10, all: same
#     printed digits) and repeat exactly; --device auto picks the device;
#   - --debug-replica K: one record per term of conformation K, whose energies
#     and force pieces add up to that conformation's energies and forces;
#     the text table too;
#   - vkmd uff energy --device 0 on all 57 records of molecules.sdf (one
#     mixed-molecule dispatch, and batches of 10) against --device cpu (floor
#     1e-5 kcal/mol, forces 5e-5: the device's float coordinates move relaxed
#     bonds);
#   - usage errors (exit 2) and inputs that are not conformations of MOL (exit 1).
# Without a Vulkan device the device parts are skipped, unless
# VKMD_REQUIRE_DEVICE=1, where they fail.
# Arguments: $1 vkmd binary, $2 tests source dir, $3 scratch dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args uff_scan_cli "$@"

# 0. The conformations: xylitol of molecules.sdf displaced by up to 0.1 A per
# coordinate, written with 4 decimals as SDF records and as XYZ frames.
$py - "$src/data/uff/molecules.sdf" "$scratch" <<'PY'
import random, sys
random.seed(7)
recs = open(sys.argv[1]).read().split("$$$$\n")
lines = [r for r in recs if r.startswith("xylitol\n")][0].split("\n")
n = int(lines[3][:3])
sdf, xyz = [], []
for k in range(25):
    rec, frame = list(lines), []
    for i in range(n):
        l = rec[4 + i]
        x = [float(l[0:10]) + random.uniform(-0.1, 0.1), float(l[10:20]) + random.uniform(-0.1, 0.1),
             float(l[20:30]) + random.uniform(-0.1, 0.1)]
        rec[4 + i] = "%10.4f%10.4f%10.4f" % tuple(x) + l[30:]
        frame.append("%s %.4f %.4f %.4f\n" % (l[31:34].strip(), x[0], x[1], x[2]))
    rec[0] = "xylitol conformation %d" % (k + 1)
    sdf.append("\n".join(rec))
    xyz.append("%d\nframe %d\n" % (n, k + 1) + "".join(frame))
open(sys.argv[2] + "/confs.sdf", "w").write("$$$$\n".join(sdf) + "$$$$\n")
open(sys.argv[2] + "/confs.xyz", "w").write("".join(xyz))
PY

# 1. CPU reference scans of the SDF and the XYZ: same conformations, same numbers.
if "$vkmd" uff scan xylitol --confs "$scratch/confs.sdf" --device cpu --json --forces "$scratch/f_cpu.txt" >"$scratch/cpu.json" 2>"$scratch/cpu.err" &&
  "$vkmd" uff scan xylitol --confs "$scratch/confs.xyz" --device cpu --json >"$scratch/cpu_xyz.json" 2>>"$scratch/cpu.err" &&
  $py - "$scratch/cpu.json" "$scratch/cpu_xyz.json" <<'PY'; then ok "--device cpu: SDF and XYZ conformations give the same energies; JSON units"; else bad "cpu scan: $(cat "$scratch/cpu.err")"; fi
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert a["units"] == {"energy": "kcal/mol", "force": "kcal/mol/angstrom", "length": "angstrom"}
assert a["device"].startswith("cpu") and a["n_conformations"] == 25 == len(a["conformations"])
assert a["n_atoms"] == 22 and a["n_terms"]["pair"] == 175
for x, y in zip(a["conformations"], b["conformations"]):
    assert x["record"] == x["conformation"] and y["conformer"] == y["conformation"]
    for k, v in x["energy"].items():
        assert abs(v - y["energy"][k]) <= 1e-9 * max(1.0, abs(v)), (k, v, y["energy"][k])
print("    conformation 1: total %.6f kcal/mol" % a["conformations"][0]["energy"]["total_kcal_per_mol"])
PY

# Is there a Vulkan device?
if "$vkmd" uff energy formic-acid --device 0 >/dev/null 2>"$scratch/dev.err"; then
  have_device=1
else
  have_device=0
  cli_no_device "$(cat "$scratch/dev.err")"
fi

compare_py='
import json, sys
tol_rel, floor = 1e-5, 1e-6
def energies(path):
    d = json.load(open(path))
    if "conformations" in d:
        return d, [c["energy"] for c in d["conformations"]]
    return d, [c["energy"] for r in d["records"] for c in r["conformers"]]
def forces_file(path):
    out, cur = [], None
    for line in open(path):
        if line.startswith("# conformation") or line.startswith("# record"):
            cur = []
            out.append(cur)
        elif not line.startswith("#"):
            cur.append([float(v) for v in line.split()[1:]])
    return out
def compare(ref, got, floor=floor):
    worst = 0.0
    for n, (a, b) in enumerate(zip(ref, got)):
        for k, v in a.items():
            err = abs(b[k] - v)
            worst = max(worst, err / max(tol_rel * abs(v), floor))
            assert err <= max(tol_rel * abs(v), floor), (n + 1, k, v, b[k])
    return worst
def force_rms_rel(fa, fb):
    worst = 0.0
    for a, b in zip(fa, fb):
        num = sum((x - y) ** 2 for p, q in zip(a, b) for x, y in zip(p, q))
        den = sum(x * x for p in a for x in p)
        worst = max(worst, (num / den) ** 0.5)
    return worst
'

if [ $have_device = 1 ]; then
  # 2. Vulkan scan in batches of 7 against the CPU, energies and forces.
  if "$vkmd" uff scan xylitol --confs "$scratch/confs.sdf" --device 0 --replicas 7 --json --forces "$scratch/f_gpu.txt" >"$scratch/gpu7.json" 2>"$scratch/gpu.err" &&
    $py - "$scratch/cpu.json" "$scratch/gpu7.json" "$scratch/f_cpu.txt" "$scratch/f_gpu.txt" <<PY; then ok "--device 0 --replicas 7: 4 dispatches, every conformation's terms and forces match the CPU"; else bad "--device 0 scan: $(cat "$scratch/gpu.err")"; fi
$compare_py
dc, ec = energies(sys.argv[1])
dg, eg = energies(sys.argv[2])
assert not dg["device"].startswith("cpu") and dg["dispatches"] == 4 and dg["replicas_per_dispatch"] == 7
w = compare(ec, eg)
fc, fg = forces_file(sys.argv[3]), forces_file(sys.argv[4])
assert len(fc) == len(fg) == 25 and all(len(f) == 22 for f in fg)
rf = force_rms_rel(fc, fg)
assert rf <= 1e-5, rf
assert "kcal/mol/A" in open(sys.argv[4]).readline()
print("    worst term error %.3f of the limit; worst force RMS-rel %.2e" % (w, rf))
PY

  # 3. Batch size and repetition do not change a digit; --device auto takes the device.
  "$vkmd" uff scan xylitol --confs "$scratch/confs.sdf" --device 0 --replicas 10 --json >"$scratch/gpu10.json" 2>/dev/null
  "$vkmd" uff scan xylitol --confs "$scratch/confs.sdf" --json >"$scratch/gpu_auto.json" 2>/dev/null
  "$vkmd" uff scan xylitol --confs "$scratch/confs.sdf" --device 0 --replicas 7 --json >"$scratch/gpu7b.json" 2>/dev/null
  if $py - "$scratch/gpu7.json" "$scratch/gpu10.json" "$scratch/gpu_auto.json" "$scratch/gpu7b.json" <<'PY'; then ok "batches of 7, 10, all (auto) and a repeat: identical energies; --device auto uses the device"; else bad "batch-size independence"; fi
import json, sys
d = [json.load(open(p)) for p in sys.argv[1:]]
assert [x["dispatches"] for x in d] == [4, 3, 1, 4], [x["dispatches"] for x in d]
assert d[2]["device"] == d[0]["device"], d[2]["device"]
for x in d[1:]:
    assert x["conformations"] == d[0]["conformations"]
PY

  # 4. --debug-replica: records of conformation 3 add up to its energies and forces.
  if "$vkmd" uff scan xylitol --confs "$scratch/confs.sdf" --device 0 --replicas 7 --json --debug-replica 3 >"$scratch/dbg.json" 2>"$scratch/dbg.err" &&
    $py - "$scratch/dbg.json" "$scratch/f_gpu.txt" <<PY; then ok "--debug-replica 3 (JSON): 282 interactions adding up to the conformation's energies and forces"; else bad "--debug-replica JSON: $(cat "$scratch/dbg.err")"; fi
$compare_py
d = json.load(open(sys.argv[1]))
g = d["debug"]
assert g["replica"] == 3 and g["of"].startswith("conformation 3"), g["of"]
inter = g["interactions"]
assert len(inter) == 21 + 35 + 51 + 175, len(inter)
sums = {"bond": 0.0, "angle": 0.0, "torsion": 0.0, "vdw": 0.0}
f = [[0.0, 0.0, 0.0] for _ in range(22)]
for i in inter:
    if i["kind"] == "pair":
        sums["vdw"] += i["vdw_kcal_per_mol"]
    else:
        sums[i["kind"]] += i["energy_kcal_per_mol"]
    for a, fv in zip(i["atoms"], i["forces_kcal_per_mol_per_angstrom"]):
        for k in range(3):
            f[a - 1][k] += fv[k]
e = d["conformations"][2]["energy"]
for k, v in sums.items():
    assert abs(v - e[k + "_kcal_per_mol"]) <= 1e-6 * max(1.0, abs(v)), (k, v, e)
rf = force_rms_rel([forces_file(sys.argv[2])[2]], [f])
assert rf <= 1e-6, rf
print("    sums of the records vs the conformation: forces RMS-rel %.1e" % rf)
PY
  if "$vkmd" uff scan xylitol --confs "$scratch/confs.sdf" --device 0 --debug-replica 25 >"$scratch/dbg.txt" 2>"$scratch/dbg.err" &&
    grep -q "^per-interaction details of replica 25 (conformation 25" "$scratch/dbg.txt" &&
    [ "$(grep -c '^  bond ' "$scratch/dbg.txt")" = 21 ] && [ "$(grep -c '^  pair ' "$scratch/dbg.txt")" = 175 ]; then
    ok "--debug-replica 25 (text): $(grep -c '^  \(bond\|angle\|torsion\|pair\) ' "$scratch/dbg.txt") rows, e.g. $(grep -m1 '^  angle ' "$scratch/dbg.txt" | cut -c1-110)"
  else
    bad "--debug-replica text: $(cat "$scratch/dbg.err")"
  fi

  # 5. vkmd uff energy --device 0: all 57 records in one mixed dispatch, and in batches of 10.
  "$vkmd" uff energy "$src/data/uff/molecules.sdf" --json >"$scratch/e_cpu.json" 2>/dev/null
  if "$vkmd" uff energy "$src/data/uff/molecules.sdf" --device 0 --json >"$scratch/e_gpu.json" 2>"$scratch/e.err" &&
    "$vkmd" uff energy "$src/data/uff/molecules.sdf" --device 0 --replicas 10 --json >"$scratch/e_gpu10.json" 2>>"$scratch/e.err" &&
    $py - "$scratch/e_cpu.json" "$scratch/e_gpu.json" "$scratch/e_gpu10.json" <<PY; then ok "energy --device 0 on 57 records (1 dispatch; 6 of 10) matches --device cpu per term and force"; else bad "energy --device 0: $(cat "$scratch/e.err")"; fi
$compare_py
dc, ec = energies(sys.argv[1])
dg, eg = energies(sys.argv[2])
d10, e10 = energies(sys.argv[3])
assert len(eg) == 57 and dg["replicas"] == 57 and dg["dispatches"] == 1 and d10["dispatches"] == 6
assert e10 == eg
# The device rounds the 4-decimal coordinates to float (up to 2.4e-7 A),
# which alone moves the bond energy of a relaxed molecule by a few 1e-6
# kcal/mol (1e-5 of it) and its forces by ~700 kcal/mol/A^2 x 2.4e-7 A
# (1e-5 of their RMS): floor 1e-5 kcal/mol, forces 5e-5 here.
w = compare(ec, eg, 1e-5)
fc = [c["forces_kcal_per_mol_per_a"] for r in dc["records"] for c in r["conformers"]]
fg = [c["forces_kcal_per_mol_per_a"] for r in dg["records"] for c in r["conformers"]]
rf = force_rms_rel(fc, fg)
assert rf <= 5e-5, rf
print("    worst term error %.3f of the limit; worst force RMS-rel %.2e" % (w, rf))
PY
fi

# 6. Usage errors: exit 2 and a message.
for args in "uff scan xylitol" "uff scan --confs $scratch/confs.sdf" "uff scan xylitol --confs $scratch/confs.sdf --replicas 0" \
  "uff scan xylitol --confs $scratch/confs.sdf --device cpu --debug-replica 1" "uff scan xylitol --confs $scratch/confs.sdf --types" \
  "uff energy xylitol --device auto" "uff energy xylitol --confs $scratch/confs.sdf" "uff scan xylitol --confs $scratch/confs.sdf --debug-replica x"; do
  # shellcheck disable=SC2086
  "$vkmd" $args >/dev/null 2>"$scratch/usage.err"
  rc=$?
  if [ $rc = 2 ] && [ -s "$scratch/usage.err" ]; then ok "vkmd ${args//$scratch\//}: exit 2"; else bad "vkmd $args: rc $rc"; fi
done
if [ $have_device = 1 ]; then
  "$vkmd" uff scan xylitol --confs "$scratch/confs.sdf" --device 0 --debug-replica 26 >/dev/null 2>"$scratch/usage.err"
  rc=$?
  if [ $rc = 2 ] && grep -q "there are 25 replicas" "$scratch/usage.err"; then ok "--debug-replica 26 of 25: exit 2"; else bad "--debug-replica 26: rc $rc $(cat "$scratch/usage.err")"; fi
fi

# 7. Inputs that are not conformations of MOL: exit 1, the message says why.
printf '3\nwater\nO 0 0 0\nH 0.96 0 0\nH -0.24 0.93 0\n' >"$scratch/water.xyz"
sed 's/^\(    [ 0-9.-]*[0-9] \)O /\1S /' "$scratch/confs.sdf" >"$scratch/sulfur.sdf"
for case in "formic-acid|$scratch/confs.sdf|has 22 atoms, formic-acid has 5" \
  "xylitol|$scratch/water.xyz|has 3 atoms, xylitol has 22" \
  "xylitol|$scratch/sulfur.sdf|has atomic number 16" \
  "xylitol|$scratch/missing.sdf|missing.sdf" \
  "$src/data/uff/molecules.sdf|$scratch/confs.sdf|scan takes one molecule"; do
  IFS='|' read -r mol confs msg <<<"$case"
  "$vkmd" uff scan "$mol" --confs "$confs" --device cpu >/dev/null 2>"$scratch/bad.err"
  rc=$?
  if [ $rc = 1 ] && grep -q -F -- "$msg" "$scratch/bad.err"; then ok "scan ${mol##*/} --confs ${confs##*/}: exit 1, $(head -c 120 "$scratch/bad.err")"; else bad "scan $mol --confs $confs: rc $rc: $(cat "$scratch/bad.err")"; fi
done

# The two kernel shapes of the UFF pass (forces/pass_uff.h: one invocation per
# replica, lavapipe's default; one per (term, replica) item, a GPU's) add the
# same integers: the same JSON to the last digit, forces included.
for m in 0 1; do
  VKMD_UFF_PER_REPLICA=$m "$vkmd" uff energy "$src/data/uff/molecules.sdf" --device 0 --json \
    --forces "$scratch/shape$m.f" >"$scratch/shape$m.json" 2>"$scratch/shape$m.err" ||
    bad "VKMD_UFF_PER_REPLICA=$m: $(cat "$scratch/shape$m.err")"
done
if cmp -s "$scratch/shape0.json" "$scratch/shape1.json" && cmp -s "$scratch/shape0.f" "$scratch/shape1.f"; then
  ok "per-replica and per-item UFF kernels: identical energies and forces (57 records)"
else
  bad "per-replica and per-item UFF kernels differ"
fi

cli_finish test_uff_scan_cli
