"""Gymnasium's env checks (gymnasium/utils/env_checker.py) restated for the single env:
the API's shapes, spaces that contain every observation of long random runs, seeding that
reproduces, close twice, render, the info keys."""
import numpy as np
import pytest

import valley_farm
from valley_farm import Box, Discrete

IDS = valley_farm.ENV_IDS


@pytest.mark.parametrize("env_id", IDS)
def test_reset_and_step_return_gymnasium_1_tuples_of_the_declared_types(env_id):
    env = valley_farm.make(env_id)
    obs, info = env.reset(seed=3)
    assert isinstance(obs, np.ndarray) and obs.dtype == np.int32 and obs.shape == env.observation_space.shape
    assert isinstance(info, dict) and info["seed"] == 3 and info["step"] == 0
    out = env.step(env.action_space.sample())
    assert len(out) == 5
    obs, reward, terminated, truncated, info = out
    assert isinstance(reward, float) and isinstance(terminated, bool) and truncated is False
    assert info["action_mask"].dtype == np.int8 and info["action_mask"].shape == (env.action_space.n,)
    assert isinstance(info["action_was_legal"], bool)


@pytest.mark.parametrize("env_id", IDS)
def test_the_spaces_describe_the_engine(env_id):
    env = valley_farm.make(env_id)
    spec = valley_farm.SPECS[env_id]
    assert isinstance(env.action_space, Discrete) and env.action_space.n == spec.num_actions
    assert tuple(env.action_space.names) == spec.actions
    assert isinstance(env.observation_space, Box)
    assert env.observation_space.shape == (spec.obs_size,) and env.observation_space.dtype == np.int32
    assert env.metadata["render_modes"] == ["ansi"]
    assert env.spec.id == env_id and env.unwrapped is env


@pytest.mark.parametrize("env_id", IDS)
def test_the_observation_space_contains_every_observation_of_long_random_runs(env_id):
    env = valley_farm.make(env_id)
    space = env.observation_space
    rng = np.random.default_rng(0)
    seen_low = np.full(space.shape, np.iinfo(np.int32).max)
    seen_high = np.full(space.shape, np.iinfo(np.int32).min)
    for episode in range(300):
        obs, info = env.reset(seed=episode)
        assert space.contains(obs), (episode, obs)
        terminated = False
        while not terminated:
            legal = np.flatnonzero(info["action_mask"])
            # mostly legal actions, so episodes plant, feed, sell and insult
            a = int(rng.choice(legal)) if rng.random() < 0.9 else int(rng.integers(env.action_space.n))
            obs, _, terminated, _, info = env.step(a)
            assert space.contains(obs), (episode, obs)
            seen_low = np.minimum(seen_low, obs)
            seen_high = np.maximum(seen_high, obs)
    # the check can fail: the runs move most elements, and never past a bound
    assert (seen_high > seen_low).sum() > space.shape[0] // 2


@pytest.mark.parametrize("env_id", IDS)
def test_the_same_seed_gives_the_same_episode_and_reset_without_a_seed_continues_reproducibly(env_id):
    a, b = valley_farm.make(env_id), valley_farm.make(env_id)
    oa, _ = a.reset(seed=123)
    ob, _ = b.reset(seed=123)
    assert np.array_equal(oa, ob)
    for action in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]:
        ra, rb = a.step(action), b.step(action)
        assert np.array_equal(ra[0], rb[0]) and ra[1:4] == rb[1:4]
    # Gymnasium: after reset(seed=s), resets without a seed are reproducible too
    assert a.reset()[1]["seed"] == b.reset()[1]["seed"]
    # ... and fresh, from the range above every held-out seed
    seeds = {valley_farm.make(env_id).reset()[1]["seed"] for _ in range(20)}
    assert len(seeds) == 20
    assert all(valley_farm.FRESH_SEED_MIN <= s <= valley_farm.FRESH_SEED_MAX for s in seeds)
    c = valley_farm.make(env_id)
    c.reset(seed=1)
    h1 = c.state_hash()
    c.reset(seed=2)
    assert c.state_hash() != h1


@pytest.mark.parametrize("env_id", IDS)
def test_an_episode_ends_at_the_horizon_with_terminated_and_never_truncated(env_id):
    env = valley_farm.make(env_id)
    env.reset(seed=9)
    horizon = valley_farm.SPECS[env_id].horizon
    steps, terminated = 0, False
    while not terminated:
        _, _, terminated, truncated, info = env.step(0)
        steps += 1
        assert truncated is False and info["step"] == steps
    assert steps <= horizon and env.terminated


@pytest.mark.parametrize("env_id", IDS)
def test_close_twice_is_harmless_and_a_closed_env_refuses_every_call(env_id):
    env = valley_farm.make(env_id)
    env.reset(seed=1)
    env.close()
    env.close()
    assert env.closed
    for call in (lambda: env.reset(seed=1), lambda: env.step(0), env.render, env.snapshot, env.state, env.plan, env.action_mask):
        with pytest.raises(ValueError, match="closed"):
            call()


