"""Export the search model's encoder once: `python -m search.export_encoder` (`make search-encoder`)
writes model/encoder.onnx and tokenizer.json beside the model and names them in model.json
(search.onnx_encoder.export, given the architecture the numpy encoder runs: search.embedder)."""

from __future__ import annotations

import argparse
from pathlib import Path

from search import embedder, model, onnx_encoder


def main(argv: list[str] | None = None) -> None:
    """python -m search.export_encoder [--kind int8|float] [MODEL_DIR]: export the encoder."""
    parser = argparse.ArgumentParser(
        description=(
            "Write the search model's encoder.onnx and tokenizer.json, and name them in model.json."
        )
    )
    parser.add_argument("model_dir", nargs="?", type=Path, default=model.TUNED_DIR)
    parser.add_argument(
        "--kind",
        choices=onnx_encoder.KINDS,
        default="float",
        help="float (shipped: documents embedded by it keep the ranking; numpy's vectors) or int8",
    )
    args = parser.parse_args(argv)
    path = onnx_encoder.export(
        args.model_dir,
        kind=args.kind,
        dimensions=embedder.DIMENSIONS,
        layers=embedder._LAYERS,
        heads=embedder._HEADS,
        eps=embedder._EPS,
        max_tokens=embedder._MAX_TOKENS,
    )
    print(
        f"{path} ({args.kind}, {path.stat().st_size} bytes) and {onnx_encoder.TOKENIZER_NAME} "
        "written"
    )


if __name__ == "__main__":
    main()
