"""In-process continuous batching (``runners.batching``): documents decoded together give, token for token, the
records they give one at a time (greedy), on qwen3_5 and another kit family; a finished sequence frees its slot for
the next document; one sequence's model error is that document's error record while the others finish.

Each document's behaviour is chosen by its page's shape (the request's image): one-page PDFs of different widths.
"""

from __future__ import annotations

import json
import threading

import pytest
from helpers import CII, CII_PRINTED, einvoice_pdf, forcing, settings_for, text_pdf, token_ids

from extractor import Extractor
from extractor.testing import force_answer

NOTE = {
    "title": "note",
    "type": "object",
    "required": ["n"],
    "additionalProperties": False,
    # a note the pages do not print: not a key field (a custom schema's required strings are, by default)
    "properties": {"n": {"type": "string", "maxLength": 40, "not": {"const": "bad"}, "x-extractor-key": False}},
}
ANSWER = '{"n":"a fine note"}'
IM_END = 248046
WIDTHS = {"answer": 300, "guard": 360, "truncated": 420, "invalid": 480, "error": 540, "long": 600}


def outcome(record) -> dict:
    """Everything but timings and memory, which sequences shared its steps, and which document paid for the
    shared prefix (the first one admitted: batched, the order documents arrive in)."""
    out = record.to_dict()
    out.pop("timings", None), out.pop("peak_memory_gb", None)
    usage = {
        k: v for k, v in out.pop("usage").items() if k not in ("peak_memory_gb", "decoding", "cached_prompt_tokens")
    }
    return {**out, "usage": usage}


def shape(request) -> int:
    """The behaviour key of a request: its page's width at the documents' height (200 pt)."""
    width, height = request.images[0].size
    return round(200 * width / height)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    root = tmp_path_factory.mktemp("batching")
    schema = root / "note.schema.json"
    schema.write_text(json.dumps(NOTE))
    docs = {}
    for name, width in WIDTHS.items():
        docs[name] = root / f"{name}.pdf"
        docs[name].write_bytes(text_pdf([f"Note {name}"], size=(width, 200)))
    docs["embedded"] = einvoice_pdf(root / "embedded.pdf", lines=CII_PRINTED, xml=CII)
    return {"schema": schema, "docs": docs}


@pytest.fixture(scope="module")
def qwen(model_factory, files):
    """The scripted note model, loaded twice: one document at a time, and batching 2."""
    from extractor.runners.mlx.runner import MlxRunner

    tiny = model_factory.scripted(answer=ANSWER, schema=str(files["schema"]))
    return tiny, MlxRunner(model=str(tiny.path)), MlxRunner(model=str(tiny.path), batch=2)


def behaviours(tiny):
    """request_processors per document: the script, then whitespace (a guard ends it), a run-on string (truncated,
    then the retry with more tokens answers), an invalid first answer (the retry answers), a processor that
    raises (a model error)."""
    spaces = forcing(token_ids(tiny, ANSWER), token_ids(tiny, " "))
    runaway = forcing(token_ids(tiny, '{"n":"'), token_ids(tiny, "ab"))
    invalid = forcing(token_ids(tiny, '{"n":"bad"}'), (IM_END,))
    calls: dict[int, int] = {}

    def broken(tokens, logits):
        raise RuntimeError("boom")

    def factory(request):
        key = shape(request)
        calls[key] = calls.get(key, 0) + 1
        if key == WIDTHS["guard"]:
            return (spaces,)
        if key == WIDTHS["truncated"] and request.max_tokens <= 16:
            return (runaway,)
        if key == WIDTHS["invalid"] and calls[key] == 1:
            return (invalid,)
        if key == WIDTHS["error"]:
            return (broken,)
        return ()

    return factory


def run(runner, tiny, files, names, **changes):
    changes = {"schema": str(files["schema"]), **changes}
    settings = settings_for(tiny, isolate=False, ocr="never", retries=1, **changes)
    extractor = Extractor(settings, runner=runner)
    return list(extractor.extract_many([str(files["docs"][name]) for name in names]))


