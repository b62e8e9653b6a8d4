"""Vectors shipped with the repository, so a fresh `make run` searches hybrid at once.

shipped/vectors.npz holds the sentence-model vectors of the shipped documents' current versions
and of the asked-as questions, by content address (search.vectors.vector_key: model name
+ embedded text), as int8 rows with one float32 scale per row (a cosine moves by about 1e-3). A
key names its model, so vectors of another model are never used: after a new model or new
questions, `make search-vectors` (manage.py build_search_vectors --ship) writes the file again.
The service reads a vector from the database first and from here second (vector_store.stored);
documents imported later are embedded by the worker as before.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path

PATH = Path(__file__).with_name("shipped") / "vectors.npz"


@lru_cache(maxsize=1)
def _load(path: Path = PATH):
    """(key -> row, int8 rows, float32 scales), or None without the file or numpy."""
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - numpy is a runtime dependency
        return None
    if not path.is_file():
        return None
    with np.load(path) as data:
        keys, rows, scales = data["keys"], data["rows"], data["scales"]
    # Keys are 32 raw bytes a row (uint8); a fixed-width bytes array would drop trailing zero bytes.
    names = (
        [bytes(k).hex() for k in keys]
        if keys.ndim == 2
        else [k.hex().ljust(64, "0") for k in keys.tolist()]
    )
    return {k: n for n, k in enumerate(names)}, rows, scales


def keys() -> frozenset[str]:
    found = _load()
    return frozenset(found[0]) if found else frozenset()


def vectors(wanted: Iterable[str]) -> dict[str, bytes]:
    """float32 rows (1,536 little-endian bytes) of the `wanted` keys that are shipped."""
    found = _load()
    if not found:
        return {}
    index, rows, scales = found
    picked = [(k, index[k]) for k in dict.fromkeys(wanted) if k in index]
    if not picked:
        return {}
    at = [n for _, n in picked]
    matrix = (rows[at].astype("<f4") * scales[at][:, None]).astype("<f4")
    return {k: matrix[m].tobytes() for m, (k, _) in enumerate(picked)}


def rows_f32() -> dict[str, bytes]:
    """Every shipped vector as float32 bytes, by key (for the bench's cache)."""
    found = _load()
    return vectors(found[0]) if found else {}


def write(by_key: Mapping[str, bytes], path: Path = PATH) -> int:
    """Write `by_key` (float32 rows) as the shipped file, int8 per row; returns the count."""
    import numpy as np

    ordered = sorted(by_key)
    matrix = np.frombuffer(b"".join(by_key[k] for k in ordered), dtype="<f4").reshape(
        len(ordered), -1
    )
    scales = np.abs(matrix).max(axis=1) / 127.0
    scales[scales == 0] = 1.0
    rows = np.clip(np.rint(matrix / scales[:, None]), -127, 127).astype(np.int8)
    keys = np.frombuffer(b"".join(bytes.fromhex(k) for k in ordered), dtype=np.uint8).reshape(
        len(ordered), 32
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, keys=keys, rows=rows, scales=scales.astype("<f4"))
    _load.cache_clear()
    return len(ordered)
