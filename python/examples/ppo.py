"""Masked PPO on a valley-farm vector env, in one file (CleanRL's ppo.py, read top to bottom).

    python3 ppo.py --help                                      every flag, its default and meaning
    python3 ppo.py --env-id BackwardsValleyFarm-v0 --total-timesteps 2000000
    python3 ppo.py --env-id ValleyFarm-v0 --total-timesteps 100000000 --eval-at-minutes 10,30 --json-out run.json
    python3 ppo.py --device cuda --num-envs 4096 --num-steps 32 --total-timesteps 100000000
    python3 ppo.py --export-onnx policy.onnx                   the trained policy for the game page's "Load a policy…"

The second trains until 30 minutes of this process's CPU time and evaluates at 10 and 30
(CPU time rather than wall time: on a shared machine wall time counts the other processes
too; evaluation's own time is not counted as training), writing every score as it comes.
The third puts the network on a GPU and steps 4,096 envs per call into the engine.

The arguments are one dataclass; the network; the rollout over ``valley_farm.make_vec`` (its
arrays are views the next step overwrites: the rollout copies them into buffers allocated
once, so a step costs the engine's batch call and one copy of its outputs, however many envs);
GAE; the clipped update; then ``valley_farm.evaluate`` on the test split with the greedy
policy. Illegal actions are masked out of the policy (their logits set to -1e9), the engine's
legal masks arriving with every step. The vector env resets an ended episode in the same step,
so ``terminated`` marks the last step of an episode and the next observation starts a new one;
no episode is ever truncated (the farms end on their own clock), so nothing is bootstrapped
across an end. Progress lines and the result report env steps/s and where the time went: the
engine's steps, the network's forward passes during the rollout, and the updates.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import sys
import time
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.nn as nn

import valley_farm


def arg(default, meaning: str, **extra):
    """A field of Args: its default and what it means (--help shows both)."""
    return field(default=default, metadata={"help": meaning, **extra})


@dataclass
class Args:
    env_id: str = arg("BackwardsValleyFarm-v0", "the farm", choices=valley_farm.ENV_IDS)
    seed: int = arg(1, "seeds torch, the minibatch order and the training episodes (env i's k-th: seed + i + k * num_envs)")
    total_timesteps: int = arg(2_000_000, "env steps to train for (a cap when --eval-at-minutes is given)")
    num_envs: int = arg(64, "envs stepped together in one call into the engine (1 to 65536; thousands suit a GPU)")
    num_steps: int = arg(64, "steps per env in each rollout; a rollout is num_envs * num_steps samples")
    learning_rate: float = arg(2.5e-3, "Adam's step size")
    anneal_lr: bool = arg(True, "lower the step size linearly to 0 over the run (over the CPU minutes with --eval-at-minutes)")
    gamma: float = arg(0.99, "discount")
    gae_lambda: float = arg(0.95, "GAE's lambda")
    num_minibatches: int = arg(4, "minibatches each rollout is cut into")
    update_epochs: int = arg(4, "passes over each rollout")
    clip_coef: float = arg(0.2, "PPO's clipping of the probability ratio")
    ent_coef: float = arg(0.01, "weight of the entropy bonus")
    vf_coef: float = arg(0.5, "weight of the value loss")
    max_grad_norm: float = arg(0.5, "gradients are clipped to this norm")
    hidden: int = arg(64, "units in each of the two tanh layers of the actor and of the critic")
    device: str = arg("auto", "where the network runs: auto (CUDA when torch sees a GPU, else the CPU), cpu or cuda",
                      choices=("auto", "cpu", "cuda"))
    torch_threads: int = arg(1, "CPU threads torch may use (the runs in docs/python.md used one core)")
    eval_split: str = arg("test", "the seeds the greedy policy is evaluated on", choices=tuple(valley_farm.SPLITS))
    eval_episodes: int = arg(1000, "evaluation episodes (the first seeds of the split)")
    log_every: int = arg(10, "updates between progress lines (0: quiet)")
    eval_at_minutes: str = arg("", "evaluate after these minutes of the process's CPU time spent training (\"10,30\"), "
                               "then stop; CPU time, as on a shared machine wall time counts the others; evaluation not counted")
    save_dir: str = arg("", "where each evaluated policy's weights go (policy-<minutes>min.pt; empty: not saved)")
    json_out: str = arg("", "where the run's settings, machine, throughput and scores go, as JSON (empty: not written)")
    export_onnx: str = arg("", "where the trained policy goes as an ONNX model (features -> logits, value) that the game page, "
                           "valley_farm.load_onnx and onnxruntime play; needs python3-onnx; an existing file is refused (empty: none)")


def pick_device(name: str) -> torch.device:
    """--device: auto is CUDA when torch sees a GPU, else the CPU; cuda without one is refused."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name == "cuda" and not torch.cuda.is_available():
        raise SystemExit("ppo.py: --device cuda, but torch sees no CUDA device (torch.cuda.is_available() is False); "
                         "use --device cpu, or auto")
    return torch.device(name)


