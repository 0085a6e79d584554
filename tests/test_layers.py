"""The package's shape, read from its own imports (ast, function-local imports included): no import cycle, and no
module imports a later stage of a document's way than its own."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "extractor"

# Lowest first: a module may import its own layer (without a cycle) or any lower one, never a higher one.
LAYERS = [
    (
        "extractor.errors",
        "extractor.quiet",
        "extractor.text",
        "extractor.leaves",
        "extractor.fields_json",  # a frozen dataclass as its JSON dict (the shared ``to_dict``)
        "extractor.schema",
        "extractor.schema_models",  # the built-in schemas as Pydantic models; with the next, the pydantic importers
        "extractor.schema_models_en16931",  # the invoice-en16931 model and its EN 16931 parts, on schema_models
        "extractor.record",
    ),
    ("extractor.db",),  # the database layer under every store: URLs, connections, transactions, migrations
    ("extractor.inputs",),
    ("extractor.einvoice",),  # EN 16931 in one home: reading, the rules' arithmetic (trust.checks), writing
    ("extractor.runners",),
    ("extractor.trust",),
    ("extractor.register",),  # the invoice register: reads records, feeds trust.verdict; the API and batch call it
    ("extractor.layouts",),  # a supplier's layout learned from true data, read with no model; keyed like the register
    ("extractor.settings",),
    ("extractor.pipeline",),
    ("extractor.api",),
    ("extractor.jobs",),
    ("extractor.service",),  # extract serve: the HTTP face over api / jobs; only the CLI imports it
    ("extractor.tools",),
    ("extractor.cli",),
    ("extractor.testing",),
    ("extractor",),  # the package's lazy front door (__init__.py)
]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _imports(name: str) -> set[str]:
    """The package modules that module ``name`` imports, wherever the import statement sits."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    is_package = MODULES[name].name == "__init__.py"
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = name.split(".") if is_package else name.split(".")[:-1]
                base = ".".join(here[: len(here) - node.level + 1] + ([node.module] if node.module else []))
            # ``from package import module`` imports the module (and runs the package's __init__, which is the
            # package's own business); ``from package import name`` imports the package
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


GRAPH = {name: _imports(name) for name in MODULES}


def layer(name: str) -> int:
    """The index in LAYERS of the longest prefix that names ``name``'s stage."""
    best = None
    for index, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (name == prefix or name.startswith(prefix + ".")) and (best is None or len(prefix) > best[1]):
                best = (index, len(prefix))
    assert best is not None, f"{name} is in no layer: add it to LAYERS"
    return best[0]


def test_every_module_sits_in_a_layer():
    assert {name: layer(name) for name in MODULES}


def test_no_module_imports_a_later_stage():
    upward = sorted(
        f"{name} -> {target}" for name, targets in GRAPH.items() for target in targets if layer(target) > layer(name)
    )
    assert upward == []  # none at all: no package __init__ is exempt either


def _cycles() -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, out, counter = {}, {}, [], set(), [], [0]

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in GRAPH[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                item = stack.pop()
                on_stack.discard(item)
                component.append(item)
                if item == node:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for node in sorted(GRAPH):
        if node not in index:
            visit(node)
    return out


def test_no_import_cycle():
    assert _cycles() == []


@pytest.mark.parametrize(
    ("name", "target", "expected"),
    [
        ("extractor.trust.parse", "extractor.errors", True),
        ("extractor.inputs.ocr", "extractor.trust.grounding", False),
        ("extractor.runners.base", "extractor.settings", False),
    ],
)
def test_layer_order_itself(name, target, expected):
    assert (layer(target) <= layer(name)) is expected
