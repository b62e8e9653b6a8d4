"""The import graph keeps the architecture (ARCHITECTURE.md): read from the source with ast, every import
counted, also those inside functions.

- rulesref imports nothing of the judge apps (guides, calllog, jobs, engines) and of the project
  package only the shared API error handling;
- the pure packages (engines, the guides' loader/runner/schema/links, rulesref's parsing and diffing) import
  no Django, DRF or Celery, and load nothing that does;
- no import circle joins modules of different rooms.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ROOMS = ("judgeapp", "rulesref", "guides", "calllog", "jobs", "engines")
FRAMEWORKS = ("django", "rest_framework", "celery", "kombu")
PURE = ("engines", "guides.links", "guides.loader", "guides.runner", "guides.schema", "rulesref.parsing", "rulesref.diffing")
RULESREF_MAY_IMPORT = {"judgeapp.api_errors"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    found = {}
    for room in ROOMS:
        for path in sorted((REPO / room).rglob("*.py")):
            found[module_name(path)] = path
    return found


MODULES = project_modules()


def imports_of(name: str, path: Path, *, top_level_only: bool = False) -> set[str]:
    """Modules `name` imports: for `from a import b`, a.b when that is a module, else a."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    nodes: Iterable[ast.AST] = tree.body if top_level_only else ast.walk(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                child = f"{base}.{alias.name}"
                found.add(child if child in MODULES else base)
    return found


GRAPH = {name: {m for m in imports_of(name, path) if m in MODULES} for name, path in MODULES.items()}
ALL_IMPORTS = {name: imports_of(name, path) for name, path in MODULES.items()}


def room(module: str) -> str:
    return module.split(".")[0]


def is_pure(module: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in PURE)


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


class ImportGraphTests:
    def test_every_room_is_found(self):
        assert {room(m) for m in MODULES} == set(ROOMS)
        assert "guides.services" in GRAPH["guides.views"] and "engines.loops" in GRAPH["jobs.computations"]

    def test_rulesref_imports_none_of_the_judge_features(self):
        wrong = sorted(f"{m} imports {i}" for m, deps in GRAPH.items() if room(m) == "rulesref" for i in deps
                       if room(i) in ("guides", "calllog", "jobs", "engines")
                       or (room(i) == "judgeapp" and i not in RULESREF_MAY_IMPORT))
        assert wrong == []

    def test_the_pure_packages_import_no_framework(self):
        pure = [m for m in MODULES if is_pure(m)]
        assert {"engines.shuffles", "guides.runner", "rulesref.parsing.cr", "rulesref.diffing"} <= set(pure)
        wrong = sorted(f"{m} imports {i}" for m in pure for i in ALL_IMPORTS[m] if i.split(".")[0] in FRAMEWORKS)
        assert wrong == []

    def test_the_pure_packages_load_nothing_that_imports_a_framework(self):
        # What importing a pure module loads: its module-level imports, followed through the project.
        for start in (m for m in MODULES if is_pure(m)):
            seen, todo = set(), [start]
            while todo:
                module = todo.pop()
                if module in seen:
                    continue
                seen.add(module)
                for imported in imports_of(module, MODULES[module], top_level_only=True):
                    assert imported.split(".")[0] not in FRAMEWORKS, f"{start} loads {module}, which imports {imported}"
                    if imported in MODULES:
                        todo.append(imported)

    def test_no_import_circle_joins_two_rooms(self):
        across = [c for c in circles(GRAPH) if len({room(m) for m in c}) > 1]
        assert across == []

    def test_the_circles_broken_by_the_move_stay_broken(self):
        # changes.py read the cited references through curation.py, which imports changes.py: both now
        # ask rulesref.citing. jobs.services enqueues through jobs.tasks, whose worker side is jobs.running.
        assert "rulesref.curation" not in GRAPH["rulesref.changes"]
        assert "rulesref.references" not in GRAPH["rulesref.citing"]
        assert not any({"jobs.services", "jobs.tasks"} <= set(c) for c in circles(GRAPH))
        assert not any(room(m) != "rulesref" for c in circles(GRAPH) for m in c)

    def test_the_circle_finder_finds_a_circle(self):
        assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
