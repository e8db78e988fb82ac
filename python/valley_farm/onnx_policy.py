"""Policies as ONNX models: a network policy exported by the JS package
(``npx valley-farm export policy.json --onnx policy.onnx``, the Lab's "Download as ONNX") or by
torch (``python/examples/ppo.py --export-onnx``), played here.

    policy = valley_farm.load_onnx("policy.onnx")
    out = policy(features)                  # {"logits": (N, A), "value": (N, 1)} or {"q_values": ...}
    action = policy.act(observation, info)  # the most probable legal action (or the best valued)

The model's input is ``features`` float32 (N, F): the engine's features of each observation
(``valley_farm.features``, the same the JS learners read), with ``memory`` its memory's after
them, over ``history`` steps, oldest first (F = width x history). Its metadata says which farm
and settings (``valley-farm:env``, ``:history``, ``:memory``, ``:algo``, ``:act``). docs/python.md
("Policies as ONNX") says all of it.

A model is a stranger's data: it is checked before it runs, by the rules the JS package's
wasm/learn/onnx.js holds (the same op list, opsets, sizes, finite float32 weights); a bad one
raises ValueError saying what was wrong and what is allowed. Reading it needs the ``onnx``
package (Debian: python3-onnx). It runs on onnxruntime when that is importable, else with NumPy
over the checked graph (Debian packages no onnxruntime; the two agree to float32 rounding).
"""
from __future__ import annotations

import os
from typing import Any, Dict, Optional

import numpy as np

from ._specs import ENV_IDS, _data, spec_for
from .features import features as _features

# The rules an ONNX policy is held to, as the JS package holds it (wasm/learn/onnx.js): one file,
# wasm/data/onnx-rules.json, copied into the package at build time like the reference data.
RULES = _data("onnx-rules.json")
ALLOWED_OPS = tuple(RULES["ops"])
ONNX_OPSETS = (RULES["opsets"]["min"], RULES["opsets"]["max"])
ONNX_IR_VERSIONS = (RULES["irVersions"]["min"], RULES["irVersions"]["max"])
MAX_WEIGHTS = RULES["maxWeights"]
MAX_NODES = RULES["maxNodes"]
MAX_ONNX_BYTES = 4 * MAX_WEIGHTS + RULES["bytesBesideWeights"]
INPUT = RULES["names"]["input"]
OUTPUTS = {"logits": (RULES["names"]["logits"], RULES["names"]["value"]), "q": (RULES["names"]["q"],)}
METADATA = dict(RULES["metadata"])
# the most history and memory a learner's policy may have (the learners' limits)
HISTORY_MAX = RULES["historyMax"]
MEMORY_MAX = RULES["memoryMax"]
# the most hidden layers, and units a layer (the heads' own layers side by side), of a network
HIDDEN_MOST, HIDDEN_UNITS = RULES["hidden"]["most"], RULES["hidden"]["units"]


def _fail(what: str) -> ValueError:
    return ValueError(f"valley_farm: ONNX: {what}")


def _onnx():
    try:
        import onnx
        from onnx import numpy_helper
    except ImportError as err:  # pragma: no cover - depends on the machine
        raise ImportError(
            "valley_farm.load_onnx reads models with the onnx package (Debian: apt install python3-onnx; elsewhere: pip install onnx)"
        ) from err
    return onnx, numpy_helper


