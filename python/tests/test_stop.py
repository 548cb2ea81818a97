"""Ctrl-C in the long calls: Simulation.step and minimize return to Python
between batches of device work (well under a second each), so a SIGINT
raises KeyboardInterrupt within 2 s, with the simulation whole (the step
counter exact) and still working."""
import os
import signal
import threading
import time

import numpy as np
import pytest

import vkmd
from conftest import DEVICE


def interrupt_after(seconds):
    sent = {}

    def fire():
        sent["t"] = time.monotonic()
        os.kill(os.getpid(), signal.SIGINT)

    t = threading.Timer(seconds, fire)
    t.start()
    return t, sent


def test_sigint_during_step():
    sim = vkmd.Simulation(vkmd.System.water(216), device=DEVICE, dt=2.0, seed=3)
    sim.step(10)
    start = sim.current_step
    timer, sent = interrupt_after(1.5)
    with pytest.raises(KeyboardInterrupt):
        sim.step(10**7)
    latency = time.monotonic() - sent["t"]
    timer.join()
    stopped = sim.current_step
    print(f"KeyboardInterrupt {latency:.3f} s after SIGINT, at step {stopped}")
    assert latency < 2.0
    assert start < stopped < start + 10**7
    sim.step(10)  # still working, the counter exact
    assert sim.current_step == stopped + 10
    assert np.all(np.isfinite(sim.positions))


def test_sigint_during_minimize():
    sim = vkmd.Simulation(vkmd.System.water(216), device=DEVICE, dt=2.0, seed=3)
    timer, sent = interrupt_after(1.0)
    with pytest.raises(KeyboardInterrupt):
        sim.minimize(tolerance=1e-6, max_iterations=10**7)
    latency = time.monotonic() - sent["t"]
    timer.join()
    print(f"KeyboardInterrupt {latency:.3f} s after SIGINT in the minimisation")
    assert latency < 2.0
    assert np.all(np.isfinite(sim.positions))
    sim.step(5)