def answer_waits_for_another():
    """request_processors where the "answer" document decodes on only once another document has been asked (so
    the two decode together)."""
    second = threading.Event()

    def waiting(tokens, logits):
        assert second.wait(60)
        return logits

    def factory(request):
        if shape(request) == WIDTHS["answer"]:
            return (waiting,)
        second.set()
        return ()

    return factory


MIXED = ["answer", "guard", "truncated", "embedded", "invalid", "error"]


def test_a_mixed_batch_gives_the_serial_records(qwen, files):
    """Unconstrained (forced answers may leave the grammar): stop token, guard, truncated then retried, invalid
    then retried, and a model error, two at a time; with the invoice schema, an embedded e-invoice needs no model
    beside one that does."""
    tiny, serial, batched = qwen
    assert (serial.concurrent, batched.concurrent, batched.batch) == (False, True, 2)
    got = {}
    for name, runner in (("serial", serial), ("batched", batched)):
        got[name] = run(
            runner, tiny, files, MIXED, constrained=False, max_tokens=16, request_processors=behaviours(tiny)
        )
    assert [outcome(r) for r in got["batched"]] == [outcome(r) for r in got["serial"]]
    records = dict(zip(MIXED, got["batched"], strict=False))
    assert records["embedded"].extra["data_source"] == "model"  # the note schema: the model reads it
    assert (records["answer"].finish_reason, records["answer"].data) == ("stop", {"n": "a fine note"})
    assert (records["guard"].finish_reason, records["guard"].guard) == ("guard", "json_closed")
    assert [a["status"] for a in records["truncated"].extra["attempts"]] == ["truncated", "ok"]
    assert [a["status"] for a in records["invalid"].extra["attempts"]] == ["invalid", "ok"]
    assert records["error"].status == "error" and "boom" in records["error"].errors[0]["message"]
    assert batched._loop.merged and not batched._batch_reasons  # the layers run merged on qwen3_5 (its probe)
    decoded = ("answer", "guard", "truncated", "invalid")
    for name in decoded:
        assert records[name].status in ("ok", "review") and records[name].usage.decoding["reasons"] == [], name
    # usage.decoding is the last call's: a retry may run alone once the others are done (which documents overlap
    # depends on when each arrives; test_constrained_jump_forward_batch_... pins the arrivals and checks batch 2)
    assert max(records[name].usage.decoding["batch"] for name in decoded) == 2
    # (which passes ran merged depends on when each document arrives: test_constrained_jump_forward_batch_... pins
    # the arrivals and checks merged_steps)
    assert all(
        (r.usage.decoding["batch"], r.usage.decoding["merged_steps"]) == (1, 0)
        for r in got["serial"]
        if r.usage.decoding
    )
    names = ["embedded", "answer"]
    one, two = (run(runner, tiny, files, names, schema="invoice", max_tokens=4) for runner in (serial, batched))
    assert [outcome(r) for r in two] == [outcome(r) for r in one]
    assert [(r.extra["data_source"], r.usage.generated_tokens) for r in two] == [("embedded_xml", 0), ("model", 4 + 8)]


