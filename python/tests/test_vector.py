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


class SyncVectorEnvSemantics:
    """Gymnasium's SyncVectorEnv.step in either autoreset mode (gymnasium/vector/
    sync_vector_env.py, transcribed) over this package's single envs, each reset with the
    vector env's seed schedule (env i's k-th episode: seed + i + k n). The expectation the
    vector env is held to, made from single envs only."""

    def __init__(self, env_id, n, seed, next_step):
        self.envs = [valley_farm.make(env_id) for _ in range(n)]
        self.seeds = [seed + i for i in range(n)]
        self.n, self.next_step = n, next_step
        self.autoreset = [False] * n
        self.returns, self.lengths = [0.0] * n, [0] * n
        self.obs, self.infos = zip(*(e.reset(seed=s) for e, s in zip(self.envs, self.seeds)))

    def step(self, actions):
        obs, rewards, terms, finals, episodes = list(self.obs), [0.0] * self.n, [False] * self.n, {}, {}
        infos = list(self.infos)
        for i, env in enumerate(self.envs):
            if self.next_step and self.autoreset[i]:  # the step after a done: a reset, no action
                self.seeds[i] += self.n
                obs[i], infos[i] = env.reset(seed=self.seeds[i])
                self.returns[i], self.lengths[i] = 0.0, 0
                continue
            obs[i], rewards[i], terms[i], _, infos[i] = env.step(int(actions[i]))
            self.returns[i] += rewards[i]
            self.lengths[i] += 1
            if terms[i]:
                episodes[i] = (self.returns[i], self.lengths[i], self.seeds[i])
                if not self.next_step:  # same step: the final observation and info aside, then a reset
                    finals[i] = (obs[i], infos[i])
                    self.seeds[i] += self.n
                    obs[i], infos[i] = env.reset(seed=self.seeds[i])
                    self.returns[i], self.lengths[i] = 0.0, 0
        self.autoreset = terms
        self.obs, self.infos = obs, infos
        return np.stack(obs), np.array(rewards), np.array(terms), finals, episodes, infos


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("mode", ["same_step", "next_step"])
def test_each_autoreset_mode_replays_sync_vector_env_semantics_over_single_envs_step_by_step(env_id, mode):
    n = 4
    vec = valley_farm.make_vec(env_id, n, autoreset_mode=mode)
    assert vec.metadata["autoreset_mode"] == valley_farm.vector.autoreset_mode_of(mode)
    expected = SyncVectorEnvSemantics(env_id, n, 70, mode == "next_step")
    obs, infos = vec.reset(seed=70)
    assert np.array_equal(obs, np.stack(expected.obs))
    rng = np.random.default_rng(8)
    boundaries = 0
    for t in range(140):  # past three episodes of either farm
        actions = random_actions(rng, infos["action_mask"])
        was_done = vec.terminations.copy()
        obs, rewards, terms, truncs, infos = vec.step(actions)
        e_obs, e_rewards, e_terms, finals, episodes, e_infos = expected.step(actions)
        assert np.array_equal(obs, e_obs), t
        assert np.array_equal(rewards, e_rewards) and np.array_equal(terms, e_terms) and not truncs.any(), t
        assert np.array_equal(infos["action_mask"], np.stack([i["action_mask"] for i in e_infos])), t
        if mode == "next_step":  # the step after a done: reset, reward 0, not terminated, action ignored
            assert "final_obs" not in infos and "final_info" not in infos
            for i in np.flatnonzero(was_done):
                assert rewards[i] == 0 and not terms[i] and vec.episode_seed(int(i)) == expected.seeds[i]
                boundaries += 1
        else:
            assert np.array_equal(infos["_final_obs"], terms) and np.array_equal(infos["_final_info"], terms)
            for i, (last_obs, last_info) in finals.items():
                assert np.array_equal(infos["final_obs"][i], last_obs)
                assert infos["final_info"]["step"][i] == last_info["step"] and infos["final_info"]["seed"][i] == last_info["seed"]
                boundaries += 1
        assert np.array_equal(infos["_episode"], terms)
        for i, (ret, length, seed) in episodes.items():
            ep = infos["episode"]
            assert ep["r"][i] == pytest.approx(ret, abs=1e-9) and ep["l"][i] == length and ep["seed"][i] == seed
            assert 0 <= ep["t"][i] < 60  # seconds since the episode began
    assert boundaries >= 2 * n


@pytest.mark.parametrize("mode", ["same_step", "next_step"])
def test_both_autoreset_modes_play_the_same_seeds_and_levels_and_threads_change_nothing(mode):
    n = 5
    seen = {}
    for threads, levels in [(1, None), (2, None), (1, [7, 8, 9]), (3, [7, 8, 9])]:
        vec = valley_farm.make_vec("BackwardsValleyFarm-v0", n, autoreset_mode=mode, threads=threads, levels=levels)
        vec.reset(seed=None if levels else 30)
        played = [[vec.episode_seed(i)] for i in range(n)]
        for _ in range(40 * 3 + 3):
            vec.step(np.full(n, 4, dtype=np.int32))
            for i in range(n):
                if vec.episode_seed(i) != played[i][-1]:
                    played[i].append(vec.episode_seed(i))
        vec.close()
        seen[(threads, levels is not None)] = played
    # env i's k-th episode: seed + i + k n, or levels[(i + k n) % L], whatever the mode
    assert seen[(1, False)] == [[30 + i + k * n for k in range(4)] for i in range(n)] == seen[(2, False)]
    assert seen[(1, True)] == [[[7, 8, 9][(i + k * n) % 3] for k in range(4)] for i in range(n)] == seen[(3, True)]


def test_an_autoreset_mode_that_is_not_one_is_refused_with_the_allowed_ones():
    for bad in ["disabled", "NextStep ", 1, None, valley_farm.AutoresetMode.DISABLED]:
        with pytest.raises(ValueError, match="autoreset_mode .* it is 'same_step' \\(the default\\) or 'next_step'"):
            valley_farm.make_vec("ValleyFarm-v0", 2, autoreset_mode=bad)
    assert valley_farm.make_vec("ValleyFarm-v0", 2, autoreset_mode="NextStep").metadata["autoreset_mode"] is valley_farm.AutoresetMode.NEXT_STEP


def test_the_episode_time_is_the_seconds_from_the_episodes_start_to_its_end():
    import time

    vec = valley_farm.make_vec("BackwardsValleyFarm-v0", 2, autoreset_mode="next_step")
    t0 = time.monotonic()
    vec.reset(seed=1)
    for _ in range(39):
        vec.step(np.zeros(2, dtype=np.int32))
    time.sleep(0.05)
    _, _, terms, _, infos = vec.step(np.zeros(2, dtype=np.int32))
    elapsed = time.monotonic() - t0
    assert terms.all() and (infos["episode"]["t"] >= 0.05).all() and (infos["episode"]["t"] <= elapsed).all()
    time.sleep(0.1)  # next-step: the next episodes begin when the call that resets them returns
    t1 = time.monotonic()
    vec.step(np.zeros(2, dtype=np.int32))
    for _ in range(40):
        _, _, terms, _, infos = vec.step(np.zeros(2, dtype=np.int32))
    assert terms.all() and (infos["episode"]["t"] <= time.monotonic() - t1).all()
