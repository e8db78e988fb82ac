"""No call can crash the interpreter, hang it or take gigabytes: every case found crashing,
hanging or exhausting memory before (issue 46) raises a clear error now. Each runs in a
fresh interpreter (conftest.run_isolated), so a crash or a deadlock fails its test instead
of killing pytest."""
import re

import pytest

import valley_farm
from conftest import node_json, run_isolated

# What every script below starts with.
PRELUDE = """
import numpy as np
import valley_farm
from valley_farm import _engine

def raises(error, words, call, *args, **kwargs):
    try:
        call(*args, **kwargs)
    except error as err:
        assert words in str(err), (words, str(err))
        return str(err)
    raise AssertionError(f"{call} did not raise {error.__name__}")
"""


def test_an_object_never_initialised_refuses_every_method_and_attribute():
    out = run_isolated(
        PRELUDE
        + """
import types
# every method of the two C types, with arguments it would accept on a live object
calls = {
    _engine.Env: {"reset": (), "step": (0,), "action_mask": (), "illegal_reasons": (), "render": (),
                  "_state_json": (), "snapshot": (), "restore": (b"",), "state_hash": (), "_plan": (1, 0),
                  "close": ()},
    _engine.VecEnv: {"reset_all": (1,), "reset_one": (0, 1), "step": (np.zeros(1, np.int32),),
                     "episode_seed": (0,), "state_hash": (0,), "close": ()},
}
class SkipsInit(_engine.VecEnv):
    def __init__(self):  # never calls VecEnv.__init__
        pass
checked = 0
for cls, methods in calls.items():
    own = {k: v for k, v in vars(cls).items() if not k.startswith("__")}
    assert set(k for k, v in own.items() if not isinstance(v, types.GetSetDescriptorType)) == set(methods), own
    for obj in (cls.__new__(cls), SkipsInit() if cls is _engine.VecEnv else valley_farm.FarmEnv.__new__(valley_farm.FarmEnv)):
        for name, value in own.items():
            if isinstance(value, types.GetSetDescriptorType):
                raises(ValueError, "never initialised", getattr, obj, name)
            else:
                raises(ValueError, "never initialised", getattr(obj, name), *methods[name])
            checked += 1
print(checked)
"""
    )
    assert int(out) == 2 * 17 + 2 * 18  # two objects of each type: 17 methods and attributes, and 18


def test_an_env_is_initialised_once_so_its_kind_and_buffers_never_change():
    run_isolated(
        PRELUDE
        + """
env = valley_farm.make("BackwardsValleyFarm-v0")
env.reset(seed=1)
raises(TypeError, "initialised once", _engine.Env.__init__, env, 0)
assert env._kind == 1 and env.step(0)[0].shape == (55,)
vec = _engine.VecEnv(1, 2)
raises(TypeError, "initialised once", _engine.VecEnv.__init__, vec, 0, 2)
"""
    )


@pytest.mark.parametrize("closer", ["an object whose __index__", "a 0-d NumPy array subclass whose __index__"])
def test_an_action_that_closes_or_reinitialises_the_env_while_it_is_converted_is_refused(closer):
    make_action = (
        "class Action:\n    def __init__(self, f): self.f = f\n    def __index__(self): self.f(); return 1\n"
        if closer.startswith("an object")
        else "class Action(np.ndarray):\n"
        "    def __new__(cls, f):\n        a = np.asarray(1).view(cls); a.f = f; return a\n"
        "    def __array_finalize__(self, obj): self.f = getattr(obj, 'f', None)\n"
        "    def __index__(self): self.f(); return 1\n"
    )
    run_isolated(
        PRELUDE
        + make_action
        + """
env = valley_farm.make("BackwardsValleyFarm-v0")
env.reset(seed=3)
before = env.state_hash()
# the kind of a live env cannot change under a step (55 ints would land in a 37-int array)
raises(TypeError, "initialised once", env.step, Action(lambda: _engine.Env.__init__(env, 0)))
assert env.state_hash() == before and env.elapsed_steps == 0
# an env the action closes is not stepped
raises(ValueError, "closed", env.step, Action(env.close))
env = valley_farm.make("ValleyFarm-v0")
env.reset(seed=3)
raises(ValueError, "closed", env.reset, seed=Action(env.close))
# nor one the action plays to its end
env = valley_farm.make("ValleyFarm-v0")
env.reset(seed=3)
def play_out():
    while not env.step(0)[2]:
        pass
raises(ValueError, "episode is over", env.step, Action(play_out))
"""
    )


