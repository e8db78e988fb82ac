"""Masked PPO on a valley-farm vector env, in one file (CleanRL's ppo.py, read top to bottom).

    python ppo.py --env-id BackwardsValleyFarm-v0 --total-timesteps 2000000
    python ppo.py --env-id ValleyFarm-v0 --total-timesteps 100000000 --eval-at-minutes 10,30 --json-out run.json

The second trains until 30 minutes of this process's CPU time and evaluates at 10 and 30
(CPU time rather than wall time: on a shared machine wall time counts the other processes
too; evaluation's own time is not counted as training), writing every score as it comes.

The arguments are one dataclass; the network; the rollout over ``valley_farm.make_vec`` (its
arrays are views the next step overwrites: the rollout copies them into its buffers); GAE;
the clipped update; then ``valley_farm.evaluate`` on the test split with the greedy policy.
Illegal actions are masked out of the policy (their logits set to -inf), the engine's legal
masks arriving with every step. The vector env resets an ended episode in the same step, so
``terminated`` marks the last step of an episode and the next observation starts a new one;
no episode is ever truncated (the farms end on their own clock), so nothing is bootstrapped
across an end.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import sys
import time
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn

import valley_farm


@dataclass
class Args:
    env_id: str = "BackwardsValleyFarm-v0"
    seed: int = 1
    total_timesteps: int = 2_000_000
    num_envs: int = 64
    num_steps: int = 64  # steps per env per rollout
    learning_rate: float = 2.5e-3
    anneal_lr: bool = True
    gamma: float = 0.99
    gae_lambda: float = 0.95
    num_minibatches: int = 4
    update_epochs: int = 4
    clip_coef: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    hidden: int = 64
    torch_threads: int = 1  # one CPU core: the measured numbers in the README are for this
    eval_split: str = "test"
    eval_episodes: int = 1000
    log_every: int = 10  # updates between progress lines (0: quiet)
    # "10,30": evaluate on eval_split after 10 and 30 minutes of the process's CPU time spent
    # training, then stop (total_timesteps is then only a cap). CPU time, not wall time: on a
    # shared machine wall time would count the other processes; evaluation is not counted.
    eval_at_minutes: str = ""
    save_dir: str = ""  # where each evaluated policy's weights go (policy-<minutes>min.pt)
    json_out: str = ""  # where the run's settings, throughput and scores go, as JSON


class Encoder:
    """Observation -> network input, from the observation space alone: an element with a few
    values (a tile code, a status, a facing) becomes a one-hot, a wider one (steps left,
    coins, Farm Value) is scaled to [0, 1]."""

    def __init__(self, space: valley_farm.Box, max_categories: int = 16):
        low, high = space.low.astype(np.int64), space.high.astype(np.int64)
        width = high - low + 1
        self.onehot = np.flatnonzero(width <= max_categories)
        self.scaled = np.flatnonzero(width > max_categories)
        self.low, self.width = low, width
        # one-hot element i's value v lights input offset[i] + v - low[i]
        self.offsets = np.concatenate([[0], np.cumsum(width[self.onehot])[:-1]])
        self.size = int(width[self.onehot].sum()) + len(self.scaled)

    def __call__(self, obs: np.ndarray) -> torch.Tensor:
        n = obs.shape[0]
        x = np.zeros((n, self.size), dtype=np.float32)
        cols = self.offsets + obs[:, self.onehot] - self.low[self.onehot]
        x[np.arange(n)[:, None], cols] = 1.0
        first = self.size - len(self.scaled)
        x[:, first:] = (obs[:, self.scaled] - self.low[self.scaled]) / (self.width[self.scaled] - 1)
        return torch.from_numpy(x)


def layer(i: int, o: int, std: float = np.sqrt(2)) -> nn.Linear:
    lin = nn.Linear(i, o)
    nn.init.orthogonal_(lin.weight, std)
    nn.init.constant_(lin.bias, 0.0)
    return lin


class Agent(nn.Module):
    def __init__(self, inputs: int, actions: int, hidden: int):
        super().__init__()
        self.critic = nn.Sequential(layer(inputs, hidden), nn.Tanh(), layer(hidden, hidden), nn.Tanh(), layer(hidden, 1, 1.0))
        self.actor = nn.Sequential(layer(inputs, hidden), nn.Tanh(), layer(hidden, hidden), nn.Tanh(), layer(hidden, actions, 0.01))

    def value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(x).squeeze(-1)

    def policy(self, x: torch.Tensor, mask: torch.Tensor) -> torch.distributions.Categorical:
        logits = self.actor(x).masked_fill(~mask, -1e9)  # illegal actions: never sampled
        return torch.distributions.Categorical(logits=logits)


def train(args: Args) -> dict:
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.torch_threads)
    rng = np.random.default_rng(args.seed)
    envs = valley_farm.make_vec(args.env_id, args.num_envs)
    encode = Encoder(envs.single_observation_space)
    agent = Agent(encode.size, int(envs.single_action_space.n), args.hidden)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    n, t_steps = args.num_envs, args.num_steps
    obs_buf = np.zeros((t_steps, n, envs.single_observation_space.shape[0]), dtype=np.int32)
    mask_buf = np.zeros((t_steps, n, int(envs.single_action_space.n)), dtype=bool)
    actions = torch.zeros((t_steps, n), dtype=torch.long)
    logprobs = torch.zeros((t_steps, n))
    rewards = torch.zeros((t_steps, n))
    dones = torch.zeros((t_steps, n))
    values = torch.zeros((t_steps, n))

    obs, infos = envs.reset(seed=args.seed)  # env i: seed + i, then + k n (training seeds)
    next_obs, next_mask = obs.copy(), infos["action_mask"].astype(bool)  # int8 masks; a copy
    next_done = torch.zeros(n)
    batch = n * t_steps
    updates = args.total_timesteps // batch
    returns_seen: list = []
    marks = parse_minutes(args.eval_at_minutes)  # CPU seconds at which to evaluate
    budget = marks[-1] if marks else None
    checkpoints: list = []  # per mark: when, how far, the score (summary)
    results: list = []  # per mark: evaluate()'s full answer
    steps_done = 0
    clock = TrainingClock()

    def greedy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            logits = agent.actor(encode(observations)).masked_fill(~torch.tensor(masks, dtype=torch.bool), -1e9)
        return logits.argmax(dim=1).numpy().astype(np.int32)

    def checkpoint() -> None:
        """Evaluates (and saves) the greedy policy at the next mark; its time is not training."""
        cpu, wall = clock.cpu(), clock.wall()
        with clock.paused():
            minutes = marks[len(checkpoints)] / 60
            if args.save_dir:
                os.makedirs(args.save_dir, exist_ok=True)
                torch.save(agent.state_dict(), os.path.join(args.save_dir, f"policy-{minutes:g}min.pt"))
            result = valley_farm.evaluate(greedy, args.env_id, split=args.eval_split, episodes=args.eval_episodes)
            point = {
                "cpu_minutes_mark": minutes,
                "train_cpu_seconds": cpu,
                "train_wall_seconds": wall,
                "steps": steps_done,
                "steps_per_cpu_sec": steps_done / cpu,
                "loadavg": list(os.getloadavg()),
                "eval": summary(result),
            }
            checkpoints.append(point)
            results.append(result)
            if args.json_out:  # so far, in case the run is stopped before its last mark
                write_record(args, {"steps": steps_done, "checkpoints": checkpoints, "partial": True})
            print(f"[{minutes:g} CPU min] {steps_done:,} steps  {point['steps_per_cpu_sec']:,.0f} steps per CPU s  "
                  f"{args.eval_split} mean {result['mean']:.2f} (95% CI {result['ci95'][0]:.2f}..{result['ci95'][1]:.2f})  "
                  f"load {point['loadavg'][0]:.2f}", flush=True)

    for update in range(1, updates + 1):
        if budget is not None and clock.cpu() >= budget:
            break
        if args.anneal_lr:
            done = (update - 1.0) / updates
            if budget is not None:  # a time budget: anneal over it (or the step cap, if sooner)
                done = max(done, clock.cpu() / budget)
            optimizer.param_groups[0]["lr"] = args.learning_rate * (1.0 - done)
        # ---- rollout ----
        for t in range(t_steps):
            obs_buf[t], mask_buf[t] = next_obs, next_mask
            dones[t] = next_done
            with torch.no_grad():
                x = encode(next_obs)
                dist = agent.policy(x, torch.from_numpy(next_mask))
                a = dist.sample()
                values[t] = agent.value(x)
            actions[t], logprobs[t] = a, dist.log_prob(a)
            obs, reward, term, _, infos = envs.step(a.numpy().astype(np.int32))
            rewards[t] = torch.from_numpy(reward.astype(np.float32))
            next_obs, next_mask = obs.copy(), infos["action_mask"].astype(bool)  # int8 masks; a copy
            next_done = torch.from_numpy(term.astype(np.float32))
            if term.any():
                returns_seen.extend(infos["episode"]["r"][term].tolist())
        # ---- GAE ----
        with torch.no_grad():
            next_value = agent.value(encode(next_obs))
            advantages = torch.zeros_like(rewards)
            last = torch.zeros(n)
            for t in reversed(range(t_steps)):
                nonterminal = 1.0 - (next_done if t == t_steps - 1 else dones[t + 1])
                nv = next_value if t == t_steps - 1 else values[t + 1]
                delta = rewards[t] + args.gamma * nv * nonterminal - values[t]
                last = delta + args.gamma * args.gae_lambda * nonterminal * last
                advantages[t] = last
            returns = advantages + values
        # ---- update ----
        b_x = encode(obs_buf.reshape(batch, -1))
        b_mask = torch.from_numpy(mask_buf.reshape(batch, -1))
        b_actions, b_logprobs = actions.reshape(-1), logprobs.reshape(-1)
        b_adv, b_ret = advantages.reshape(-1), returns.reshape(-1)
        minibatch = batch // args.num_minibatches
        for _ in range(args.update_epochs):
            order = torch.from_numpy(rng.permutation(batch))
            for start in range(0, batch, minibatch):
                mb = order[start : start + minibatch]
                dist = agent.policy(b_x[mb], b_mask[mb])
                ratio = (dist.log_prob(b_actions[mb]) - b_logprobs[mb]).exp()
                adv = b_adv[mb]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                pg_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)).mean()
                v_loss = 0.5 * ((agent.value(b_x[mb]) - b_ret[mb]) ** 2).mean()
                loss = pg_loss - args.ent_coef * dist.entropy().mean() + args.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
        steps_done = update * batch
        while len(checkpoints) < len(marks) and clock.cpu() >= marks[len(checkpoints)]:
            checkpoint()
        if args.log_every and update % args.log_every == 0:
            recent = np.mean(returns_seen[-500:]) if returns_seen else float("nan")
            print(f"update {update}/{updates}  steps {steps_done}  {steps_done / clock.wall():,.0f} steps/s  "
                  f"({steps_done / clock.cpu():,.0f} per CPU s)  train return {recent:.2f}", flush=True)
    envs.close()
    while len(checkpoints) < len(marks):  # the step cap came first: the rest are evaluated now
        checkpoint()

    out = {
        "steps": steps_done,
        "seconds": clock.wall(),
        "cpu_seconds": clock.cpu(),
        "steps_per_sec": steps_done / clock.wall() if steps_done else 0.0,
        "steps_per_cpu_sec": steps_done / clock.cpu() if steps_done else 0.0,
    }
    if marks:
        out["checkpoints"] = checkpoints
        out["eval"] = results[-1]
    else:
        # ---- evaluation: the greedy policy on the held-out split, by the package's protocol ----
        out["eval"] = valley_farm.evaluate(greedy, args.env_id, split=args.eval_split, episodes=args.eval_episodes)
    return out


class TrainingClock:
    """The process's CPU time (time.process_time: all its threads) and wall time spent
    training, less the time spent inside ``paused()`` (evaluation, saving)."""

    def __init__(self):
        self.cpu0, self.wall0 = time.process_time(), time.perf_counter()

    def cpu(self) -> float:
        return time.process_time() - self.cpu0

    def wall(self) -> float:
        return time.perf_counter() - self.wall0

    class _Pause:
        def __init__(self, clock):
            self.clock = clock

        def __enter__(self):
            self.cpu, self.wall = time.process_time(), time.perf_counter()

        def __exit__(self, *exc):
            self.clock.cpu0 += time.process_time() - self.cpu
            self.clock.wall0 += time.perf_counter() - self.wall

    def paused(self) -> "TrainingClock._Pause":
        return TrainingClock._Pause(self)


def parse_minutes(text: str) -> list:
    """"10,30" -> [600.0, 1800.0] (CPU seconds), increasing and positive, or a ValueError."""
    if not text.strip():
        return []
    try:
        minutes = [float(m) for m in text.split(",")]
    except ValueError:
        raise ValueError(f"--eval-at-minutes takes comma-separated minutes such as 10,30; got {text!r}") from None
    if any(m <= 0 for m in minutes) or minutes != sorted(set(minutes)):
        raise ValueError(f"--eval-at-minutes takes positive minutes in increasing order such as 10,30; got {text!r}")
    return [60.0 * m for m in minutes]


def summary(result: dict) -> dict:
    """evaluate()'s answer without its per-seed lists (JSON-sized)."""
    keep = {k: result[k] for k in ("env", "mean", "stderr", "ci95") if k in result}
    keep["episodes"] = len(result["seeds"])
    if "normalized" in result:
        keep["normalized_mean"] = result["normalized"]["mean"]
        keep["reference"] = result["reference"]
    return keep


