"""The package's imports form layers, and no two modules import each other.

Read statically (``ast``) from every module of the package, every import counts:
top-level, inside a function (a late import still ties the two modules together) and
under ``if TYPE_CHECKING:``. A layer imports only the layers below it; the members of
one layer do not import each other. ``LAYERS`` is the table `docs/architecture.md`
draws under "Layers"; a test holds the two to each other. Cycles are looked for
between modules (packages' ``__init__`` included), with type-only imports left out:
they are never executed, and are how a lower module names a higher one's class in an
annotation (``engine.general_loop`` annotating ``engine.game.Game``).
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "interpreter"

# Top to bottom: the first part of a module's name under the package (a subpackage or a
# top-level module). Members of one layer are independent of each other.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("__main__",),
    ("cli",),
    ("explore", "play"),
    ("exercise", "reach", "records"),
    ("api", "record_format"),
    ("kernel",),
    ("bots", "rules"),
    ("engine", "expr"),
    ("dash", "files", "generated", "outputs", "record_lines", "textlayout", "visible"),
    ("__init__", "diagnostics"),
)
# (importer, imported) pairs that break the rule today, each with why and what removes it
EXCEPTIONS: dict[tuple[str, str], str] = {}


def _modules() -> dict[str, Path]:
    """Every module of the package by dotted name (``rules``: its ``__init__``)."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(["dominorules", *parts])] = path
    out["dominorules.cli"] = PACKAGE.parent / "cli.py"   # interpreter/cli.py only runs it
    return out


MODULES = _modules()


def _type_only(tree: ast.Module) -> set[int]:
    """The line numbers of imports under ``if TYPE_CHECKING:``."""
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                for sub in ast.walk(inner):
                    if isinstance(sub, (ast.Import, ast.ImportFrom)):
                        lines.add(sub.lineno)
    return lines


def _imports(name: str, path: Path) -> list[tuple[str, int, bool]]:
    """(imported module of the package, line, type only) for each import in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typed = _type_only(tree)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[:len(package) - node.level + 1] + ([base] if base else []))
            # ``from x import y``: the module x.y when y is one, else x itself
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base
                       for a in node.names]
        else:
            continue
        for target in targets:
            if target in MODULES and target != name:
                found.append((target, node.lineno, node.lineno in typed))
    return found


IMPORTS = {name: _imports(name, path) for name, path in MODULES.items()}


def _group(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _layer_of() -> dict[str, int]:
    return {member: i for i, layer in enumerate(LAYERS) for member in layer}


def test_every_module_has_a_layer():
    layer = _layer_of()
    assert sorted({_group(m) for m in MODULES} - layer.keys()) == []
    assert sorted(layer.keys() - {_group(m) for m in MODULES}) == []


def test_imports_point_down_the_layers():
    layer = _layer_of()
    wrong = []
    for name, found in IMPORTS.items():
        for target, line, _ in found:
            a, b = _group(name), _group(target)
            if a == b or (a, b) in EXCEPTIONS:
                continue
            if layer[b] <= layer[a]:
                rel = MODULES[name].relative_to(ROOT)
                way = "beside it" if layer[a] == layer[b] else "above it"
                wrong.append(f"{rel}:{line} imports {target} ({b} is {way})")
    assert wrong == []


def test_no_module_imports_itself_round_a_circle():
    edges = defaultdict(set)
    for name, found in IMPORTS.items():
        for target, _, type_only in found:
            if not type_only:
                edges[name].add(target)
    cycles = _cycles(edges)
    assert cycles == []


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(sorted(part))

    for v in sorted(set(edges) | {w for ws in edges.values() for w in ws}):
        if v not in index:
            visit(v)
    return out


def test_the_checks_see_a_cycle_and_an_upward_import():
    """The walkers find what they are for: a planted circle, and the real imports."""
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert ("dominorules.kernel.generate" in
            {t for t, _, _ in IMPORTS["dominorules.kernel.listing"]})
    # a function-local import counts (the CLI imports its commands' modules late)
    assert "dominorules.kernel.listing" in {t for t, _, _ in IMPORTS["dominorules.cli"]}
    # a type-only import is seen, and marked so
    assert ("dominorules.engine.game", True) in {
        (t, typed) for t, _, typed in IMPORTS["dominorules.engine.general_loop"]}


def test_the_architecture_doc_draws_the_same_layers():
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = text.split("## Layers", 1)[1].split("```", 2)[1]
    drawn = []
    for line in block.strip("\n").splitlines():
        names = re.findall(r"([A-Za-z_]+)(?:/|\.py)", line.split("  #")[0])
        drawn.append(tuple(sorted(n for n in names if n != "interpreter")))
    assert tuple(d for d in drawn if d) == tuple(tuple(sorted(layer)) for layer in LAYERS)


def test_the_rule_sheet_reads_the_same_whichever_writers_load_first():
    """``describe`` and ``describe_house`` no longer import each other round a circle, so
    either may be imported first: the plain game's rules still come before the house
    rules in every section."""
    import subprocess
    import sys

    show = ("from dominorules.rules.describe import render_sheet, rule_sheet\n"
            "from dominorules.rules import load_ruleset\n"
            "print(render_sheet(rule_sheet(load_ruleset('house/muggins')), 'json'))\n")
    sheets = [subprocess.run([sys.executable, "-c", first + show], capture_output=True,
                             text=True, cwd=ROOT, check=True).stdout
              for first in ("", "import dominorules.rules.describe_house\n")]
    assert sheets[0] == sheets[1] and '"key": "board.spinner"' in sheets[0]