def test_constrained_jump_forward_batch_frees_slots_and_keeps_seeds(qwen, files):
    """With the schema's masks and jump-forward (ragged forced runs), a long answer beside short ones: the short
    documents are asked only once the long one decodes, so each enters a running batch, the second in the slot the
    first frees; sampling with a seed gives the serial tokens too."""
    tiny, serial, batched = qwen
    text = '{"n":"' + "x" * 30 + '"}'
    names = ["long", "answer", "guard"]  # no processors but the long one's: the others answer the script

    def factory_for():
        decoding = threading.Event()
        long = force_answer(serial.tokenizer, text, end_token_id=IM_END)

        def signalling(tokens, logits):
            decoding.set()
            return long(tokens, logits)

        def factory(request):
            if shape(request) == WIDTHS["long"]:
                return (signalling,)
            assert decoding.wait(60)
            return ()

        return factory

    joined, split = batched._loop.joined, batched._loop.split  # (split: as timed at load)
    got, serial_runs = {}, {}
    try:
        # forced runs in their own passes, and split one token per merged step: both exact, whatever the timing chose
        for runs, changes in ((False, {}), (True, {}), (True, {"temperature": 0.8, "seed": 5})):
            batched._loop.split = runs
            key = json.dumps(changes, sort_keys=True)  # the serial records of these settings, run once
            if key not in serial_runs:
                serial_runs[key] = run(
                    serial, tiny, files, names, max_tokens=60, request_processors=factory_for(), **changes
                )
            one = serial_runs[key]
            two = got[runs] = run(
                batched, tiny, files, names, max_tokens=60, request_processors=factory_for(), **changes
            )
            assert [outcome(r) for r in two] == [outcome(r) for r in one]
            assert [r.usage.decoding["batch"] for r in two] == [2, 2, 2]
    finally:
        batched._loop.split = split
    for runs, two in got.items():
        assert two[0].data == json.loads(text) and two[0].usage.generated_tokens > 3 * two[1].usage.generated_tokens
        assert two[1].usage.decoding["jump_forward"] and two[1].usage.decode_steps < two[1].usage.generated_tokens
        assert two[1].usage.decoding["forced_feed"] == ("per_token" if runs else batched.decoding.forced_feed)
    # own passes: one-token feeds went through the layers merged, forced runs (and the prompt's last embedding)
    # alone; split: every token of a forced run in a merged pass, no sampling until the run is in
    assert 0 < got[False][1].usage.decoding["merged_steps"] < got[False][1].usage.decode_steps
    assert got[True][1].usage.decoding["merged_steps"] > got[False][1].usage.decoding["merged_steps"]
    assert batched._loop.joined - joined == 6  # both short ones of all three runs entered beside the long one


def test_another_family_batches_exactly(model_factory, files):
    """gemma3 (kit checkpoint, its config bug): forced answers of different lengths end on <end_of_turn>,
    constrained, two at a time, as one at a time."""
    from extractor.runners.mlx.runner import MlxRunner

    family = model_factory.family("gemma3", config_bug=True)
    serial, batched = MlxRunner(model=str(family.path)), MlxRunner(model=str(family.path), batch=2)
    assert batched.batch == 2
    answers = {
        WIDTHS["answer"]: '{"n":"a"}',
        WIDTHS["truncated"]: '{"n":"mid note"}',
        WIDTHS["guard"]: '{"n":"a much longer note: it outlasts the rest"}',
    }

    def factory_for():
        """The short documents are asked only once the long one decodes (so each decodes beside it, whatever the
        load: without this, two short ones could start and end together before the long one is rendered)."""
        decoding = threading.Event()

        def factory(request):
            forced = force_answer(serial.tokenizer, answers[shape(request)], end_token_id=family.end_of_turn_id)
            if shape(request) != WIDTHS["guard"]:
                assert decoding.wait(60)
                return (forced,)

            def signalling(tokens, logits):
                decoding.set()
                return forced(tokens, logits)

            return (signalling,)

        return factory

    names = ["guard", "answer", "truncated"]
    one = run(serial, family, files, names, max_tokens=80, request_processors=factory_for())
    two = run(batched, family, files, names, max_tokens=80, request_processors=factory_for())
    assert [outcome(r) for r in two] == [outcome(r) for r in one]
    assert [(r.status, r.data, r.stop_token_id) for r in two] == [
        ("ok", json.loads(answers[WIDTHS[n]]), family.end_of_turn_id) for n in names
    ]
    assert [r.usage.decoding["batch"] for r in two] == [2, 2, 2]


