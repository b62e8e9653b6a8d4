"""The search encoder as deployed: memory per gunicorn worker, encode latency, and the ranking.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/judgeapp_bench .venv/bin/python bench/search_memory_bench.py

The database must hold the current documents (`make setup`, or bench/search_start_bench.py imports
them). Prints:
1. memory: gunicorn started with docker/gunicorn.conf.py (3 workers, as deployed, DJANGO_DEBUG=0),
   after every worker is ready and one client has asked `--questions` distinct bench questions
   over HTTP: RSS and PSS (/proc/<pid>/smaps_rollup: a page shared by n processes counts 1/n in
   each) of the master and each worker, and the latency of those requests (p50/p95/max);
2. encode: one question's encoding in this process (p50/p95 over the same questions), and what
   encodes (ONNX Runtime int8 or float, or numpy);
3. ranking: recall@5 / MRR@10 of the blind sets final10 to final26 together (1,490 questions),
   with no document filter and with the right document chosen (bench/search_bench.py's corpus).
`--skip memory,encode,ranking` leaves parts out. Only loopback traffic; the server is stopped.
"""  # noqa: E501

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import tomllib
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))


def _questions(count: int) -> list[str]:
    found: list[str] = []
    for path in sorted((REPO / "bench").glob("search_questions*.toml")):
        found += [q["q"] for q in tomllib.loads(path.read_text(encoding="utf-8"))["question"]]
    return list(dict.fromkeys(found))[:count]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _rollup(pid: int) -> dict[str, int]:
    """kB figures of /proc/<pid>/smaps_rollup (Rss, Pss, Shared_*, Private_*)."""
    out = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, value = line.split(":", 1)
        out[name] = int(value.split()[0])
    return out


def _children(pid: int) -> list[int]:
    return sorted(int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split())


def _get(port: int, path: str) -> tuple[float, dict]:
    started = time.perf_counter()
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=60) as answer:  # noqa: S310 - loopback
        body = answer.read()
    return time.perf_counter() - started, json.loads(body)


def _percentiles(times: list[float]) -> str:
    times = sorted(times)
    return (
        f"p50 {statistics.median(times):.1f} ms, p95 {times[int(0.95 * (len(times) - 1))]:.1f} ms, "
        f"max {times[-1]:.1f} ms"
    )


def memory(count: int, workers: int) -> None:
    port = _free_port()
    env = {
        **os.environ,
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_WORKERS": str(workers),
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY", "bench-only-" + "x" * 50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "JUDGEAPP_SEARCH_VECTORS": "0",
        "PYTHONPATH": str(REPO),
    }
    from bench_env import collected_static

    env["JUDGEAPP_STATIC_ROOT"] = collected_static(env)
    started = time.perf_counter()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "judgeapp.wsgi",
            "--config",
            "docker/gunicorn.conf.py",
            "--log-level",
            "warning",
            "--access-logfile",
            "/dev/null",
        ],
        cwd=REPO,
        env=env,
    )
    try:
        while len(_children(server.pid)) < workers or not _ready(port):
            if time.perf_counter() - started > 300:
                raise SystemExit("gunicorn did not start")
            time.sleep(0.2)
        # Every worker has warmed (post_worker_init) before it answers: wait until each has.
        time.sleep(2.0)
        print(
            f"gunicorn ({workers} workers, docker/gunicorn.conf.py) answering after "
            f"{time.perf_counter() - started:.1f} s"
        )
        _report_memory(server.pid, "after start")
        times, rankings = [], set()
        for q in _questions(count):
            took, answer = _get(port, "/api/v1/search?" + urlencode({"q": q}))
            times.append(took * 1000)
            rankings.add(answer.get("ranking"))
        print(
            f"one client, {len(times)} distinct questions "
            f"({'/'.join(sorted(map(str, rankings)))}): {_percentiles(times)}"
        )
        _report_memory(server.pid, f"after {len(times)} searches")
    finally:
        server.terminate()
        server.wait(timeout=60)


def _ready(port: int) -> bool:
    try:
        _get(port, "/api/v1/health")
    except OSError:
        return False
    return True


def _report_memory(master: int, when: str) -> None:
    rows = [
        ("master", master),
        *((f"worker {n + 1}", pid) for n, pid in enumerate(_children(master))),
    ]
    figures = {label: _rollup(pid) for label, pid in rows}
    print(f"memory {when} (MB):   {'RSS':>7} {'PSS':>7} {'private':>8} {'shared':>7}")
    for label, found in figures.items():
        private = found["Private_Clean"] + found["Private_Dirty"]
        shared = found["Shared_Clean"] + found["Shared_Dirty"]
        print(
            f"  {label:18} {found['Rss'] / 1024:7.1f} {found['Pss'] / 1024:7.1f} "
            f"{private / 1024:8.1f} {shared / 1024:7.1f}"
        )
    workers = [f for label, f in figures.items() if label != "master"]
    total = sum(f["Pss"] for f in figures.values()) / 1024
    print(
        f"  together PSS {total:.1f} MB; per worker PSS mean "
        f"{statistics.mean(f['Pss'] for f in workers) / 1024:.1f} MB, private mean "
        f"{statistics.mean(f['Private_Clean'] + f['Private_Dirty'] for f in workers) / 1024:.1f} MB"
    )


def encode(count: int) -> None:
    from search import embedder

    encoder = embedder.load_encoder()
    if encoder is None:
        print("encode: no model")
        return
    encoder.warm()
    questions = _questions(count)
    times = []
    for q in questions:
        started = time.perf_counter()
        encoder.encode_question(q)
        times.append((time.perf_counter() - started) * 1000)
    print(
        f"encode one question ({encoder.describe()}), {len(times)} questions: {_percentiles(times)}"
    )


def ranking() -> None:
    import search_bench
    import search_sets

    version, _ = search_bench.load_questions()
    corpus = search_bench.load_corpus(search_bench.DEFAULT_RULES, version)
    if not search_bench.add_semantic(corpus):
        return
    sets = search_sets.load_sets()
    free, kept = [], []
    for part in (f"final{n}" for n in range(10, 27)):
        questions = sets.get(part, [])
        free += search_bench.evaluate_corpus(
            corpus,
            [search_bench.Question(q.part, q.text, q.answers, "any") for q in questions],
            hybrid=True,
        )
        kept += search_bench.evaluate_corpus(
            corpus,
            [
                search_bench.Question(
                    q.part,
                    q.text,
                    tuple(a.split(":", 1)[1] for a in q.answers if a.startswith(q.doc + ":")),
                    q.doc,
                )
                for q in questions
            ],
            hybrid=True,
        )
    print(
        f"ranking, final10-26 together ({len(free)} questions), hybrid: no filter recall@5 / "
        "MRR@10 "
        f"{search_bench.recall_at(free):.4f} / {search_bench.mrr(free):.4f}; filtered "
        f"{search_bench.recall_at(kept):.4f} / {search_bench.mrr(kept):.4f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--questions", type=int, default=600, help="distinct bench questions asked (default 600)"
    )
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--skip", default="", help="comma-separated: memory, encode, ranking")
    args = parser.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    if "memory" not in skip:
        memory(args.questions, args.workers)
    if "encode" not in skip:
        encode(args.questions)
    if "ranking" not in skip:
        ranking()


if __name__ == "__main__":
    main()
