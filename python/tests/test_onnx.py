"""Policies cross languages as ONNX models: a policy the JS package exports gives, through
valley_farm.load_onnx, the logits the JS learner core gives (within 1e-5) and plays the same
actions; a policy python/examples/ppo.py exports with torch passes the JS package's checks and
gives torch's logits there; a bad model is refused with a message naming its fault."""
import importlib.util
import re
import json
import sys

import numpy as np
import pytest

import valley_farm

from conftest import REPO, node_json

onnx = pytest.importorskip("onnx", reason="reading ONNX models needs the onnx package (Debian: python3-onnx; npm test installs it)")

# the tests that run torch: PyTorch is not built with AddressSanitizer and dies under the suite's
# sanitizer pass (scripts/python.mjs), which leaves tests marked slow to the plain pass
TORCH = pytest.mark.slow

FIXTURE = REPO / "tests" / "js" / "fixtures" / "ppo-policies-624fbe8.json"
V, B = "ValleyFarm-v0", "BackwardsValleyFarm-v0"


def recorded_features(env_id: str, memory: bool, count: int, seed: int = 1) -> np.ndarray:
    """`count` feature vectors of random legal play from the engine (valley_farm.features), (count, width)."""
    rng = np.random.default_rng(seed)
    reader = valley_farm.features(env_id, memory=memory)
    env = valley_farm.make(env_id)
    rows = []
    episode = seed
    while len(rows) < count:
        obs, info = env.reset(seed=episode)
        episode += 1
        action, opening, done = -1, True, False
        while not done and len(rows) < count:
            rows.append(reader.dense(*reader.read(0, obs, action, opening)))
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, _, terminated, truncated, info = env.step(action)
            opening, done = False, terminated or truncated
    return np.stack(rows).astype(np.float32)


def js_outputs(model_js: str, features_path, width: int) -> dict:
    """What the JS learner core's network gives on each row of the float32 file: the network of
    the policy `model_js` (a JS expression, awaited) builds."""
    return node_json(f"""
import {{ readFileSync, writeFileSync }} from 'node:fs';
import {{ loadNetPolicy }} from './wasm/learn/index.js';
import {{ onnxToPolicy, policyToOnnx }} from './wasm/learn/onnx.js';
const json = await ({model_js});
const p = await loadNetPolicy(json, 'logits');
const bytes = readFileSync({json.dumps(str(features_path))});
const x = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
const F = {width};
const rows = [];
for (let i = 0; i < x.length / F; i++) {{
  p.input.putDense(0, x, i * F, F);
  rows.push(Array.from(p.net.forward(p.input, 1, 0)));
}}
console.log(JSON.stringify({{ rows, config: json.config }}));
""")


def close(a: np.ndarray, b: np.ndarray) -> float:
    """The largest difference, relative to the larger of 1 and |b|."""
    return float(np.max(np.abs(a - b) / np.maximum(1.0, np.abs(b))))


def test_load_onnx_gives_the_js_learner_cores_logits_and_value_of_a_js_exported_policy_within_1e_5(tmp_path):
    for env_id in (V, B):
        x = recorded_features(env_id, memory=True, count=1000)  # the pinned policies see memory
        x.tofile(tmp_path / "x.bin")
        model = tmp_path / f"{env_id}.onnx"
        fixture = f"JSON.parse(readFileSync({json.dumps(str(FIXTURE))}, 'utf8'))[{json.dumps(env_id)}].policy"
        # the JS package writes the model (valley-farm export) and computes the outputs
        out = js_outputs(f"(async () => {{ const j = {fixture}; writeFileSync({json.dumps(str(model))}, policyToOnnx(j)); return j; }})()",
                         tmp_path / "x.bin", x.shape[1])
        core = np.array(out["rows"], dtype=np.float32)
        policy = valley_farm.load_onnx(model)
        assert (policy.env_id, policy.memory, policy.history, policy.input_width) == (env_id, 1, 1, x.shape[1])
        got = policy(x)
        A = len(valley_farm.SPECS[env_id].actions)
        assert got["logits"].shape == (1000, A) and got["value"].shape == (1000, 1)
        assert close(got["logits"], core[:, :A]) <= 1e-5
        assert close(got["value"], core[:, A:]) <= 1e-5
        assert len({row.tobytes() for row in x}) > 50  # many states, not one