class Encoder:
    """Observation -> network input: the engine's features of each observation
    (valley_farm.features: each categorical element one-hot, every other scaled to [0, 1] by its
    bounds), the numbers the JS package's learners read, so a policy trained here sees what one
    trained there does. Without the memory's features, so any batch of rows encodes alike.
    Writes into a float32 buffer it is given."""

    def __init__(self, env_id: str):
        self.env_id = env_id
        self.size = valley_farm.features(env_id).width
        self.readers: dict = {}  # batch size -> its Features

    def __call__(self, obs: np.ndarray, out: np.ndarray) -> np.ndarray:
        n = obs.shape[0]
        reader = self.readers.get(n) or self.readers.setdefault(n, valley_farm.features(self.env_id, num_envs=n))
        index, value, count = reader.read_batch(obs, None, np.ones(n, dtype=bool))
        kept = np.arange(index.shape[1]) < count[:, None]  # each row's pairs
        out.fill(0.0)
        out[np.nonzero(kept)[0], index[kept]] = value[kept]
        return out


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


class Exported(nn.Module):
    """What --export-onnx writes: features -> (logits, value), the names and shapes the JS
    package's export uses (docs/python.md, "Policies as ONNX"), so the page plays it."""

    def __init__(self, agent: Agent):
        super().__init__()
        self.agent = agent

    def forward(self, features: torch.Tensor):
        return self.agent.actor(features), self.agent.critic(features)


def check_export_path(path: str) -> None:
    """--export-onnx, checked before any training: a new .onnx file, and the onnx package to label it."""
    if not path:
        return
    if not path.endswith(".onnx"):
        raise SystemExit(f"ppo.py: --export-onnx {path!r:.100}: name a file ending in .onnx")
    if os.path.lexists(path):
        raise SystemExit(f"ppo.py: --export-onnx {path!r:.100} exists; name another file (it is never replaced)")
    try:
        import onnx  # noqa: F401  (valley_farm.write_onnx_metadata labels the model with it)
    except ImportError:
        raise SystemExit("ppo.py: --export-onnx needs the onnx package (Debian: apt install python3-onnx)") from None


def export_onnx(agent: Agent, inputs: int, env_id: str, path: str) -> None:
    """The policy as an ONNX model at `path`, labelled with its farm and settings: the engine's
    features without memory, history 1, so valley-farm's checks take it (the names and the opset
    are the package's ONNX rules, those of the JS export)."""
    from valley_farm.onnx_policy import RULES
    names = RULES["names"]
    model = Exported(agent).to("cpu").eval()
    torch.onnx.export(model, torch.zeros(1, inputs), path, input_names=[names["input"]],
                      output_names=[names["logits"], names["value"]],
                      dynamic_axes={names[k]: {0: "N"} for k in ("input", "logits", "value")},
                      opset_version=RULES["exportOpset"])
    valley_farm.write_onnx_metadata(path, env_id, algo="ppo", history=1, memory=0, act="greedy")


class Timers:
    """Seconds spent in each part of training: the engine's steps ("env"), the network's
    forward passes of the rollout ("inference", the encoding included) and the updates."""

    def __init__(self, device: torch.device):
        self.seconds = {"env": 0.0, "inference": 0.0, "update": 0.0}
        self.cuda = device.type == "cuda"

    def add(self, part: str, since: float) -> float:
        if self.cuda:  # the GPU's queued work belongs to the part that queued it
            torch.cuda.synchronize()
        now = time.perf_counter()
        self.seconds[part] += now - since
        return now

    def shares(self) -> str:
        total = sum(self.seconds.values()) or 1.0
        return ", ".join(f"{k} {100 * v / total:.0f} %" for k, v in self.seconds.items())


