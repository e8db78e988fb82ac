"""Random sequences of calls with random arguments (Hypothesis, Debian's python3-hypothesis):
make / make_vec, reset, step, close, plan, snapshot and restore, with arguments of every
kind, good and bad. Nothing crashes (a crash would end the run), every error is a
ValueError or TypeError whose message names the package and says what was wrong, and a
refused call changes nothing. The examples are derandomised, so a run is the same every time
(VF_HYPOTHESIS_EXAMPLES raises their number for a longer search). A failing sequence is shown
as found, not shrunk: shrinking one took Hypothesis five minutes."""
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from hypothesis.stateful import RuleBasedStateMachine, precondition, rule, run_state_machine_as_test

import valley_farm

EXAMPLES = int(os.environ.get("VF_HYPOTHESIS_EXAMPLES", "40"))
SETTINGS = settings(
    max_examples=EXAMPLES,
    stateful_step_count=40,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    phases=[Phase.explicit, Phase.generate],
)

IDS = valley_farm.ENV_IDS
ERRORS = (ValueError, TypeError)


def attempt(call, *args, **kwargs):
    """(True, result), or (False, error) for a ValueError or TypeError that says what was wrong;
    any other exception fails the test."""
    try:
        return True, call(*args, **kwargs)
    except ERRORS as err:
        assert str(err).startswith("valley_farm"), f"{type(err).__name__} without the package's words: {err}"
        assert len(str(err)) > 30, f"a terse error: {err}"
        return False, err


# ---- arguments of every kind ----

ints = st.one_of(st.integers(-3, 70), st.integers(-(2**70), 2**70), st.sampled_from([2**63, 2**64 - 1, 2**64, -(2**63)]))
odd = st.one_of(
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True),
    st.text(max_size=3),
    st.binary(max_size=4),
    st.lists(st.integers(-2, 20), max_size=3),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
    st.builds(object),
)
numpy_scalars = st.one_of(
    st.integers(-3, 20).map(np.int8),
    st.integers(-3, 20).map(np.int64),
    st.integers(0, 20).map(np.uint64),
    st.floats(-2, 20).map(np.float32),
    st.booleans().map(np.bool_),
    st.integers(-3, 20).map(lambda v: np.array(v)),
)
any_value = st.one_of(ints, odd, numpy_scalars)
seeds = st.one_of(st.none(), ints, numpy_scalars, odd)
dtypes = st.sampled_from([np.int32, np.int64, np.uint8, np.int8, np.uint64, np.float64, np.bool_, np.int16])


def vector_actions(n, num_actions):
    good = arrays(np.int32, n, elements=st.integers(0, num_actions - 1))
    return st.one_of(
        good,
        good.map(list),
        arrays(dtypes, st.integers(0, n + 2), elements=st.integers(-2, num_actions + 2)),
        arrays(np.int64, (n, 1), elements=st.integers(0, 3)),
        any_value,
    )


# ---- the single env ----


