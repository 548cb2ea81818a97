#!/usr/bin/env bash
# The MD options of `vkmd run`, `vkmd equilibrate` and `vkmd-mpi ensemble`
# come from one table (engine/run/run_options.c): each command's --help prints the
# same "MD options" section (equilibrate without the production-run lines),
# every option of it is accepted by every command, a value out of range gets
# the same message from each, and the production-run options (--steps ...)
# get equilibrate's reason rather than "unknown option". No device needed:
# every command line ends with --help, which ends the command once the
# options before it are parsed (a refused option stops it before).
# Arguments: $1 vkmd binary, $2 tests source dir, $3 generated data dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args cli_md_options "$@"

vkmd_mpi=$(dirname "$vkmd")/vkmd-mpi
mpi=1
if [ ! -x "$vkmd_mpi" ]; then
  if [ "${VKMD_REQUIRE_MPI:-0}" != 0 ]; then
    err "no vkmd-mpi beside $vkmd (VKMD_REQUIRE_MPI is set)"
  else
    echo "  skip the vkmd-mpi ensemble parts: vkmd-mpi not built"
  fi
  mpi=0
fi
# vkmd-mpi as a singleton (no mpirun): parsing needs no other rank.
export OMPI_MCA_btl=${OMPI_MCA_btl:-self,vader}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0

commands=(run equilibrate)
[ "$mpi" = 1 ] && commands+=(ensemble)
cmd() { # name args...: the command line of command `name`
  local c=$1
  shift
  if [ "$c" = ensemble ]; then "$vkmd_mpi" ensemble "$@"; else "$vkmd" "$c" "$@"; fi
}

# The MD options section of a command's help: the lines after "MD options".
for c in "${commands[@]}"; do
  cmd "$c" --help >"$scratch/$c.help" 2>&1 || bad "$c --help exits $?"
  sed -n '/^MD options/,$p' "$scratch/$c.help" | tail -n +2 | sed '/^[^ ]/,$d' >"$scratch/$c.md"
  grep -o '^  --[a-z0-9-]*' "$scratch/$c.md" | tr -d ' ' >"$scratch/$c.names"
done
n_run=$(wc -l <"$scratch/run.names")
[ "$n_run" -ge 30 ] && ok "vkmd run --help lists $n_run MD options" ||
  bad "vkmd run --help lists $n_run MD options (expected the table's 30 or more)"
if [ "$mpi" = 1 ]; then
  cmp -s "$scratch/run.md" "$scratch/ensemble.md" &&
    ok "vkmd-mpi ensemble --help prints the same MD options text as vkmd run --help" ||
    bad "the MD options sections of run and ensemble differ: $(diff "$scratch/run.md" "$scratch/ensemble.md" | head -5)"
fi
# equilibrate's section: run's lines with the production-run options left out.
$py - "$scratch/run.md" "$scratch/equilibrate.md" <<'EOF' && ok "vkmd equilibrate --help prints run's MD options text less the production-run options" || bad "equilibrate's MD options text is not run's (less whole options)"
import sys
def options(path):
    out, cur = {}, None
    for line in open(path):
        if line.startswith("  --"):
            cur = line.split()[0]
            out[cur] = line
        elif cur:
            out[cur] += line
    return out
run, eq = options(sys.argv[1]), options(sys.argv[2])
sys.exit(0 if eq and all(run.get(k) == v for k, v in eq.items()) else 1)
EOF

# A valid value for an option, from its help line's metavar.
value_of() { # option
  local meta
  meta=$(grep -m1 "^  $1 " "$scratch/run.md" | awk '{print $2}')
  case "$meta" in
  *"|"*) echo "${meta%%|*}" ;;         # a choice: its first
  *[!A-Z_]* | "") echo "" ;;           # a flag (its help text follows the name)
  FILE | DIR) echo "$scratch/x" ;;
  MASK) echo ":1" ;;
  T) echo "1e-5" ;;
  MASS) echo "1.5" ;;
  *) echo "2" ;;
  esac
}

# Every option of a command's section, all on one command line, then --help.
for c in "${commands[@]}"; do
  args=()
  while read -r o; do
    args+=("$o")
    v=$(value_of "$o")
    [ -n "$v" ] && args+=("$v")
  done <"$scratch/$c.names"
  args+=(--precision mixed --positions split-float --nonbonded fp32 --help)
  if cmd "$c" "${args[@]}" >"$scratch/$c.all.out" 2>&1; then
    ok "$c accepts all $(wc -l <"$scratch/$c.names") MD options of its help"
  else
    bad "$c refuses its own MD options: $(grep -v '^ ' "$scratch/$c.all.out" | head -2)"
  fi
done

# Every option of run's section: accepted by each command, or (equilibrate,
# the production-run options) refused with its reason; the same range message
# everywhere for a value out of range (vkmd-mpi, slower to start: two options).
while read -r o; do
  v=$(value_of "$o")
  for c in "${commands[@]}"; do
    if grep -qx -- "$o" "$scratch/$c.names"; then
      continue
    fi
    cmd "$c" "$o" ${v:+"$v"} water:216 --help >"$scratch/o.out" 2>&1
    if grep -q "unknown option" "$scratch/o.out" || ! grep -q -- "$o: not an option of vkmd $c" "$scratch/o.out"; then
      bad "$c: $o is neither accepted nor refused with a reason: $(head -1 "$scratch/o.out")"
    else
      ok "$c refuses $o with its reason"
    fi
  done
  case "$v" in
  2 | 1e-5 | 1.5)
    msgs=""
    for c in "${commands[@]}"; do
      grep -qx -- "$o" "$scratch/$c.names" || continue
      # vkmd-mpi starts in ~1 s: one option is enough to see the same table
      [ "$c" = ensemble ] && [ "$o" != --dt ] && [ "$o" != --report-every ] && continue
      cmd "$c" "$o" -1 water:216 --help >"$scratch/o.out" 2>&1
      msgs+="$(grep -o -- "$o: .*" "$scratch/o.out" | head -1)"$'\n'
    done
    if [ "$(printf '%s' "$msgs" | sort -u | wc -l)" = 1 ] && [ -n "${msgs//$'\n'/}" ]; then
      :
    else
      bad "$o -1 gets different messages: $(printf '%s' "$msgs" | tr '\n' '|')"
    fi
    ;;
  esac
done <"$scratch/run.names"
ok "a value out of range gets one message from every command (each numeric option)"
cli_finish cli_md_options
