#!/bin/bash
# `vkmd devices` lists the CPU Vulkan device (lavapipe/llvmpipe) or whatever
# GPUs exist, exits 0, and --json is valid JSON with the documented keys.
# Arguments: $1 vkmd binary, $2 tests source dir, $3 scratch dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args cli_devices "$@"

out=$("$vkmd" devices 2>"$scratch/devices.err")
rc=$?
echo "$out"
if [ $rc -ne 0 ]; then
    cat "$scratch/devices.err"
    cli_skip_without_device "$scratch/devices.err" test_cli_devices
    err "vkmd devices exited $rc"
fi
if ! grep -qiE "llvmpipe|lavapipe" <<<"$out"; then
    # On a GPU machine without Mesa's CPU driver, any listed device will do.
    if ls /usr/share/vulkan/icd.d/lvp_icd*.json >/dev/null 2>&1; then
        err "lavapipe/llvmpipe not listed although its driver is installed"
    fi
fi
grep -q "\[default\]" <<<"$out" || err "no device marked [default]"
grep -q "int64 atomics" <<<"$out" || err "features line missing"

"$vkmd" devices --json >"$scratch/devices.json" 2>"$scratch/devices_json.err" ||
    err "vkmd devices --json exited non-zero: $(cat "$scratch/devices_json.err")"
/usr/bin/python3 -m json.tool "$scratch/devices.json" >/dev/null || err "--json output is not valid JSON"
/usr/bin/python3 - "$scratch/devices.json" <<'PY' || fail=1
import json, sys
doc = json.load(open(sys.argv[1]))
devs = doc["devices"]
assert devs, "no devices in JSON"
keys = {"index", "name", "vendor", "vendor_id", "driver_name", "driver_info", "driver_version",
        "api_version", "type", "device_local_bytes", "host_bytes", "features", "default"}
for d in devs:
    missing = keys - d.keys()
    assert not missing, f"device {d.get('index')} lacks {missing}"
    f = d["features"]
    for k in ("shader_float16", "storage_buffer_16bit_access", "shader_int64",
              "shader_buffer_int64_atomics", "shader_buffer_float32_atomic_add", "subgroup_size"):
        assert k in f, f"feature {k} missing"
assert sum(d["default"] for d in devs) == 1, "exactly one default device"
print("json ok:", ", ".join(f'{d["index"]}: {d["name"]} ({d["type"]})' for d in devs))
PY

"$vkmd" devices --bogus >/dev/null 2>&1 && err "unknown option accepted"

cli_finish test_cli_devices
