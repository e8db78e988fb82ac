"""The built-in agents (the engine's, core/src/agents.c) and evaluate() give what the JS package
gives: the heuristics' returns equal the committed baselines on every test seed and node's
evaluate() live, the random agent is scored as the protocol says (16 seeded plays a seed) to the
same numbers in both bindings, and evaluate()'s returns, summary and normalised score equal the
JS evaluate()'s on the same agent and seeds."""
import json
import math

import numpy as np
import pytest

import valley_farm
from valley_farm import create_agent, evaluate
from conftest import REPO, node_json

IDS = valley_farm.ENV_IDS
BASELINES = json.loads((REPO / "wasm" / "data" / "baselines.json").read_text())


def js_round(x: float) -> float:
    """scripts/baselines.mjs's rounding of a return: Math.round(x * 1e4) / 1e4."""
    return math.floor(x * 1e4 + 0.5) / 1e4


@pytest.mark.slow
@pytest.mark.parametrize("env_id", IDS)
def test_the_heuristic_earns_the_committed_js_baseline_on_every_test_seed(env_id):
    rows = BASELINES["perSeed"][env_id]["test"]
    result = evaluate(create_agent("heuristic", env_id), env_id, split="test")
    assert result["seeds"] == [r[0] for r in rows]
    mismatches = [(s, got, h) for (s, _, h), got in zip(rows, result["returns"]) if abs(js_round(got) - h) > 1e-9]
    assert mismatches == []


@pytest.mark.parametrize("env_id", IDS)
def test_the_random_agent_stepped_from_python_earns_the_committed_mean_of_16_seeded_runs(env_id):
    rows = BASELINES["perSeed"][env_id]["test"][:40]
    runs = BASELINES["randomRuns"]
    assert runs == valley_farm.splits.RANDOM_RUNS == valley_farm._specs.ENGINE["protocol"]["randomRuns"]
    env = valley_farm.make(env_id)
    for seed, random_mean, _ in rows:
        total = 0.0
        for k in range(1, runs + 1):
            agent = create_agent("random", env_id, seed=k)
            obs, info = env.reset(seed=seed)
            terminated = False
            while not terminated:
                obs, r, terminated, _, info = env.step(agent.act(obs, info))
                total += r
        assert abs(js_round(total / runs) - random_mean) < 1e-9, seed


@pytest.mark.parametrize("env_id", IDS)
def test_evaluate_random_scores_the_protocols_16_runs_a_seed_to_the_committed_baselines(env_id):
    rows = BASELINES["perSeed"][env_id]["test"]
    result = evaluate("random", env_id, split="test")
    assert [js_round(r) for r in result["returns"]] == [r[1] for r in rows]
    table = next(line for line in BASELINES["table"][env_id] if line["agent"] == "random")
    assert js_round(result["mean"]) == table["mean"]
    if env_id == "ValleyFarm-v0":
        assert f"{result['mean']:.2f}" == "0.74"  # the README's table, and npx valley-farm eval random


