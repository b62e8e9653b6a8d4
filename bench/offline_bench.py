"""The floor judge's kit offline: what a tablet stores, how long its first full copy takes on a slow
connection, and how fast it searches without a network (Debian's Chromium through Playwright).

    .venv/bin/python bench/offline_bench.py [--down-kbps 1600] [--latency-ms 150]

Imports the current CR, MTR, IPG and JAR (and the 2022 CR, paired, so old numbers lead to new ones)
into a throwaway SQLite database, serves them with runserver on a local port, opens the site once
through a throttling proxy (Chrome DevTools' "Fast 3G" figures by default), waits for the
service worker to keep the copy, then goes offline and times the on-device search over the judge
questions of bench/search_questions.toml.
"""

from __future__ import annotations

import argparse
import gzip
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
import tomllib

from bench_env import REPO, RULES, fresh_database, setup_django

CHROMIUM = os.environ.get("JUDGEAPP_CHROMIUM", "/usr/bin/chromium")
PACK_STATE = (
    """() => caches.open("judgeapp-pack").then(c => c.match("/offline/manifest.json")).then(r """
    """=> r ? r.json() : null)"""
)
SEARCH_TIMES = """async (queries) => {
  const pack = await caches.open("judgeapp-pack").then(c => c.match("/offline/pack.json")).then(r => r.json());
  let started = performance.now();
  const engine = JudgeOfflineSearch.engine(pack);
  const load = performance.now() - started;
  const times = [];
  for (const q of queries) { const t = performance.now(); engine.search(q, {limit: 10}); times.push(performance.now() - t); }
  const estimate = navigator.storage && navigator.storage.estimate ? await navigator.storage.estimate() : {};
  return {load, times, usage: estimate.usage || null};
}"""  # noqa: E501


class ThrottledProxy:
    """A TCP proxy in front of the server that lets through `kbps` kilobits a second to the browser
    and adds `latency_ms` before each answer, for the service worker's requests as much as the
    page's (the browser's own throttling does not reach the worker)."""

    def __init__(self, upstream: int, kbps: int, latency_ms: int) -> None:
        self.upstream, self.rate, self.latency = upstream, kbps * 1000 / 8, latency_ms / 1000
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.upstream))
            threading.Thread(target=self._pipe, args=(client, server, False), daemon=True).start()
            threading.Thread(target=self._pipe, args=(server, client, True), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket, throttled: bool) -> None:
        fresh = True
        try:
            while data := source.recv(16384):
                if throttled:
                    if fresh:
                        time.sleep(self.latency)
                    time.sleep(len(data) / self.rate)
                fresh = len(data) < 16384  # a short read ends an answer: the next one waits again
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self) -> None:
        self.listener.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--down-kbps", type=int, default=1600, help="download throughput in kbit/s (Fast 3G: 1600)"
    )
    parser.add_argument(
        "--latency-ms",
        type=int,
        default=150,
        help="round-trip latency added per request (Fast 3G: 150)",
    )
    args = parser.parse_args()

    database = fresh_database("sqlite", "judgeapp_offline_bench")
    os.environ["JUDGEAPP_SEARCH_VECTORS"] = "0"
    setup_django(database)
    from rulesref import changes, services
    from rulesref.models import Version
    from search.offline import service

    newest = [sorted((RULES / kind).glob("*.*"))[-1] for kind in ("mtr", "ipg", "jar")]
    services.import_paths([RULES / "cr" / "MagicCompRules-20220429.txt"])
    services.import_paths([RULES / "cr" / "MagicCompRules-20250207.txt", *newest], publish=True)
    old, new = Version.objects.filter(document__slug="cr").order_by("effective_date")
    changes.pairing(old, new)
    started = time.perf_counter()
    built = service.current_pack()
    print(
        f"pack built in {time.perf_counter() - started:.1f} s: {len(built.body):,} bytes of JSON, "
        f"{len(gzip.compress(built.body)):,} bytes gzipped over the wire"
    )

    port = free_port()
    env = {**os.environ, "DATABASE_URL": database, "JUDGEAPP_SEARCH_VECTORS": "0"}
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.2)
        from playwright.sync_api import sync_playwright

        questions = [
            q["q"]
            for q in tomllib.loads((REPO / "bench" / "search_questions.toml").read_text())[
                "question"
            ]
        ]
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
            )
            proxy = ThrottledProxy(port, args.down_kbps, args.latency_ms)
            context = browser.new_context(
                viewport={"width": 768, "height": 1024},
                base_url=f"http://127.0.0.1:{proxy.port}",
                service_workers="allow",
            )
            page = context.new_page()
            # the server builds its pack before the clock starts
            page.goto(f"http://127.0.0.1:{port}/offline/manifest.json")
            started = time.perf_counter()
            page.goto("/")
            state = None
            while time.perf_counter() - started < 600 and not state:
                state = page.evaluate(PACK_STATE)
                time.sleep(0.1)
            synced = time.perf_counter() - started
            if not state:
                print("the service worker kept no copy within 10 minutes")
                return 1
            print(
                f"first full copy on a {args.down_kbps} kbit/s, {args.latency_ms} ms connection: "
                f"{synced:.1f} s (page opened to copy kept; {state['stored_bytes']:,} bytes stored)"
            )
            context.set_offline(True)
            page.goto("/offline/")
            page.wait_for_function("window.JudgeOfflineSearch !== undefined")
            measured = page.evaluate(SEARCH_TIMES, questions)
            times = sorted(measured["times"])
            p95 = times[int(0.95 * (len(times) - 1))]
            print(
                f"offline search, {len(times)} judge questions: p50 {statistics.median(times):.2f} "
                f"ms, p95 {p95:.2f} ms, max {times[-1]:.2f} ms; reading the copy into memory "
                f"{measured['load']:.0f} ms"
            )
            if measured["usage"]:
                print(
                    "storage used by the site on the device (navigator.storage.estimate): "
                    f"{measured['usage']:,} bytes"
                )
            browser.close()
            proxy.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