def test_batching_and_merged_layers_off_where_their_probes_differ(model_factory, monkeypatch):
    """A head that gives other logits stacked than alone: one document at a time, and the records say why. A merged
    layer pass that gives other logits than each sequence alone: documents batched, each through its own layer pass,
    and the records say that."""
    from extractor.runners.mlx import batching, merged
    from extractor.runners.mlx.runner import MlxRunner

    tiny = model_factory.random()
    monkeypatch.setattr(batching, "BATCH_TOLERANCE", -1.0)  # any difference, even none, is too much
    runner = MlxRunner(model=str(tiny.path), batch=4)
    assert (runner.batch, runner.concurrent) == (1, False)
    assert runner._batch_reasons[0].startswith("batching off: the stacked head differs")
    extractor = Extractor(settings_for(tiny, isolate=False, ocr="never", max_tokens=4), runner=runner)
    record = extractor.extract(text_pdf(["Invoice 1"], size=(300, 200)))
    assert record.usage.decoding["batch"] == 1
    assert record.usage.decoding["reasons"][-1].startswith("batching off: the stacked head differs")

    monkeypatch.undo()
    monkeypatch.setattr(merged, "MERGED_TOLERANCE", -1.0)
    runner.plan_batch(2)  # the same loaded model decided again
    assert (runner.batch, runner._loop.merged) == (2, False)
    assert runner._batch_reasons == (
        "layers per sequence: the merged pass differs from one sequence alone (max |dlogit| 0)",
    )
    factory = answer_waits_for_another()

    extractor = Extractor(
        settings_for(tiny, isolate=False, ocr="never", max_tokens=12, batch=2, request_processors=factory),
        runner=runner,
    )
    pdfs = [text_pdf(["Invoice 1"], size=(WIDTHS[name], 200)) for name in ("answer", "guard")]
    records = list(extractor.extract_many(pdfs))
    assert [(r.usage.decoding["batch"], r.usage.decoding["merged_steps"]) for r in records] == [(2, 0), (2, 0)]
    assert all(
        r.usage.decoding["reasons"][-1].startswith("layers per sequence: the merged pass differs") for r in records
    )


class _FailingLayers:
    """The runner's forward passes with a layer pass that raises (a model error in the merged pass)."""

    def __init__(self, forward):
        self.lm = forward.lm

    def hidden(self, *_, **__):
        raise RuntimeError("boom")


def test_merged_rows_stay_merged_give_each_cache_back_and_fail_honestly(qwen):
    """``merged.MergedRows`` on the kit's qwen3_5: the same two sequences step on their held caches; released,
    each cache continues as if it had decoded alone; a failed pass over freshly merged caches leaves each sequence
    its own cache, untouched; over held ones it says the caches are lost."""
    from types import SimpleNamespace

    import mlx.core as mx

    from extractor.runners.mlx.loop import prefilled, probe_prompt
    from extractor.runners.mlx.merged import MergedRows, RowsLost

    _, _, runner = qwen
    forward = runner._forward
    prompts = [
        probe_prompt(runner._model, runner._processor, runner._render_user(text))
        for text in ("Extract the note.", "Extract the note of this page, please.")
    ]

    def fresh():
        # each sequence as MergedRows sees a decoder: its cache (None while the rows hold it)
        return [SimpleNamespace(cache=prefilled(forward, *prompt)) for prompt in prompts]

    alone, together, rows = fresh(), fresh(), MergedRows()
    tokens = [[prompt[0][:, -1:], mx.array([[11]]), mx.array([[13]])] for prompt in prompts]
    for step in range(3):
        feeds = [t[step] for t in tokens]
        expected = [forward.head(forward.hidden(ids, seq.cache)) for seq, ids in zip(alone, feeds, strict=False)]
        got = forward.head(rows.hidden(forward, together, feeds, [{}, {}]))
        assert rows.holds(together) and [seq.cache for seq in together] == [None, None]
        for row, want in enumerate(expected):
            assert mx.allclose(got[row], want[0], atol=1e-4).item(), (step, row)
    rows.release()
    assert not rows.holds(together)
    assert [seq.cache[-1].offset for seq in together] == [seq.cache[-1].offset for seq in alone]
    for seq, other in zip(together, alone, strict=False):  # released, each goes on alone as if it had never been merged
        ids = mx.array([[17]])
        assert mx.allclose(
            forward.head(forward.hidden(ids, seq.cache)), forward.head(forward.hidden(ids, other.cache)), atol=1e-4
        ).item()

    untouched = fresh()
    offsets = [seq.cache[-1].offset for seq in untouched]
    with pytest.raises(RuntimeError, match="boom"):
        rows.hidden(_FailingLayers(forward), untouched, [mx.array([[11]])] * 2, [{}, {}])
    assert [seq.cache[-1].offset for seq in untouched] == offsets and not rows.holds(untouched)
    rows.hidden(forward, untouched, [mx.array([[11]])] * 2, [{}, {}])
    with pytest.raises(RowsLost, match="the merged pass failed: RuntimeError: boom"):
        rows.hidden(_FailingLayers(forward), untouched, [mx.array([[13]])] * 2, [{}, {}])
    assert rows.cache is None and rows.arrays() == []