def test_actions_and_indices_that_close_the_vector_env_while_they_are_converted_are_refused():
    run_isolated(
        PRELUDE
        + """
class Actions:
    def __init__(self, f, n): self.f, self.n = f, n
    def __array__(self, dtype=None): self.f(); return np.zeros(self.n, np.int32)
class Index:
    def __init__(self, f): self.f = f
    def __index__(self): self.f(); return 0
for threads in (1, 2):
    vec = valley_farm.make_vec("ValleyFarm-v0", 4, threads=threads)
    vec.reset(seed=1)
    raises(ValueError, "closed", vec.step, Actions(vec.close, 4))
    vec = valley_farm.make_vec("ValleyFarm-v0", 4, threads=threads)
    vec.reset(seed=1)
    raises(ValueError, "closed", vec._vec.reset_one, Index(vec.close), 1)
    vec = valley_farm.make_vec("ValleyFarm-v0", 4, threads=threads)
    vec.reset(seed=1)
    raises(ValueError, "closed", vec._vec.reset_all, Index(vec.close))
    vec = valley_farm.make_vec("ValleyFarm-v0", 4, threads=threads)
    vec.reset(seed=1)
    raises(ValueError, "closed", vec.episode_seed, Index(vec.close))
    # a conversion that steps the same env first is a step before this one: no harm
    vec = valley_farm.make_vec("ValleyFarm-v0", 4, threads=threads)
    vec.reset(seed=1)
    vec.step(Actions(lambda: vec.step(np.zeros(4, np.int32)), 4))
    twice = valley_farm.make_vec("ValleyFarm-v0", 4)
    twice.reset(seed=1)
    twice.step(np.zeros(4, np.int32))
    twice.step(np.zeros(4, np.int32))
    assert [vec._vec.state_hash(i) for i in range(4)] == [twice._vec.state_hash(i) for i in range(4)]
"""
    )


FORKED = """
import hashlib
def digest(vec, steps):
    # steps with a fixed action sequence; a hash of everything the steps returned
    h = hashlib.sha256()
    for t in range(steps):
        obs, rewards, term, _, infos = vec.step(np.full(vec.num_envs, t % 5, np.int32))
        for part in (obs, rewards, term):
            h.update(part.tobytes())
    return h.hexdigest()

vec = valley_farm.make_vec("BackwardsValleyFarm-v0", 64, threads=2)
vec.reset(seed=3)
digest(vec, 7)
"""


def test_a_forked_child_steps_a_threaded_vector_env_on_threads_of_its_own():
    out = run_isolated(
        PRELUDE
        + FORKED
        + """
import os, time
read, write = os.pipe()
pid = os.fork()
if pid == 0:  # the child: the parent's stepping thread does not exist here
    os.close(read)
    os.write(write, str(digest(vec, 90)).encode())
    vec.close()
    del vec
    os._exit(0)
os.close(write)
mine = digest(vec, 90)
deadline = time.monotonic() + 100
while time.monotonic() < deadline:
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        break
    time.sleep(0.05)
else:
    os.kill(pid, 9)
    raise AssertionError("the forked child never finished: its vector env waited for threads it does not have")
assert os.waitstatus_to_exitcode(status) == 0
theirs = os.read(read, 100).decode()
assert theirs == mine, "the child stepped other episodes than the parent"
print("same")
""",
        timeout=200,
    )
    assert out.strip() == "same"