@pytest.mark.parametrize("env_id", IDS)
def test_render_is_the_map_as_text_and_state_is_plain_data(env_id):
    env = valley_farm.make(env_id)
    env.reset(seed=5)
    text = env.render()
    spec = valley_farm.SPECS[env_id]
    assert isinstance(text, str) and len(text.splitlines()) >= spec.height
    state = env.state()
    assert state["width"] == spec.width and state["height"] == spec.height and state["step"] == 0


def test_an_illegal_step_is_a_wait_that_says_which_rule_blocked_it():
    env = valley_farm.make("ValleyFarm-v0")
    obs, info = env.reset(seed=42)
    plant = valley_farm.SPECS["ValleyFarm-v0"].actions.index("plant")
    assert not info["action_mask"][plant]
    reasons = env.illegal_reasons()
    obs2, reward, _, _, info = env.step(plant)
    assert reward == 0 and info["action_was_legal"] is False
    assert info["illegal_reason"] == reasons[plant] and info["illegal_reason"]["code"] == "not-on-empty-soil"
    assert reasons[valley_farm.SPECS["ValleyFarm-v0"].actions.index("wait")] is None


def test_events_are_listed_on_request_and_their_rewards_add_up_to_the_step_reward():
    env = valley_farm.make("BackwardsValleyFarm-v0", events=True)
    plain = valley_farm.make("BackwardsValleyFarm-v0")
    env.reset(seed=1)
    _, info = plain.reset(seed=1)
    assert "events" not in plain.step(4)[4]
    total_events = 0
    terminated = False
    rng = np.random.default_rng(1)
    _, info = env.reset(seed=1)
    while not terminated:
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, terminated, _, info = env.step(a)
        assert abs(sum(e["reward"] for e in info["events"]) - reward) < 1e-9
        total_events += len(info["events"])
        for e in info["events"]:
            assert set(e) == {"code", "text", "reward", "x", "y", "subject", "count", "count2", "before", "after"}
    assert total_events > 0


@pytest.mark.parametrize("env_id", IDS)
def test_snapshot_and_restore_replay_the_same_future(env_id):
    env = valley_farm.make(env_id)
    env.reset(seed=77)
    for a in [1, 2, 3, 0, 4]:
        env.step(a)
    snap = env.snapshot()
    assert len(snap) == valley_farm.SPECS[env_id].snapshot_size
    first = [env.step(a)[:2] for a in [2, 2, 1, 5]]
    other = valley_farm.make(env_id)
    other.restore(snap)
    assert other.elapsed_steps == 5 and other.episode_seed == 77
    again = [other.step(a)[:2] for a in [2, 2, 1, 5]]
    assert all(np.array_equal(x[0], y[0]) and x[1] == y[1] for x, y in zip(first, again))


@pytest.mark.parametrize("env_id", IDS)
def test_the_plan_earns_its_best_return_when_played_and_stays_within_its_bound(env_id):
    env = valley_farm.make(env_id)
    env.reset(seed=1_000_000)
    before = env.state_hash()
    plan = env.plan(width=50)
    assert env.state_hash() == before
    assert plan.best_return <= plan.upper_bound + 1e-9
    total = sum(env.step(a)[1] for a in plan.actions)
    assert abs(total - plan.best_return) < 1e-9


def test_reset_and_step_have_signatures_gymnasiums_checker_can_read():
    import inspect

    env = valley_farm.make("ValleyFarm-v0")
    assert list(inspect.signature(env.reset).parameters) == ["seed", "options"]
    assert list(inspect.signature(env.step).parameters) == ["action"]


def test_spaces_sample_inside_themselves_and_seed_reproducibly():
    env = valley_farm.make("ValleyFarm-v0")
    space = env.observation_space
    space.seed(5)
    a = [space.sample() for _ in range(5)]
    space.seed(5)
    b = [space.sample() for _ in range(5)]
    assert all(np.array_equal(x, y) for x, y in zip(a, b)) and all(space.contains(x) for x in a)
    act = env.action_space
    act.seed(1)
    mask = np.zeros(act.n, dtype=np.int8)
    mask[3] = 1
    assert all(act.sample(mask=mask) == 3 for _ in range(10))
    assert act.contains(2) and not act.contains(act.n) and not act.contains(1.0)
    if not valley_farm.spaces.GYMNASIUM:  # Gymnasium's own Discrete (used where it is installed) takes True as 1
        assert not act.contains(True)
    d = env.dict_observation_space
    obs, _ = env.reset(seed=2)
    assert d.contains(valley_farm.unflatten("ValleyFarm-v0", obs))