def test_the_cli_and_the_watcher_keep_a_batch_in_flight(qwen, files, tmp_path, monkeypatch):
    """``extract --batch 2`` and ``extract watch`` with a batching extractor: every document once, each decoded
    beside another (the extractor keeps 2 x batch documents in flight)."""
    from typer.testing import CliRunner

    from extractor.cli.commands import app, dispatch_args
    from extractor.jobs.watch import WatchSettings, watch

    tiny, _, batched = qwen
    names = ["answer", "guard", "truncated", "invalid"]  # no processors here: each answers the script
    docs = [str(files["docs"][n]) for n in names]
    result = CliRunner().invoke(
        app,
        dispatch_args(
            [
                *docs,
                "--model",
                str(tiny.path),
                "--schema",
                str(files["schema"]),
                "--no-isolate",
                "--batch",
                "2",
                "--jsonl",
                str(tmp_path / "a.jsonl"),
            ]
        ),
    )
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in (tmp_path / "a.jsonl").read_text().splitlines()]
    assert [(line["source"], line["status"], line["data"]) for line in lines] == [
        (d, "ok", {"n": "a fine note"}) for d in docs
    ]
    assert max(line["usage"]["decoding"]["batch"] for line in lines) == 2
    # without --batch, several documents load a batching runner (BATCH_JOB_DEFAULT, at most one slot per
    # document; whether two overlap depends on when each arrives): the same records; --batch 1 is one at a time
    import extractor.api as api

    seen, loaded, load = {}, [], api.load_runner
    monkeypatch.setattr(api, "load_runner", lambda settings: loaded.append(settings.batch) or load(settings))
    for name, extra in (("default", []), ("serial", ["--batch", "1"])):
        result = CliRunner().invoke(
            app,
            dispatch_args(
                [
                    *docs[:3],
                    "--model",
                    str(tiny.path),
                    "--schema",
                    str(files["schema"]),
                    "--no-isolate",
                    *extra,
                    "--jsonl",
                    str(tmp_path / f"{name}.jsonl"),
                ]
            ),
        )
        assert result.exit_code == 0, result.output
        seen[name] = [json.loads(line) for line in (tmp_path / f"{name}.jsonl").read_text().splitlines()]
    assert [(line["source"], line["data"]) for line in seen["default"]] == [
        (line["source"], line["data"]) for line in seen["serial"]
    ]
    assert loaded == [3, 1]

    extractor = Extractor(
        settings_for(tiny, schema=str(files["schema"]), isolate=False, ocr="never", batch=2), runner=batched
    )
    assert extractor.concurrency == 4
    inbox, out = tmp_path / "inbox", tmp_path / "out"
    inbox.mkdir()
    for name in names:
        (inbox / f"{name}.pdf").write_bytes(files["docs"][name].read_bytes())
    records = []
    summary = watch(
        inbox, out, extractor=extractor, on_record=records.append, settings=WatchSettings(once=True, settle=0.1)
    )
    assert (summary.to_dict()["extracted"], sorted(r.status for r in records)) == (4, ["ok"] * 4)
    assert max(r.usage.decoding["batch"] for r in records) == 2


