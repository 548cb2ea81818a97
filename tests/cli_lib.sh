# What every tests/test_*.sh repeats, in one place: sourced, never run on its
# own (ctest runs only test_*.sh). ctest calls each script as
#   bash test_NAME.sh <vkmd binary> <tests source dir> <generated data dir>
# (tests/CMakeLists.txt); a script starts with
#   . "$(dirname "$0")/cli_lib.sh" && cli_args NAME "$@"
# Exit codes: 0 pass, 1 fail, 77 skip (no Vulkan device, VKMD_REQUIRE_DEVICE
# unset or 0: ctest's SKIP_RETURN_CODE).
set -u
py=/usr/bin/python3 # the interpreter that sees OpenMM, RDKit and MDTraj (Debian packages)
fail=0 checks=0

# Sets vkmd, src, gen (the arguments) and scratch: gen/NAME, emptied.
cli_args() { # name vkmd src gen
  vkmd=$2 src=$3 gen=$4 scratch=$4/$1
  rm -rf "$scratch" && mkdir -p "$scratch" || exit 1
}

# One check passed / failed, printed and counted.
ok() { checks=$((checks + 1)); echo "  ok   $*"; }
bad() { checks=$((checks + 1)); fail=$((fail + 1)); echo "  FAIL $*"; }
# A failure outside a counted check.
err() { fail=$((fail + 1)); echo "FAIL: $*"; }

# Whether a missing Vulkan device must fail the test (VKMD_REQUIRE_DEVICE set
# and not 0, as .ci/run sets it) rather than skip its device parts.
cli_device_required() { [ "${VKMD_REQUIRE_DEVICE:-0}" != 0 ]; }

# A device part could not run (why: $*): a failed check when a device is
# required, else a skip line.
cli_no_device() {
  if cli_device_required; then bad "no Vulkan device: $*"; else echo "  skip the device parts: no Vulkan device"; fi
}

# Exits 77 (skip) when the stderr file $1 says there is no Vulkan device and
# none is required.
cli_skip_without_device() { # stderr_file [name]
  if grep -qi "no Vulkan" "$1" && ! cli_device_required; then
    echo "SKIP ${2:-}: no Vulkan device"
    exit 77
  fi
}

# Sends signal $2 to process $1, waits for it and checks its exit: within 5 s
# (the time is printed), code $3, a line matching $4 in log $5 (the stop tests).
cli_signal_check() { # pid signal code pattern log
  local t0 rc dt_ms
  t0=$(date +%s%N)
  kill -$2 $1
  wait $1
  rc=$?
  dt_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  echo "  $5: $2; exited $rc after $dt_ms ms"
  [ $dt_ms -le 5000 ] && ok "exit within 5 s of $2 ($dt_ms ms)" || bad "$dt_ms ms after $2"
  [ $rc = "$3" ] && ok "exit $rc" || bad "exit $rc, expected $3: $(tail -3 "$5")"
  if grep -q "$4" "$5"; then ok "$(grep -m1 -o "$4.*" "$5")"; else bad "no line '$4': $(tail -3 "$5")"; fi
}

# The last line of a test: the counts, PASS or FAIL NAME, the exit status.
cli_finish() { # name
  echo "$checks checks, $fail failed"
  if [ "$fail" = 0 ]; then
    echo "PASS $1"
    exit 0
  fi
  echo "FAIL $1"
  exit 1
}
