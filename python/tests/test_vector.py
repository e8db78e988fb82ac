"""The vector env against Gymnasium 1.x's conventions and the JS vector env's seeds: same-step
autoreset in order, final observations and episode statistics where an episode ended,
masks, per-env seeds seed + i + k n, views without copies, threads that change nothing."""
import numpy as np
import pytest

import valley_farm

IDS = valley_farm.ENV_IDS


def random_actions(rng, masks):
    """A random legal action per row of the masks."""
    r = rng.random(masks.shape) * masks
    return r.argmax(axis=1).astype(np.int32)


@pytest.mark.parametrize("env_id", IDS)
def test_spaces_are_batched_and_metadata_declares_same_step_autoreset(env_id):
    vec = valley_farm.make_vec(env_id, 6)
    spec = valley_farm.SPECS[env_id]
    assert vec.metadata["autoreset_mode"] == valley_farm.AutoresetMode.SAME_STEP
    assert vec.single_action_space.n == spec.num_actions
    assert vec.single_observation_space.shape == (spec.obs_size,)
    assert vec.observation_space.shape == (6, spec.obs_size)
    assert vec.action_space.shape == (6,) and vec.action_space.contains(vec.action_space.sample())
    obs, infos = vec.reset(seed=1)
    assert vec.observation_space.contains(obs)
    assert infos["action_mask"].shape == (6, spec.num_actions) and infos["_action_mask"].all()


@pytest.mark.parametrize("env_id", IDS)
def test_every_env_plays_the_episode_a_single_env_plays_with_seed_plus_i_plus_k_n(env_id):
    n = 5
    vec = valley_farm.make_vec(env_id, n)
    obs, infos = vec.reset(seed=100)
    singles = [valley_farm.make(env_id) for _ in range(n)]
    expected_seed = [100 + i for i in range(n)]
    for i, s in enumerate(singles):
        o, _ = s.reset(seed=expected_seed[i])
        assert np.array_equal(o, obs[i])
    rng = np.random.default_rng(3)
    returns = [0.0] * n
    lengths = [0] * n
    ended = 0
    for _ in range(130):
        actions = random_actions(rng, infos["action_mask"])
        obs, rewards, term, trunc, infos = vec.step(actions)
        assert not trunc.any()
        for i, s in enumerate(singles):
            so, sr, st, _, sinfo = s.step(int(actions[i]))
            returns[i] += sr
            lengths[i] += 1
            assert rewards[i] == sr and bool(term[i]) == st
            if st:
                # the episode that ended: its last observation and statistics, in infos
                assert infos["_final_obs"][i] and np.array_equal(infos["final_obs"][i], so)
                assert infos["_episode"][i]
                assert infos["episode"]["r"][i] == pytest.approx(returns[i], abs=1e-9)
                assert infos["episode"]["l"][i] == lengths[i]
                assert infos["episode"]["seed"][i] == expected_seed[i]
                # same-step autoreset: the row already shows the next episode's first observation
                expected_seed[i] += n
                so, sinfo = s.reset(seed=expected_seed[i])
                returns[i], lengths[i] = 0.0, 0
                ended += 1
            assert np.array_equal(obs[i], so)
            assert np.array_equal(infos["action_mask"][i], sinfo["action_mask"])
            assert vec.episode_seed(i) == expected_seed[i]
    assert ended >= 2 * n


def test_outputs_are_views_of_engine_buffers_written_in_place():
    vec = valley_farm.make_vec("ValleyFarm-v0", 4)
    obs, infos = vec.reset(seed=0)
    obs2, rewards, term, _, infos2 = vec.step(np.zeros(4, dtype=np.int32))
    assert obs2 is obs and infos2["action_mask"] is infos["action_mask"]
    assert not obs.flags.writeable and not rewards.flags.writeable
    address = obs.__array_interface__["data"][0]
    for _ in range(60):  # past the horizon: autoresets write the same rows too
        assert vec.step(np.zeros(4, dtype=np.int32))[0].__array_interface__["data"][0] == address


@pytest.mark.parametrize("env_id", IDS)
def test_threads_step_the_same_episodes_as_one_thread(env_id):
    n = 37
    one = valley_farm.make_vec(env_id, n)
    many = valley_farm.make_vec(env_id, n, threads=3)
    a, ia = one.reset(seed=9)
    b, ib = many.reset(seed=9)
    rng = np.random.default_rng(5)
    for _ in range(200):
        actions = random_actions(rng, ia["action_mask"])
        a, ra, ta, _, ia = one.step(actions)
        b, rb, tb, _, ib = many.step(actions)
        assert np.array_equal(a, b) and np.array_equal(ra, rb) and np.array_equal(ta, tb)
        assert np.array_equal(ia["episode"]["seed"][ta], ib["episode"]["seed"][tb])
    assert [one.episode_seed(i) for i in range(n)] == [many.episode_seed(i) for i in range(n)]
    many.close()


def test_levels_give_env_i_its_kth_episode_from_the_list():
    levels = [10, 20, 30, 40, 50]
    vec = valley_farm.make_vec("BackwardsValleyFarm-v0", 2, levels=levels)
    vec.reset()
    played = {0: [vec.episode_seed(0)], 1: [vec.episode_seed(1)]}
    for _ in range(40 * 3):
        _, _, term, _, infos = vec.step(np.full(2, 4, dtype=np.int32))
        for i in np.flatnonzero(term):
            played[int(i)].append(vec.episode_seed(int(i)))
    # env i's k-th episode: levels[(i + k * 2) % 5]
    assert played[0][:4] == [10, 30, 50, 20] and played[1][:4] == [20, 40, 10, 30]
    with pytest.raises(ValueError, match="fixed list of 5 levels"):
        vec.reset(seed=3)


def test_reset_without_a_seed_draws_a_fresh_one_and_a_seeded_reset_makes_later_ones_reproducible():
    a, b = valley_farm.make_vec("ValleyFarm-v0", 3), valley_farm.make_vec("ValleyFarm-v0", 3)
    a.reset()
    assert valley_farm.FRESH_SEED_MIN <= a.episode_seed(0) <= valley_farm.FRESH_SEED_MAX
    a.reset(seed=4)
    b.reset(seed=4)
    a.reset()
    b.reset()
    assert a.episode_seed(0) == b.episode_seed(0) and a.episode_seed(0) >= valley_farm.FRESH_SEED_MIN


def test_a_vector_env_refuses_a_second_thread_while_one_steps_it():
    import threading

    vec = valley_farm.make_vec("ValleyFarm-v0", 8192)
    vec.reset(seed=1)
    actions = np.zeros(8192, dtype=np.int32)
    refused = []

    def play():
        for _ in range(300):
            try:
                vec.step(actions)
            except ValueError as err:
                refused.append(str(err))

    threads = [threading.Thread(target=play) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # two threads racing 300 steps each of 8,192 envs always overlap (the GIL is released while
    # the engine steps); without the guard both would write the same buffers at once
    assert refused and all("stepping in another thread" in r for r in refused)