def write_record(args: Args, out: dict) -> None:
    """The run as JSON: its command, settings, machine (with its load: the cores may be shared)
    and results."""
    record = {
        "command": " ".join(["python3", "ppo.py"] + sys.argv[1:]),
        "args": dataclasses.asdict(args),
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version(),
                    "torch": torch.__version__, "loadavg": list(os.getloadavg())},
        **out,
    }
    if "eval" in out:
        record["eval"] = summary(out["eval"])
    with open(args.json_out, "w") as f:
        json.dump(record, f, indent=2)
        f.write("\n")


def parse_args(argv=None) -> Args:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for f in dataclasses.fields(Args):
        flag = "--" + f.name.replace("_", "-")
        if f.type == "bool":
            parser.add_argument(flag, type=lambda s: s.lower() in ("1", "true", "yes"), default=f.default)
        else:
            parser.add_argument(flag, type=type(f.default), default=f.default)
    return Args(**vars(parser.parse_args(argv)))


if __name__ == "__main__":
    args = parse_args()
    out = train(args)
    r = out["eval"]
    print(f"{out['steps']:,} steps in {out['seconds']:.0f} s wall, {out['cpu_seconds']:.0f} s CPU "
          f"({out['steps_per_sec']:,.0f} steps/s wall, {out['steps_per_cpu_sec']:,.0f} per CPU s; training and updates). "
          "CPU time is this process's (time.process_time): on a shared machine wall time also counts the others.")
    print(f"{args.eval_split} ({len(r['seeds'])} seeds): mean return {r['mean']:.2f} +- {r['stderr']:.2f}", end="")
    if "normalized" in r:
        ref = r["reference"]
        print(f", normalised {r['normalized']['mean']:.3f} (random {ref['random']:.2f}, heuristic {ref['heuristic']:.2f}, "
              f"best known {ref['best_known']:.2f})")
    else:
        print()
    if args.json_out:
        write_record(args, out)
