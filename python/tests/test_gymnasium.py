"""The envs under Gymnasium itself, where it is importable (skipped where it is not: the CI
machines have no Python registry, so gymnasium is not installed there; docs/python.md says
which Gymnasium releases this was run against, from a source checkout, and how).

Gymnasium's own env checker on both farms' single envs, made by gymnasium.make (the import
registers the ids) and by valley_farm.make; gymnasium.make("valley_farm:...") in a fresh
interpreter; masks Gymnasium's spaces sample with; no time limit (max_episode_steps None); the
seeding contract the checker asks for (a seeded reset seeds np_random); a spec that
gymnasium.make can make again; and the vector env in each autoreset mode beside Gymnasium's own
SyncVectorEnv over single envs, across episode boundaries."""
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import valley_farm

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

IDS = valley_farm.ENV_IDS


def test_importing_the_package_registers_its_ids_and_register_stays_harmless():
    assert all(env_id in gymnasium.registry for env_id in IDS)
    valley_farm.register()
    assert gymnasium.registry["ValleyFarm-v0"].vector_entry_point == "valley_farm.vector:FarmVecEnv"


def test_gymnasium_makes_valley_farm_ids_by_module_in_a_fresh_interpreter():
    code = (
        "import gymnasium as gym, sys\n"
        "env = gym.make('valley_farm:BackwardsValleyFarm-v0')\n"
        "vec = gym.make_vec('valley_farm:ValleyFarm-v0', num_envs=3, vectorization_mode='vector_entry_point')\n"
        "assert 'valley_farm' in sys.modules and env.unwrapped.id == 'BackwardsValleyFarm-v0' and vec.num_envs == 3\n"
        "print(env.reset(seed=1)[1]['seed'])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=os.environ)
    assert out.returncode == 0 and out.stdout.strip() == "1", out.stderr[-2000:]


@pytest.mark.parametrize("env_id", IDS)
def test_gymnasiums_spaces_sample_legal_actions_from_the_int8_masks(env_id):
    env = gymnasium.make(env_id)
    _, info = env.reset(seed=3)
    env.action_space.seed(0)
    for _ in range(50):
        a = env.action_space.sample(mask=info["action_mask"])  # Discrete.sample wants int8
        assert info["action_mask"][a] == 1
        _, _, terminated, _, info = env.step(a)
        if terminated:
            _, info = env.reset()
    vec = valley_farm.make_vec(env_id, 4)
    _, infos = vec.reset(seed=1)
    vec.action_space.seed(0)
    actions = vec.action_space.sample(mask=tuple(infos["action_mask"]))  # MultiDiscrete: one mask per entry
    assert all(infos["action_mask"][i, a] == 1 for i, a in enumerate(actions))


@pytest.mark.parametrize("env_id", IDS)
def test_no_time_limit_wraps_the_env_and_every_episode_ends_terminated_at_the_horizon(env_id):
    env = gymnasium.make(env_id)
    assert env.spec.max_episode_steps is None and valley_farm.make(env_id).spec.max_episode_steps is None
    wrapper = env
    while wrapper is not wrapper.unwrapped:
        assert not isinstance(wrapper, gymnasium.wrappers.TimeLimit)
        wrapper = wrapper.env
    env.reset(seed=2)
    steps, terminated, truncated = 0, False, False
    while not (terminated or truncated):
        _, _, terminated, truncated, _ = env.step(0)
        steps += 1
    assert terminated and not truncated and steps == valley_farm.SPECS[env_id].horizon


@pytest.mark.parametrize("env_id", IDS)
def test_gymnasium_make_gives_a_gymnasium_env_that_passes_its_env_checker_without_warnings(env_id):
    made = gymnasium.make(env_id)
    assert isinstance(made.unwrapped, gymnasium.Env) and isinstance(made.unwrapped, valley_farm.FarmEnv)
    assert isinstance(made.observation_space, gymnasium.spaces.Box)
    assert isinstance(made.action_space, gymnasium.spaces.Discrete)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # Gymnasium's checker warns (logger.warn) on what it dislikes
        check_env(made.unwrapped)
        check_env(valley_farm.make(env_id))
    # the passive checker gymnasium.make wraps around the env, over a whole episode
    obs, info = made.reset(seed=5)
    rng = np.random.default_rng(0)
    terminated = truncated = False
    while not (terminated or truncated):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = made.step(action)
        assert made.observation_space.contains(obs)
    made.close()
    made.close()


@pytest.mark.parametrize("env_id", IDS)
def test_a_seeded_reset_seeds_np_random_and_a_bad_seed_changes_nothing(env_id):
    env = valley_farm.make(env_id)
    env.reset(seed=123)
    first = env.np_random.bit_generator.state
    assert env.np_random_seed == 123
    env.reset()
    env.reset(seed=123)
    assert env.np_random.bit_generator.state == first
    with pytest.raises(ValueError):
        env.reset(seed=-1)
    assert env.np_random_seed == 123 and env.np_random.bit_generator.state == first
    env.reset(seed=456)
    assert env.np_random.bit_generator.state != first


@pytest.mark.parametrize("env_id", IDS)
def test_an_envs_spec_makes_the_same_env_again_with_gymnasium_make(env_id):
    env = valley_farm.make(env_id, events=True)
    again = gymnasium.make(env.spec)
    assert again.unwrapped.id == env_id and again.unwrapped.spec.kwargs["events"] is True
    a, _ = env.reset(seed=9)
    b, _ = again.reset(seed=9)
    assert np.array_equal(a, b)


class Scheduled(gymnasium.Wrapper):
    """A single env that, reset without a seed (as SyncVectorEnv's autoreset does), takes the
    vector env's next seed: its last + n."""

    def __init__(self, env, n):
        super().__init__(env)
        self.n, self.next = n, None

    def reset(self, *, seed=None, options=None):
        seed = self.next if seed is None else seed
        self.next = seed + self.n
        return self.env.reset(seed=seed, options=options)


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("mode", ["same_step", "next_step"])
def test_the_vector_env_replays_gymnasiums_sync_vector_env_across_episode_boundaries(env_id, mode):
    n = 4
    gym_mode = valley_farm.vector.autoreset_mode_of(mode)
    vec = gymnasium.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point", autoreset_mode=mode)
    assert isinstance(vec, valley_farm.FarmVecEnv) and vec.metadata["autoreset_mode"] is gym_mode
    sync = gymnasium.wrappers.vector.RecordEpisodeStatistics(
        gymnasium.vector.SyncVectorEnv([lambda: Scheduled(valley_farm.make(env_id), n) for _ in range(n)], autoreset_mode=gym_mode)
    )
    obs, infos = vec.reset(seed=40)
    sync_obs, sync_infos = sync.reset(seed=40)  # env i: seed 40 + i, as the vector env
    assert np.array_equal(obs, sync_obs) and np.array_equal(infos["action_mask"], sync_infos["action_mask"])
    rng = np.random.default_rng(1)
    boundaries = 0
    for t in range(160):  # three episodes of either farm, and the steps after them
        actions = (rng.random(infos["action_mask"].shape) * infos["action_mask"]).argmax(axis=1).astype(np.int32)
        obs, rewards, terms, truncs, infos = vec.step(actions)
        sync_obs, sync_rewards, sync_terms, sync_truncs, sync_infos = sync.step(actions)
        assert np.array_equal(obs, sync_obs) and np.array_equal(rewards, sync_rewards), t
        assert np.array_equal(terms, sync_terms) and np.array_equal(truncs, sync_truncs), t
        assert np.array_equal(infos["action_mask"], sync_infos["action_mask"]), t
        if not terms.any():
            continue
        boundaries += 1
        if mode == "same_step":  # the ended episodes' last observation and info, aside
            assert np.array_equal(infos["_final_obs"], sync_infos["_final_obs"])
            assert np.array_equal(infos["final_obs"][terms], np.stack(sync_infos["final_obs"][terms]))
            final = sync_infos["final_info"]
            assert np.array_equal(infos["final_info"]["step"][terms], final["step"][terms])
            assert np.array_equal(infos["final_info"]["seed"][terms], final["seed"][terms])
        else:  # Gymnasium's episode statistics count episodes as next-step autoreset ends them
            assert np.array_equal(infos["_episode"], sync_infos["_episode"])
            assert np.allclose(infos["episode"]["r"][terms], sync_infos["episode"]["r"][terms])
            assert np.array_equal(infos["episode"]["l"][terms], sync_infos["episode"]["l"][terms])
    assert boundaries >= 3
    vec.close()
    sync.close()
