"""Search as deployed, under one client and under load, and what one search costs in CPU.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/judgeapp_bench \\
        .venv/bin/python bench/search_load_bench.py [--clients 200] [--seconds 30] [--workers 3]

Imports the current documents first when the database has none (the newest CR, MTR, IPG and JAR of
JUDGEAPP_RULES_DIR) and builds their vectors when some are missing (build_search_vectors), so the
search is hybrid as deployed, and their index (build_search_index, as `make setup` does).
Then prints:
1. CPU per search in process (no HTTP, no Django): encoding the question and scoring every vector,
   the lexical half, the second look (search.rerank; how often it was spent), and the whole
   ranking, over the questions of the bench sets, each asked once (no cache helps);
   (a fixed sample of --per-band questions of each length band below);
2. the first search of a new process (Django set up, the index read, the question encoded);
3. gunicorn started with docker/gunicorn.conf.py (its workers, threads, preload and warm-up), one
   client over HTTP asking every distinct question once: p50/p95 for questions up to 100
   characters and for longer ones up to 1,000 (targets 30 ms and 80 ms); answers other than 200
   are counted apart (a question longer than the API accepts is a 400);
4. the same server under load: --clients clients (asyncio, one connection each, keep-alive) asking
   short questions for --seconds: searches a second, p50/p95/max and errors (target: p95 <= 300 ms,
   0 errors), and the server's CPU per search (its processes' CPU time / searches answered).
Only loopback traffic; the server is stopped at the end. Figures, not a test: the machine's
other load moves them.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import time
import tomllib
from pathlib import Path
from urllib.parse import urlencode

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
from bench_env import DEPLOYED_ENV, RULES, collected_static, ensure_database  # noqa: E402 - after the bench folder is on the path

PY = sys.executable
ENV = {
    **os.environ,
    **DEPLOYED_ENV,
    "DJANGO_SETTINGS_MODULE": "judgeapp.settings",
    "PYTHONPATH": str(REPO),
    "OPENBLAS_NUM_THREADS": "1",
}

FIRST = """
import os, time, json
t0 = time.perf_counter()
import django
django.setup()
from search import service
t1 = time.perf_counter()
answer = service.search_answer("opponent forgot his upkeep trigger, what's the fix")
t2 = time.perf_counter()
print(json.dumps({"setup": t1 - t0, "first": t2 - t1, "ranking": answer["ranking"]}))
"""

IN_PROCESS = """
import json, sys, time
import django
django.setup()
from search import ranking, rerank, service
questions = json.loads(sys.stdin.read())
versions = service.current_versions(None)
cached = service._cached_for(versions)
index, semantic = cached.index, cached.semantic
ranking.search(index, "warm up the encoder", semantic=semantic)
cpu = time.process_time
def each(fn):
    t = cpu()
    for q in questions:
        fn(q)
    return (cpu() - t) * 1000 / len(questions)
out = {"ranking": "hybrid" if semantic else "lexical", "n": len(questions)}
parsed = {q: ranking.parse_query(index, q) for q in questions}
out["lexical"] = each(lambda q: ranking._lexical_scores(index, parsed[q], None))
if semantic is not None:
    out["encode_score"] = each(lambda q: semantic(parsed[q].semantic_text))
    semantic.cache_clear()
    out["search_no_rerank"] = each(lambda q: ranking.search(index, q, semantic=semantic,
                                                            rerank=False))
    spent = [0]
    real = rerank.rerank
    def counted(model, *args):
        order = args[3]
        before = list(order)
        new = real(model, *args)
        spent[0] += new != before or rerank.unsure(model, before, args[4], args[1])
        return new
    rerank.rerank = counted
    semantic.cache_clear()
    out["search"] = each(lambda q: ranking.search(index, q, semantic=semantic))
    out["reranked"] = spent[0] / len(questions)
    rerank.rerank = real
else:
    out["search"] = each(lambda q: ranking.search(index, q))
