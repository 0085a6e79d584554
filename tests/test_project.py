"""Project invariants: README's two commands and CI running exactly them, packaging, and one owner per decision
(statuses only in verdict.py, every default only in settings.py)."""

import ast
import re
import subprocess
import sys
from pathlib import Path

from extractor.trust.verdict import STATUSES

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "extractor"


def readme_commands():
    text = (ROOT / "README.md").read_text()
    head = text.split("\n---\n", 1)[0]
    return re.findall(r"```bash\n(.*?)\n```", head, re.S)


def ci_readme(which: str) -> str:
    done = subprocess.run(
        [sys.executable, str(ROOT / ".ci" / "readme.py"), which], capture_output=True, text=True, check=True
    )
    return done.stdout.rstrip("\n")


def test_readme_opens_with_exactly_two_commands():
    commands = readme_commands()
    assert len(commands) == 2
    assert "pip install" in commands[0] and "extract " in commands[0]
    assert "pytest" in commands[1]


def test_ci_runs_exactly_the_readme_commands():
    install, test = readme_commands()
    assert ci_readme("test") == test
    assert ci_readme("install") == install
    demo = ci_readme("demo")  # the first command with the main job on two samples instead of samples/
    assert (
        demo != install
        and demo.replace("samples/invoice-de-einfach.pdf samples/invoice-fr-services.pdf", "samples/") == install
    )
    assert f"{ci_readme('demo-install')} && {ci_readme('demo-job')}" == demo  # CI runs it in these two parts
    ci = (ROOT / ".ci" / "run").read_text()
    assert '\nbash -c "$(python3 .ci/readme.py demo-install)"\n' in ci
    assert 'bash -c ". .venv/bin/activate && $(python3 .ci/readme.py demo-job)"' in ci
    assert test in ci.splitlines()  # README's test command, verbatim, as a line of its own
    assert ci.index("readme.py demo-install") < ci.index("readme.py demo-job") < ci.index(f"\n{test}\n")


def test_every_package_and_the_schemas_are_in_the_wheel():
    pyproject = (ROOT / "pyproject.toml").read_text()
    listed = set(re.findall(r'"([a-z_.]+)"', re.search(r"packages = \[(.*?)\]", pyproject, re.S).group(1)))
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in PACKAGE.rglob("__init__.py")}
    assert found | {"extractor.schemas"} == listed
    assert '"extractor.schemas" = "schemas"' in pyproject
    assert '"extractor.schemas" = ["*.json"]' in pyproject


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
        ):
            out.add(id(body[0].value))
    return out


def _status_writes(tree: ast.AST) -> list[int]:
    """Lines where a status literal is written or compared: ``status="ok"``, ``x.status == "ok"``,
    ``{"status": "ok"}``, ``status = "ok"``."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "status" and isinstance(node.value, ast.Constant):
            lines.append(node.value.lineno)
        elif isinstance(node, ast.Compare):
            names = [node.left, *node.comparators]
            if any(
                isinstance(n, (ast.Attribute, ast.Name)) and getattr(n, "attr", getattr(n, "id", "")) == "status"
                for n in names
            ) and any(isinstance(n, ast.Constant) and n.value in STATUSES for n in names):
                lines.append(node.lineno)
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=False):
                if (
                    isinstance(key, ast.Constant)
                    and key.value == "status"
                    and isinstance(value, ast.Constant)
                    and value.value in STATUSES
                ):
                    lines.append(value.lineno)
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and node.value.value in STATUSES:
            if any(getattr(t, "id", getattr(t, "attr", "")) == "status" for t in node.targets):
                lines.append(node.lineno)
    return lines


def test_only_verdict_writes_a_status():
    offenders = {}
    for path in PACKAGE.rglob("*.py"):
        if path.name == "verdict.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        lines = _status_writes(tree)
        # a bare status tuple / set elsewhere is a second list of statuses
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, (ast.Tuple, ast.Set, ast.List))
                and len(node.elts) > 1
                and all(isinstance(e, ast.Constant) and e.value in STATUSES and id(e) not in docs for e in node.elts)
            ):
                lines.append(node.lineno)
        if lines:
            offenders[str(path.relative_to(ROOT))] = sorted(lines)
    assert offenders == {}


def test_the_grep_catches_a_status_write():
    """The check above can fail: each form it looks for is caught."""
    for code in (
        'Record(status="ok")',
        'if record.status == "review": pass',
        'x = {"status": "error"}',
        'self.status = "invalid"',
        'RETRIED = ("invalid", "truncated")',
    ):
        tree = ast.parse(code)
        caught = _status_writes(tree) or [n for n in ast.walk(tree) if isinstance(n, ast.Tuple)]
        assert caught, code


def test_command_line_defaults_are_the_settings_defaults():
    """Every extraction option of ``extract`` and ``extract watch`` defaults to settings.default(name): the one
    place defaults live (the CLI's own option names map onto settings only where spelled differently)."""
    from extractor.cli.options import SETTINGS_OPTIONS, _size
    from extractor.settings import Settings, command_line_settings, default

    fields = set(Settings.__dataclass_fields__)
    checked = 0
    for name, (_, option) in SETTINGS_OPTIONS.items():
        if name == "schema":  # None here: Settings' own default (invoice; invoice-en16931 with --einvoice)
            assert option.default is None and command_line_settings(schema=default(name)).schema == default(name)
            checked += 1
        elif name in fields:
            value = _size(option.default, name) if name == "max_bytes" else option.default
            assert value == default(name), name
            checked += 1
    assert checked >= 15
    assert default("retries") == 1 and Settings().retries == 0  # the one documented difference (the CLI re-asks)
