"""One configuration for every command (``extract.toml``, ``extractor.cli.configfile``): the precedence flag >
environment > file > default, the errors that name the file, table and key, ``extract config --json``, and one
register shared by ``extract watch`` and ``extract mail`` (a real Dovecot) started from one file.

Every run goes through ``extractor.cli.main``, the console script itself (``--config`` is taken out there)."""

from __future__ import annotations

import email.message
import json
from pathlib import Path

import pytest
from helpers import einvoice_pdf, require_dovecot

from extractor.cli import main
from extractor.settings import default
from extractor.testing.dovecot import PASSWORD, Dovecot


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    """Run the console script: its exit code, stdout and stderr."""
    try:
        main(argv)
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def toml(tables: dict[str, dict]) -> str:
    """A TOML file of tables (keys as written; strings JSON-quoted, which TOML reads the same)."""
    lines = []
    for name, values in tables.items():
        lines.append(f"[{name}]")
        lines.extend(f"{key} = {json.dumps(value)}" for key, value in values.items())
    return "\n".join(lines) + "\n"


def write_config(folder: Path, tables: dict[str, dict], name: str = "extract.toml") -> Path:
    path = folder / name
    path.write_text(toml(tables), encoding="utf-8")
    return path


# ---------------------------------------------------------------------------------------------------- precedence

PRECEDENCE = [
    # (file tables, environment, flags, the value watch runs with, its source, where it came from)
    ({}, {}, [], default("max_tokens"), "default", ""),
    ({"common": {"max-tokens": 11}}, {}, [], 11, "file", "[common]"),
    ({"common": {"max_tokens": 11}, "watch": {"max-tokens": 12}}, {}, [], 12, "file", "[watch]"),
    ({"mail": {"max-tokens": 13}}, {}, [], default("max_tokens"), "default", ""),
    ({"watch": {"max-tokens": 12}}, {"EXTRACT_MAX_TOKENS": "21"}, [], 21, "environment", "EXTRACT_MAX_TOKENS"),
    ({}, {"EXTRACT_MAX_TOKENS": "21"}, [], 21, "environment", "EXTRACT_MAX_TOKENS"),
    ({"watch": {"max-tokens": 12}}, {"EXTRACT_MAX_TOKENS": "21"}, ["--max-tokens", "31"], 31, "flag", "--max-tokens"),
    ({"watch": {"max-tokens": 12}}, {}, ["--max-tokens", "31"], 31, "flag", "--max-tokens"),
]


@pytest.mark.parametrize(("tables", "environ", "flags", "value", "source", "origin"), PRECEDENCE)
def test_a_flag_wins_over_the_environment_over_the_file_over_the_default(
    tables, environ, flags, value, source, origin, tmp_path, monkeypatch, capsys
):
    monkeypatch.chdir(tmp_path)  # extract.toml found in the working directory
    monkeypatch.delenv("EXTRACT_CONFIG", raising=False)
    for name, text in environ.items():
        monkeypatch.setenv(name, text)
    if tables:
        write_config(tmp_path, tables)
    code, out, err = run(["config", "watch", *flags, "--json"], capsys)
    assert code == 0, err
    setting = json.loads(out)["settings"]["max-tokens"]
    where = f"{tmp_path / 'extract.toml'} {origin}" if source == "file" else origin
    assert setting == {"value": value, "source": source, "from": where}