print(json.dumps(out))
"""


def ensure_documents() -> None:
    ensure_database(os.environ.get("DATABASE_URL", ""))
    ENV["JUDGEAPP_STATIC_ROOT"] = collected_static(ENV)
    subprocess.run([PY, "manage.py", "migrate", "--noinput", "-v0"], cwd=REPO, env=ENV, check=True)
    code = (
        "import django; django.setup(); from rulesref.models import Version; "
        "print(Version.objects.filter(is_current=True).count())"
    )
    current = int(
        subprocess.run(
            [PY, "-c", code], cwd=REPO, env=ENV, capture_output=True, text=True, check=True
        ).stdout.split()[-1]
    )
    if current < 4:
        newest = [sorted((RULES / kind).glob("*.*"))[-1] for kind in ("cr", "mtr", "ipg", "jar")]
        subprocess.run(
            [PY, "manage.py", "import_rules", *map(str, newest), "--publish"],
            cwd=REPO,
            env=ENV,
            check=True,
            stdout=subprocess.DEVNULL,
        )
    subprocess.run(
        [PY, "manage.py", "build_search_vectors"],
        cwd=REPO,
        env=ENV,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    # as `make setup` does: the index kept in .cache/search/, read by every new process
    subprocess.run(
        [PY, "manage.py", "build_search_index"],
        cwd=REPO,
        env=ENV,
        check=True,
        stdout=subprocess.DEVNULL,
    )


def questions() -> list[str]:
    """Every distinct question of the bench's sets that may be read (never the blind half of the
    real questions)."""
    found: list[str] = []
    paths = [
        *sorted((REPO / "bench").glob("search_questions*.toml")),
        REPO / "bench" / "real_questions" / "real_tune.toml",
    ]
    for path in paths:
        found += [q["q"] for q in tomllib.loads(path.read_text(encoding="utf-8"))["question"]]
    return list(dict.fromkeys(q.strip() for q in found))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def path_for(q: str) -> str:
    return "/api/v1/search?" + urlencode({"q": q})


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[int(share * (len(ordered) - 1))] if ordered else float("nan")


def one_client(port: int, asked: list[str]) -> dict[str, tuple[list[float], int]]:
    """Per length band: (latencies in ms of answers 200, count of other answers)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    bands: dict[str, tuple[list[float], int]] = {"<=100": ([], 0), "101-1000": ([], 0)}
    for q in asked:
        band = "<=100" if len(q) <= 100 else "101-1000"
        start = time.perf_counter()
        conn.request("GET", path_for(q))
        response = conn.getresponse()
        response.read()
        took = (time.perf_counter() - start) * 1000
        times, errors = bands[band]
        if response.status == 200:
            times.append(took)
        else:
            bands[band] = (times, errors + 1)
    return bands