def _check(model, onnx, numpy_helper) -> Dict[str, Any]:
    """The model's settings and weights, every rule checked (see the module's docstring)."""
    if not ONNX_IR_VERSIONS[0] <= model.ir_version <= ONNX_IR_VERSIONS[1]:
        raise _fail(f"IR version {model.ir_version}; this package reads IR versions {ONNX_IR_VERSIONS[0]} to {ONNX_IR_VERSIONS[1]}")
    if not model.opset_import:
        raise _fail("the model imports no opset")
    for o in model.opset_import:
        if o.domain not in ("", "ai.onnx"):
            raise _fail(f"the model imports the op set {o.domain!r:.40}; only the default ONNX domain is allowed")
        if not ONNX_OPSETS[0] <= o.version <= ONNX_OPSETS[1]:
            raise _fail(f"opset {o.version}; this package reads opsets {ONNX_OPSETS[0]} to {ONNX_OPSETS[1]}")
    g = model.graph
    if len(g.node) > MAX_NODES:
        raise _fail(f"the graph has {len(g.node)} nodes; a policy's has at most {MAX_NODES}")
    weights: Dict[str, np.ndarray] = {}
    total = 0
    for t in g.initializer:
        if t.data_type != onnx.TensorProto.FLOAT:
            raise _fail(f"weight {t.name!r:.40} is of data type {t.data_type}; weights must be float32 (type 1)")
        if t.data_location == onnx.TensorProto.EXTERNAL or len(t.external_data):
            raise _fail(f"weight {t.name!r:.40} is stored outside the file (external data); a policy's weights must be inside it")
        if not 1 <= len(t.dims) <= 2:
            raise _fail(f"weight {t.name!r:.40} has shape {list(t.dims)}; a weight is a vector or a matrix")
        w = numpy_helper.to_array(t).astype(np.float32, copy=False)
        total += w.size
        if total > MAX_WEIGHTS:
            raise _fail(f"the weights hold more than the {MAX_WEIGHTS} values a network may have")
        bad = np.flatnonzero(~np.isfinite(w))
        if bad.size:
            raise _fail(f"weight {t.name!r:.40} has {w.flat[bad[0]]} at {bad[0]}; every weight must be a finite number")
        weights[t.name] = w
    inputs = [i for i in g.input if i.name not in weights]
    if len(inputs) != 1 or inputs[0].name != INPUT:
        raise _fail(f"the graph's inputs are {', '.join(repr(i.name) for i in inputs) or 'none'}; it must have one, {INPUT!r} (float32 [N, F])")
    names = tuple(o.name for o in g.output)
    heads = "q" if "q_values" in names else "logits"
    if names != OUTPUTS[heads]:
        raise _fail(f"the graph's outputs are {', '.join(map(repr, names)) or 'none'}; they must be 'logits' and 'value' "
                    "(a policy of logits) or 'q_values' alone (of action values)")
    props = {p.key: p.value for p in model.metadata_props}
    env_id = props.get(METADATA["env"])
    if env_id is None:
        raise _fail(f"the model names no env: its metadata_props must have {METADATA['env']!r} (one of {', '.join(ENV_IDS)})")
    if env_id not in ENV_IDS:
        raise _fail(f"the model's {METADATA['env']!r} is {env_id!r:.40}; it must be one of {', '.join(ENV_IDS)}")

    def whole(key: str, default: int, most: int) -> int:
        text = props.get(METADATA[key])
        if text is None:
            return default
        if not text.isdigit() or not (key == "memory" or int(text) >= 1) or int(text) > most:
            raise _fail(f"the model's {METADATA[key]!r} must be a whole number from {0 if key == 'memory' else 1} to {most}, got {text!r:.40}")
        return int(text)

    history, memory = whole("history", 1, HISTORY_MAX), whole("memory", 0, MEMORY_MAX)
    act = props.get(METADATA["act"], "greedy")
    if act not in ("sample", "greedy"):
        raise _fail(f"the model's {METADATA['act']!r} must be sample or greedy, got {act!r:.40}")
    width = _features(env_id, memory=bool(memory)).width * history
    dims = inputs[0].type.tensor_type.shape.dim
    given = dims[1].dim_value if len(dims) == 2 and dims[1].HasField("dim_value") else None
    if len(dims) != 2 or (given is not None and given != width) or inputs[0].type.tensor_type.elem_type != onnx.TensorProto.FLOAT:
        raise _fail(f"the input {INPUT!r} must be float32 [N, {width}] (the features of {env_id} with memory {memory}, over history {history}), "
                    f"got {f'[N, {given}]' if len(dims) == 2 else f'{len(dims)} dimensions'}")
    for node in g.node:
        if node.op_type not in ALLOWED_OPS:
            raise _fail(f"{node.op_type!r:.40} node {node.name!r:.40} is not allowed; the allowed ops are {', '.join(ALLOWED_OPS)}")
        if node.domain not in ("", "ai.onnx"):
            raise _fail(f"{node.op_type} node {node.name!r:.40} is of domain {node.domain!r:.40}; only the default ONNX domain is allowed")
        attrs = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
        if node.op_type == "Gemm":
            unknown = set(attrs) - {"alpha", "beta", "transA", "transB"}
            if unknown or attrs.get("alpha", 1.0) != 1.0 or attrs.get("beta", 1.0) != 1.0 or attrs.get("transA", 0) != 0 or attrs.get("transB", 0) not in (0, 1):
                raise _fail(f"Gemm node {node.name!r:.40} has attributes {attrs}; allowed: alpha 1, beta 1, transA 0, transB 0 or 1")
        elif attrs:
            raise _fail(f"node {node.name!r:.40} ({node.op_type}) has attributes ({', '.join(attrs)}); it takes none")
    A = len(spec_for(env_id).actions)
    algo = props.get(METADATA["algo"], "dqn" if heads == "q" else "ppo")
    _check_layers(g, weights, width, A, heads, algo)
    return {"env_id": env_id, "algo": algo, "history": history,
            "memory": memory, "act": act, "width": width, "actions": A, "heads": heads, "weights": weights}