def test_a_multiprocessing_fork_child_steps_a_threaded_vector_env():
    out = run_isolated(
        PRELUDE
        + FORKED
        + """
import multiprocessing
def child(queue):
    queue.put(digest(vec, 90))
ctx = multiprocessing.get_context("fork")  # Linux's default before Python 3.14
queue = ctx.Queue()
process = ctx.Process(target=child, args=(queue,))
process.start()
process.join(100)
if process.is_alive():
    process.kill()
    raise AssertionError("the fork child never finished: its vector env waited for threads it does not have")
assert process.exitcode == 0
assert queue.get(timeout=10) == digest(vec, 90)
print("same")
""",
        timeout=200,
    )
    assert out.strip() == "same"


def test_plan_refuses_more_work_memory_than_the_js_package_allows_with_its_words():
    out = run_isolated(
        PRELUDE
        + """
from valley_farm._specs import LIMITS
env = valley_farm.make("ValleyFarm-v0")
env.reset(seed=1)
print(raises(ValueError, "a plan may take", env.plan, None, 2**26))
raises(ValueError, f"more than the {LIMITS['planMemoryMax'] >> 20} MB a plan may take", env.plan, 65536)
assert env.plan(width=8, prove=2**20).best_return > 0  # what fits still plans
""",
        memory_limit=2 * 2**30,  # before the limit, plan(prove=2**26) took 3.1 GB
    )
    python_words = out.strip()
    assert re.fullmatch(r"valley_farm: plan: prove 67108864 needs 3\d{3} MB of engine memory, more than the 1024 MB a plan "
                        r"may take; use a smaller width or fewer states to prove", python_words), python_words
    js = node_json(
        "import { make } from './wasm/index.js';"
        "const env = await make('ValleyFarm-v0'); env.reset({ seed: 1 });"
        "try { env.plan({ prove: 2 ** 26 }); console.log('null'); } catch (err) { console.log(JSON.stringify(err.message)); }"
    )
    # the same limit, the same sentence (the JS one adds why WebAssembly keeps the memory)
    assert js.replace("valley-farm:", "valley_farm:").split(" (")[0] == python_words.split("; ")[0]
    assert valley_farm._specs.LIMITS["planMemoryMax"] == 2**30


def test_the_private_helpers_check_their_arguments_instead_of_crashing_or_running_for_ever():
    run_isolated(
        PRELUDE
        + """
# the whole 64-bit range once divided by zero (SIGFPE) at the next fresh seed
raises(ValueError, "not every 64-bit seed", _engine.set_fresh_seed_range, 0, 2**64 - 1)
raises(ValueError, "low <= high", _engine.set_fresh_seed_range, 5, 4)
raises(TypeError, "not an int", _engine.set_fresh_seed_range, 1.5, 4)
valley_farm.make("ValleyFarm-v0").reset()
# no rows of actions once divided by zero; a count of rounds near 2**63 never returned
raises(ValueError, "k >= 1 rows", _engine.native_vec_steps, 0, np.zeros((0, 4), np.int32), 10, True)
raises(ValueError, "more than 2**33 env steps", _engine.native_vec_steps, 0, np.zeros((1, 4), np.int32), 2**33, True)
raises(ValueError, "out of range", _engine.native_vec_steps, 0, np.zeros((1, 4), np.int32), 2**62, True)
raises(ValueError, "out of range", _engine.native_vec_steps, 7, np.zeros((1, 4), np.int32), 1, True)
raises(ValueError, "more than 2**33 env steps", _engine.batch_run_random, 0, 1024, 2**30, 1)
raises(ValueError, "out of range", _engine.batch_run_random, 0, 0, 1, 1)
raises(TypeError, "not an int", _engine.batch_run_random, 0, 4, 1.0, 1)
seconds, total = _engine.batch_run_random(1, 4, 100, 1)
assert total > 0 and _engine.native_vec_steps(1, np.zeros((2, 4), np.int32), 100, True) >= 0
env = _engine.Env(0)
env.reset(seed=1)
raises(ValueError, "width", env._plan, 0, 0)
raises(ValueError, "states to prove", env._plan, 1, 2**40)
raises(TypeError, "not an int", env._plan, 1.0, 0)
vec = valley_farm.make_vec("ValleyFarm-v0", 2)
raises(ValueError, "env index", vec._vec.reset_one, 2, 1)
""",
        timeout=120,
    )