class SingleEnv(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.env = None

    def fingerprint(self):
        e = self.env
        if e.closed:
            return ("closed",)
        if e.episode_seed is None:
            return ("not started",)
        return (e.state_hash(), e.elapsed_steps, e.episode_seed, e.terminated)

    @rule(env_id=st.one_of(st.sampled_from(IDS), any_value), options=st.dictionaries(st.sampled_from(["events", "render_mode", "fast"]), any_value, max_size=2))
    def make(self, env_id, options):
        ok, env = attempt(valley_farm.make, env_id, **options)
        if ok:
            self.env = env

    @precondition(lambda self: self.env is not None)
    @rule(seed=seeds, options=st.one_of(st.none(), st.just({}), any_value))
    def reset(self, seed, options):
        before = self.fingerprint()
        ok, out = attempt(self.env.reset, seed=seed, options=options)
        if ok:
            obs, info = out
            assert self.env.observation_space.contains(obs) and info["step"] == 0
        else:
            assert self.fingerprint() == before

    @precondition(lambda self: self.env is not None)
    @rule(action=st.one_of(st.integers(0, 11), any_value))
    def step(self, action):
        before = self.fingerprint()
        ok, out = attempt(self.env.step, action)
        if ok:
            obs, reward, terminated, truncated, info = out
            assert self.env.observation_space.contains(obs) and reward >= 0 and truncated is False
        else:
            assert self.fingerprint() == before

    @precondition(lambda self: self.env is not None)
    @rule(
        width=st.one_of(st.none(), st.integers(-2, 24), st.sampled_from([0, 65536, 65537, 2**40, 1.5, True, "4"])),
        prove=st.one_of(st.just(False), st.integers(-3, 300), st.sampled_from([2**25, 2**26, 2**26 + 1, 2**40, 0.5, None, "1"])),
    )
    def plan(self, width, prove):
        before = self.fingerprint()
        ok, plan = attempt(self.env.plan, width=width, prove=prove)
        if ok:
            assert plan.best_return <= plan.upper_bound + 1e-9
        assert self.fingerprint() == before

    @precondition(lambda self: self.env is not None)
    @rule(data=st.data())
    def snapshot_and_restore(self, data):
        ok, snap = attempt(self.env.snapshot)
        if ok:
            flip = data.draw(st.integers(0, len(snap) - 1))
            choices = [snap, snap[:-1], snap + b"\0", bytes([snap[flip] ^ 1]).join([snap[:flip], snap[flip + 1 :]])]
        else:
            choices = [b"VFSN"]
        before = self.fingerprint()
        bad = data.draw(st.one_of(st.sampled_from(choices), st.binary(max_size=600), any_value))
        ok, _ = attempt(self.env.restore, bad)
        if not ok:
            assert self.fingerprint() == before

    @precondition(lambda self: self.env is not None)
    @rule()
    def close(self):
        self.env.close()
        assert self.env.closed

    @precondition(lambda self: self.env is not None)
    @rule()
    def read(self):
        for call in (self.env.action_mask, self.env.illegal_reasons, self.env.render, self.env.state, self.env.state_hash):
            attempt(call)


# ---- the vector env ----


class VectorEnv(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.vec = None

    def hashes(self):
        v = self.vec
        if v.closed:
            return ("closed",)
        return tuple(v._vec.state_hash(i) for i in range(v.num_envs))

    @rule(
        env_id=st.one_of(st.sampled_from(IDS), any_value),
        n=st.one_of(st.integers(1, 9), any_value),
        options=st.fixed_dictionaries(
            {},
            optional={
                "threads": st.one_of(st.integers(1, 3), any_value),
                "masks": st.one_of(st.booleans(), any_value),
                "levels": st.one_of(st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=4), any_value),
                "autoreset_mode": st.one_of(st.sampled_from(["same_step", "next_step"]), any_value),
                "copy": any_value,
            },
        ),
    )
    def make_vec(self, env_id, n, options):
        ok, vec = attempt(valley_farm.make_vec, env_id, n, **options)
        if ok:
            if self.vec is not None:
                self.vec.close()
            self.vec = vec

    @precondition(lambda self: self.vec is not None)
    @rule(seed=st.one_of(seeds, st.lists(st.integers(-1, 2**64), max_size=10)), options=st.one_of(st.none(), st.just({}), any_value))
    def reset(self, seed, options):
        ok, out = attempt(self.vec.reset, seed=seed, options=options)
        if ok:
            obs, infos = out
            assert self.vec.observation_space.contains(obs)

    @precondition(lambda self: self.vec is not None)
    @rule(data=st.data())
    def step(self, data):
        v = self.vec
        actions = data.draw(vector_actions(v.num_envs, v.farm.num_actions))
        started = not v.closed and v._started
        before = self.hashes() if started else None
        ok, out = attempt(v.step, actions)
        if ok:
            obs, rewards, term, trunc, infos = out
            assert v.observation_space.contains(obs) and (rewards >= 0).all() and not trunc.any()
        elif started:
            assert self.hashes() == before

    @precondition(lambda self: self.vec is not None)
    @rule(i=st.one_of(st.integers(-2, 10), any_value))
    def episode_seed(self, i):
        attempt(self.vec.episode_seed, i)

    @precondition(lambda self: self.vec is not None)
    @rule()
    def close(self):
        self.vec.close()
        self.vec.close()
        assert self.vec.closed

    def teardown(self):
        if self.vec is not None:
            self.vec.close()


@pytest.mark.parametrize("machine", [SingleEnv, VectorEnv], ids=["single env", "vector env"])
def test_random_calls_with_random_arguments_never_crash_and_fail_only_with_clear_errors(machine):
    run_state_machine_as_test(machine, settings=SETTINGS)
