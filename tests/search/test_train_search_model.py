"""Tests for what the judge-tuned model is trained on (tools/train_search_model.py, `make
search-model`): each asked-as question is paired with its own rule's entry, the held-out slice stays
out, and the hard negatives are near rules that answer something else. Training itself needs PyTorch
and is not run here; the pairs and negatives are plain Python on the real documents."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesref.parsing.documents import parse_document
from search import asked, embedder, entries_from_document
from search.index import parent_number
from search.vectors import entry_texts
from tests.conftest import rules_files

TOOL = Path(__file__).resolve().parents[2] / "tools" / "train_search_model.py"


@pytest.fixture(scope="module")
def train():
    spec = importlib.util.spec_from_file_location("train_search_model", TOOL)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up by name
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


@pytest.fixture(scope="module")
def training_pairs(train, rules_dir):
    return train.pairs(rules_dir, policy_repeat=3)


class PairTests:
    def test_an_infraction_question_is_paired_with_the_infraction_not_one_of_its_parts(
        self, training_pairs
    ):
        """The IPG's infractions have parts (definition, philosophy, upgrade...) that share their
        number; a question about 2.1 learns 2.1's own text, not the text of its last part."""
        found, pool, _ = training_pairs
        path = rules_files("ipg")[-1]
        entries = entries_from_document(parse_document(path.read_bytes(), str(path)))
        own = {
            e.number: text
            for e, text in zip(entries, entry_texts(entries), strict=True)
            if not e.part
        }
        parts = {e.number for e in entries if e.part}
        assert "2.1" in parts
        ipg = [p for p in found if p.key[0] == "ipg"]
        assert ipg and {p.key[1] for p in ipg} & parts
        for p in ipg:
            assert p.text == own[p.key[1]] == pool[p.key]
            assert not p.text.split(". ", 1)[0].endswith(
                ("Upgrade", "Philosophy", "Definition", "Examples")
            )

    def test_the_held_out_slice_is_never_trained_on_and_policy_pairs_repeat(self, training_pairs):
        from collections import Counter

        from search.spoken import spoken_rewrite
        from search.vocabulary import shipped_words

        found, _, held = training_pairs
        questions = [
            q for sets in asked.load_asked().values() for qs in sets.questions.values() for q in qs
        ]
        assert held == sum(asked.held_out(q) for q in questions) > 0
        spoken, cards = shipped_words()
        kept = {spoken_rewrite(spoken, q, cards) for q in questions if not asked.held_out(q)}
        held_only = {
            spoken_rewrite(spoken, q, cards) for q in questions if asked.held_out(q)
        } - kept
        assert held_only and not {p.question for p in found} & held_only
        counts = Counter(found)
        assert all(n % 3 == 0 for p, n in counts.items() if p.key[0] != "cr")
        assert 1 in {n for p, n in counts.items() if p.key[0] == "cr"}


class RelatedTests:
    @given(number=st.sampled_from(["702.19b", "702.19", "702", "704.5a", "4.2", "2.1", "3.10"]))
    def test_a_rule_and_every_rule_enclosing_it_are_related_both_ways(self, train, number):
        module = train
        parent: str | None = number
        while parent is not None:
            assert module._related(("cr", number), ("cr", parent)) and module._related(
                ("cr", parent), ("cr", number)
            )
            parent = parent_number(parent)

    @pytest.mark.parametrize(
        ("a", "b"),
        [("704.5a", "704.5b"), ("702.1", "702.19"), ("702.19", "702.190"), ("4.2", "4.3")],
    )
    def test_siblings_and_prefixes_that_are_not_parents_are_not(self, train, a, b):
        assert not train._related(("cr", a), ("cr", b)) and not train._related(("cr", b), ("cr", a))

    def test_the_same_number_in_two_documents_is_not(self, train):
        assert not train._related(("mtr", "2.1"), ("ipg", "2.1"))


