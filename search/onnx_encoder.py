"""The search encoder as one ONNX graph, written once beside the model and run by ONNX Runtime.

`export(model_dir)` (`make search-encoder`: python -m search.export_encoder) writes
model_dir/encoder.onnx, the six BERT layers of the model, mean-pooled, and model_dir/tokenizer.json
(the model's WordPiece vocabulary for the `tokenizers` package). The graph holds no weights of its
own: every tensor it reads is external data pointing into model.safetensors (the int8 rows and their
scales as trained), and what the encoder derives from them (rows times scales, transposed, Q, K and
V as one product with Q's 1/sqrt(d) folded in, and with kind "int8" each dense layer's weights in 7
bits per output column) is computed in the graph from constants, which ONNX Runtime folds once as it
loads the file. So the file is a few kilobytes, and a new model needs only `export` again.

Kind "int8" runs each dense layer as ONNX Runtime's dynamic quantization makes it: int8 weights
with a scale per output column in 7 bits (quantize_dynamic's reduce_range, so that CPUs without
VNNI cannot saturate 16-bit sums), the activations quantized to uint8 per text as it runs
(DynamicQuantizeLinear), an integer product (MatMulInteger) and the two scales multiplied back.
Kind "float" runs the float products (numpy's vectors to about 1e-7), and is the one shipped: with
int8 documents the blind sets ranked worse (README, "One encoder, loaded once"). The kind is named
in model.json ("encoder"), and int8 in every vector key (search.model.name_in), since
documents and questions are both encoded by it: search.embedder.Encoder runs this graph
for each, one text at a time (the activations' quantization is per text), and numpy computes the
same arithmetic only where onnxruntime is not installed or JUDGEAPP_SEARCH_ONNX is 0.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import struct
from pathlib import Path
from typing import Any

FILE_NAME = "encoder.onnx"
TOKENIZER_NAME = "tokenizer.json"
KINDS = ("int8", "float")
INT8_LEVELS = 63  # weights in [-63, 63]: 7 bits, as quantize_dynamic's reduce_range
_OPSET = 20  # Gelu with the tanh approximation, LayerNormalization
_OFF = ("0", "false", "no", "off")


def enabled() -> bool:
    """False when JUDGEAPP_SEARCH_ONNX turns ONNX Runtime off (0, false, no, off): numpy encodes."""
    return os.environ.get("JUDGEAPP_SEARCH_ONNX", "1").strip().lower() not in _OFF


def shipped_kind(model_dir: Path) -> str | None:
    """The kind of the graph exported for `model_dir` ("int8" or "float"), or None when there is
    none or it was exported for other weights (model.json names the model, and export records
    that name)."""
    try:
        info = json.loads((model_dir / "model.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    encoder = info.get("encoder") or {}
    if (
        encoder.get("model") != info.get("name")
        or not (model_dir / encoder.get("file", FILE_NAME)).is_file()
    ):
        return None
    return str(encoder["kind"]) if encoder.get("kind") in KINDS else None


def _header(path: Path) -> tuple[dict[str, Any], int]:
    with path.open("rb") as f:
        (size,) = struct.unpack("<Q", f.read(8))
        return json.loads(f.read(size)), 8 + size


def build_graph(
    model_dir: Path, *, kind: str, dimensions: int, layers: int, heads: int, eps: float
) -> Any:
    """The encoder of `model_dir` as an onnx ModelProto (ids [1, n] int64 -> pooled [1, dimensions],
    mean-pooled, not normalised), its weights external data in model.safetensors."""
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    header, base = _header(model_dir / "model.safetensors")
    types = {"F32": TensorProto.FLOAT, "I8": TensorProto.INT8}
    initializers: list[Any] = []
    nodes: list[Any] = []
    stored: dict[str, str] = {}

    def raw(name: str) -> str:
        """A tensor of model.safetensors, as stored, read from that file by offset."""
        if name not in stored:
            meta = header[name]
            start, end = meta["data_offsets"]
            tensor = helper.make_tensor_value_info(
                name, types[meta["dtype"]], meta["shape"]
            ).type.tensor_type
            found = TensorProto(
                name=name,
                data_type=tensor.elem_type,
                dims=meta["shape"],
                data_location=TensorProto.EXTERNAL,
            )
            for key, value in (
                ("location", "model.safetensors"),
                ("offset", str(base + start)),
                ("length", str(end - start)),
            ):
                entry = found.external_data.add()
                entry.key, entry.value = key, value
            initializers.append(found)
            stored[name] = name
        return stored[name]

    def constant(name: str, value: Any) -> str:
        initializers.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def op(kind_: str, inputs: list[str], **attributes: Any) -> str:
        out = f"{kind_}_{len(nodes)}"
        nodes.append(helper.make_node(kind_, inputs, [out], **attributes))
        return out

    constant("axis1", np.array([1], dtype=np.int64))
    constant("axis_last", np.array([-1], dtype=np.int64))

    def rows(name: str, picked: str | None = None) -> str:
        """float32 rows of a matrix (all, or those `picked` by index): int8 times its row's scale,
        as numpy computes them (one float32 product each), or float32 as stored."""
        if header[name]["dtype"] == "F32":
            return op("Gather", [raw(name), picked], axis=0) if picked else raw(name)
        values, scale = raw(name), raw(name + ".scale")
        if picked:
            values, scale = (
                op("Gather", [values, picked], axis=0),
                op("Gather", [scale, picked], axis=0),
            )
        return op(
            "Mul",
            [op("Cast", [values], to=TensorProto.FLOAT), op("Unsqueeze", [scale, "axis_last"])],
        )

    def vector(name: str) -> str:
        return raw(name) if header[name]["dtype"] == "F32" else rows(name)

    def norm(x: str, prefix: str) -> str:
        return op(
            "LayerNormalization",
            [x, vector(prefix + ".weight"), vector(prefix + ".bias")],
            epsilon=eps,
            axis=-1,
        )

    root = math.sqrt(dimensions // heads)

    def weight(prefix: str) -> tuple[str, str]:
        """A dense layer's (in x out) weight and its bias; Q, K and V as one, Q over sqrt(d)."""
        if not prefix.endswith(".qkv"):
            return op("Transpose", [rows(prefix + ".weight")], perm=[1, 0]), vector(
                prefix + ".bias"
            )
        parts = [prefix.removesuffix("qkv") + m for m in ("query", "key", "value")]
        scaled = constant(prefix + ".root", np.float32(root))
        matrices = [op("Transpose", [rows(p + ".weight")], perm=[1, 0]) for p in parts]
        biases = [vector(p + ".bias") for p in parts]
        matrices[0], biases[0] = op("Div", [matrices[0], scaled]), op("Div", [biases[0], scaled])
        return op("Concat", matrices, axis=1), op("Concat", biases, axis=0)

    def dense(x: str, prefix: str) -> str:
        matrix, bias = weight(prefix)
        if kind == "float":
            return op("Add", [op("MatMul", [x, matrix]), bias])
        # The levels and scales as numpy computes them (embedder.quantize_columns), folded at load.
        scale = op(
            "Div",
            [
                op(
                    "ReduceMax",
                    [
                        op("Abs", [matrix]),
                        constant(prefix + ".axis0", np.array([0], dtype=np.int64)),
                    ],
                    keepdims=0,
                ),
                constant(prefix + ".levels", np.float32(INT8_LEVELS)),
            ],
        )
        zero = op("Equal", [scale, constant(prefix + ".zero", np.float32(0))])
        scale = op("Where", [zero, constant(prefix + ".one", np.float32(1)), scale])
        levels = op(
            "Cast",
            [
                op(
                    "Clip",
                    [
                        op("Round", [op("Div", [matrix, scale])]),
                        constant(prefix + ".low", np.float32(-INT8_LEVELS)),
                        constant(prefix + ".high", np.float32(INT8_LEVELS)),
                    ],
                )
            ],
            to=TensorProto.INT8,
        )
        q = f"{prefix}.quantized"
        nodes.append(helper.make_node("DynamicQuantizeLinear", [x], [q, q + ".scale", q + ".zero"]))
        product = op("MatMulInteger", [q, levels, q + ".zero"])
        scales = op("Mul", [q + ".scale", scale])
        return op("Add", [op("Mul", [op("Cast", [product], to=TensorProto.FLOAT), scales]), bias])

    size = dimensions // heads
    constant("heads", np.array([0, -1, 3, heads, size], dtype=np.int64))
    constant("merged", np.array([0, -1, dimensions], dtype=np.int64))
    for k in range(3):
        constant(f"part{k}", np.array(k, dtype=np.int64))
    count = op(
        "Gather", [op("Shape", ["ids"]), constant("one_index", np.array(1, dtype=np.int64))], axis=0
    )
    positions = op(
        "Range",
        [
            constant("start", np.array(0, dtype=np.int64)),
            count,
            constant("step", np.array(1, dtype=np.int64)),
        ],
    )
    token_type = op(
        "Gather",
        [
            rows("embeddings.token_type_embeddings.weight"),
            constant("first", np.array(0, dtype=np.int64)),
        ],
        axis=0,
    )
    h = op(
        "Add",
        [
            op(
                "Add",
                [
                    rows("embeddings.word_embeddings.weight", "ids"),
                    rows("embeddings.position_embeddings.weight", positions),
                ],
            ),
            token_type,
        ],
    )
    h = norm(h, "embeddings.LayerNorm")
    for n in range(layers):
        p = f"encoder.layer.{n}."
        qkv = op(
            "Transpose",
            [op("Reshape", [dense(h, p + "attention.self.qkv"), "heads"])],
            perm=[2, 0, 3, 1, 4],
        )
        q, key, v = (op("Gather", [qkv, f"part{i}"], axis=0) for i in range(3))
        attention = op(
            "Softmax", [op("MatMul", [q, op("Transpose", [key], perm=[0, 1, 3, 2])])], axis=-1
        )
        context = op(
            "Reshape",
            [op("Transpose", [op("MatMul", [attention, v])], perm=[0, 2, 1, 3]), "merged"],
        )
        h = norm(
            op("Add", [h, dense(context, p + "attention.output.dense")]),
            p + "attention.output.LayerNorm",
        )
        middle = op("Gelu", [dense(h, p + "intermediate.dense")], approximate="tanh")
        h = norm(op("Add", [h, dense(middle, p + "output.dense")]), p + "output.LayerNorm")
    nodes.append(helper.make_node("ReduceMean", [h, "axis1"], ["pooled"], keepdims=0))
    graph = helper.make_graph(
        nodes,
        "search-encoder",
        [helper.make_tensor_value_info("ids", TensorProto.INT64, [1, None])],
        [helper.make_tensor_value_info("pooled", TensorProto.FLOAT, [1, dimensions])],
        initializers,
    )
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", _OPSET)], producer_name="judgeapp"
    )
    model.ir_version = 10
    return model


