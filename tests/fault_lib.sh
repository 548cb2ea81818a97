# Shared by tests/test_fault_*.sh (sourced after cli_lib.sh): the checks a
# fault leaves to make, in one place.

# ck_loads FILE: the checkpoint's header, size and FNV-1a-64 checksum are
# right (io/checkpoint.h's layout); prints its step. A torn or half-written
# file fails here (vkmd run --restart reads it again, fully).
ck_loads() {
  $py - "$1" <<'PY'
import struct, sys
ck = open(sys.argv[1], "rb").read()
assert len(ck) >= 40 and ck[:8] == b"VKMDCHK\0", "bad magic or size %d" % len(ck)
(payload, checksum) = struct.unpack_from("<QQ", ck, 16)
assert payload == len(ck) - 40, "payload %d, file %d" % (payload, len(ck))
h = 0xCBF29CE484222325
for b in ck[40:]:
    h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
assert h == checksum, "checksum"
print(struct.unpack_from("<q", ck, 56)[0])
PY
}

# same_run A B what: B's energy.csv (all but the measured ns_per_day),
# traj.dcd (or neither has one) and final.pdb equal A's byte for byte.
same_run() {
  if { [ ! -e "$1/traj.dcd" ] && [ ! -e "$2/traj.dcd" ] || cmp -s "$1/traj.dcd" "$2/traj.dcd"; } && cmp -s "$1/final.pdb" "$2/final.pdb" &&
    diff <(grep -v '^#' "$1/energy.csv" | cut -d, -f1-6) \
      <(grep -v '^#' "$2/energy.csv" | cut -d, -f1-6) >/dev/null; then
    ok "$3: energy.csv, traj.dcd and final.pdb equal the uninterrupted run's"
  else bad "$3: the outputs differ from the uninterrupted run's"; fi
}

# rows_prefix A B what: B's energy rows are the first rows of A's (nothing
# lost, nothing invented, no torn line).
rows_prefix() {
  local nb
  nb=$(grep -vc '^#' "$2/energy.csv")
  if diff <(grep -v '^#' "$1/energy.csv" | head -n "$nb" | cut -d, -f1-6) \
    <(grep -v '^#' "$2/energy.csv" | cut -d, -f1-6) >/dev/null; then
    ok "$3: energy.csv holds the $nb good rows (equal to the uninterrupted run's)"
  else bad "$3: energy.csv rows differ from the uninterrupted run's"; fi
}
