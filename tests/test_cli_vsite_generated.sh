#!/bin/bash
# Extra points (virtual sites) end to end through the command line, on the
# TIP4P-Ew box the openmm_vsite_generate fixture builds: `vkmd run` (NVE, 40
# steps) writes a DCD and final.pdb holding every atom, the extra points
# included, each at 0.125 A from its oxygen; a run stopped at step 20 and
# continued with --restart writes the same energies and final.pdb to the
# bit; then the viewer under Xvfb
# draws them as small cyan spheres (png_stats' cyan pixels), the v key hides
# them, and `vkmd view --traj` plays the run's DCD with them. Arguments: $1
# vkmd binary, $2 tests source dir, $3 scratch dir (holds the generated
# system).
set -u
if [ "${VKMD_TEST_IN_X:-0}" != 1 ]; then
  command -v xvfb-run >/dev/null || { echo "FAIL: xvfb-run missing (Debian: xvfb, xauth)"; exit 1; }
  exec xvfb-run -a -s "-screen 0 1280x1024x24 -nolisten tcp" env VKMD_TEST_IN_X=1 bash "$0" "$@"
fi
. "$(dirname "$0")/cli_lib.sh" && cli_args cli_vsite "$@"
stats=$(dirname "$vkmd")/tests/png_stats
fail=0 checks=0
top=$gen/tip4pew_box.prmtop
[ -s "$top" ] || { echo "FAIL: $top missing (openmm_vsite_generate fixture)"; exit 1; }
cd "$scratch" || exit 1
stat_of() { "$stats" 0.16 "$1" | awk -v k="$2" '$1 == k {print $2}'; }

if "$vkmd" run "$top" --steps 40 --integrator verlet --temperature 300 --report-every 20 \
  --traj-every 20 --out r --no-window >run.out 2>run.err; then
  ok "vkmd run on $top"
else
  cli_skip_without_device run.err cli_vsite
  bad "vkmd run exited non-zero: $(tail -3 run.err)"
fi
n_pdb=$(grep -c '^\(ATOM\|HETATM\)' r/final.pdb 2>/dev/null || echo 0)
[ "$n_pdb" = 1232 ] && ok "final.pdb holds 1232 atoms" || bad "final.pdb holds $n_pdb atoms, expected 1232"
# O-EP distances in final.pdb (each residue: O, H1, H2, EP)
ep=$(awk '/^(ATOM|HETATM)/ {n = substr($0, 13, 4); gsub(/ /, "", n);
       x = substr($0, 31, 8); y = substr($0, 39, 8); z = substr($0, 47, 8);
       if (n == "O") {ox = x; oy = y; oz = z}
       if (n == "EP") {d = sqrt((x-ox)^2 + (y-oy)^2 + (z-oz)^2); if (d > m) m = d; if (!k++ || d < lo) lo = d}}
     END {printf "%d %.3f %.3f", k, lo, m}' r/final.pdb 2>/dev/null)
set -- $ep
[ "${1:-0}" = 308 ] && awk -v a="${2:-0}" -v b="${3:-9}" 'BEGIN {exit !(a >= 0.124 && b <= 0.126)}' &&
  ok "final.pdb: 308 extra points at $2..$3 A from their oxygens" ||
  bad "final.pdb extra points: count ${1:-?}, O-EP ${2:-?}..${3:-?} A (expected 308 at 0.125)"

if "$vkmd" run "$top" --steps 20 --integrator verlet --temperature 300 --report-every 20 \
  --traj-every 20 --out s --no-window >s1.out 2>s1.err &&
  "$vkmd" run "$top" --steps 40 --integrator verlet --temperature 300 --report-every 20 \
    --traj-every 20 --out s --no-window --restart s/checkpoint.chk >s2.out 2>s2.err; then
  # columns up to the temperature (ns/day is wall time)
  if cmp -s <(grep -v '^#' r/energy.csv | cut -d, -f1-6) <(grep -v '^#' s/energy.csv | cut -d, -f1-6) &&
    cmp -s r/final.pdb s/final.pdb; then
    ok "a restart from step 20 continues bitwise (energy.csv, final.pdb)"
  else
    bad "the restarted run differs from the uninterrupted one"
  fi
else
  bad "stopped/restarted run exited non-zero: $(tail -3 s1.err s2.err)"
fi

if "$vkmd" view "$top" --frames 3 --screenshot shown.png >v1.out 2>v1.err &&
  VKMD_VIEWER_KEYS="1:v" "$vkmd" view "$top" --frames 3 --screenshot hidden.png >v2.out 2>v2.err; then
  c1=$(stat_of shown.png cyan) c2=$(stat_of hidden.png cyan) r2=$(stat_of hidden.png red)
  echo "  cyan pixels: drawn $c1, after key v $c2 (red $r2)"
  [ "${c1:-0}" -gt 500 ] && ok "extra points drawn ($c1 cyan pixels)" || bad "extra points not drawn ($c1)"
  [ "${c2:-1}" -lt 20 ] && [ "${r2:-0}" -gt 1000 ] && ok "key v hides them, the waters stay" ||
    bad "key v: $c2 cyan and $r2 red pixels left"
else
  bad "vkmd view exited non-zero: $(tail -3 v1.err v2.err)"
fi
if "$vkmd" view "$top" --traj r/traj.dcd --frames 3 --screenshot traj.png >v3.out 2>v3.err; then
  c3=$(stat_of traj.png cyan)
  [ "${c3:-0}" -gt 500 ] && ok "vkmd view --traj draws the DCD's extra points ($c3 cyan pixels)" ||
    bad "vkmd view --traj: $c3 cyan pixels"
else
  bad "vkmd view --traj exited non-zero: $(tail -3 v3.err)"
fi
[ $fail = 0 ] && echo "PASS cli_vsite: $checks checks" && exit 0
echo "FAIL cli_vsite: $fail of $checks checks failed"
exit 1