def _check_layers(g, weights: Dict[str, np.ndarray], width: int, actions: int, heads: str, algo: str) -> None:
    """The graph is a network of dense layers, as the JS package reads it (wasm/learn/onnx.js,
    readGraph and assemble): each layer Gemm(x, kernel, bias) or Add(MatMul(x, kernel), bias) of
    the input or of an activation, then Tanh (a policy of logits) or Relu (of action values); the
    heads are layers without one, after the same number of hidden layers; the hidden layers at
    each depth, side by side, within the learners' limits. So no graph runs here that the JS
    package refuses, and none multiplies weights by weights (a few kB of them make gigabytes)."""
    values: Dict[str, Dict[str, Any]] = {INPUT: {"input": True}}

    def get(name: str, node) -> Dict[str, Any]:
        if name in values:
            return values[name]
        if name in weights:
            return {"weight": weights[name]}
        raise _fail(f"node {node.name!r:.40} reads {name!r:.40}, which no earlier node, input or weight makes (nodes must be in order)")

    def kernel(w: np.ndarray, transposed: bool, where: str) -> np.ndarray:
        if w.ndim != 2:
            raise _fail(f"{where}'s kernel must be a matrix, got shape {list(w.shape)}")
        return w.T if transposed else w

    for node in g.node:
        where = f"{node.op_type} node {(node.name or (node.output[0] if node.output else ''))!r:.40}"
        if len(node.output) != 1:
            raise _fail(f"{where} has {len(node.output)} outputs; each allowed op has one")
        ins = [get(n, node) for n in node.input]
        trans_b = next((a.i for a in node.attribute if a.name == "transB"), 0)
        features = [v.get("input") or "act" in v for v in ins]
        if node.op_type == "Identity" and len(ins) == 1:
            made = ins[0]
        elif node.op_type in ("Tanh", "Relu") and len(ins) == 1 and ins[0].get("linear"):
            made = {"act": node.op_type, "of": ins[0]}
        elif node.op_type == "Gemm" and len(ins) in (2, 3) and features[0] and "weight" in ins[1] and (len(ins) == 2 or "weight" in ins[2]):
            made = {"linear": True, "from": ins[0], "W": kernel(ins[1]["weight"], trans_b == 1, where),
                    "b": ins[2]["weight"] if len(ins) == 3 else None, "where": where}
        elif node.op_type == "MatMul" and len(ins) == 2 and features[0] and "weight" in ins[1]:
            made = {"linear": True, "from": ins[0], "W": kernel(ins[1]["weight"], False, where), "b": None, "where": where}
        elif (node.op_type == "Add" and len(ins) == 2 and any(v.get("linear") and v["b"] is None for v in ins)
              and any("weight" in v for v in ins)):
            made = {**next(v for v in ins if v.get("linear")), "b": next(v for v in ins if "weight" in v)["weight"]}
        else:
            raise _fail(f"{where} does not make a dense layer: a layer is Gemm(x, kernel, bias) or Add(MatMul(x, kernel), bias) "
                        "of the input or an activation, then Tanh or Relu; heads are layers without one")
        values[node.output[0]] = made

    activation = "Relu" if heads == "q" else "Tanh"
    chains = []
    for name in OUTPUTS[heads]:
        head = values.get(name, {})
        if not head.get("linear"):
            raise _fail(f"the output {name!r} must be a dense layer's sum (Gemm, or MatMul and Add), the head on the last hidden layer")
        layers = []
        v = head["from"]
        while not v.get("input"):
            if v["act"] != activation:
                raise _fail(f"the hidden layers of a {algo} policy are {activation}; {v['of']['where']} is followed by {v['act']}")
            layers.insert(0, v)
            v = v["of"]["from"]
        chains.append((name, head, layers))
    depth = len(chains[0][2])
    if depth < 1 or any(len(c[2]) != depth for c in chains):
        raise _fail("every output must come after the same number of hidden layers (at least 1), got "
                    + ", ".join(f"{c[0]} {len(c[2])}" for c in chains))
    hidden = []
    for d in range(depth):
        distinct = list({id(c[2][d]): c[2][d] for c in chains}.values())
        hidden.append(sum(layer["of"]["W"].shape[1] for layer in distinct))
    if len(hidden) > HIDDEN_MOST or any(u > HIDDEN_UNITS for u in hidden):
        raise _fail(f"its hidden layers make a network of layers {', '.join(map(str, hidden))} (side by side where its heads have "
                    f"their own); a {algo} network has 1 to {HIDDEN_MOST} layers of at most {HIDDEN_UNITS} units")

    def reads(layer: Dict[str, Any], wanted: int) -> None:
        W, b = layer["W"], layer["b"]
        if W.shape[0] != wanted:
            raise _fail(f"{layer['where']}'s kernel reads {W.shape[0]} values; the layer before it gives {wanted}")
        out = W.shape[1]
        if b is not None and b.shape not in ((out,), (1, out)):
            raise _fail(f"{layer['where']}'s bias has shape {list(b.shape)}; a layer of {out} units takes a bias of [{out}]")

    for name, head, layers in chains:
        for d, layer in enumerate(layers):
            reads(layer["of"], width if d == 0 else layers[d - 1]["of"]["W"].shape[1])
        reads(head, layers[-1]["of"]["W"].shape[1])
        units = 1 if name == RULES["names"]["value"] else actions
        if head["W"].shape[1] != units:
            raise _fail(f"the output {name!r} must have {units} values a row ({actions} actions), got {head['W'].shape[1]}")