class HardNegativeTests:
    def test_each_negative_is_one_of_the_nearest_rules_that_does_not_answer_the_question(
        self, train, training_pairs
    ):
        encoder = embedder.load_encoder()
        if encoder is None:
            pytest.skip("no sentence model installed (requirements-models.txt)")
        found, pool, _ = training_pairs
        chosen = [p for p in found if p.key[0] == "cr" and p.key[1].startswith("704.5")][:12]
        small = {
            k: v for k, v in pool.items() if k[0] == "cr" and k[1].startswith(("704", "121", "119"))
        }

        seen: dict[str, np.ndarray] = {}

        def encode(texts):  # each text embedded once, for the tool and for the check alike
            missing = [t for t in dict.fromkeys(texts) if t not in seen]
            if missing:
                seen.update(zip(missing, encoder.encode(missing), strict=True))
            return np.stack([seen[t] for t in texts])

        class Model:  # the numpy encoder with the sentence-transformers call the tool makes
            def encode(self, texts, batch_size=32, normalize_embeddings=True):
                return encode(list(texts))

        negatives = train.hard_negatives(Model(), chosen, small, depth=3, seed=13)
        keys = list(small)
        matrix = encode([small[k] for k in keys])
        for p, negative in zip(chosen, negatives, strict=True):
            key = next(k for k in keys if small[k] == negative)
            assert not train._related(p.key, key), (p.question, p.key, key)
            order = [keys[i] for i in (-(matrix @ encode([p.question])[0])).argsort()]
            allowed = [
                k
                for k in order
                if not any(
                    train._related(a, k) for a in {q.key for q in found if q.question == p.question}
                )
            ]
            assert key in allowed[:3]


class HalfBaseTests:
    def test_the_float16_copy_of_the_base_encodes_as_the_base_does(self, train, tmp_path):
        # What travels to a GPU machine that cannot install the model package (--write-half-base,
        # then --base): every tensor is there with its shape, and the encoder reads the
        # same sentences.
        from search import model

        base = model.package_model_dir()
        if base is None:
            pytest.skip("the base model package is not installed (requirements-models.txt)")
        train.write_half_base(base, tmp_path / "half")
        original = embedder.read_safetensors_raw(base / "model.safetensors")
        half = embedder.read_safetensors_raw(tmp_path / "half" / "model.safetensors")
        assert {k: v.shape for k, v in half.items()} == {k: v.shape for k, v in original.items()}
        assert {str(v.dtype) for k, v in half.items() if str(original[k].dtype) == "float32"} == {
            "float16"
        }
        assert (tmp_path / "half" / "model.safetensors").stat().st_size < 0.6 * (
            base / "model.safetensors"
        ).stat().st_size
        assert (tmp_path / "half" / "vocab.txt").read_bytes() == (base / "vocab.txt").read_bytes()
        sentences = [
            "opponent forgot his upkeep trigger",
            "702.19b Trample: assign lethal damage to blockers first",
        ]
        ours = embedder.Encoder(tmp_path / "half").encode(sentences)
        theirs = embedder.Encoder(base).encode(sentences)
        assert float((ours * theirs).sum(axis=1).min()) > 0.999
        # and it is not simply the same file: the weights were rounded
        key = "encoder.layer.0.attention.self.query.weight"
        assert half[key].dtype != original[key].dtype


class ModelNameTests:
    def test_two_trainings_with_other_weights_never_share_a_name(self, train, tmp_path):
        # The name is part of every vector key: equal names would reuse the other model's vectors.
        for folder, weights in (("a", b"one"), ("b", b"two"), ("c", b"one")):
            (tmp_path / folder).mkdir()
            (tmp_path / folder / "model.safetensors").write_bytes(weights)
        names = [
            train.named("judge-minilm-l6/2026-11-26/seed13-422steps/numpy-int8", tmp_path / f)
            for f in "abc"
        ]
        assert names[0] != names[1] and names[0] == names[2]
        assert names[0].startswith("judge-minilm-l6/2026-11-26/seed13-422steps/numpy-int8-")


class RealPairTests:
    def test_the_real_questions_read_train_it_but_their_held_out_third_and_the_blind_sets(
        self, train, training_pairs
    ):
        """--real-repeat: each real question read (bench/real_questions) outside the held-out third
        the second look also leaves out is paired, as itself and as its asking sentences, with every
        section that answers it; no blind set not yet read, and never the held-out third."""
        sys.path.insert(0, str(TOOL.parents[1] / "bench"))
        import search_sets

        _, pool, _ = training_pairs
        found, held = train.real_pairs(pool, repeat=2)
        read = [q for path in search_sets.READ.values() for q in search_sets._read(path)]
        kept = [q for q in read if not search_sets.held_out_real(q.text)]
        assert held == len(read) - len(kept) and 0.2 < held / len(read) < 0.45
        assert found and len(found) % 2 == 0
        keys = {p.key for p in found}
        wanted = {tuple(a.split(":", 1)) for q in kept for a in q.answers} & set(pool)
        assert keys == wanted
        for p in found:
            assert pool[p.key] == p.text
        blind = [
            q
            for path in search_sets.BLIND.values()
            if path.is_file()
            for q in search_sets._read(path)
        ]
        spoken, cards = train.shipped_words()
        never = {
            train.spoken_rewrite(spoken, q.text, cards)
            for q in [*read, *blind]
            if q in blind or search_sets.held_out_real(q.text)
        }
        assert never and not never & {p.question for p in found}
