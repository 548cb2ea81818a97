#!/usr/bin/env bash
# AMBER NetCDF outputs of `vkmd run` on water:216 headless, NVE (velocity
# Verlet, 0.5 fs) with flexible water and no constraints, --precision mixed
# (so that repeated runs are the same run):
#   1. --traj traj.nc and --restart-out end.ncrst of a 200-step run, read by
#      MDTraj (tests/test_cli_netcdf.py): frames, atoms, coordinates, time, box;
#      the restart's doubles equal the last frame to float precision, and its
#      time, box and velocities (their kinetic energy is energy.csv's);
#   2. a restart continues bitwise: 100 steps written as .ncrst, then 100 more
#      from it with --coords, end in the state of the 200-step run bit for bit
#      (positions, velocities, box; energy.csv rows). Without constraints: a
#      new run re-applies SETTLE / SHAKE to the positions it starts from
#      (sim/md.c), so a constrained run continued from any coordinate file
#      (rst7, ncrst, chk) agrees only to rounding (README, NetCDF); --restart
#      FILE.chk continues those bitwise (test_cli_restart);
#   3. --restart from the 100-step run's checkpoint with a traj.nc of 4 frames
#      (the 200-step run's) cuts it back to the checkpoint's 2 frames (the file
#      is rewritten) and continues: the frames and the final .ncrst equal the
#      200-step run's bit for bit;
#   4. a NetCDF trajectory given as --coords is refused with a message naming it.
# Arguments: $1 vkmd binary, $2 tests source dir, $3 scratch dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args cli_netcdf "$@"
check_py="$src/test_cli_netcdf.py"
nve=(water:216 --no-window --precision mixed --seed 5 --integrator verlet --dt 0.5
  --constraints none --rigid-water no --report-every 50 --traj-every 50)

# 1. NetCDF trajectory and restart of 200 steps, read by MDTraj.
if "$vkmd" run "${nve[@]}" --steps 200 --out "$scratch/n" --traj "$scratch/n/traj.nc" \
  --restart-out "$scratch/n/end.ncrst" >"$scratch/n.log" 2>&1; then
  ok "vkmd run --traj traj.nc --restart-out end.ncrst"
else
  cli_skip_without_device "$scratch/n.log" test_cli_netcdf
  bad "run with NetCDF outputs: $(tail -3 "$scratch/n.log")"
fi
[ ! -e "$scratch/n/traj.dcd" ] && ok "no traj.dcd beside traj.nc" || bad "traj.dcd written too"
if $py "$check_py" mdtraj "$scratch/n/traj.nc" "$scratch/n/end.ncrst" "$scratch/n/final.pdb" \
  "$scratch/n/energy.csv" 4 50 0.5; then
  ok "MDTraj reads traj.nc and end.ncrst"
else bad "MDTraj checks (above)"; fi

# 2. Bitwise continuation from a .ncrst.
"$vkmd" run "${nve[@]}" --steps 100 --out "$scratch/n1" --traj "$scratch/n1/traj.nc" \
  --restart-out "$scratch/n1/end.ncrst" >"$scratch/n1.log" 2>&1 ||
  bad "100 steps: $(tail -3 "$scratch/n1.log")"
if "$vkmd" run "${nve[@]}" --steps 100 --out "$scratch/n2" --coords "$scratch/n1/end.ncrst" \
  --restart-out "$scratch/n2/end.ncrst" >"$scratch/n2.log" 2>&1; then
  ok "--coords FILE.ncrst starts a run"
else bad "--coords FILE.ncrst: $(tail -3 "$scratch/n2.log")"; fi
if $py "$check_py" same "$scratch/n/end.ncrst" "$scratch/n2/end.ncrst"; then
  ok "100 + 100 steps through a .ncrst end bitwise where 200 steps do"
else bad "the continuation differs (above)"; fi
rows() { grep -v '^#' "$1" | grep -v '^step' | cut -d, -f3-6; }
if diff <(rows "$scratch/n/energy.csv" | sed -n '4,5p') <(rows "$scratch/n2/energy.csv" | sed -n '2,3p') \
  >/dev/null; then
  ok "energy.csv rows of steps 150, 200 equal the continuation's 50, 100: $(rows "$scratch/n2/energy.csv" | tail -1)"
else bad "energy.csv rows differ: $(rows "$scratch/n/energy.csv" | tail -1) / $(rows "$scratch/n2/energy.csv" | tail -1)"; fi

# 3. A checkpoint restart cuts a longer traj.nc back and continues it.
cp "$scratch/n/traj.nc" "$scratch/n1/traj.nc"
if "$vkmd" run "${nve[@]}" --steps 200 --out "$scratch/n1" --traj "$scratch/n1/traj.nc" \
  --restart-out "$scratch/n1/end.ncrst" --restart "$scratch/n1/checkpoint.chk" \
  >"$scratch/n3.log" 2>&1; then
  ok "--restart from step 100 with a traj.nc of 4 frames"
else bad "restart: $(tail -3 "$scratch/n3.log")"; fi
[ ! -e "$scratch/n1/traj.nc.tmp" ] && ok "no temporary left" || bad "traj.nc.tmp left"
if $py "$check_py" frames "$scratch/n/traj.nc" "$scratch/n1/traj.nc" &&
  $py "$check_py" same "$scratch/n/end.ncrst" "$scratch/n1/end.ncrst"; then
  ok "restarted traj.nc and end.ncrst equal the uninterrupted run's"
else bad "restarted outputs differ (above)"; fi

# 4. A trajectory where a restart is expected (refused while loading).
if "$vkmd" run water:216 --no-window --steps 10 --coords "$scratch/n/traj.nc" --out "$scratch/z" \
  >"$scratch/z.log" 2>&1; then
  bad "a NetCDF trajectory accepted as --coords"
elif grep -q "traj.nc: an AMBER NetCDF trajectory (Conventions AMBER), expected a restart" "$scratch/z.log"; then
  ok "trajectory as --coords refused: $(grep -m1 'vkmd run' "$scratch/z.log")"
else bad "unexpected message: $(cat "$scratch/z.log")"; fi

cli_finish test_cli_netcdf