def test_load_onnx_plays_the_actions_the_js_package_plays_with_the_same_policy_greedy(tmp_path):
    model = tmp_path / "p.onnx"
    seeds = [1, 2, 3]
    js = node_json(f"""
import {{ readFileSync, writeFileSync }} from 'node:fs';
import {{ make }} from './wasm/index.js';
import {{ loadPolicy }} from './wasm/learn/index.js';
import {{ policyToOnnx }} from './wasm/learn/onnx.js';
const json = JSON.parse(readFileSync({json.dumps(str(FIXTURE))}, 'utf8'))[{json.dumps(V)}].policy;
writeFileSync({json.dumps(str(model))}, policyToOnnx(json));
const p = await loadPolicy({{ ...json, act: 'greedy' }});
const env = await make({json.dumps(V)});
const played = [];
for (const seed of {json.dumps(seeds)}) {{
  let {{ observation, info }} = env.reset({{ seed }});
  const actions = [];
  for (let over = false; !over; ) {{
    const a = p.act(observation, {{ ...info, legal: env.legalActions() }});
    actions.push(a);
    const r = env.step(a);
    ({{ observation, info }} = r);
    over = r.terminated || r.truncated;
  }}
  played.push(actions);
}}
console.log(JSON.stringify(played));
""")
    policy = valley_farm.load_onnx(model)
    env = valley_farm.make(V)
    for seed, want in zip(seeds, js):
        obs, info = env.reset(seed=seed)
        policy.reset()
        actions, done = [], False
        while not done:
            a = policy.act(obs, info)
            actions.append(a)
            obs, _, terminated, truncated, info = env.step(a)
            done = terminated or truncated
        assert actions == want, f"seed {seed}"