JS_EVALUATE = """
import { evaluate } from './wasm/evaluate.js';
import { createAgent, batchAgents } from './wasm/agents/index.js';
const out = {};
for (const env of %(ids)s) {
  out[env] = {
    heuristic: await evaluate(createAgent('heuristic', env), { env, split: 'test', episodes: %(n)d }),
    random: await evaluate(createAgent('random', env, { seed: 7 }), { env, split: 'validation', episodes: %(n)d }),
    heuristicByName: await evaluate('heuristic', { env, split: 'test' }),
    randomByName: await evaluate('random', { env, split: 'test' }),
    batched: await evaluate(batchAgents('heuristic', env, 16), { env, split: 'test', episodes: %(n)d, numEnvs: 16 }),
  };
}
console.log(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def js_results():
    return node_json(JS_EVALUATE % {"ids": json.dumps(list(IDS)), "n": 120})


def same_result(py, js):
    assert py["seeds"] == js["seeds"]
    assert py["returns"] == js["returns"]  # exact: the same engine, the same agent
    for key in ("mean", "stderr"):
        assert py[key] == pytest.approx(js[key], rel=1e-12, abs=1e-12)
    assert py["ci95"] == pytest.approx(js["ci95"], rel=1e-12)
    if "normalized" in js:
        assert py["normalized"]["mean"] == pytest.approx(js["normalized"]["mean"], rel=1e-12)
        assert py["normalized"]["per_seed"] == pytest.approx(js["normalized"]["perSeed"], rel=1e-12)
        ref = js["reference"]
        assert py["reference"] == pytest.approx(
            {"random": ref["random"], "heuristic": ref["heuristic"], "best_known": ref["bestKnown"]}, rel=1e-12
        )
    else:
        assert "normalized" not in py


@pytest.mark.slow
@pytest.mark.parametrize("env_id", IDS)
def test_evaluate_equals_the_js_evaluate_for_the_heuristic_on_the_test_split(env_id, js_results):
    py = evaluate(create_agent("heuristic", env_id), env_id, split="test", episodes=120)
    same_result(py, js_results[env_id]["heuristic"])
    assert "normalized" in py


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("name", ["heuristic", "random"])
def test_a_built_in_agent_named_is_evaluated_as_in_js_per_seed_and_in_mean_on_the_whole_test_split(env_id, name, js_results):
    py = evaluate(name, env_id, split="test")
    same_result(py, js_results[env_id][f"{name}ByName"])
    assert len(py["returns"]) == 1000


@pytest.mark.slow
@pytest.mark.parametrize("env_id", IDS)
def test_evaluate_equals_the_js_evaluate_for_the_seeded_random_agent_on_the_validation_split(env_id, js_results):
    py = evaluate("random", env_id, split="validation", episodes=120, seed=7)
    same_result(py, js_results[env_id]["random"])


@pytest.mark.slow
@pytest.mark.parametrize("env_id", IDS)
def test_a_batched_policy_is_evaluated_on_the_same_seeds_as_the_js_batched_path(env_id, js_results):
    agents = [create_agent("heuristic", env_id) for _ in range(16)]

    def policy(observations, masks):
        # one heuristic per row, reset when its row starts a new episode (stepsLeft = horizon)
        return np.array([agents[i].act(observations[i]) for i in range(len(agents))], dtype=np.int32)

    py = evaluate(policy, env_id, split="test", episodes=120, num_envs=16)
    same_result(py, js_results[env_id]["batched"])


def test_evaluate_refuses_bad_arguments():
    with pytest.raises(ValueError, match="unknown split 'train'"):
        evaluate("random", "ValleyFarm-v0", split="train")
    with pytest.raises(ValueError, match="a split or seeds, not both"):
        evaluate("random", "ValleyFarm-v0", split="test", seeds=[1])
    with pytest.raises(ValueError, match="episodes must be an int from 1 to 100000"):
        evaluate("random", "ValleyFarm-v0", episodes=0)
    with pytest.raises(ValueError, match="unknown env id"):
        evaluate("random", "Farm-v9")
    with pytest.raises(ValueError, match="no built-in agent 'smart'"):
        evaluate("smart", "ValleyFarm-v0")
    with pytest.raises(ValueError, match="seed -1 is out of range"):
        evaluate("random", "ValleyFarm-v0", episodes=1, seed=-1)

    class Bad:
        def act(self, obs, info):
            return 99

    with pytest.raises(ValueError, match="on seed 1000000, step 0, the policy returned 99"):
        evaluate(Bad(), "ValleyFarm-v0", episodes=1)
    with pytest.raises(TypeError, match="evaluate takes an agent"):
        evaluate(42, "ValleyFarm-v0")


def test_the_protocol_constants_equal_the_js_packages():
    js = node_json(
        "import { SPLITS } from './wasm/splits.js'; import { FRESH_SEED_MIN, FRESH_SEED_MAX } from './wasm/index.js';"
        "console.log(JSON.stringify({ SPLITS, FRESH_SEED_MIN, FRESH_SEED_MAX }))"
    )
    assert {k: [v.first, v.count] for k, v in valley_farm.SPLITS.items()} == {
        k: [v["first"], v["count"]] for k, v in js["SPLITS"].items()
    }
    assert (valley_farm.FRESH_SEED_MIN, valley_farm.FRESH_SEED_MAX) == (js["FRESH_SEED_MIN"], js["FRESH_SEED_MAX"])


def test_the_python_and_js_packages_read_the_same_engine_description():
    js = node_json("import spec from './wasm/engine_spec.js'; console.log(JSON.stringify(spec))")
    assert valley_farm._specs.ENGINE == js
    for farm in js["farms"]:
        spec = valley_farm.SPECS[farm["id"]]
        assert list(spec.actions) == farm["actions"] and spec.obs_size == farm["obsSize"]
