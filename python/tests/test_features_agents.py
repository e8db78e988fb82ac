"""What a policy sees (valley_farm.features, the engine's vf_features) is what the JS package's
learners see, bit for bit; the built-in agents and the features refuse what they must (an
observation no episode makes, a farm without that agent) with the package's words, changing
nothing."""
import json

import numpy as np
import pytest

import valley_farm
from valley_farm import _engine, create_agent, evaluate, features
from conftest import node_json

IDS = valley_farm.ENV_IDS
N, STEPS = 8, 60

JS_FEATURES = """
import { envSpecs, makeVec } from './wasm/index.js';
const out = {};
for (const id of %(ids)s) {
  const A = envSpecs[id].actions.length;
  const vec = await makeVec(id, %(n)d, { features: true, memory: true });
  let r = vec.reset({ seed: 77 });
  const rows = [];
  const take = () => {
    const f = r.features;
    rows.push(Array.from({ length: %(n)d }, (_, i) => {
      const at = i * f.stride;
      return [Array.from(f.index.subarray(at, at + f.count[i])), Array.from(f.value.subarray(at, at + f.count[i]))];
    }));
  };
  take();
  for (let t = 0; t < %(steps)d; t++) {
    r = vec.step(Int32Array.from({ length: %(n)d }, (_, i) => (t * 5 + i * 3) %% A));
    take();
  }
  out[id] = rows;
}
console.log(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def js_features():
    return node_json(JS_FEATURES % {"ids": json.dumps(list(IDS)), "n": N, "steps": STEPS})


@pytest.mark.parametrize("env_id", IDS)
def test_the_features_of_a_vector_env_equal_the_js_vector_envs_bit_for_bit(env_id, js_features):
    spec = valley_farm.SPECS[env_id]
    vec = valley_farm.make_vec(env_id, N)
    batch = features(env_id, memory=True, num_envs=N)
    single = features(env_id, memory=True, num_envs=N)
    obs, _ = vec.reset(seed=77)
    index, value, count = batch.read_batch(obs, None, np.ones(N, dtype=bool))
    opened = np.ones(N, dtype=bool)
    actions = np.zeros(N, dtype=np.int32)
    for t in range(STEPS + 1):
        if t > 0:
            actions = np.array([((t - 1) * 5 + i * 3) % spec.num_actions for i in range(N)], dtype=np.int32)
            obs, _, terminations, _, _ = vec.step(actions)
            opened = terminations.copy()
            index, value, count = batch.read_batch(obs, actions, opened)
        for i in range(N):
            js_index, js_value = js_features[env_id][t][i]
            assert index[i, : count[i]].tolist() == js_index, (t, i)
            assert [float(v) for v in value[i, : count[i]]] == js_value, (t, i)  # float32, exact
            one_index, one_value = single.read(i, obs[i], int(actions[i]), bool(opened[i]))
            assert one_index.tolist() == js_index and one_value.tolist() == js_value
    assert batch.width == valley_farm.SPECS[env_id].extra["features"]["observation"] + spec.extra["features"]["memory"]
    vec.close()


def test_a_features_row_no_episode_makes_is_refused_and_changes_nothing():
    env_id = "BackwardsValleyFarm-v0"
    env = valley_farm.make(env_id)
    obs, _ = env.reset(seed=3)
    f, twin = features(env_id, memory=True), features(env_id, memory=True)
    f.read(0, obs, -1, True)
    twin.read(0, obs, -1, True)
    bad = obs.copy()
    bad[50] = 10  # x runs 0 .. 9
    with pytest.raises(ValueError, match="row 0 is not an observation of BackwardsValleyFarm-v0 that follows its episode"):
        f.read(0, bad, 4, False)
    with pytest.raises(TypeError, match="must be 55 ints"):
        f.read(0, obs[:10], 4, False)
    with pytest.raises(ValueError, match="env index 1 is out of range"):
        f.read(1, obs, 4, False)
    nxt, *_ = env.step(4)
    a, b = f.read(0, nxt, 4, False), twin.read(0, nxt, 4, False)
    assert a[0].tolist() == b[0].tolist() and a[1].tolist() == b[1].tolist()
    with pytest.raises(ValueError, match="more than the 1024 MB"):
        features(env_id, memory=True, num_envs=65536)


def test_an_agent_refuses_an_observation_no_episode_makes_and_plays_on():
    env = valley_farm.make("ValleyFarm-v0")
    obs, info = env.reset(seed=1_000_000)
    agent, twin = create_agent("heuristic", "ValleyFarm-v0"), create_agent("heuristic", "ValleyFarm-v0")
    bad = obs.copy()
    bad[3] = 99  # no tile has code 99
    with pytest.raises(ValueError, match="the heuristic agent was shown an observation no ValleyFarm-v0 episode makes"):
        agent.act(bad)
    with pytest.raises(TypeError, match="must be 37 ints"):
        agent.act(obs.astype(np.float64))
    assert agent.act(obs) == twin.act(obs)


def test_a_farm_the_engine_lists_without_a_heuristic_is_refused_one_by_every_call(monkeypatch):
    """As a farm added without a heuristic would be: the binding asks the engine's description
    (each farm's "agents"), and the engine refuses the agent too (vf_agent_exists)."""
    spec = valley_farm.SPECS["ValleyFarm-v0"]
    monkeypatch.setitem(spec.extra, "agents", ["random"])
    with pytest.raises(ValueError, match="no heuristic agent plays ValleyFarm-v0 yet; it has random"):
        create_agent("heuristic", "ValleyFarm-v0")
    with pytest.raises(ValueError, match="no heuristic agent plays ValleyFarm-v0"):
        evaluate("heuristic", "ValleyFarm-v0", episodes=1)
    assert create_agent("random", "ValleyFarm-v0", seed=1).name == "random"
    heuristic = valley_farm._specs.ENGINE["agents"].index("heuristic")
    with pytest.raises(ValueError, match="env kind 2 is out of range"):
        _engine.Agent(2, heuristic, 0)
    with pytest.raises(ValueError, match="env kind 2 is out of range"):
        _engine.Features(2, False, 1)
    with pytest.raises(ValueError, match="env kind 2 is out of range"):
        _engine.agent_returns(2, heuristic, [1], 1, 1)