def train(args: Args) -> dict:
    check_export_path(args.export_onnx)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.torch_threads)
    device = pick_device(args.device)
    rng = np.random.default_rng(args.seed)
    envs = valley_farm.make_vec(args.env_id, args.num_envs)
    encode = Encoder(args.env_id)
    num_actions = int(envs.single_action_space.n)
    agent = Agent(encode.size, num_actions, args.hidden).to(device)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    n, t_steps = args.num_envs, args.num_steps
    batch = n * t_steps
    minibatch = batch // args.num_minibatches
    # Buffers allocated once. Row t + 1 of obs_buf / mask_buf receives step t's outputs (the
    # env's arrays are views its next step overwrites); row 0 is the rollout's start.
    obs_buf = np.zeros((t_steps + 1, n, envs.single_observation_space.shape[0]), dtype=np.int32)
    mask_buf = np.zeros((t_steps + 1, n, num_actions), dtype=bool)
    step_x = np.zeros((n, encode.size), dtype=np.float32)  # one step's network input
    batch_x = np.zeros((minibatch, encode.size), dtype=np.float32)  # one minibatch's
    actions = torch.zeros((t_steps, n), dtype=torch.long, device=device)
    logprobs = torch.zeros((t_steps, n), device=device)
    rewards = torch.zeros((t_steps, n), device=device)
    dones = torch.zeros((t_steps + 1, n), device=device)
    values = torch.zeros((t_steps, n), device=device)
    timers = Timers(device)

    obs, infos = envs.reset(seed=args.seed)  # env i: seed + i, then + k n (training seeds)
    obs_buf[0] = obs
    np.not_equal(infos["action_mask"], 0, out=mask_buf[0])  # int8 masks -> bool, for torch
    updates = args.total_timesteps // batch
    returns_seen: list = []
    marks = parse_minutes(args.eval_at_minutes)  # CPU seconds at which to evaluate
    budget = marks[-1] if marks else None
    checkpoints: list = []  # per mark: when, how far, the score (summary)
    results: list = []  # per mark: evaluate()'s full answer
    steps_done = 0
    clock = TrainingClock()

    def to_device(x: np.ndarray) -> torch.Tensor:
        return torch.from_numpy(x).to(device, non_blocking=True)

    def greedy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        x = encode(observations, np.zeros((len(observations), encode.size), dtype=np.float32))
        with torch.no_grad():
            logits = agent.actor(to_device(x)).masked_fill(~to_device(masks.astype(bool)), -1e9)
        return logits.argmax(dim=1).cpu().numpy().astype(np.int32)

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
        since = time.perf_counter()
        for t in range(t_steps):
            with torch.no_grad():
                x = to_device(encode(obs_buf[t], step_x))
                dist = agent.policy(x, to_device(mask_buf[t]))
                a = dist.sample()
                values[t] = agent.value(x)
            actions[t], logprobs[t] = a, dist.log_prob(a)
            a_host = a.to(torch.int32).cpu().numpy()
            since = timers.add("inference", since)
            obs, reward, term, _, infos = envs.step(a_host)
            np.copyto(obs_buf[t + 1], obs)
            np.not_equal(infos["action_mask"], 0, out=mask_buf[t + 1])
            since = timers.add("env", since)
            rewards[t] = torch.tensor(reward, dtype=torch.float32, device=device)  # copies of the views
            dones[t + 1] = torch.tensor(term, dtype=torch.float32, device=device)
            if term.any():
                returns_seen.extend(infos["episode"]["r"][term].tolist())
        # ---- GAE ----
        with torch.no_grad():
            next_value = agent.value(to_device(encode(obs_buf[t_steps], step_x)))
            advantages = torch.zeros_like(rewards)
            last = torch.zeros(n, device=device)
            for t in reversed(range(t_steps)):
                nonterminal = 1.0 - dones[t + 1]  # dones[t + 1]: step t ended its episode
                nv = next_value if t == t_steps - 1 else values[t + 1]
                delta = rewards[t] + args.gamma * nv * nonterminal - values[t]
                last = delta + args.gamma * args.gae_lambda * nonterminal * last
                advantages[t] = last
            returns = advantages + values
        since = timers.add("inference", since)
        # ---- update ----
        b_obs, b_mask = obs_buf[:t_steps].reshape(batch, -1), mask_buf[:t_steps].reshape(batch, -1)
        b_actions, b_logprobs = actions.reshape(-1), logprobs.reshape(-1)
        b_adv, b_ret = advantages.reshape(-1), returns.reshape(-1)
        for _ in range(args.update_epochs):
            order = rng.permutation(batch)
            for start in range(0, batch - minibatch + 1, minibatch):
                idx = order[start : start + minibatch]
                mb = to_device(idx)
                x = to_device(encode(b_obs[idx], batch_x))
                dist = agent.policy(x, to_device(b_mask[idx]))
                ratio = (dist.log_prob(b_actions[mb]) - b_logprobs[mb]).exp()
                adv = b_adv[mb]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                pg_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)).mean()
                v_loss = 0.5 * ((agent.value(x) - b_ret[mb]) ** 2).mean()
                loss = pg_loss - args.ent_coef * dist.entropy().mean() + args.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
        timers.add("update", since)
        # the next rollout starts where this one ended
        obs_buf[0], mask_buf[0], dones[0] = obs_buf[t_steps], mask_buf[t_steps], dones[t_steps]
        steps_done = update * batch
        while len(checkpoints) < len(marks) and clock.cpu() >= marks[len(checkpoints)]:
            checkpoint()
        if args.log_every and update % args.log_every == 0:
            recent = np.mean(returns_seen[-500:]) if returns_seen else float("nan")
            print(f"update {update}/{updates}  steps {steps_done:,}  {steps_done / clock.wall():,.0f} env steps/s  "
                  f"({steps_done / clock.cpu():,.0f} per CPU s; {timers.shares()})  train return {recent:.2f}", flush=True)
    envs.close()
    while len(checkpoints) < len(marks):  # the step cap came first: the rest are evaluated now
        checkpoint()

    out = {
        "steps": steps_done,
        "seconds": clock.wall(),
        "cpu_seconds": clock.cpu(),
        "steps_per_sec": steps_done / clock.wall() if steps_done else 0.0,
        "steps_per_cpu_sec": steps_done / clock.cpu() if steps_done else 0.0,
        "device": str(device),
        "time_in": dict(timers.seconds),  # seconds in the engine's steps, the rollout's network, the updates
    }
    if marks:
        out["checkpoints"] = checkpoints
        out["eval"] = results[-1]
    else:
        # ---- evaluation: the greedy policy on the held-out split, by the package's protocol ----
        out["eval"] = valley_farm.evaluate(greedy, args.env_id, split=args.eval_split, episodes=args.eval_episodes)
    if args.export_onnx:
        export_onnx(agent, encode.size, args.env_id, args.export_onnx)
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
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], epilog="Needs PyTorch (Debian: apt install python3-torch) and valley_farm (docs/python.md)."
    )
    for f in dataclasses.fields(Args):
        flag = "--" + f.name.replace("_", "-")
        meaning, choices = f.metadata["help"], f.metadata.get("choices")
        shown = ("true" if f.default else "false") if isinstance(f.default, bool) else repr(f.default) if f.default == "" else f.default
        options = {"default": f.default, "help": f"{meaning} (default: {shown})", "choices": choices}
        if isinstance(f.default, bool):
            parser.add_argument(flag, type=parse_bool, metavar="true|false", **options)
        else:
            parser.add_argument(flag, type=type(f.default), metavar=f.name.upper() if choices is None else None, **options)
    return Args(**vars(parser.parse_args(argv)))


