"""The search encoder's six layers as an ONNX Runtime session, for encoding one judge's question.

The numpy encoder (search.embedder) makes about 60 calls into numpy per layer, and a
question's encoding was half of a hybrid search: 11 to 15 ms on a 2-core machine. ONNX Runtime runs
the same graph, built here from the same weights, in 5-6 ms and gives the same vector (the largest
difference is about 1e-7, float32 rounding). With its dense layers in int8 (the default) it takes
about 2 ms, and gives a vector whose cosine with numpy's is about 0.99 (0.98 at worst on 300 bench
questions); the 1,390 questions of the tuning sets ranked as well (recall@5 / MRR@10 0.974 / 0.889
float, 0.974 / 0.890 int8). Only a judge's question is encoded so: the rules and the asked-as
questions keep the vectors numpy computes in batches, which are stored and shipped.

The int8 layers are what ONNX Runtime's dynamic quantization (onnxruntime.quantization.
quantize_dynamic) makes of a dense layer: int8 weights with a scale per output column in 7 bits
(its reduce_range, so that CPUs without VNNI cannot saturate 16-bit sums), each question's
activations quantized to uint8 as it runs (DynamicQuantizeLinear), an integer product
(MatMulInteger), and the two scales multiplied back. They are written here rather than by
quantize_dynamic, which quantizes one column at a time in Python: 2.4 s of a web process's time,
holding the interpreter lock, against 0.1 s in numpy here.

Nothing is shipped for it: the graph is built in memory from the numpy encoder's weights when a
process first encodes a question, on a thread of its own, and until it is ready questions are
encoded by numpy. JUDGEAPP_SEARCH_ONNX chooses: "int8" (the default, also "1"), "float" (numpy's
vectors exactly), or "0" (numpy encodes everything, as it does without the onnx and onnxruntime
packages).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any

_OPSET = 20   # Gelu with the tanh approximation, LayerNormalization
_INT8_LEVELS = 63   # weights in [-63, 63]: 7 bits, as quantize_dynamic's reduce_range
_OFF = ("0", "false", "no", "off")


def mode() -> str | None:
    """How a question is encoded, from JUDGEAPP_SEARCH_ONNX: "int8", "float", or None (numpy)."""
    chosen = os.environ.get("JUDGEAPP_SEARCH_ONNX", "int8").strip().lower()
    if chosen in _OFF:
        return None
    return "float" if chosen == "float" else "int8"


def enabled() -> bool:
    return mode() is not None


def build_session(weights: Mapping[str, Any], *, dimensions: int, layers: int, heads: int,
                  eps: float, quantize: bool = False) -> Callable[[list[int]], Any] | None:
    """A function token ids -> the mean-pooled (not normalised) embedding, running the encoder of
    `weights` (as search.embedder.Encoder holds them: dense weights transposed, Q, K and V
    as one product with Q's 1/sqrt(d) folded in; its shape and LayerNorm epsilon are the encoder's
    too); None without the packages. With `quantize`, its dense layers run in int8."""
    try:
        import numpy as np
        import onnxruntime
        from onnx import TensorProto, helper, numpy_helper
    except ImportError:
        return None
    initializers: list[Any] = []
    nodes: list[Any] = []

    def constant(name: str, value: Any) -> str:
        initializers.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def op(kind: str, inputs: list[str], **attributes: Any) -> str:
        out = f"{kind}_{len(nodes)}"
        nodes.append(helper.make_node(kind, inputs, [out], **attributes))
        return out

    def norm(x: str, prefix: str) -> str:
        return op("LayerNormalization", [x, constant(prefix + ".weight", weights[prefix + ".weight"]),
                                         constant(prefix + ".bias", weights[prefix + ".bias"])], epsilon=eps, axis=-1)

    def dense(x: str, prefix: str) -> str:
        weight, bias = weights[prefix + ".weight"], constant(prefix + ".bias", weights[prefix + ".bias"])
        if not quantize:
            return op("Add", [op("MatMul", [x, constant(prefix + ".weight", weight)]), bias])
        scale = np.abs(weight).max(axis=0) / _INT8_LEVELS   # one per output column
        scale[scale == 0] = 1.0
        levels = np.clip(np.rint(weight / scale), -_INT8_LEVELS, _INT8_LEVELS).astype(np.int8)
        q = f"{prefix}.quantized"
        nodes.append(helper.make_node("DynamicQuantizeLinear", [x], [q, q + ".scale", q + ".zero"]))
        product = op("MatMulInteger", [q, constant(prefix + ".weight.int8", levels), q + ".zero"])
        scales = op("Mul", [q + ".scale", constant(prefix + ".weight.scale", scale.astype(np.float32))])
        return op("Add", [op("Mul", [op("Cast", [product], to=TensorProto.FLOAT), scales]), bias])

    size = dimensions // heads
    constant("heads", np.array([0, -1, 3, heads, size], dtype=np.int64))
    constant("merged", np.array([0, -1, dimensions], dtype=np.int64))
    for k in range(3):
        constant(f"part{k}", np.array(k, dtype=np.int64))
    h = op("Add", [op("Add", [op("Gather", [constant("word", weights["embeddings.word_embeddings.weight"]), "ids"]),
                              op("Gather", [constant("position", weights["embeddings.position_embeddings.weight"]), "positions"])]),
                   constant("token_type", weights["embeddings.token_type_embeddings.weight"][0])])
    h = norm(h, "embeddings.LayerNorm")
    for n in range(layers):
        p = f"encoder.layer.{n}."
        qkv = op("Transpose", [op("Reshape", [dense(h, p + "attention.self.qkv"), "heads"])], perm=[2, 0, 3, 1, 4])
        q, k, v = (op("Gather", [qkv, f"part{i}"], axis=0) for i in range(3))
        attention = op("Softmax", [op("MatMul", [q, op("Transpose", [k], perm=[0, 1, 3, 2])])], axis=-1)
        context = op("Reshape", [op("Transpose", [op("MatMul", [attention, v])], perm=[0, 2, 1, 3]), "merged"])
        h = norm(op("Add", [h, dense(context, p + "attention.output.dense")]), p + "attention.output.LayerNorm")
        middle = op("Gelu", [dense(h, p + "intermediate.dense")], approximate="tanh")
        h = norm(op("Add", [h, dense(middle, p + "output.dense")]), p + "output.LayerNorm")
    nodes.append(helper.make_node("ReduceMean", [h, constant("tokens", np.array([1], dtype=np.int64))], ["pooled"], keepdims=0))
    graph = helper.make_graph(
        nodes, "search-encoder",
        [helper.make_tensor_value_info("ids", TensorProto.INT64, [1, None]),
         helper.make_tensor_value_info("positions", TensorProto.INT64, [None])],
        [helper.make_tensor_value_info("pooled", TensorProto.FLOAT, [1, dimensions])], initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", _OPSET)])
    model.ir_version = 10
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1   # one core per web process, as the numpy encoder (embedder.py)
    options.inter_op_num_threads = 1
    session = onnxruntime.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])

    def run(ids: list[int]) -> Any:
        tokens = np.asarray([ids], dtype=np.int64)
        return session.run(None, {"ids": tokens, "positions": np.arange(len(ids), dtype=np.int64)})[0][0]

    return run
