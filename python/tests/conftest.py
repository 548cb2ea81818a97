"""Shared set-up of the Python tests: where the vkmd command, the test data
and the device are. tests/test_python.sh sets VKMD_BIN and VKMD_SRC; the
device is VKMD_TEST_DEVICE (default "0", the first Vulkan device)."""
import json
import os
import subprocess

import pytest

SRC = os.environ.get("VKMD_SRC", os.path.join(os.path.dirname(__file__), "..", ".."))
DATA = os.path.join(SRC, "tests", "data")
DEVICE = os.environ.get("VKMD_TEST_DEVICE", "0")


@pytest.fixture(scope="session")
def vkmd_bin():
    b = os.environ.get("VKMD_BIN")
    if not b or not os.path.exists(b):
        pytest.fail("VKMD_BIN must name the vkmd command (tests/test_python.sh sets it)")
    return b


def run_json(args):
    out = subprocess.run([os.environ["VKMD_BIN"], *args], check=True, capture_output=True,
                         text=True)
    return out.stdout, json.loads(out.stdout)


def data(*p):
    return os.path.join(DATA, *p)
