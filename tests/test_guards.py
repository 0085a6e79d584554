"""Runaway guards: table-driven on token streams (no model), then end to end through ``Extractor`` on scripted models.

The pure tables feed ``(token_id, piece)`` streams through fresh guards exactly as the runner does; a tiny regex
tokenizer stands in for BPE (same piece, same id). The end-to-end tests run the real mlx-vlm runner on scripted tiny
qwen3_5 models whose stop set is deliberately incomplete (248046 dropped) and check the record's status, guard and
the tokens spent after the answer.
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import replace

import pytest
from helpers import settings_for

from extractor.runners.guards import GUARD_NAMES, GuardSettings, ValueScanner, run_guards
from extractor.testing import IM_END, SAMPLE_INVOICE, SAMPLE_INVOICE_ANSWER
from extractor.trust.parse import parse_answer
from extractor.trust.verdict import decide

_VOCAB: dict[str, int] = {}
_TOKEN = re.compile(r"<\|[a-z_]+\|>|</s>|<end_of_turn>|\n|[ \t]+|\w+|[^\w\s]")


def toks(text: str) -> list[tuple[int, str]]:
    """Cut text into (id, piece) tokens: special markers whole, words, single punctuation, whitespace runs."""
    return [(_VOCAB.setdefault(p, len(_VOCAB)), p) for p in _TOKEN.findall(text)]


def forever(text: str, count: int = 400) -> list[tuple[int, str]]:
    """A continuation cycled ``count`` times (long enough that only a guard can end it)."""
    return toks(text) * count


SPACES = [(_VOCAB.setdefault(" ", len(_VOCAB)), " ")] * 400  # one space per token, as a scripted model emits

ITEM = {"description": 'Widget } with {braces} and "quotes" ]', "quantity": 1, "unit_price": 2.5, "amount": 2.5}
MANY_ITEMS = {
    "invoice_number": "INV-1",
    "line_items": [dict(ITEM) for _ in range(40)],
    "total": 100.0,
    "notes": "Line\\nLine\\nLine\\nLine",
    "iban": "DE00 0000 0000 0000 0000 00",
    "filler": "." * 60,
}
PRETTY = json.dumps(MANY_ITEMS, indent=2)
COMPACT = json.dumps(MANY_ITEMS, separators=(",", ":"))
ONE_PER_LINE = '{"items": [\n' + ",\n".join(json.dumps(ITEM) for _ in range(40)) + '\n], "total": 100.0}'
ZEROS = json.dumps({"values": [0] * 60, "total": 0})
SAMPLE = SAMPLE_INVOICE_ANSWER

# name -> text that must stream through every guard without any firing
NORMAL = {
    "sample invoice, compact": SAMPLE,
    "40 identical items, pretty": PRETTY,
    "40 identical items, compact": COMPACT,
    "40 identical items, one per line": ONE_PER_LINE,
    "60 zeros in an array": ZEROS,
    "prose with brackets before the JSON": "Here is the extracted data [as requested] {see below}:\n```json\n"
    + PRETTY
    + "\n```",
    "think block before the JSON": "<think>\nThe page shows an invoice.\nThe total is 100.\n</think>\n\n" + COMPACT,
    "a few whitespace tokens after the JSON": COMPACT + "\n\n  \n",
    "closing fence after the JSON": "```json\n" + COMPACT + "\n```\n",
    "top-level array": json.dumps([ITEM] * 10, indent=1),
}


@pytest.mark.parametrize("name", list(NORMAL))
def test_no_guard_fires_on_a_normal_answer(name):
    hit, n, kept = run_guards(toks(NORMAL[name]))
    assert (hit, kept) == (None, NORMAL[name])


# name -> (stream, settings, guard expected, kept text expected, tokens allowed after the answer)
ALL_ON = GuardSettings()
NO_JSON = GuardSettings(json_closed=False)
LOOP_ONLY = GuardSettings(end_marker=False, json_closed=False)
MARKER_PIECES = [(9001, "<|"), (9002, "im"), (9003, "_end"), (9004, "|>")] * 100
FIRES = {
    "im_end forever": (toks(SAMPLE) + forever("<|im_end|>"), ALL_ON, "end_marker", SAMPLE, 1),
    "endoftext forever": (toks(SAMPLE) + forever("<|endoftext|>"), ALL_ON, "end_marker", SAMPLE, 1),
    "</s> forever": (toks(SAMPLE) + forever("</s>"), NO_JSON, "end_marker", SAMPLE, 1),
    "<end_of_turn>": (toks(SAMPLE) + forever("\n<end_of_turn>"), NO_JSON, "end_marker", SAMPLE + "\n", 2),
    "a new turn starts": (toks(SAMPLE) + forever("<|im_start|>user\nmore"), NO_JSON, "end_marker", SAMPLE, 1),
    "marker spelled in pieces": (toks(SAMPLE) + MARKER_PIECES, NO_JSON, "end_marker", SAMPLE, 4),
    "marker spelled in pieces, defaults": (toks(SAMPLE) + MARKER_PIECES, ALL_ON, "json_closed", SAMPLE, 1),
    "im_end forever, loop only": (toks(SAMPLE) + forever("<|im_end|>"), LOOP_ONLY, "loop", SAMPLE, 16),
    "whitespace forever": (toks(SAMPLE) + SPACES, ALL_ON, "json_closed", SAMPLE, 8),
    "whitespace forever, no json_closed": (toks(SAMPLE) + SPACES, NO_JSON, "loop", SAMPLE, 16),
    "repeated line": (toks(SAMPLE) + forever('\n{"note": "see above"}'), ALL_ON, "json_closed", SAMPLE, 2),
    # 13 tokens a line here (finer than BPE): 4 repeats; the scripted model's 4-token line stops within 16
    "repeated line, no json_closed": (toks(SAMPLE) + forever('\n{"note": "see above"}'), NO_JSON, "loop", SAMPLE, 52),
    "repeated prose line after the answer": (
        toks(PRETTY) + forever("\nThank you for your business."),
        LOOP_ONLY,
        "loop",
        PRETTY,
        48,
    ),
    "end marker before the JSON closed": (
        toks('{"total": 1') + forever("<|im_end|>"),
        ALL_ON,
        "end_marker",
        '{"total": 1',
        None,
    ),
    "loop inside a string": (toks('{"notes": "') + forever("la "), ALL_ON, "loop", '{"notes": "la ', None),
    "loop before the JSON": (forever("Let me read the page.\n"), ALL_ON, "loop", "Let me read the page.\n", None),
    "whitespace before the JSON": (SPACES, ALL_ON, "loop", " ", None),
    "whitespace inside the JSON structure": (toks('{"total": ') + SPACES, ALL_ON, "loop", '{"total":', None),
    "digit loop in a number": (toks('{"total": 1.') + [(9100, "0")] * 400, ALL_ON, "loop", None, None),
}


@pytest.mark.parametrize("name", list(FIRES))
def test_guard_fires_on_its_scenario(name):
    stream, settings, guard, kept_expected, after_max = FIRES[name]
    hit, n, kept = run_guards(stream, settings)
    assert hit is not None and hit.guard == guard
    if kept_expected is not None:
        assert kept == kept_expected
    if after_max is not None:
        assert 1 <= n - len(toks(kept_expected)) <= after_max


@pytest.mark.parametrize("name", list(FIRES))
def test_statuses_follow_the_rules(name):
    """A guard after a complete valid answer gives ok + a warning naming it; before the JSON closed, runaway."""
    stream, settings, guard, _, after_max = FIRES[name]
    hit, _, kept = run_guards(stream, settings)
    parsed = parse_answer(kept)
    verdict = decide(finish_reason="guard", parsed=parsed, schema_errors=[], guard=hit.guard)
    if after_max is not None:  # the scenarios whose answer was complete
        assert (verdict.status, [w["code"] for w in verdict.warnings]) == ("ok", [f"guard_{guard}"])
        assert verdict.data == json.loads(kept.strip())
    else:
        assert (verdict.status, verdict.data, [e["code"] for e in verdict.errors]) == ("runaway", None, ["runaway"])


@pytest.mark.parametrize("name", ["whitespace forever", "repeated line", "im_end forever"])
def test_every_guard_off_lets_it_run(name):
    stream = FIRES[name][0]
    hit, n, _ = run_guards(stream, GuardSettings.without(["all"]))
    assert (hit, n) == (None, len(stream))


@pytest.mark.parametrize(
    "name,off",
    [
        ("im_end forever", "end_marker"),
        ("whitespace forever", "json_closed"),
        ("repeated line, no json_closed", "loop"),
    ],
)
def test_each_guard_switches_off_alone(name, off):
    stream, settings, guard, _, _ = FIRES[name]
    assert guard == off
    hit, _, _ = run_guards(stream, replace(settings, **{off: False}))
    assert hit is None or hit.guard != off


@pytest.mark.parametrize(
    "text,regions",
    [
        (
            'ab{"k": "v"} x',
            [
                "pre",
                "pre",
                None,
                ("str", 1),
                ("str", 1),
                None,
                None,
                None,
                ("str", 2),
                ("str", 2),
                None,
                "post",
                "post",
                "post",
            ],
        ),
        # "[x]" looks like a value until it closes and does not parse; then it was prose all along
        (
            '[x] {"a": [1]}',
            [None, None, "pre", "pre", None, ("str", 1), ("str", 1), None, None, None, None, None, None, "post"],
        ),
    ],
)
def test_value_scanner_regions(text, regions):
    scanner = ValueScanner()
    seen = []
    for i in range(1, len(text) + 1):
        scanner.feed(text[:i])
        seen.append(scanner.region())
    assert seen == regions


def test_value_scanner_skips_brackets_that_do_not_parse():
    scanner = ValueScanner()
    text = 'See [page 1] and {the total}: {"total": 5} trailing'
    scanner.feed(text)
    assert (scanner.start_at, scanner.closed_at) == (text.index('{"'), text.index("} trailing") + 1)


def test_settings_without_and_report():
    assert GuardSettings.without([]).active == GUARD_NAMES
    assert GuardSettings.without(["loop", "json_closed"]).active == ("end_marker",)
    assert GuardSettings.without(["all"]).factory(stop_texts=("<|im_end|>",)) is None
    with pytest.raises(ValueError, match="unknown guard"):
        GuardSettings.without(["bogus"])
    assert GuardSettings(loop=False).report(fired="json_closed") == {
        "active": ["end_marker", "json_closed"],
        "fired": "json_closed",
        "thresholds": {
            "json_grace_tokens": 8,
            "loop_repeats": 4,
            "loop_max_period": 64,
            "loop_min_tokens": 12,
            "string_loop_min_tokens": 64,
            "whitespace_run_tokens": 16,
            "number_max_chars": 48,
        },
    }


def test_factory_builds_fresh_monitors():
    factory = GuardSettings().factory(stop_texts=("<|im_end|>",))
    first, second = factory()[0], factory()[0]
    assert first is not second
    text = ""
    for token_id, piece in toks(SAMPLE) + [(IM_END, "<|im_end|>")]:
        text += piece
        hit = first.feed(token_id, text)
    assert (hit.guard, hit.keep_chars, first.fired, second.fired) == ("end_marker", len(SAMPLE), "end_marker", None)


# ---------------------------------------------------------------------------------------------------------------
# End to end: the real runner on scripted tiny models, 248046 dropped from the stop set (guards alone)
# ---------------------------------------------------------------------------------------------------------------
SMALL_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Total",
    "type": "object",
    "properties": {"total": {"type": "number"}, "items": {"type": "array"}},
    "required": ["total"],
}
SHORT_ANSWER = json.dumps({"items": [{"d": "x } y"}] * 3, "total": 12.5})


@pytest.fixture(scope="module")
def small_schema(tmp_path_factory):
    path = tmp_path_factory.mktemp("schema") / "total.schema.json"
    path.write_text(json.dumps(SMALL_SCHEMA))
    return str(path)


@pytest.fixture(scope="module")
def page():
    from PIL import Image

    return Image.new("RGB", (64, 64), "white")


def _extract(model, schema, page, **options):
    from extractor import Extractor

    # the guards are measured alone: a grammar would end every answer on a stop token before any guard could fire
    options = {"constrained": False, "max_tokens": 96, **options}
    return Extractor(settings_for(model, schema=schema, **options)).extract(page)


E2E = {
    # then, answer, options -> status, finish, guard, tokens after the answer, warnings
    "im_end, full stop set": ("im_end", SHORT_ANSWER, {}, ("ok", "stop", None, 1, [])),
    "im_end, guards alone": (
        "im_end",
        SHORT_ANSWER,
        {"drop_stop_ids": (IM_END,)},
        ("ok", "guard", "end_marker", 1, ["guard_end_marker"]),
    ),
    "im_end, no guards": (
        "im_end",
        SHORT_ANSWER,
        {"drop_stop_ids": (IM_END,), "guards": GuardSettings.without(["all"])},
        ("runaway", "length", None, None, []),
    ),
    "whitespace": (
        "whitespace",
        SHORT_ANSWER,
        {"drop_stop_ids": (IM_END,)},
        ("ok", "guard", "json_closed", 8, ["guard_json_closed"]),
    ),
    "whitespace, loop guard": (
        "whitespace",
        SHORT_ANSWER,
        {"guards": GuardSettings(json_closed=False)},
        ("ok", "guard", "loop", 12, ["guard_loop"]),
    ),
    "repeated line": (
        "repeat",
        SHORT_ANSWER,
        {"drop_stop_ids": (IM_END,)},
        ("ok", "guard", "json_closed", 1, ["guard_json_closed"]),
    ),
    "unclosed JSON then im_end": (
        "im_end",
        '{"total": 12.5, "items": [',
        {"drop_stop_ids": (IM_END,)},
        ("runaway", "guard", "end_marker", 1, []),
    ),
}


@pytest.mark.parametrize("name", list(E2E))
def test_guards_end_to_end(model_factory, small_schema, page, name):
    then, answer, options, (status, finish, guard, after, warnings) = E2E[name]
    model = model_factory.scripted(answer=answer, then=then)
    record = _extract(model, small_schema, page, **options).to_dict()
    n_answer = len(model.answer_token_ids)
    expected_after = after if finish != "length" else 96 - n_answer
    active = list(options.get("guards", GuardSettings()).active)
    assert {k: record[k] for k in ("status", "finish_reason", "guard")} == {
        "status": status,
        "finish_reason": finish,
        "guard": guard,
    }
    assert record["usage"]["generated_tokens"] - n_answer == expected_after
    assert [w["code"] for w in record["warnings"]] == warnings
    assert {k: record["guards"][k] for k in ("active", "fired")} == {"active": active, "fired": guard}
    if status == "ok":
        assert record["data"] == json.loads(answer)


def test_sample_invoice_end_to_end_guards_alone(model_factory, page):
    """The ~280-token sample invoice, <|im_end|> forever, stop set without 248046: one token of waste, status ok."""
    model = model_factory.scripted(then="im_end")
    record = _extract(model, "invoice", page, drop_stop_ids=(IM_END,), max_tokens=400).to_dict()
    assert (record["status"], record["guard"], record["data"]) == ("ok", "end_marker", SAMPLE_INVOICE)
    assert record["usage"]["generated_tokens"] == len(model.answer_token_ids) + 1


@pytest.mark.parametrize(
    "switch,status,guard,exit_code",
    [
        ([], "ok", "end_marker", 0),
        (["--no-guard", "end_marker"], "ok", "json_closed", 0),
        (["--no-guard", "all"], "runaway", None, 1),
    ],
)
def test_cli_guard_switches(model_factory, small_schema, page, tmp_path, switch, status, guard, exit_code):
    from typer.testing import CliRunner

    from extractor.cli.commands import app, dispatch_args

    model = model_factory.scripted(answer=SHORT_ANSWER, then="im_end")
    image = tmp_path / "page.png"
    page.save(image)
    args = [
        str(image),
        "--model",
        str(model.path),
        "--schema",
        small_schema,
        "--max-tokens",
        "48",
        "--drop-stop-id",
        str(IM_END),
        "--no-constrained",
        "--json",
        *switch,
    ]
    result = CliRunner().invoke(app, dispatch_args(args))
    record = json.loads(result.stdout)[0]
    assert (result.exit_code, record["status"], record["guard"]) == (exit_code, status, guard)
    assert record["guards"]["active"] == list(GuardSettings.without(switch[1:]).active)


def test_cli_rejects_an_unknown_guard():
    from typer.testing import CliRunner

    from extractor.cli.commands import app, dispatch_args

    result = CliRunner().invoke(app, dispatch_args(["x.pdf", "--no-guard", "bogus"]))
    assert result.exit_code == 2, result.output


def test_itertools_streams_are_lazy_enough():
    """run_guards stops consuming an endless stream as soon as a guard fires."""
    stream = itertools.chain(toks(SAMPLE), itertools.repeat((IM_END, "<|im_end|>")))
    hit, n, kept = run_guards(stream)
    assert (hit.guard, n, kept) == ("end_marker", len(toks(SAMPLE)) + 1, SAMPLE)