def _run_numpy(graph, weights: Dict[str, np.ndarray], x: np.ndarray) -> Dict[str, np.ndarray]:
    """The checked graph evaluated node by node in float32 (its ops are only ALLOWED_OPS)."""
    values: Dict[str, np.ndarray] = {INPUT: x, **weights}
    for node in graph.node:
        missing = [n for n in node.input if n not in values]
        if missing:
            raise _fail(f"node {node.name!r:.40} reads {missing[0]!r:.40}, which no earlier node, input or weight makes")
        ins = [values[n] for n in node.input]
        op = node.op_type
        if op == "Gemm":
            trans_b = next((a.i for a in node.attribute if a.name == "transB"), 0)
            out = ins[0] @ (ins[1].T if trans_b else ins[1])
            if len(ins) > 2:
                out = out + ins[2]
        elif op == "MatMul":
            out = ins[0] @ ins[1]
        elif op == "Add":
            out = ins[0] + ins[1]
        elif op == "Tanh":
            out = np.tanh(ins[0])
        elif op == "Relu":
            out = np.maximum(ins[0], np.float32(0))
        else:  # Identity
            out = ins[0]
        values[node.output[0]] = out.astype(np.float32, copy=False)
    return {o.name: values[o.name] for o in graph.output}


class OnnxPolicy:
    """A checked ONNX policy (see the module's docstring): call it on features, or act()."""

    def __init__(self, model, settings: Dict[str, Any]):
        self.env_id: str = settings["env_id"]
        self.algo: str = settings["algo"]
        self.history: int = settings["history"]
        self.memory: int = settings["memory"]
        self.input_width: int = settings["width"]
        self.actions: int = settings["actions"]
        self.outputs = OUTPUTS[settings["heads"]]
        self._graph, self._weights = model.graph, settings["weights"]
        # one row through the graph now: shapes that do not fit, or outputs of the wrong size,
        # are refused at load rather than at the first step
        try:
            probe = _run_numpy(self._graph, self._weights, np.zeros((1, self.input_width), dtype=np.float32))
        except ValueError as err:
            raise _fail(f"the graph's shapes do not fit together: {str(err)[:120]}") from None
        for name in self.outputs:
            want = (1, 1) if name == "value" else (1, self.actions)
            if probe[name].shape != want:
                raise _fail(f"the output {name!r} must have {want[1]} values a row ({self.env_id} has {self.actions} actions), "
                            f"got shape {probe[name].shape[1:]}")
        self._session = None
        try:
            import onnxruntime  # not packaged by Debian: NumPy below then
        except ImportError:
            self.runtime = "numpy"
        else:  # pragma: no cover - depends on the machine
            self._session = onnxruntime.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
            self.runtime = "onnxruntime"
        self._reader = _features(self.env_id, memory=bool(self.memory))
        self._frames = np.zeros(self.input_width, dtype=np.float32)
        self._last = -1
        self._opening = True

    def __call__(self, features: Any) -> Dict[str, np.ndarray]:
        """The model's outputs for features of shape (N, F) or (F,), by name."""
        x = np.asarray(features, dtype=np.float32)
        one = x.ndim == 1
        x = x[None, :] if one else x
        if x.ndim != 2 or x.shape[1] != self.input_width:
            raise ValueError(f"valley_farm: ONNX: features must be of shape (N, {self.input_width}) or ({self.input_width},), got {x.shape}")
        if self._session is not None:  # pragma: no cover - depends on the machine
            out = dict(zip(self.outputs, self._session.run(list(self.outputs), {INPUT: x})))
        else:
            out = _run_numpy(self._graph, self._weights, x)
        return {k: v[0] for k, v in out.items()} if one else out

    def reset(self) -> None:
        """A new episode begins: forget the frames and the memory (act() also starts one when info's step is 0)."""
        self._opening = True

    def act(self, observation: Any, info: Optional[Dict[str, Any]] = None) -> int:
        """The action for this step of an episode: the most probable legal one (or the best
        valued), legal by info["action_mask"] when given."""
        info = info or {}
        opening = self._opening or info.get("step") == 0
        index, value = self._reader.read(0, observation, self._last, opening)
        F = self._reader.width
        if opening:
            self._frames.fill(0)
        else:
            self._frames[:-F] = self._frames[F:].copy()
        self._frames[-F:] = 0
        self._frames[-F:][index] = value
        self._opening = False
        scores = self(self._frames)[self.outputs[0]].astype(np.float64)
        mask = info.get("action_mask")
        if mask is not None:
            scores = np.where(np.asarray(mask) != 0, scores, -np.inf)
        self._last = int(np.argmax(scores))
        return self._last


