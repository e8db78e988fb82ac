"""The evaluation protocol (the JS package's wasm/evaluate.js; docs: #/docs/benchmark).

    from valley_farm import evaluate, create_agent
    r = evaluate(create_agent("heuristic", "ValleyFarm-v0"), "ValleyFarm-v0", split="test")
    r["mean"], r["stderr"], r["ci95"], r["normalized"]["mean"], r["returns"]

A policy is an agent ``act(observation, info) -> action`` (with ``reset()``; info carries
``action_mask``), a built-in agent's name, or a batched callable ``policy(observations,
masks) -> actions`` over a vector env's flat observations. A built-in agent's name plays it in
the engine, the random agent scored as the protocol says (the mean of ``RANDOM_RUNS`` plays of
each seed, the k-th by an agent seeded k), exactly as the JS package's evaluate('random') and
``npx valley-farm eval random`` do. The protocol owns the envs: the policy sees observations
only, and nothing it returns but an action is used.

Normalised score: per seed, (return - random) / (best known - random), where random is the
mean return of the uniformly random agent on that seed (16 seeded runs) and best known is the
planner's (data/best-known.json, copied from wasm/data at build time); 0 is random play, 1 the
best known play. Where the best known return does not exceed the random one there is no room
to score, and the seed counts 1 when the return reaches the best known one, else 0.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Dict, List, Optional, Sequence

import numpy as np

from . import _engine
from ._specs import reference_data, spec_for
from .agents import agent_kind
from .env import FarmEnv
from .splits import RANDOM_RUNS, split_seeds
from .vector import FarmVecEnv

MAX_EPISODES = 100_000


def reference_by_seed(env_id: str) -> Dict[int, Dict[str, float]]:
    """Per-seed reference returns: seed -> {best, bound, plan, random, heuristic}."""
    best_known, baselines = reference_data()
    out: Dict[int, Dict[str, Any]] = {}
    for rows in best_known["envs"].get(env_id, {}).values():
        for seed, best, bound, plan in rows:
            out[seed] = {"best": best, "bound": bound, "plan": plan}
    for rows in baselines.get("perSeed", {}).get(env_id, {}).values():
        for seed, random, heuristic in rows:
            out.setdefault(seed, {}).update(random=random, heuristic=heuristic)
    return out


def summarize(values: Sequence[float]) -> Dict[str, Any]:
    """mean, standard error and a 95 % interval (normal approximation), as summarize() in JS."""
    n = len(values)
    mean = sum(values) / n
    variance = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    stderr = math.sqrt(variance / n)
    return {"mean": mean, "stderr": stderr, "ci95": [mean - 1.96 * stderr, mean + 1.96 * stderr]}


def normalized_score(ret: float, random: float, best: float) -> float:
    """The normalised score of one seed (see the module's docstring for ties and no room)."""
    if not best > random:
        return 1.0 if ret >= best else 0.0
    return (ret - random) / (best - random)


def _seeds(env_id: str, split: Optional[str], seeds: Optional[Sequence[int]], episodes: Optional[int]) -> List[int]:
    spec_for(env_id)
    if split is not None and seeds is not None:
        raise ValueError("valley_farm: evaluate takes a split or seeds, not both")
    chosen = list(seeds) if seeds is not None else split_seeds(split or "test")
    if not chosen:
        raise ValueError("valley_farm: evaluate: seeds must be a non-empty list of seeds")
    for s in chosen:
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)) or not 0 <= s < 2**53:
            raise ValueError(f"valley_farm: evaluate: seed {str(s)[:30]} is not an int from 0 to 2**53 - 1")
    if episodes is not None:
        if isinstance(episodes, bool) or not isinstance(episodes, int) or not 1 <= episodes <= MAX_EPISODES:
            raise ValueError(f"valley_farm: evaluate: episodes must be an int from 1 to {MAX_EPISODES}")
        chosen = chosen[:episodes]
    return [int(s) for s in chosen]


