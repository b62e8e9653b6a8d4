"""docker/.env.example names every environment variable judgeapp/settings.py reads (settings.py's
docstring promises it), set or commented out with its default (`NAME=...` or `# NAME=...`).

No database, no Django: settings.py is read as source, not imported.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SETTINGS = REPO / "judgeapp" / "settings.py"
EXAMPLE = REPO / "docker" / ".env.example"


def _reads_environ(node: ast.AST) -> bool:
    return any(
        isinstance(n, ast.Attribute)
        and n.attr == "environ"
        and isinstance(n.value, ast.Name)
        and n.value.id == "os"
        for n in ast.walk(node)
    )


def _literal(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def settings_variables() -> set[str]:
    """Every variable name settings.py reads, found with `ast`.

    settings.py reads os.environ through its own helpers (env_str, env_bool, env_int, env_float:
    each `helper("NAME", default)`), so the helpers are found as the module-level functions whose
    body touches `os.environ`, and a variable is the string literal that is the first argument of a
    call to one of them, wherever the call is (module level, or inside _sqlite and
    database_from_url). Direct reads count too: os.environ.get("NAME"), os.environ["NAME"],
    os.getenv("NAME"). A name built at run time (not a literal) cannot be found this way;
    settings.py has none.
    """
    tree = ast.parse(SETTINGS.read_text(), filename=str(SETTINGS))
    helpers = {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and _reads_environ(node)
    }
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args:
            func = node.func
            direct = isinstance(func, ast.Attribute) and (
                (func.attr == "get" and _reads_environ(func.value))
                or (
                    func.attr == "getenv"
                    and isinstance(func.value, ast.Name)
                    and func.value.id == "os"
                )
            )
            if direct or (isinstance(func, ast.Name) and func.id in helpers):
                name = _literal(node.args[0])
                if name is not None:
                    names.add(name)
        elif isinstance(node, ast.Subscript) and _reads_environ(node.value):
            name = _literal(node.slice)
            if name is not None:
                names.add(name)
    return names


def example_names() -> set[str]:
    """Names in the example as `NAME=` or commented out as `# NAME=` (at a line's start)."""
    pattern = re.compile(r"^\s*(?:#\s*)?([A-Za-z_][A-Za-z0-9_]*)=", re.MULTILINE)
    return set(pattern.findall(EXAMPLE.read_text()))


def test_the_parser_finds_the_settings_variables():
    names = settings_variables()
    # not vacuous: settings.py reads about 70 variables
    assert len(names) >= 50, sorted(names)
    for name in (
        "DJANGO_DEBUG",
        "DATABASE_URL",
        "JUDGEAPP_SQLITE_BUSY_TIMEOUT",
        "JUDGEAPP_LOG_LEVEL",
    ):
        assert name in names, name


def test_every_settings_variable_is_in_the_env_example():
    missing = sorted(settings_variables() - example_names())
    assert not missing, (
        f"{EXAMPLE.relative_to(REPO)} lacks {len(missing)} variable(s) that "
        f"{SETTINGS.relative_to(REPO)} reads (add each, commented out with its default, "
        f"as `# NAME=default`): {', '.join(missing)}"
    )