def write_tokenizer(model_dir: Path, *, max_tokens: int) -> Path:
    """model_dir/tokenizer.json: BERT's uncased WordPiece over the model's vocab.txt ([CLS] text
    [SEP], at most `max_tokens`), for the `tokenizers` package; Chinese characters are not split
    apart, as search.embedder._WordPiece, which it replaces, reads them (the same ids)."""
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors

    vocab = {
        token: i
        for i, token in enumerate(
            (model_dir / "vocab.txt").read_text(encoding="utf-8").splitlines()
        )
    }
    tokenizer = Tokenizer(models.WordPiece(vocab, unk_token="[UNK]", max_input_chars_per_word=100))
    tokenizer.normalizer = normalizers.BertNormalizer(
        clean_text=True, handle_chinese_chars=False, strip_accents=True, lowercase=True
    )
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])],
    )
    tokenizer.decoder = decoders.WordPiece()
    tokenizer.enable_truncation(max_length=max_tokens)
    path = model_dir / TOKENIZER_NAME
    tokenizer.save(str(path))
    return path


def export(
    model_dir: Path,
    *,
    kind: str = "float",
    dimensions: int,
    layers: int,
    heads: int,
    eps: float,
    max_tokens: int,
) -> Path:
    """Write model_dir/encoder.onnx of `kind` and model_dir/tokenizer.json, and name them in
    model.json ("encoder": the file, its kind, the model it was exported for): from then on
    documents and questions are encoded by it, and vector keys name it."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}")
    graph = build_graph(
        model_dir, kind=kind, dimensions=dimensions, layers=layers, heads=heads, eps=eps
    )
    path = model_dir / FILE_NAME
    data = graph.SerializeToString()
    path.write_bytes(data)
    write_tokenizer(model_dir, max_tokens=max_tokens)
    info_path = model_dir / "model.json"
    info = (
        json.loads(info_path.read_text(encoding="utf-8"))
        if info_path.is_file()
        else {"name": model_dir.name}
    )
    info["encoder"] = {
        "file": FILE_NAME,
        "kind": kind,
        "model": info["name"],
        "tokenizer": TOKENIZER_NAME,
        "sha256": hashlib.sha256(data).hexdigest()[:12],
    }
    info_path.write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
    return path


def load_session(model_dir: Path) -> Any:
    """A function token ids -> the mean-pooled (not normalised) embedding, running model_dir's
    encoder.onnx in ONNX Runtime on the calling thread (one intra-op thread: one core per web
    process, and nothing that a fork would lose); None without onnxruntime or the file."""
    try:
        import numpy as np
        import onnxruntime
    except ImportError:
        return None
    path = model_dir / FILE_NAME
    if not path.is_file():
        return None
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
    # one text at a time: an arena would only keep its largest text's buffers
    options.enable_cpu_mem_arena = False
    session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    _give_back_freed_memory()

    def run(ids: list[int]) -> Any:
        return session.run(None, {"ids": np.asarray([ids], dtype=np.int64)})[0][0]

    return run


def _give_back_freed_memory() -> None:
    """Return to the system what building a session freed (the weights as ONNX Runtime folds them
    pass through float copies several times their final size): glibc keeps freed memory in its heap,
    where it stays in the process's RSS: 80 MB for the float graph, 300 MB for the int8 one."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: nothing to do
        pass
