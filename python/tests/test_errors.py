"""Every bad argument raises a clear ValueError or TypeError that says what was wrong and what
is allowed, and changes nothing (the env's state hash, step count and seed are as before)."""
import numpy as np
import pytest

import valley_farm


def started(env_id="ValleyFarm-v0"):
    env = valley_farm.make(env_id)
    env.reset(seed=11)
    env.step(1)
    return env


def fingerprint(env):
    return (env.state_hash(), env.elapsed_steps, env.episode_seed, env.terminated)


def test_an_unknown_env_id_names_the_ids():
    for bad in ["ValleyFarm-v1", "", None, 3]:
        with pytest.raises(ValueError, match="the env ids are 'ValleyFarm-v0', 'BackwardsValleyFarm-v0'"):
            valley_farm.make(bad)
        with pytest.raises(ValueError, match="the env ids are"):
            valley_farm.make_vec(bad, 4)


def test_an_unknown_option_names_the_options():
    with pytest.raises(ValueError, match="no option 'fast'; the options are render_mode, events"):
        valley_farm.make("ValleyFarm-v0", fast=True)
    with pytest.raises(ValueError, match="no option 'copy'; the options are masks, levels, threads"):
        valley_farm.make_vec("ValleyFarm-v0", 2, copy=False)
    with pytest.raises(ValueError, match="only render mode is 'ansi'"):
        valley_farm.make("ValleyFarm-v0", render_mode="human")
    with pytest.raises(TypeError, match="events must be True or False"):
        valley_farm.make("ValleyFarm-v0", events=1)
    for n in [0, -1, 65537, 2.0, True]:
        with pytest.raises(ValueError, match="num_envs .* it is an int from 1 to 65536"):
            valley_farm.make_vec("ValleyFarm-v0", n)
    with pytest.raises(ValueError, match="threads"):
        valley_farm.make_vec("ValleyFarm-v0", 2, threads=3)


@pytest.mark.parametrize(
    "action, error, words",
    [
        (12, ValueError, "out of range; an action is an int from 0 to 11"),
        (-1, ValueError, "out of range"),
        (2**70, ValueError, "out of range"),
        (np.int64(99), ValueError, "out of range"),
        (1.0, TypeError, "not an int"),
        (True, TypeError, "a bool"),
        (np.bool_(True), TypeError, "a bool"),
        ("north", TypeError, "not an int"),
        (None, TypeError, "not an int"),
        (np.array([1, 2]), TypeError, "an array with a shape"),
        (np.array(1.5), TypeError, "not of an integer dtype"),
    ],
)
def test_a_bad_action_raises_and_changes_nothing(action, error, words):
    env = started()
    before = fingerprint(env)
    with pytest.raises(error, match=words):
        env.step(action)
    assert fingerprint(env) == before


def test_numpy_integer_actions_are_accepted():
    env = started()
    for a in [np.int32(2), np.int64(3), np.uint8(0), np.array(1)]:
        env.step(a)
    assert env.elapsed_steps == 5


@pytest.mark.parametrize(
    "seed, error, words",
    [(-1, ValueError, "out of range"), (2**64, ValueError, "out of range"), (1.5, TypeError, "not an int"),
     ("7", TypeError, "not an int"), (True, TypeError, "not an int")],
)
def test_a_bad_seed_raises_and_changes_nothing(seed, error, words):
    env = started()
    before = fingerprint(env)
    with pytest.raises(error, match=words + ".*a seed is None or an int from 0 to 2\\*\\*64 - 1"):
        env.reset(seed=seed)
    assert fingerprint(env) == before
    vec = valley_farm.make_vec("ValleyFarm-v0", 2)
    with pytest.raises(error):
        vec.reset(seed=seed)


def test_the_largest_seed_is_allowed():
    env = valley_farm.make("ValleyFarm-v0")
    assert env.reset(seed=2**64 - 1)[1]["seed"] == 2**64 - 1


def test_reset_options_must_be_empty():
    env = started()
    before = fingerprint(env)
    with pytest.raises(ValueError, match="options must be None or an empty dict"):
        env.reset(seed=1, options={"level": 3})
    with pytest.raises(TypeError, match="options must be None or an empty dict"):
        env.reset(seed=1, options=[1])
    assert fingerprint(env) == before