def load_example():
    spec = importlib.util.spec_from_file_location("ppo_example_onnx", REPO / "python" / "examples" / "ppo.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def torch_export(tmp_path, env_id=B, hidden=16):
    """ppo.py's network, its weights drawn at random, exported by ppo.py's --export-onnx code; with its torch outputs on features x."""
    torch = pytest.importorskip("torch", reason="the torch export needs PyTorch (Debian: python3-torch)")
    ppo = load_example()
    torch.manual_seed(3)
    width = valley_farm.features(env_id).width
    A = len(valley_farm.SPECS[env_id].actions)
    agent = ppo.Agent(width, A, hidden)
    with torch.no_grad():  # weights of a trained policy's size, not the near-zero initial logits
        for p in agent.parameters():
            p.normal_(0, 0.3)
    path = tmp_path / "torch.onnx"
    ppo.export_onnx(agent, width, env_id, str(path))
    x = recorded_features(env_id, memory=False, count=1000)
    with torch.no_grad():
        logits = agent.actor(torch.from_numpy(x)).numpy()
        value = agent.critic(torch.from_numpy(x)).numpy()
    return path, x, logits, value, A


@TORCH
def test_a_torch_exported_policy_passes_the_js_checks_and_gives_torchs_logits_and_value_in_js_within_1e_5(tmp_path):
    path, x, logits, value, A = torch_export(tmp_path)
    onnx.checker.check_model(onnx.load(str(path)))
    x.tofile(tmp_path / "x.bin")
    out = js_outputs(f"onnxToPolicy(readFileSync({json.dumps(str(path))}))", tmp_path / "x.bin", x.shape[1])
    core = np.array(out["rows"], dtype=np.float32)
    # the actor and the critic, 16 units a layer each, side by side in one network of 32
    assert out["config"] == {"hidden": [32, 32], "history": 1, "memory": 0}
    assert np.max(np.abs(logits)) > 0.5  # the bound below means something
    assert close(core[:, :A], logits) <= 1e-5
    assert close(core[:, A:], value) <= 1e-5
    # and in Python, from the same file
    got = valley_farm.load_onnx(path)(x)
    assert close(got["logits"], logits) <= 1e-5 and close(got["value"], value) <= 1e-5


@TORCH
def test_ppo_example_refuses_an_existing_export_file_and_another_suffix_before_training(tmp_path):
    ppo = load_example()
    taken = tmp_path / "taken.onnx"
    taken.write_bytes(b"mine")
    with pytest.raises(SystemExit, match="exists; name another file"):
        ppo.train(ppo.Args(export_onnx=str(taken), total_timesteps=0, eval_episodes=1, log_every=0))
    assert taken.read_bytes() == b"mine"
    with pytest.raises(SystemExit, match="ending in .onnx"):
        ppo.check_export_path(str(tmp_path / "p.pt"))


def edited(path, change) -> bytes:
    model = onnx.load(str(path))
    change(model)
    return model.SerializeToString()


@TORCH
def test_a_bad_model_is_refused_with_a_message_naming_its_fault(tmp_path):
    path, *_ = torch_export(tmp_path)

    def sigmoid(m):
        next(n for n in m.graph.node if n.op_type == "Tanh").op_type = "Sigmoid"

    def nan(m):
        w = onnx.numpy_helper.to_array(m.graph.initializer[0]).copy()
        w.flat[5] = np.nan
        m.graph.initializer[0].CopyFrom(onnx.numpy_helper.from_array(w, m.graph.initializer[0].name))

    def no_env(m):
        kept = [p for p in m.metadata_props if p.key != "valley-farm:env"]
        del m.metadata_props[:]
        m.metadata_props.extend(kept)

    def memory(m):
        next(p for p in m.metadata_props if p.key == "valley-farm:memory").value = "1"

    def opset(m):
        m.opset_import[0].version = 7

    cases = [
        (b"\x0a\xff\xff\xff\xff\x0f\x01\x02", "not an ONNX model"),
        (edited(path, sigmoid), "'Sigmoid' node .* is not allowed; the allowed ops are Gemm, MatMul, Add, Tanh, Relu, Identity"),
        (edited(path, nan), "has nan at 5; every weight must be a finite number"),
        (edited(path, no_env), "names no env"),
        (edited(path, memory), r"must be float32 \[N, \d+\] \(the features of BackwardsValleyFarm-v0 with memory 1"),
        (edited(path, opset), "opset 7; this package reads opsets 9 to 21"),
    ]
    for data, message in cases:
        with pytest.raises(ValueError, match=message):
            valley_farm.load_onnx(data)
    with pytest.raises(ValueError, match=r"features must be of shape \(N, 258\)"):
        valley_farm.load_onnx(path)(np.zeros((2, 5)))


def dense_model(env_id: str, layers, *, weights_only_matmul: bool = False) -> bytes:
    """A policy of logits whose actor and critic share hidden layers `layers`: a list of
    (units, activation op) pairs; or, with weights_only_matmul, one whose first node multiplies
    two weights (no layer of the input)."""
    from onnx import TensorProto, helper, numpy_helper

    width = valley_farm.features(env_id).width
    A = len(valley_farm.SPECS[env_id].actions)
    rng = np.random.default_rng(0)
    inits, nodes = [], []

    def weight(name, shape):
        inits.append(numpy_helper.from_array(rng.normal(0, 0.1, shape).astype(np.float32), name))
        return name

    x, size = "features", width
    if weights_only_matmul:
        nodes.append(helper.make_node("MatMul", [weight("a", (1, 8)), weight("b", (8, 8))], ["ab"], name="weights_times_weights"))
    for i, (units, act) in enumerate(layers):
        nodes.append(helper.make_node("Gemm", [x, weight(f"k{i}", (size, units)), weight(f"b{i}", (units,))], [f"s{i}"], name=f"hidden{i}"))
        nodes.append(helper.make_node(act, [f"s{i}"], [f"h{i}"], name=f"act{i}"))
        x, size = f"h{i}", units
    nodes.append(helper.make_node("Gemm", [x, weight("kl", (size, A)), weight("bl", (A,))], ["logits"], name="logits"))
    nodes.append(helper.make_node("Gemm", [x, weight("kv", (size, 1)), weight("bv", (1,))], ["value"], name="value"))
    graph = helper.make_graph(
        nodes, "policy", [helper.make_tensor_value_info("features", TensorProto.FLOAT, ["N", width])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["N", A]), helper.make_tensor_value_info("value", TensorProto.FLOAT, ["N", 1])],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    model.metadata_props.add(key="valley-farm:env", value=env_id)
    return model.SerializeToString()


def js_refusal(path) -> str:
    """The JS package's message refusing the model at path, or '' where it reads it."""
    return node_json(f"""
import {{ readFileSync }} from 'node:fs';
import {{ onnxToPolicy }} from './wasm/learn/onnx.js';
try {{ onnxToPolicy(readFileSync({json.dumps(str(path))})); console.log(JSON.stringify('')); }}
catch (err) {{ console.log(JSON.stringify(err.message)); }}
""")


def test_a_model_that_is_no_network_of_dense_layers_within_the_limits_is_refused_in_python_as_in_js(tmp_path):
    cases = [
        (dense_model(B, [(600, "Tanh")]), "layers 600 .*a ppo network has 1 to 4 layers of at most 512 units"),
        (dense_model(B, [(8, "Tanh")] * 5), "layers 8, 8, 8, 8, 8 .*1 to 4 layers"),
        (dense_model(B, [(8, "Tanh"), (8, "Relu")]), "hidden layers of a ppo policy are Tanh"),
        (dense_model(B, [(8, "Tanh")], weights_only_matmul=True), "does not make a dense layer"),
    ]
    for i, (data, message) in enumerate(cases):
        path = tmp_path / f"bad{i}.onnx"
        path.write_bytes(data)
        assert re.search(message, js_refusal(path)), f"case {i}: the JS package's refusal"
        with pytest.raises(ValueError, match=message):
            valley_farm.load_onnx(path)
    # and the same builder's model within the limits is read by both
    good = tmp_path / "good.onnx"
    good.write_bytes(dense_model(B, [(16, "Tanh"), (16, "Tanh")]))
    assert js_refusal(good) == ""
    assert valley_farm.load_onnx(good)(np.zeros(valley_farm.features(B).width))["logits"].shape == (len(valley_farm.SPECS[B].actions),)
