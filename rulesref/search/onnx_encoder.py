"""The search encoder's six layers as an ONNX Runtime session, for encoding one judge's question.

The numpy encoder (rulesref.search.embedder) makes about 60 calls into numpy per layer, and a
question's encoding was half of a hybrid search: 11 to 15 ms on a 2-core machine. ONNX Runtime runs
the same graph, built here from the same weights, in 7 ms, and gives the same vector (the largest
difference is about 1e-7, float32 rounding). Nothing is shipped for it: the graph is built in
memory from the numpy encoder's weights when a process first encodes a question, on a thread of its
own, and until it is ready questions are encoded by numpy. Without the onnx and onnxruntime packages,
or with JUDGEAPP_SEARCH_ONNX=0, numpy encodes everything.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any

_OPSET = 20   # Gelu with the tanh approximation, LayerNormalization


def enabled() -> bool:
    return os.environ.get("JUDGEAPP_SEARCH_ONNX", "1").strip().lower() not in ("0", "false", "no", "off")


def build_session(weights: Mapping[str, Any], *, dimensions: int, layers: int, heads: int,
                  eps: float) -> Callable[[list[int]], Any] | None:
    """A function token ids -> the mean-pooled (not normalised) embedding, running the encoder of
    `weights` (as rulesref.search.embedder.Encoder holds them: dense weights transposed, Q, K and V
    as one product with Q's 1/sqrt(d) folded in; its shape and LayerNorm epsilon are the encoder's
    too); None without the packages."""
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
        return op("Add", [op("MatMul", [x, constant(prefix + ".weight", weights[prefix + ".weight"])]),
                          constant(prefix + ".bias", weights[prefix + ".bias"])])

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
