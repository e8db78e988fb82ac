"""The Python binding's speed against the native engine, measured alternating in one process
(the machine's load then weighs on both alike). Beside `npm run bench`; never a timed test.

    build/pyenv/bin/python tests/bench/python.py [--seconds 20]

Reports, per farm:
  - vector step, 1,024 envs, masks on: FarmVecEnv.step from a Python loop vs the same
    vf_batch_step_io calls in one C loop (the same actions), and their ratio (target >= 0.8);
  - single-env step from Python (env.step in a plain loop, resetting when an episode ends;
    target >= 1 M steps/s), beside the native engine's one-env speed (vf_batch_run_random,
    the native bench's measure).
"""
import argparse
import json
import statistics
import time

import numpy as np

import valley_farm
from valley_farm import _engine

N = 1024


def python_vec(env_id, actions, rounds):
    vec = valley_farm.make_vec(env_id, N)
    vec.reset(seed=1)
    step = vec.step
    k = len(actions)
    t0 = time.perf_counter()
    for r in range(rounds):
        step(actions[r % k])
    seconds = time.perf_counter() - t0
    vec.close()
    return rounds * N / seconds


def native_vec(env_id, actions, rounds):
    kind = valley_farm.SPECS[env_id].kind
    return rounds * N / _engine.native_vec_steps(kind, actions, rounds, True)


def python_single(env_id, steps):
    env = valley_farm.make(env_id)
    env.reset(seed=1)
    actions = np.random.default_rng(0).integers(env.action_space.n, size=4096).tolist()
    step, reset = env.step, env.reset
    t0 = time.perf_counter()
    for i in range(steps):
        if step(actions[i & 4095])[2]:
            reset()
    return steps / (time.perf_counter() - t0)


def native_single(env_id, steps):
    seconds, _ = _engine.batch_run_random(valley_farm.SPECS[env_id].kind, 1, steps, 7)
    return steps / seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20, help="about how long the whole run takes")
    parser.add_argument("--json", action="store_true", help="one JSON line per farm")
    args = parser.parse_args()
    slices = 5
    budget = args.seconds / len(valley_farm.ENV_IDS) / slices / 4  # four measurements per slice
    for env_id in valley_farm.ENV_IDS:
        rng = np.random.default_rng(1)
        actions = rng.integers(valley_farm.SPECS[env_id].num_actions, size=(64, N), dtype=np.int32)
        # calibrate each measurement to about `budget` seconds
        rounds = max(10, int(budget * native_vec(env_id, actions, 200) / N))
        py_rounds = max(10, int(budget * python_vec(env_id, actions, 100) / N))
        single = max(10_000, int(budget * python_single(env_id, 20_000)))
        nsingle = max(10_000, int(budget * native_single(env_id, 100_000)))
        rows = {"python_vec": [], "native_vec": [], "python_single": [], "native_single": []}
        for _ in range(slices):  # alternating, so load on the machine weighs on both alike
            rows["native_vec"].append(native_vec(env_id, actions, rounds))
            rows["python_vec"].append(python_vec(env_id, actions, py_rounds))
            rows["python_single"].append(python_single(env_id, single))
            rows["native_single"].append(native_single(env_id, nsingle))
        med = {k: statistics.median(v) for k, v in rows.items()}
        out = {
            "env": env_id,
            "vecEnvs": N,
            "pythonVecStepsPerSec": round(med["python_vec"]),
            "nativeVecStepsPerSec": round(med["native_vec"]),
            "vecRatio": round(med["python_vec"] / med["native_vec"], 3),
            "pythonSingleStepsPerSec": round(med["python_single"]),
            "nativeSingleStepsPerSec": round(med["native_single"]),
        }
        if args.json:
            print(json.dumps(out))
        else:
            print(
                f"{env_id:24s} vector x{N} (masks): Python {med['python_vec'] / 1e6:6.1f} M/s, native {med['native_vec'] / 1e6:6.1f} M/s,"
                f" ratio {out['vecRatio']:.2f} | single env: Python {med['python_single'] / 1e6:5.2f} M/s"
                f" (native {med['native_single'] / 1e6:5.1f} M/s)"
            )


if __name__ == "__main__":
    main()