def _action(spec: Any, value: Any, seed: int, step: int) -> int:
    a = spec.actions.index(value) if isinstance(value, str) and value in spec.actions else value
    if isinstance(a, (int, np.integer)) and not isinstance(a, (bool, np.bool_)) and 0 <= a < spec.num_actions:
        return int(a)
    shown = repr(value[:40]) if isinstance(value, str) else str(value)[:40]
    raise ValueError(
        f"valley_farm: evaluate: on seed {seed}, step {step}, the policy returned {shown}; "
        f"it must return an int 0 ... {spec.num_actions - 1} or an action name"
    )


def _run_single(agent: Any, env_id: str, seeds: List[int]) -> List[float]:
    spec = spec_for(env_id)
    returns = []
    with FarmEnv(env_id) as env:
        for seed in seeds:
            obs, info = env.reset(seed=seed)
            if hasattr(agent, "reset"):
                agent.reset()
            total = 0.0
            step = 0
            while True:
                obs, reward, terminated, truncated, info = env.step(_action(spec, agent.act(obs, info), seed, step))
                total += reward
                step += 1
                if terminated or truncated:
                    break
            returns.append(total)
    return returns


def _run_batched(policy: Callable[..., Any], env_id: str, seeds: List[int], num_envs: int) -> List[float]:
    n = min(num_envs, len(seeds))
    wanted = [math.ceil((len(seeds) - i) / n) for i in range(n)]
    played = [0] * n
    by_seed: Dict[int, float] = {}
    with FarmVecEnv(env_id, n, levels=seeds) as vec:
        obs, infos = vec.reset()
        while any(played[i] < wanted[i] for i in range(n)):
            actions = np.asarray(policy(obs, infos["action_mask"]))
            if actions.shape != (n,):
                raise ValueError(f"valley_farm: evaluate: the policy returned actions of shape {actions.shape} for {n} envs")
            obs, _, term, _, infos = vec.step(actions)
            for i in np.flatnonzero(term):
                if played[i] < wanted[i]:
                    played[i] += 1
                    by_seed[int(vec.episode_seeds[i])] = float(vec.episode_returns[i])
    return [by_seed[s] for s in seeds]


def evaluate(
    policy: Any,
    env_id: str,
    split: Optional[str] = None,
    seeds: Optional[Sequence[int]] = None,
    episodes: Optional[int] = None,
    num_envs: int = 64,
    seed: Optional[int] = None,
) -> Dict[str, Any]:
    """Runs ``policy`` once on each seed of the split (default 'test') or the given seeds (the
    first ``episodes`` of them) and returns {env, seeds, returns, mean, stderr, ci95,
    normalized: {mean, per_seed}, reference: {random, heuristic, best_known}} (the last two
    where the seeds have reference data: test and validation). ``seed``: a built-in random agent
    named by string is one agent seeded so, playing the seeds in turn (its draws going on, as an
    agent object's would), instead of the protocol's runs."""
    chosen = _seeds(env_id, split, seeds, episodes)
    if isinstance(policy, str):
        kind = agent_kind(policy, env_id)
        runs = RANDOM_RUNS if policy == "random" and seed is None else 1
        returns = _engine.agent_returns(spec_for(env_id).kind, kind, chosen, runs, 1 if seed is None else seed)
    elif hasattr(policy, "act"):
        returns = _run_single(policy, env_id, chosen)
    elif callable(policy):
        returns = _run_batched(policy, env_id, chosen, num_envs)
    else:
        raise TypeError(
            "valley_farm: evaluate takes an agent (act(observation, info), reset()), a built-in agent's name, "
            "or a batched policy(observations, masks) -> actions"
        )
    result: Dict[str, Any] = {"env": env_id, "seeds": chosen, "returns": returns, **summarize(returns)}
    ref = reference_by_seed(env_id)
    if all("best" in ref.get(s, {}) and "random" in ref.get(s, {}) for s in chosen):
        per_seed = [normalized_score(r, ref[s]["random"], ref[s]["best"]) for s, r in zip(chosen, returns)]
        result["normalized"] = {"mean": sum(per_seed) / len(per_seed), "per_seed": per_seed}

        def mean(key: str) -> float:
            return sum(ref[s][key] for s in chosen) / len(chosen)

        result["reference"] = {"random": mean("random"), "heuristic": mean("heuristic"), "best_known": mean("best")}
    return result