def test_step_before_reset_or_after_the_end_raises():
    env = valley_farm.make("BackwardsValleyFarm-v0")
    with pytest.raises(ValueError, match="before the first episode: call reset"):
        env.step(0)
    env.reset(seed=1)
    while not env.step(4)[2]:
        pass
    before = fingerprint(env)
    with pytest.raises(ValueError, match="the episode is over .* call reset"):
        env.step(4)
    assert fingerprint(env) == before


def hostile_snapshots(good: bytes):
    flipped = bytearray(good)
    flipped[20] ^= 0x40  # a payload byte: the checksum no longer matches
    yield bytes(flipped), "checksum does not match"
    yield good[:-1], "wrong length"
    yield good + b"\0", "wrong length"
    yield b"", "wrong length"
    yield b"XXXX" + good[4:], "not a valley-farm snapshot"
    yield b"\xff" * 600, "wrong length"
    other = valley_farm.make("BackwardsValleyFarm-v0")
    other.reset(seed=1)
    yield other.snapshot(), "of the other environment"


def test_hostile_snapshot_bytes_raise_and_change_nothing():
    env = started()
    good = env.snapshot()
    before = fingerprint(env)
    for bad, words in hostile_snapshots(good):
        with pytest.raises(ValueError, match="cannot restore: .*" + words):
            env.restore(bad)
        assert fingerprint(env) == before
    for bad in ["snapshot", 5, None, [1, 2]]:
        with pytest.raises(TypeError, match="restore takes the bytes that snapshot"):
            env.restore(bad)
    assert fingerprint(env) == before
    env.restore(bytearray(good))
    env.restore(memoryview(good))
    env.restore(np.frombuffer(good, dtype=np.uint8))


def test_bad_plan_arguments_raise():
    env = started()
    for width in [0, 65537, 2.5, True]:
        with pytest.raises(ValueError, match="width .* it is an int from 1 to 65536"):
            env.plan(width=width)
    with pytest.raises(ValueError, match="prove .* True, False or a number of states"):
        env.plan(prove=-3)


@pytest.mark.parametrize(
    "actions, error, words",
    [
        (np.array([0, 1, 12], dtype=np.int32), ValueError, r"actions\[2\] is 12"),
        (np.array([0, -1, 1], dtype=np.int64), ValueError, r"actions\[1\] is -1"),
        (np.array([0, 1, 2**40], dtype=np.int64), ValueError, r"actions\[2\]"),
        (np.array([0, 1], dtype=np.int32), ValueError, r"shape \(2,\) for 3 envs"),
        (np.zeros((3, 1), dtype=np.int32), ValueError, "shape"),
        (np.array([0.0, 1.0, 2.0]), TypeError, "dtype"),
        (np.array([True, False, True]), TypeError, "dtype"),
        ([0, 1, 2.5], TypeError, "dtype"),
        ("abc", ValueError, "shape"),
    ],
)
def test_bad_vector_actions_raise_and_step_nothing(actions, error, words):
    vec = valley_farm.make_vec("ValleyFarm-v0", 3)
    vec.reset(seed=5)
    before = [vec._vec.state_hash(i) for i in range(3)]
    with pytest.raises(error, match=words):
        vec.step(actions)
    assert [vec._vec.state_hash(i) for i in range(3)] == before
    vec.step([0, 1, 2])  # a list of ints is fine
    vec.step(np.array([0, 1, 2], dtype=np.uint8))


def test_a_closed_vector_env_refuses_every_call_and_closes_twice():
    vec = valley_farm.make_vec("ValleyFarm-v0", 3, threads=2)
    vec.reset(seed=1)
    vec.close()
    vec.close()
    with pytest.raises(ValueError, match="closed"):
        vec.step(np.zeros(3, dtype=np.int32))
    with pytest.raises(ValueError, match="closed"):
        vec.reset(seed=1)


def test_vector_step_before_reset_raises():
    vec = valley_farm.make_vec("ValleyFarm-v0", 3)
    with pytest.raises(ValueError, match="call reset"):
        vec.step(np.zeros(3, dtype=np.int32))
