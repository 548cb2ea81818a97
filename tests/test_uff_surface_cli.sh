#!/usr/bin/env bash
# `vkmd uff energy MOL --surface ...` end to end (xylitol, lowest atom 3 A
# above the top layer unless said otherwise):
#   - NaCl and graphene, direct: CPU reference vs the device (1e-5 relative);
#   - grid at 0.2 A built on the device and saved as XSF, then loaded on the
#     CPU and on the device: the same energy to 1e-6 relative, and within
#     0.005 kcal/mol of direct (the documented tolerance is for 0.1 A; this
#     coarser grid keeps the test quick);
#   - a CPU-built grid (no device) agrees with the device-built one;
#   - Morse form, --height, an extended-XYZ substrate file;
#   - usage errors (exit 2) and bad inputs (exit 1).
# Without a Vulkan device the device parts are skipped, unless
# VKMD_REQUIRE_DEVICE=1, where they fail.
# Arguments: $1 vkmd binary, $2 tests source dir, $3 scratch dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args uff_surface_cli "$@"

# surface energy of replica 1 from the JSON on stdin
energy() { $py -c 'import json,sys; print(repr(json.load(sys.stdin)["surface"]["energies_kcal_per_mol"][0]))'; }
# close A B REL ABS WHAT
close() {
    if $py -c "import sys; a,b,r,t=map(float,sys.argv[1:5]); sys.exit(0 if abs(a-b)<=max(r*abs(b),t) else 1)" "$1" "$2" "$3" "$4"; then
        ok "$5: $1 vs $2"
    else
        bad "$5: $1 vs $2"
    fi
}
run() { "$vkmd" uff energy xylitol --json "$@" 2>"$scratch/err" | energy; }

have_device=1
if ! "$vkmd" uff energy xylitol --device 0 >/dev/null 2>&1; then
    have_device=0
    cli_no_device "vkmd uff energy xylitol --device 0 failed"
fi

for sub in nacl graphene; do
    cpu=$(run --surface $sub)
    [ -n "$cpu" ] && ok "$sub direct on the CPU: $cpu kcal/mol" || bad "$sub direct on the CPU: $(cat "$scratch/err")"
    if [ $have_device = 1 ]; then
        dev=$(run --surface $sub --device 0)
        close "$dev" "$cpu" 1e-5 1e-6 "$sub direct, device vs CPU"
        grid=$(run --surface $sub --device 0 --surface-mode grid --grid-spacing 0.2 --save-grid "$scratch/$sub.xsf")
        close "$grid" "$cpu" 0 0.005 "$sub grid 0.2 A (device) vs direct"
        loaded=$(run --surface $sub --load-grid "$scratch/$sub.xsf")
        close "$loaded" "$grid" 1e-6 1e-9 "$sub grid loaded on the CPU vs device-built"
        loaded_dev=$(run --surface $sub --device 0 --load-grid "$scratch/$sub.xsf")
        close "$loaded_dev" "$grid" 0 0 "$sub grid loaded on the device vs device-built"
        cpu_grid=$(run --surface $sub --surface-mode grid --grid-spacing 0.2)
        close "$cpu_grid" "$grid" 1e-5 1e-6 "$sub grid built on the CPU vs on the device"
    fi
done

# Morse, height: lower energy well -> a different, finite value; far away ~0
morse=$(run --surface nacl --surface-form morse)
[ -n "$morse" ] && ok "Morse form: $morse kcal/mol" || bad "Morse form: $(cat "$scratch/err")"
far=$(run --surface nacl --height 11.9)
close "$far" 0 0 1e-3 "12 A cutoff: molecule 11.9 A up"

# extended XYZ: the NaCl slab from a file
cat >"$scratch/nacl.xyz" <<'XYZ'
8
Lattice="5.64 0 0 0 5.64 0 0 0 20" Properties=species:S:1:pos:R:3
Na 0 0 0
Na 2.82 2.82 0
Cl 2.82 0 0
Cl 0 2.82 0
Cl 0 0 -2.82
Cl 2.82 2.82 -2.82
Na 2.82 0 -2.82
Na 0 2.82 -2.82
XYZ
fromfile=$(run --surface "$scratch/nacl.xyz")
close "$fromfile" "$(run --surface nacl)" 1e-9 1e-9 "extended-XYZ NaCl vs built-in"

# usage errors: exit 2; bad inputs: exit 1
expect() {
    local want=$1 what=$2
    shift 2
    "$vkmd" uff energy xylitol "$@" >/dev/null 2>"$scratch/err"
    local rc=$?
    if [ $rc = "$want" ]; then ok "$what (exit $rc: $(head -c 150 "$scratch/err"))"; else bad "$what: exit $rc, expected $want"; fi
}
expect 2 "--height without --surface" --height 3
expect 2 "--save-grid in direct mode" --surface nacl --surface-mode direct --save-grid "$scratch/x.xsf"
expect 2 "--save-grid and --load-grid" --surface nacl --save-grid a.xsf --load-grid b.xsf
expect 2 "bad --surface-mode" --surface nacl --surface-mode fast
expect 2 "bad --grid-spacing" --surface nacl --surface-mode grid --grid-spacing 0
printf '2\nno lattice here\nNa 0 0 0\nCl 2.8 0 0\n' >"$scratch/nolattice.xyz"
expect 1 "XYZ substrate without Lattice" --surface "$scratch/nolattice.xyz"
expect 1 "missing substrate file" --surface "$scratch/none.xyz"
expect 1 "missing grid file" --surface nacl --load-grid "$scratch/none.xsf"
"$vkmd" uff energy xylitol --surface nacl --surface-form morse --surface-mode grid --grid-spacing 0.3 --save-grid "$scratch/morse.xsf" >/dev/null 2>&1
expect 1 "Morse grid loaded for the LJ form" --surface nacl --load-grid "$scratch/morse.xsf"
expect 0 "Morse grid loaded for the Morse form" --surface nacl --surface-form morse --load-grid "$scratch/morse.xsf"
printf '# not a grid\nCRYSTAL\n' >"$scratch/bad.xsf"
expect 1 "XSF without grid" --surface nacl --load-grid "$scratch/bad.xsf"

cli_finish test_uff_surface_cli
