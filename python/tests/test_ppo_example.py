"""The example learner (python/examples/ppo.py) learns: a short seeded run beats the random
agent, and its own untrained policy, by a wide margin on the validation split."""
import importlib.util
import sys

import pytest

from conftest import REPO

try:
    import torch  # noqa: F401
except ImportError:  # never a silent skip: npm test installs Debian's python3-torch
    pytest.fail("the PPO example's test needs PyTorch (Debian's python3-torch)", pytrace=False)


def load_example():
    spec = importlib.util.spec_from_file_location("ppo_example", REPO / "python" / "examples" / "ppo.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_a_short_seeded_ppo_run_beats_random_play_by_a_wide_margin():
    ppo = load_example()
    small = dict(env_id="BackwardsValleyFarm-v0", num_envs=32, num_steps=32, eval_split="validation", eval_episodes=100, log_every=0)
    untrained = ppo.train(ppo.Args(total_timesteps=0, **small))["eval"]
    trained = ppo.train(ppo.Args(total_timesteps=8192, **small))["eval"]
    random_mean = trained["reference"]["random"]
    assert trained["mean"] > random_mean + 5, (trained["mean"], random_mean)
    assert trained["mean"] > untrained["mean"] + 5, (trained["mean"], untrained["mean"])
    assert trained["normalized"]["mean"] > 0.15
