"""Gymnasium's conventions that hold with or without Gymnasium installed (test_gymnasium.py
checks them against Gymnasium itself): int8 action masks that the spaces sample with (bool
masks accepted too), the vector infos' keys and their _key masks in each autoreset mode, and
max_episode_steps None in both bindings."""
import numpy as np
import pytest

import valley_farm
from conftest import node_json

IDS = valley_farm.ENV_IDS


@pytest.mark.parametrize("env_id", IDS)
def test_action_masks_are_int8_ones_where_an_action_is_legal(env_id):
    env = valley_farm.make(env_id)
    _, info = env.reset(seed=4)
    reasons = env.illegal_reasons()
    for mask in (info["action_mask"], env.action_mask(), env.step(0)[4]["action_mask"]):
        assert mask.dtype == np.int8 and set(np.unique(mask)) <= {0, 1}
    assert [int(v) for v in env.action_mask()] == [1 if r is None else 0 for r in env.illegal_reasons()]
    assert len(reasons) == env.action_space.n
    vec = valley_farm.make_vec(env_id, 3)
    _, infos = vec.reset(seed=4)
    assert infos["action_mask"].dtype == np.int8 and infos["_action_mask"].dtype == np.bool_
    assert np.array_equal(infos["action_mask"][0], valley_farm.make(env_id).reset(seed=4)[1]["action_mask"])


@pytest.mark.parametrize("dtype", [np.int8, np.bool_])
def test_the_spaces_sample_only_legal_actions_from_an_int8_or_a_bool_mask(dtype):
    ours = not valley_farm.spaces.GYMNASIUM  # with Gymnasium installed the spaces are its own: int8 only
    if not ours and dtype is np.bool_:
        pytest.skip("Gymnasium's own spaces take int8 masks only (the envs' masks are int8)")
    env = valley_farm.make("ValleyFarm-v0")
    _, info = env.reset(seed=1)
    mask = info["action_mask"].astype(dtype)
    env.action_space.seed(0)
    drawn = {int(env.action_space.sample(mask=mask)) for _ in range(200)}
    assert drawn == set(np.flatnonzero(mask).tolist())
    vec = valley_farm.make_vec("ValleyFarm-v0", 5)
    _, infos = vec.reset(seed=2)
    vec.action_space.seed(0)
    forms = [tuple(infos["action_mask"].astype(dtype))] + ([infos["action_mask"].astype(dtype)] if ours else [])
    for masks in forms:  # a mask per entry (Gymnasium's form), or the vector env's masks array (ours)
        for _ in range(20):
            actions = vec.action_space.sample(mask=masks)
            assert all(infos["action_mask"][i, a] == 1 for i, a in enumerate(actions))
    if ours:
        with pytest.raises(ValueError, match=r"int8 \(or bool\) array of shape \(12,\)"):
            env.action_space.sample(mask=info["action_mask"].astype(np.float32))


@pytest.mark.parametrize(
    "mode, keys",
    [
        ("same_step", {"episode", "final_obs", "final_info", "action_mask"}),
        ("next_step", {"episode", "action_mask"}),
    ],
)
def test_the_vector_infos_use_gymnasiums_keys_each_beside_its_key_mask(mode, keys):
    n = 3
    vec = valley_farm.make_vec("BackwardsValleyFarm-v0", n, autoreset_mode=mode)
    vec.reset(seed=1)
    for _ in range(valley_farm.SPECS["BackwardsValleyFarm-v0"].horizon):
        _, _, terms, _, infos = vec.step(np.zeros(n, dtype=np.int32))
    assert terms.all()
    assert set(infos) == keys | {"_" + k for k in keys}
    for k in keys:  # "Every `key` of `info` is paired with a boolean mask `_key`"
        assert infos["_" + k].dtype == np.bool_ and infos["_" + k].shape == (n,) and len(infos[k]) in (n, 4)
    assert infos["_episode"].all() and set(infos["episode"]) == {"r", "l", "t", "seed"}
    assert (infos["episode"]["l"] == 40).all() and (infos["episode"]["t"] >= 0).all()
    if mode == "same_step":
        assert set(infos["final_info"]) == {"step", "_step", "seed", "_seed"} and infos["_final_obs"].all()


def test_max_episode_steps_is_none_in_python_and_null_in_js_because_nothing_truncates():
    js = node_json(
        "import { make, envIds } from './wasm/index.js';"
        "const specs = {}; for (const id of envIds) specs[id] = (await make(id)).spec;"
        "console.log(JSON.stringify(specs));"
    )
    for env_id in IDS:
        env = valley_farm.make(env_id)
        assert env.spec.max_episode_steps is None and js[env_id] == {"id": env_id, "maxEpisodeSteps": None}
        env.reset(seed=9)
        steps, terminated = 0, False
        while not terminated:
            _, _, terminated, truncated, _ = env.step(0)
            steps += 1
            assert truncated is False
        assert steps == env.farm.horizon  # the horizon is the farm's, in its spec