def parse_bool(text: str) -> bool:
    if text.lower() in ("1", "true", "yes"):
        return True
    if text.lower() in ("0", "false", "no"):
        return False
    raise argparse.ArgumentTypeError(f"{text!r} is not true or false")


if __name__ == "__main__":
    args = parse_args()
    out = train(args)
    r = out["eval"]
    spent = out["time_in"]
    total = sum(spent.values()) or 1.0
    print(f"{out['steps']:,} steps in {out['seconds']:.0f} s wall, {out['cpu_seconds']:.0f} s CPU "
          f"({out['steps_per_sec']:,.0f} env steps/s wall, {out['steps_per_cpu_sec']:,.0f} per CPU s; training and updates) "
          f"on {out['device']}. CPU time is this process's (time.process_time): on a shared machine wall time also counts the others.")
    print("time in the engine's steps {env:.1f} s ({pe:.0f} %), the rollout's network {inference:.1f} s ({pi:.0f} %), "
          "the updates {update:.1f} s ({pu:.0f} %)".format(**spent, pe=100 * spent["env"] / total, pi=100 * spent["inference"] / total,
                                                          pu=100 * spent["update"] / total))
    print(f"{args.eval_split} ({len(r['seeds'])} seeds): mean return {r['mean']:.2f} +- {r['stderr']:.2f}", end="")
    if "normalized" in r:
        ref = r["reference"]
        print(f", normalised {r['normalized']['mean']:.3f} (random {ref['random']:.2f}, heuristic {ref['heuristic']:.2f}, "
              f"best known {ref['best_known']:.2f})")
    else:
        print()
    if args.json_out:
        write_record(args, out)
    if args.export_onnx:
        print(f"wrote {args.export_onnx} (an ONNX model: load it on the game page, or with valley_farm.load_onnx)")