async def _client(port: int, paths: list[str], until: float, out: list, errors: list) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        while time.perf_counter() < until:
            path = random.choice(paths)
            start = time.perf_counter()
            writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            await writer.drain()
            status = int((await reader.readline()).split()[1])
            length, close = 0, False
            while (line := await reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
                if name.lower() == "connection" and "close" in value.lower():
                    close = True
            await reader.readexactly(length)
            out.append((time.perf_counter() - start) * 1000)
            if status != 200:
                errors.append(status)
            if close:
                writer.close()
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except (OSError, asyncio.IncompleteReadError, ValueError, IndexError) as error:
        errors.append(type(error).__name__)
    finally:
        writer.close()


async def _load(port: int, paths: list[str], clients: int, seconds: float):
    out: list[float] = []
    errors: list = []
    until = time.perf_counter() + seconds
    await asyncio.gather(*(_client(port, paths, until, out, errors) for _ in range(clients)))
    return out, errors


def cpu_of(pids: list[int]) -> float:
    """User + system CPU seconds of these processes so far (Linux /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def server_pids(master: int) -> list[int]:
    found = subprocess.run(
        ["ps", "-o", "pid=", "--ppid", str(master)], capture_output=True, text=True
    ).stdout.split()
    return [master, *map(int, found)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument(
        "--per-band",
        type=int,
        default=300,
        help="questions asked of each length band (up to 100 characters, longer): a fixed sample",
    )
    args = parser.parse_args()
    resource.setrlimit(resource.RLIMIT_NOFILE, (4096, 4096))
    ensure_documents()
    every = questions()
    short = [q for q in every if len(q) <= 100]
    long = [q for q in every if len(q) > 100]
    chosen = random.Random(28)
    asked = [
        *chosen.sample(short, min(args.per_band, len(short))),
        *chosen.sample(long, min(args.per_band, len(long))),
    ]

    done = subprocess.run(
        [PY, "-c", IN_PROCESS],
        input=json.dumps(asked),
        cwd=REPO,
        env=ENV,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise SystemExit(f"the in-process measure failed:\n{done.stderr[-3000:]}")
    found = json.loads(done.stdout.splitlines()[-1])
    print(
        f"CPU per search in process ({found['ranking']}, {found['n']} questions, each once; "
        f"{sum(len(q) > 100 for q in asked)} longer than 100 characters):"
    )
    for name in ("encode_score", "lexical", "search_no_rerank", "search"):
        if name in found:
            print(f"  {name:18} {found[name]:6.2f} ms")
    if "reranked" in found:
        print(f"  second look spent on {found['reranked']:.0%} of the questions")

    for run in ("first process", "next process"):
        out = subprocess.run(
            [PY, "-c", FIRST], cwd=REPO, env=ENV, capture_output=True, text=True, check=True
        ).stdout
        first = json.loads(out.strip().splitlines()[-1])
        print(
            f"{run}: first search {first['first'] * 1000:.0f} ms ({first['ranking']}; Django set "
            f"up in {first['setup'] * 1000:.0f} ms) (target <= 1 s)"
        )

    port = free_port()
    server = subprocess.Popen(
        [
            PY,
            "-m",
            "gunicorn",
            "judgeapp.wsgi",
            "-c",
            "docker/gunicorn.conf.py",
            "--access-logfile",
            "/dev/null",
            "--log-level",
            "warning",
        ],
        cwd=REPO,
        env={**ENV, "GUNICORN_BIND": f"127.0.0.1:{port}", "GUNICORN_WORKERS": str(args.workers)},
    )
    try:
        for _ in range(600):
            try:
                http.client.HTTPConnection("127.0.0.1", port, timeout=5).request(
                    "GET", "/api/v1/health"
                )
                break
            except OSError:
                time.sleep(0.1)
        time.sleep(2.0)  # the workers' warm-up (post_worker_init)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("GET", path_for("warm up"))
        answer = json.loads(conn.getresponse().read())
        print(
            f"gunicorn (docker/gunicorn.conf.py): {args.workers} workers, ranking "
            f"{answer.get('ranking')}"
        )
        for band, (times, errors) in one_client(port, asked).items():
            target = "30" if band == "<=100" else "80"
            print(
                f"one client, questions {band} chars: {len(times)} answered, {errors} not 200; "
                f"p50 {statistics.median(times) if times else float('nan'):.1f} ms, "
                f"p95 {percentile(times, 0.95):.1f} ms (target <= {target} ms)"
            )
        pids = server_pids(server.pid)
        cpu_before = cpu_of(pids)
        started = time.perf_counter()
        times, errors = asyncio.run(
            _load(port, [path_for(q) for q in short], args.clients, args.seconds)
        )
        wall = time.perf_counter() - started
        cpu = cpu_of(pids) - cpu_before
        kinds = {str(e): errors.count(e) for e in set(errors)}
        print(
            f"load: {args.clients} clients, {args.seconds:.0f} s, short questions: "
            f"{len(times) / wall:.0f} searches/s; p50 {percentile(times, 0.5):.0f} ms, "
            f"p95 {percentile(times, 0.95):.0f} ms, max {max(times, default=0):.0f} ms "
            f"(target p95 <= 300 ms); errors {len(errors)} {kinds or ''}"
        )
        print(
            f"server CPU per search under load: {cpu * 1000 / max(len(times), 1):.1f} ms "
            f"({cpu:.0f} CPU s over {wall:.0f} s wall)"
        )
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