def test_config_json_is_the_whole_resolved_command(tmp_path, monkeypatch, capsys):
    """``--config FILE`` names the file; a subcommand's table is [register.invoices]; a flag after the command is
    read as that command reads it."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EXTRACT_FLAGGED", "1")
    path = write_config(
        tmp_path,
        {"common": {"register": "shared.sqlite", "poll": 2.5}, "register.invoices": {"limit": 5}},
        name="other.toml",
    )
    code, out, err = run(
        ["--config", str(path), "config", "register", "invoices", "--supplier", "ACME", "--json"], capsys
    )
    assert code == 0, err
    assert json.loads(out) == {
        "config": str(path),
        "command": "register invoices",
        "settings": {
            "register": {"value": "shared.sqlite", "source": "file", "from": f"{path} [common]"},
            "supplier": {"value": "ACME", "source": "flag", "from": "--supplier"},
            "number": {"value": None, "source": "default", "from": ""},
            "since": {"value": None, "source": "default", "from": ""},
            "until": {"value": None, "source": "default", "from": ""},
            "flagged": {"value": True, "source": "environment", "from": "EXTRACT_FLAGGED"},
            "limit": {"value": 5, "source": "file", "from": f"{path} [register.invoices]"},
            "json": {"value": False, "source": "default", "from": ""},
        },
    }


def test_config_hides_passwords_and_shows_a_table(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EXTRACT_CONFIG", str(write_config(tmp_path, {"watch": {"password": ["s3cret"]}}, "a.toml")))
    code, out, err = run(["config", "watch", "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["settings"]["password"]["value"] == ["***"]
    code, out, err = run(["config", "watch"], capsys)
    assert code == 0, err
    assert "s3cret" not in out and "[watch]" in out and "password" in out
    code, out, err = run(["config", "serve", "--store", "postgresql://ap:s3cret@db/extractor", "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["settings"]["store"]["value"] == "postgresql://ap:***@db/extractor"
    monkeypatch.setenv("EXTRACT_REVIEW_API_KEY", "alice-s3cret")  # extract review URL's service key
    code, out, err = run(["config", "review", "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["settings"]["api-key"] == {
        "value": "***",
        "source": "environment",
        "from": "EXTRACT_REVIEW_API_KEY",
    }


# -------------------------------------------------------------------------------------------------------- errors

ERRORS = [
    # (the file's text, what the error says after "error: FILE: ")
    ("[watch]\npoll = \n", "not valid TOML: Invalid value (at line 2, column 8)"),
    ("[watch]\npolll = 3\n", "[watch] has an unknown key 'polll'"),
    ("[common]\nnot-an-option = 3\n", "[common] has an unknown key 'not-an-option'"),
    ("[wach]\npoll = 3\n", "[wach] names no command"),
    ("[register]\nlimit = 3\n", "[register.limit] names no command"),
    ("[register.invoices]\npoll = 3\n", "[register.invoices] has an unknown key 'poll'"),
    (
        "[watch]\nmax-tokens = 0\n",
        "[watch] max-tokens: Invalid value for '--max-tokens': Input should be greater than or equal to 1",
    ),
    ('[common]\npoll = "soon"\n', None),  # checked below: no command takes it (a value one takes: next test)
    ("common = 3\n", "[common] must be a table"),
]


@pytest.mark.parametrize(("text", "says"), ERRORS)
def test_a_bad_file_is_a_usage_error_naming_the_file_table_and_key(text, says, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "extract.toml"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(["config", "watch"], capsys)
    assert code == 2 and out == ""
    message = " ".join(err.split())
    assert message.startswith(f"error: {path}: ")
    if says is not None:
        assert message == f"error: {path}: {says}"
    else:
        assert message.startswith(f"error: {path}: [common] poll: Invalid value for '--poll'")


def test_a_common_value_reaches_only_the_commands_whose_option_takes_it(tmp_path, monkeypatch, capsys):
    """serve's --register is a flag (its register lives in its store): a register path in [common] is watch's,
    mail's and the register commands', and leaves serve's flag alone."""
    monkeypatch.chdir(tmp_path)
    write_config(tmp_path, {"common": {"register": "shared.sqlite"}})
    for command, value, source in [
        ("watch", "shared.sqlite", "file"),
        ("mail", "shared.sqlite", "file"),
        ("serve", True, "default"),
    ]:
        code, out, err = run(["config", command, "--json"], capsys)
        assert code == 0, err
        assert (
            json.loads(out)["settings"]["register"]["value"],
            json.loads(out)["settings"]["register"]["source"],
        ) == (value, source)


def test_a_named_file_that_is_missing_is_a_usage_error(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert run(["--config", "nope.toml", "config"], capsys)[::2] == (
        2,
        "error: nope.toml: no such configuration file (--config)\n",
    )
    monkeypatch.setenv("EXTRACT_CONFIG", "gone.toml")
    code, _, err = run(["config"], capsys)
    assert (code, err) == (2, "error: gone.toml: no such configuration file ($EXTRACT_CONFIG)\n")


# ------------------------------------------------------------------------------------- one register, two intakes


@pytest.fixture(scope="module")
def server():
    require_dovecot()
    with Dovecot() as running:
        yield running


def test_watch_and_mail_from_one_file_share_one_register(server, model_factory, tmp_path, monkeypatch, capsys):
    """The invoice dropped in the folder and the same invoice mailed: ``extract watch`` and ``extract mail``, each
    started from the one extract.toml that names the register, find the second a duplicate of the first."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EXTRACT_MAIL_PASSWORD", PASSWORD)
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    invoice = einvoice_pdf(inbox / "invoice.pdf").read_bytes()
    mail = email.message.EmailMessage()
    mail["From"], mail["To"], mail["Subject"] = "billing@supplier.com", "ap@example.com", "invoice"
    mail.set_content("Please find our invoice attached.")
    mail.add_attachment(invoice, maintype="application", subtype="pdf", filename="mailed.pdf")
    server.append(mail.as_bytes(), folder="shared")
    register = tmp_path / "register.sqlite"
    common = {
        "model": str(model_factory.random().path),
        "schema": "invoice",
        "register": str(register),
        "max-tokens": 4,
        "embedded-rules": False,
        "isolate": False,
        "once": True,
        "json": True,
    }
    write_config(
        tmp_path,
        {
            "common": common,
            "watch": {"inbox": str(inbox), "out": str(tmp_path / "watched"), "settle": 0.1},
            "mail": {"url": server.url("shared"), "out": str(tmp_path / "mailed"), "backoff": 0.1},
        },
    )
    code, out, err = run(["watch"], capsys)
    assert code == 0, err
    assert json.loads(out)["extracted"] == 1
    code, out, err = run(["mail"], capsys)
    assert code == 0, err
    assert json.loads(out)["extracted"] == 1

    from extractor.register import Register

    with Register.open(register) as book:
        rows = [(Path(row["source"]).name, row["findings"]) for row in book.invoices()]
    assert [(name.split("-", 1)[-1], findings) for name, findings in rows] == [
        ("invoice.pdf", ["bank_account_not_trusted", "new_supplier"]),
        ("1-mailed.pdf", ["duplicate_file"]),  # the mail's attachment: <mail key>-<part>-<name>
    ]
    (record,) = [json.loads(p.read_text(encoding="utf-8")) for p in (tmp_path / "mailed").glob("*.json")]
    (finding,) = [f for f in record["register"]["findings"] if f["code"] == "duplicate_file"]
    assert record["status"] == "review" and finding["original"]["record"] == str(inbox / "invoice.pdf")
    assert not (tmp_path / "watched" / ".extractor" / "register.sqlite").exists()
    assert not (tmp_path / "mailed" / ".extractor" / "register.sqlite").exists()