def load_onnx(path: "os.PathLike[str] | str | bytes") -> OnnxPolicy:
    """A policy from an ONNX file (or its bytes), checked first; raises ValueError naming the fault."""
    onnx, numpy_helper = _onnx()
    if isinstance(path, (bytes, bytearray)):
        data = bytes(path)
    else:
        size = os.path.getsize(path)
        if size > MAX_ONNX_BYTES:
            raise _fail(f"{os.fspath(path)!r:.100} has {size} bytes; a policy's model is at most {MAX_ONNX_BYTES}")
        with open(path, "rb") as f:
            data = f.read()
    if len(data) > MAX_ONNX_BYTES:
        raise _fail(f"the model has {len(data)} bytes; a policy's model is at most {MAX_ONNX_BYTES}")
    try:
        model = onnx.load_from_string(data)
    except Exception as err:  # protobuf's DecodeError, and whatever else bad bytes raise
        raise _fail(f"not an ONNX model (its protobuf could not be read: {str(err)[:80]})") from None
    return OnnxPolicy(model, _check(model, onnx, numpy_helper))


def write_onnx_metadata(path: "os.PathLike[str] | str", env_id: str, algo: str = "ppo", history: int = 1, memory: int = 0,
                        act: str = "greedy") -> None:
    """Adds the metadata load_onnx and the page read (which farm's features, the settings) to an
    ONNX file, as torch.onnx.export cannot (python/examples/ppo.py --export-onnx)."""
    onnx, _ = _onnx()
    spec_for(env_id)
    model = onnx.load(os.fspath(path))
    given = {"env": env_id, "algo": algo, "history": str(history), "memory": str(memory), "act": act}
    kept = [p for p in model.metadata_props if p.key not in METADATA.values()]
    del model.metadata_props[:]
    model.metadata_props.extend(kept)
    for k, v in given.items():
        model.metadata_props.add(key=METADATA[k], value=v)
    onnx.save(model, os.fspath(path))
