"""Project invariants: README's two commands, CI running README's test command, schemas in the wheel."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands():
    text = (ROOT / "README.md").read_text()
    head = text.split("---", 1)[0]
    return re.findall(r"```bash\n(.*?)\n```", head, re.S)


def test_readme_opens_with_exactly_two_commands():
    commands = readme_commands()
    assert len(commands) == 2
    assert "pip install" in commands[0] and "extract " in commands[0]
    assert "pytest" in commands[1]


def test_ci_runs_the_readme_test_command():
    test_cmd = readme_commands()[1].split("&&")[-1].strip()
    ci = (ROOT / ".ci" / "run").read_text()
    assert test_cmd in ci.splitlines()


def test_schemas_are_packaged():
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"extractor.schemas" = "schemas"' in pyproject
    assert '"extractor.schemas" = ["*.json"]' in pyproject
