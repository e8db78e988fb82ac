"""The golden trajectories the native engine wrote (tests/golden/trajectories.txt, format in
tests/golden/generate.c) replayed through the Python package: the same rewards, flags,
state hashes and observation hashes, bit for bit, in the single env and the vector env."""
import numpy as np
import pytest

import valley_farm
from conftest import REPO

FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3


def fnv1a64(data: bytes) -> str:
    h = FNV_OFFSET
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def obs_hash(obs: np.ndarray) -> str:
    return fnv1a64(np.asarray(obs, dtype="<i4").tobytes())


def parse():
    episodes = []
    for line in (REPO / "tests" / "golden" / "trajectories.txt").read_text().splitlines():
        tag, *f = line.strip().split(" ")
        if tag == "episode":
            episodes.append({"id": f[0], "seed": int(f[1]), "policy": f[2], "steps": []})
        elif tag == "reset":
            episodes[-1].update(state=f[0], obs=f[1])
        elif tag == "step":
            episodes[-1]["steps"].append(
                (int(f[0]), float(f[1]), f[2] == "1", f[3] == "1", f[4], f[5])
            )
    return episodes


EPISODES = parse()


def test_the_golden_file_covers_both_envs_16_episodes_each():
    for env_id in valley_farm.ENV_IDS:
        assert sum(e["id"] == env_id for e in EPISODES) == 16


@pytest.mark.parametrize("ep", EPISODES, ids=[f"{e['id']}-{e['seed']}-{e['policy']}" for e in EPISODES])
def test_a_golden_episode_replays_bit_for_bit_through_the_single_env(ep):
    env = valley_farm.make(ep["id"])
    obs, _ = env.reset(seed=ep["seed"])
    assert f"{env.state_hash():016x}" == ep["state"]
    assert fnv1a64(env.snapshot()) == ep["state"]
    assert obs_hash(obs) == ep["obs"]
    for t, (action, reward, terminated, legal, state, ohash) in enumerate(ep["steps"]):
        obs, r, term, trunc, info = env.step(action)
        assert (t, r, term, info["action_was_legal"]) == (t, reward, terminated, legal)
        assert trunc is False
        assert f"{env.state_hash():016x}" == state
        assert obs_hash(obs) == ohash


@pytest.mark.parametrize("env_id", valley_farm.ENV_IDS)
def test_the_vector_env_replays_every_golden_episode_of_an_env_at_once(env_id):
    eps = [e for e in EPISODES if e["id"] == env_id]
    vec = valley_farm.make_vec(env_id, len(eps))
    obs, _ = vec.reset(seed=[e["seed"] for e in eps])
    for i, e in enumerate(eps):
        assert obs_hash(obs[i]) == e["obs"]
        assert f"{vec._vec.state_hash(i):016x}" == e["state"]
    longest = max(len(e["steps"]) for e in eps)
    # an env whose episode is over keeps waiting on its next episode: only rows still in
    # their golden episode are checked
    for t in range(longest):
        actions = np.array([e["steps"][t][0] if t < len(e["steps"]) else 0 for e in eps], dtype=np.int32)
        obs, rewards, term, _, infos = vec.step(actions)
        for i, e in enumerate(eps):
            if t >= len(e["steps"]):
                continue
            _, reward, terminated, _, state, ohash = e["steps"][t]
            assert rewards[i] == reward and bool(term[i]) == terminated
            if terminated:
                assert obs_hash(infos["final_obs"][i]) == ohash
                assert infos["episode"]["seed"][i] == e["seed"]
            else:
                assert obs_hash(obs[i]) == ohash
                assert f"{vec._vec.state_hash(i):016x}" == state
