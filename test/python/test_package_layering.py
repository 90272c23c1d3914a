"""The layering of python/tspipe, read from the source with ``ast``.

The package is a DAG: every ``import`` statement of every module (top level
and inside functions alike) is an edge, importing ``a.b.c`` also runs the
``__init__`` of ``a.b`` (an edge to it unless the importer is inside
``a.b``), and the graph has no cycle. No module loads another through
``importlib`` or ``__import__``. ``tspipe.runtime`` (and ``tspipe`` itself,
which runs first) reach none of MLIR's bindings, directly or through another
module, so that it runs where the compiled extension cannot be loaded.
Needs no compiled package.
"""

import ast
from pathlib import Path

import pytest

PACKAGE_DIR = Path(__file__).resolve().parents[2] / "python" / "tspipe"

# Modules of the MLIR bindings (installed from MLIR's Python sources and the
# compiled extension): nothing in tspipe.runtime may reach them.
BINDINGS_PREFIXES = ("tspipe.ir", "tspipe.passmanager", "tspipe.rewrite",
                     "tspipe.dialects", "tspipe._mlir_libs", "tspipe.execution_engine",
                     "mlir")


def _module_names():
    """{dotted name: (path, is_package)} of every module of the source."""
    modules = {}
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        modules[".".join(parts)] = (path, is_package)
    return modules


MODULES = _module_names()


def _resolve(importer: str, is_package: bool, node: ast.ImportFrom) -> str:
    base = importer.split(".") if is_package else importer.split(".")[:-1]
    if node.level:
        base = base[:len(base) - (node.level - 1)]
        return ".".join(base + ([node.module] if node.module else []))
    return node.module


def _is_bindings(name: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in BINDINGS_PREFIXES)


def _targets(importer: str, is_package: bool, tree: ast.AST):
    """(imported module, line) pairs of every import in ``tree``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(importer, is_package, node)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                yield (sub if sub in MODULES or _is_bindings(sub) else base,
                       node.lineno)


def _edges(importer: str, target: str):
    """The modules whose code importing ``target`` runs, as seen from
    ``importer``: ``target`` and the packages above it that are not above
    ``importer`` (those are running already)."""
    parts = target.split(".")
    found = []
    for i in range(1, len(parts) + 1):
        name = ".".join(parts[:i])
        if importer == name or importer.startswith(name + "."):
            continue
        if name in MODULES or _is_bindings(name):
            found.append(name)
    return found


def _graph():
    graph, where, dynamic = {}, {}, []
    for name, (path, is_package) in MODULES.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        edges = graph.setdefault(name, set())
        for target, line in _targets(name, is_package, tree):
            if target.split(".")[0] == "importlib":
                dynamic.append(f"{path}:{line}: imports {target}")
            for dep in _edges(name, target):
                edges.add(dep)
                where.setdefault((name, dep), f"{path.name}:{line}")
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id == "__import__":
                dynamic.append(f"{path}:{node.lineno}: uses __import__")
            if isinstance(node, ast.Attribute) and node.attr == "import_module":
                dynamic.append(f"{path}:{node.lineno}: calls import_module")
    return graph, where, dynamic


GRAPH, WHERE, DYNAMIC = _graph()


def test_the_source_is_found():
    assert "tspipe.ts.kernel" in MODULES and "tspipe.runtime" in MODULES


def test_no_dynamic_imports():
    assert not DYNAMIC, "\n".join(DYNAMIC)


def _cycle():
    """One import cycle as a list of modules, or None."""
    state = {}

    def visit(node, stack):
        state[node] = "open"
        stack.append(node)
        for dep in sorted(GRAPH.get(node, ())):
            if dep not in GRAPH:
                continue
            if state.get(dep) == "open":
                return stack[stack.index(dep):] + [dep]
            if dep not in state:
                found = visit(dep, stack)
                if found:
                    return found
        stack.pop()
        state[node] = "done"
        return None

    for node in sorted(GRAPH):
        if node not in state:
            found = visit(node, [])
            if found:
                return found
    return None


def test_no_import_cycle():
    cycle = _cycle()
    if cycle:
        steps = [f"{a} -> {b} ({WHERE[(a, b)]})" for a, b in zip(cycle, cycle[1:])]
        pytest.fail("import cycle:\n  " + "\n  ".join(steps))


def _reach(start):
    seen, todo = set(), [start]
    while todo:
        node = todo.pop()
        for dep in GRAPH.get(node, ()):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return seen


@pytest.mark.parametrize("root", sorted(
    n for n in MODULES if n == "tspipe" or n.startswith("tspipe.runtime")))
def test_runtime_reaches_no_bindings(root):
    reached = _reach(root)
    bad = sorted(n for n in reached if _is_bindings(n))
    outside = sorted(n for n in reached if n in MODULES and n != "tspipe"
                     and not n.startswith("tspipe.runtime"))
    assert not bad and not outside, (
        f"{root} reaches {bad + outside}; tspipe.runtime must run without the "
        f"compiled extension")


def test_the_layers_point_down():
    # diagnostics/targets -> pipeline (lowering, progress, launch facts) ->
    # ts front end -> demo: no module of a lower layer reaches a higher one.
    layers = [("tspipe.diagnostics", "tspipe.values", "tspipe.targets"),
              ("tspipe.compile", "tspipe.launch", "tspipe.progress"),
              ("tspipe.ts",),
              ("tspipe.demo",)]

    def layer_of(name):
        for i, prefixes in enumerate(layers):
            if any(name == p or name.startswith(p + ".") for p in prefixes):
                return i
        return None

    wrong = []
    for name in MODULES:
        mine = layer_of(name)
        if mine is None:
            continue
        for dep in _reach(name):
            theirs = layer_of(dep)
            if theirs is not None and theirs > mine:
                wrong.append(f"{name} reaches {dep}")
    assert not wrong, "\n".join(sorted(wrong))
