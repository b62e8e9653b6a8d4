"""One node process for the tests that run the tablet's scripts (static/judgeapp/*.js) under node
and compare them with the Python they mirror (tests/engines/test_shuffle_check_js.py,
tests/search/offline/).

Starting node costs tens of milliseconds of CPU, seconds on a loaded machine, and hypothesis asks
for a batch per example; so node is started once per test process and answers every batch over a
pipe, one JSON line each way. A batch is a runner: the body of a JavaScript function of (require,
input) whose return value comes back, as JSON, the way `JSON.stringify` writes it. A runner that
throws fails the test with node's message and stack; a batch that takes longer than `timeout`
kills node."""

from __future__ import annotations

import atexit
import json
import os
import select
import shutil
import subprocess
import threading

NODE = shutil.which("node")

_SERVER = r"""
const readline = require('readline');
const runners = new Map();
const lines = readline.createInterface({input: process.stdin, terminal: false, crlfDelay: Infinity});
lines.on('line', line => {
  let answer;
  try {
    const request = JSON.parse(line);
    let runner = runners.get(request.runner);
    if (!runner) {
      runner = new Function('require', 'input', request.runner);
      runners.set(request.runner, runner);
    }
    answer = JSON.stringify({out: runner(require, request.input)});
  } catch (error) {
    answer = JSON.stringify({error: String(error && error.stack || error)});
  }
  process.stdout.write(answer + '\n');
});
"""  # noqa: E501


class NodeProcess:
    def __init__(self) -> None:
        self._process: subprocess.Popen | None = None
        self._lock = threading.Lock()

    def _started(self) -> subprocess.Popen:
        if self._process is None or self._process.poll() is not None:
            self._process = subprocess.Popen(
                [NODE, "-e", _SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE
            )
        return self._process

    def run(self, runner: str, data, *, timeout: float = 120):
        """What the function body `runner` returns for `data` (anything json.dumps writes)."""
        with self._lock:
            process = self._started()
            process.stdin.write(json.dumps({"runner": runner, "input": data}).encode() + b"\n")
            process.stdin.flush()
            ready, _, _ = select.select([process.stdout], [], [], timeout)
            line = process.stdout.readline() if ready else b""
            if not line:
                self.close()
                raise AssertionError(
                    f"node gave no answer within {timeout} s (its messages are above)"
                )
        answer = json.loads(line)
        assert "error" not in answer, answer["error"]
        return answer["out"]

    def close(self) -> None:
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.kill()
            process.wait(5)


_node = NodeProcess()
atexit.register(_node.close)


def run_node(runner: str, data, *, timeout: float = 120):
    """`runner` run on `data` by this test process's one node process (started on first use)."""
    assert NODE is not None, "node is not installed"
    return _node.run(runner, data, timeout=timeout)


def script_path(path) -> str:
    """A script's absolute path as a JavaScript string literal, for require()."""
    return json.dumps(os.fspath(path))