def test_documents_in_flight_render_in_input_order_on_the_render_threads(qwen, files, tmp_path, monkeypatch):
    """Not isolated, with 2 x batch documents in flight: each is rendered once, started in input order, on at most
    ``workers`` render threads (not every in-flight document at once, which held the first ones back from the
    model); a missing file is its own error record among the others."""
    from extractor.inputs.renderer import LocalRenderer

    tiny, _, batched = qwen
    rendered = []

    def spy(self, source, *, raster):  # the real render, with who did it and in which order
        rendered.append((threading.current_thread().name, source))
        return real(self, source, raster=raster)

    real = LocalRenderer.render
    monkeypatch.setattr(LocalRenderer, "render", spy)
    names = ["answer", "guard", "truncated", "invalid"]
    sources = (
        [str(files["docs"][n]) for n in names[:2]]
        + [str(tmp_path / "missing.pdf")]
        + [str(files["docs"][n]) for n in names[2:]]
    )
    expected = [(s, "error", None) if s.endswith("missing.pdf") else (s, "ok", {"n": "a fine note"}) for s in sources]
    for workers in (1, 2):  # one thread: exactly in input order; two: each once, on those two threads
        rendered.clear()
        extractor = Extractor(
            settings_for(tiny, schema=str(files["schema"]), isolate=False, ocr="never", batch=2, workers=workers),
            runner=batched,
        )
        records = list(extractor.extract_many(sources))
        assert [(r.source, r.status, r.data) for r in records] == expected
        assert records[2].errors[0]["code"] == "not_found"
        assert {thread for thread, _ in rendered} <= {f"render_{i}" for i in range(workers)}
        assert sorted(source for _, source in rendered) == sorted(sources)
        if workers == 1:
            assert [source for _, source in rendered] == sources


@pytest.mark.parametrize(
    "documents,given,changes,expected",
    [
        (8, False, {}, 4),  # a batch job in-process: BATCH_JOB_DEFAULT
        (3, False, {}, 3),  # no more slots than documents
        (1, False, {}, 1),  # one document gains nothing
        (8, True, {}, 1),  # --batch 1 given: as given
        (8, True, {"batch": 2}, 2),  # --batch 2 given: as given
        (8, False, {"endpoint": ("http://a:1",)}, 1),  # endpoints: the servers batch
        (8, False, {"split": "auto"}, 1),  # split files are extracted one at a time
    ],
)
def test_the_batch_command_batches_several_documents_unless_told(documents, given, changes, expected):
    from extractor.settings import Settings, job_batch

    assert job_batch(Settings(**changes), documents=documents, given=given).batch == expected


def test_a_pass_lost_on_held_caches_fails_those_documents_and_the_loop_goes_on(qwen, files, monkeypatch):
    """In the running loop: the merged pass fails on caches held merged from the step before (``RowsLost``), so
    both documents in it become error records saying so; the loop lives on and the next document answers."""
    tiny, _, batched = qwen
    assert batched._loop.merged
    factory = answer_waits_for_another()
    merged_passes, real = [], batched._forward.hidden

    def hidden(ids, cache, **kwargs):  # the real pass, but the second merged one raises (its caches held)
        if ids.shape[0] == 2:
            merged_passes.append(ids.shape)
            if len(merged_passes) == 2:
                raise RuntimeError("lost")
        return real(ids, cache, **kwargs)

    monkeypatch.setattr(batched._forward, "hidden", hidden)
    records = run(
        batched, tiny, files, ["answer", "guard"], constrained=False, max_tokens=12, request_processors=factory
    )
    lost = {
        "code": "model_error",
        "message": f"{tiny.path}: generation failed: RowsLost: the merged pass failed: RuntimeError: lost",
    }
    assert [(r.status, r.errors) for r in records] == [("error", (lost,))] * 2
    assert len(merged_passes) == 2
    monkeypatch.undo()
    (after,) = run(batched, tiny, files, ["truncated"], constrained=False)
    assert (after.status, after.data) == ("ok", {"n": "a fine note"})
