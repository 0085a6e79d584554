"""A Pydantic model as the schema, end to end (a real tiny scripted model): ``Extractor(schema=Model)`` decodes,
prompts and validates with the model's JSON Schema exactly as with that schema's file, ``record.parsed`` is the
typed read, and ``extract run --schema module:Class`` imports the class."""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict, Field, field_validator
from typer.testing import CliRunner

from extractor import Extractor, Status
from extractor.cli.commands import app, dispatch_args
from extractor.schema import load_schema

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "invoice-jp-yen.pdf"
ANSWER = '{"n":"x"}'
MODULE = """
from pydantic import BaseModel, Field


class Note(BaseModel):
    n: str = Field(max_length=8)
"""


# the one-field schema of these tests (no docstring: it would be the JSON Schema's description)
class Note(BaseModel):
    n: str = Field(max_length=8)


# Note's JSON Schema (the same title), and a validator the JSON Schema cannot say: "x" is refused
class Picky(BaseModel):
    model_config = ConfigDict(title="Note")
    n: str = Field(max_length=8)

    @field_validator("n")
    @classmethod
    def not_x(cls, value: str) -> str:
        if value == "x":
            raise ValueError("x is not a note")
        return value


@pytest.fixture(scope="module")
def scripted(model_factory):
    """A scripted model answering ``{"n":"x"}`` under Note's JSON Schema."""
    return model_factory.scripted(answer=ANSWER, then="im_end", schema=Note.model_json_schema())


def comparable(record) -> dict:
    """The record's JSON without what differs between any two runs (timings) or settings (the fingerprint names
    the schema setting: a file's path, or the class)."""
    out = json.loads(record.to_json())
    out.pop("timings")
    out.pop("fingerprint", None)
    return out


def test_model_class_is_the_schema_and_parsed_is_an_instance(scripted, tmp_path):
    schema = load_schema(Note)
    assert (schema.name, schema.source) == ("Note", f"{__name__}:Note")
    assert schema.schema == Note.model_json_schema()

    with Extractor(model=str(scripted.path), schema=Note, ocr="never") as ex:
        record = ex.extract(SAMPLE)
        missing = ex.extract(tmp_path / "missing.pdf")
    assert record.status == Status.OK, record.to_json()
    assert record.data == {"n": "x"} and record.schema == "Note"
    assert record.parsed == Note(n="x") and isinstance(record.parsed, Note)
    assert "parsed" not in record.to_dict()
    assert missing.status == Status.ERROR and missing.parsed is None

    # the same schema as a file: the same record, byte for byte (but the fingerprint, which names the setting)
    file = tmp_path / "Note.schema.json"
    file.write_text(json.dumps(Note.model_json_schema()))
    with Extractor(model=str(scripted.path), schema=str(file), ocr="never") as ex:
        from_file = ex.extract(SAMPLE)
    assert from_file.parsed is None
    assert comparable(record) == comparable(from_file)
    assert record.fingerprint != from_file.fingerprint


def test_class_and_module_reference_fingerprint_alike(scripted):
    with Extractor(model=str(scripted.path), schema=Note, ocr="never") as by_class:
        with Extractor(model=str(scripted.path), schema=f"{__name__}:Note", ocr="never") as by_name:
            assert by_class.fingerprint == by_name.fingerprint
            assert by_name.model_class is Note
            assert by_name.extract(SAMPLE).parsed == Note(n="x")


def test_pydantic_stricter_than_its_json_schema_leaves_parsed_none_with_a_warning(scripted):
    assert Picky.model_json_schema() == Note.model_json_schema()
    with Extractor(model=str(scripted.path), schema=Picky, ocr="never") as ex:
        record = ex.extract_many([SAMPLE])
        (record,) = list(record)
    assert record.status == Status.OK  # the JSON Schema's verdict
    assert record.parsed is None
    (warning,) = [w for w in record.warnings if w["code"] == "pydantic_validation"]
    assert "x is not a note" in warning["message"] and "n" in warning["message"]


def run(*args):
    return CliRunner().invoke(app, dispatch_args([str(a) for a in args]))


def test_cli_schema_module_class(scripted, tmp_path, monkeypatch):
    (tmp_path / "my_notes.py").write_text(textwrap.dedent(MODULE))
    monkeypatch.chdir(tmp_path)  # the module lies in the working folder, as a user's models would
    monkeypatch.delitem(sys.modules, "my_notes", raising=False)
    result = run(SAMPLE, "--model", scripted.path, "--schema", "my_notes:Note", "--json", "--ocr", "never")
    assert result.exit_code == 0, result.output
    (record,) = json.loads(result.stdout)
    assert (record["status"], record["schema"], record["data"]) == ("ok", "Note", {"n": "x"})


@pytest.mark.parametrize(
    "value,needle",
    [
        ("no_such_module_here:Note", "cannot import module 'no_such_module_here'"),
        ("json:Nope", "module 'json' has no 'Nope'"),
        ("json:JSONDecoder", "'JSONDecoder' is not a Pydantic model class"),
    ],
)
def test_cli_bad_module_class_exits_2(value, needle):
    result = run(SAMPLE, "--model", "/nonexistent-model-dir", "--schema", value)
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert value in text and needle in text


def test_pydantic_is_not_imported_for_a_json_schema():
    code = (
        "import sys; from extractor.schema import load_schema; load_schema('invoice'); print('pydantic' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
