"""The runner's own decoding loop: the prefix cache (exact, thread-safe, bounded) and jump-forward (fewer forward
passes, the same record), on scripted tiny models of the real architecture."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from helpers import fed_stepwise, settings_for

from extractor import Extractor

ROOT = Path(__file__).resolve().parents[1]
DOCS = [str(ROOT / "samples" / name) for name in ("invoice-de-einfach.pdf", "invoice-us.png", "invoice-jp-yen.pdf")]
# A short invoice, valid against the invoice schema (one line, nulls where allowed; an umlaut for multi-byte text):
# the loop's mechanics do not depend on the answer's length, and a 420-token answer costs ~5 s a document here.
SHORT_INVOICE = {
    "invoice_number": "RE-2024-00817",
    "issue_date": "2024-03-14",
    "due_date": None,
    "currency": "EUR",
    "seller": {"name": "Müller Bürobedarf GmbH", "address": None, "vat_id": "DE123456788", "tax_id": None},
    "buyer": {"name": "Schmidt & Partner", "address": None, "vat_id": None, "tax_id": None},
    "line_items": [
        {
            "description": "Toner HP 305A schwarz",
            "quantity": 2,
            "unit": "Stk",
            "unit_price": 64.9,
            "tax_rate": 19,
            "amount": 129.8,
        }
    ],
    "subtotal": 129.8,
    "tax_lines": [{"rate": 19, "base": 129.8, "amount": 24.66}],
    "total": 154.46,
    "prepaid_amount": None,
    "amount_due": 154.46,
    "payment_terms": None,
    "bank_account": None,
}
SHORT_ANSWER = json.dumps(SHORT_INVOICE, ensure_ascii=False, separators=(",", ":"))


def outcome(record) -> tuple:
    """What must not change with the cache or jump-forward: data, status, how it ended, the tokens it took."""
    return (
        record.data,
        record.status,
        record.finish_reason,
        record.stop_token_id,
        record.guard,
        record.usage.generated_tokens,
        record.usage.prompt_tokens,
        [e["code"] for e in record.errors],
        [w["code"] for w in record.warnings],
        [a["status"] for a in record.extra.get("attempts", [])],
    )


@pytest.fixture(scope="module")
def invoice_model(model_factory):
    return model_factory.scripted(answer=SHORT_ANSWER, schema="invoice")


@pytest.fixture(scope="module")
def runner(invoice_model):
    from extractor.runners.mlx.runner import MlxRunner

    return MlxRunner(model=str(invoice_model.path))


@pytest.mark.parametrize(
    "timings, feed",
    [
        ({"one_pass": 36.4, "per_token": 15.7}, "per_token"),  # the kit's qwen3_5 (Gated-DeltaNet) on the CPU
        ({"one_pass": 10.0, "per_token": 7.6}, "one_pass"),  # faster, but within the noise of a busy machine
        ({"one_pass": 2.5, "per_token": 6.5}, "one_pass"),  # an attention model
        ({"error": "RuntimeError: no"}, "one_pass"),  # the timing failed: as the probe checked it
    ],
)
def test_forced_runs_go_one_token_per_pass_only_where_clearly_faster(timings, feed):
    from extractor.runners.mlx.plan import feed_choice

    assert feed_choice(timings) == feed


def test_both_feeds_of_forced_runs_give_the_same_records(runner):
    """Jump-forward's forced runs fed in one pass or one token per pass (``generate_step``'s way): the same
    records and the same sampled steps, fewer than the tokens."""
    extractor = Extractor(settings_for(runner.model_dir, max_tokens=600), runner=runner)
    one, per = (fed_stepwise(runner, stepwise, lambda: extractor.extract(DOCS[0])) for stepwise in (False, True))
    assert outcome(per) == outcome(one) and one.finish_reason == "stop"
    assert per.usage.decode_steps == one.usage.decode_steps < one.usage.generated_tokens


def shared_prefix_length(runner) -> int:
    """The prompt's shared prefix counted on its own: the system turn and the opening of the user turn, rendered
    by the model's chat template and tokenized (independent of how the runner finds it)."""
    from extractor.pipeline.prompt import build_messages
    from extractor.runners.chat_template import template_options
    from extractor.schema import load_schema

    system = build_messages(load_schema("invoice"), pages=1)[0]
    text = runner.tokenizer.apply_chat_template(
        [{"role": "system", "content": system.text}], tokenize=False, **template_options(runner.template_text)
    )
    return len(runner.tokenizer.encode(text + "<|im_start|>user\n", add_special_tokens=False))


def test_later_documents_prefill_only_their_images_and_suffix(runner):
    extractor = Extractor(settings_for(runner.model_dir, max_tokens=600), runner=runner)
    runner.clear_prefix_cache()
    first, second, third = (extractor.extract(doc) for doc in DOCS)
    prefix = shared_prefix_length(runner)
    assert prefix > 500  # the instruction and the schema's field list (636 tokens for invoice: docs/throughput.md)
    assert first.usage.cached_prompt_tokens == 0
    for record in (second, third):
        assert record.usage.cached_prompt_tokens == prefix, record.usage
        text_prefilled = record.usage.prompt_tokens - record.usage.cached_prompt_tokens - record.usage.image_tokens
        assert 0 < text_prefilled <= 64, record.usage
    assert first.data == second.data == third.data == SHORT_INVOICE


NOTE = {
    "title": "note",
    "type": "object",
    "required": ["n"],
    "additionalProperties": False,
    "properties": {"n": {"type": "string", "not": {"const": "bad"}}},
}


def _retry_with_feedback(model_factory, tmp_path):
    """A first answer forced to break the schema ("not", which the grammar cannot express): the retry's prompt
    carries the errors as feedback after the images, so it still starts with the cached prefix."""
    from helpers import forcing, token_ids

    schema = tmp_path / "note.schema.json"
    schema.write_text(json.dumps(NOTE))
    tiny = model_factory.scripted(answer='{"n":"a fine note"}', schema=str(schema))
    forced = token_ids(tiny, '{"n":"bad"}')
    return tiny, {
        "schema": str(schema),
        "retries": 1,
        "max_tokens": 60,
        "extra_processors": lambda attempt: (forcing(forced, (248046,)),) if attempt == 1 else (),
    }


@pytest.mark.parametrize("case", ["answer then <|im_end|>", "whitespace loop", "truncated", "retry with feedback"])
def test_records_are_identical_with_and_without_the_cache(model_factory, tmp_path, case):
    if case == "whitespace loop":
        tiny, changes = (
            model_factory.scripted(answer=SHORT_ANSWER, then="whitespace"),
            {"constrained": False, "max_tokens": 400},
        )
    elif case == "truncated":
        tiny, changes = model_factory.scripted(answer=SHORT_ANSWER, schema="invoice"), {"max_tokens": 40}
    elif case == "retry with feedback":
        tiny, changes = _retry_with_feedback(model_factory, tmp_path)
    else:
        tiny, changes = model_factory.scripted(answer=SHORT_ANSWER, schema="invoice"), {"max_tokens": 600}
    records = {}
    for cache in (True, False):
        extractor = Extractor(settings_for(tiny, prefix_cache=cache, **changes))
        records[cache] = [extractor.extract(doc) for doc in DOCS[:2]]  # the second one reuses the prefix
    assert [outcome(r) for r in records[True]] == [outcome(r) for r in records[False]]
    assert records[True][1].usage.cached_prompt_tokens > 0 and records[False][1].usage.cached_prompt_tokens == 0
    if case == "retry with feedback":  # the feedback sits after the images: the retry reuses the prefix too
        assert [a["status"] for a in records[True][0].extra["attempts"]] == ["invalid", "ok"]
        assert records[True][0].usage.cached_prompt_tokens > 0  # the retry of the first document hit the cache


def test_the_cache_is_exact_across_threads(runner):
    extractor = Extractor(settings_for(runner.model_dir, max_tokens=600), runner=runner)
    runner.clear_prefix_cache()
    docs = DOCS[:2]  # two threads, two different documents
    serial = [outcome(extractor.extract(doc)) for doc in docs]
    runner.clear_prefix_cache()
    results: dict[int, tuple] = {}

    def work(i: int) -> None:
        results[i] = outcome(extractor.extract(docs[i]))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(docs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    assert [results[i] for i in range(len(docs))] == serial


def test_jump_forward_feeds_forced_tokens_and_keeps_the_record(invoice_model, runner):
    records = {}
    for jump in (True, False):
        extractor = Extractor(settings_for(invoice_model, jump_forward=jump, max_tokens=600), runner=runner)
        records[jump] = extractor.extract(DOCS[0])
    on, off = records[True], records[False]
    assert outcome(on) == outcome(off)
    assert on.data == SHORT_INVOICE and on.finish_reason == "stop"
    generated = on.usage.generated_tokens
    assert generated == len(invoice_model.answer_token_ids) + 1  # the script, then <|im_end|>
    assert off.usage.decode_steps == generated  # one step per token
    assert on.usage.decode_steps == generated - invoice_model.fed_count  # fed tokens cost no step of their own
    assert on.usage.decode_steps <= 0.75 * generated


def test_jump_forward_respects_max_tokens_and_guards(invoice_model, runner):
    """Forced tokens count against max_tokens exactly as sampled ones (the same truncated record either way)."""
    for limit in (3, 37, 120):  # the short answer is 146 tokens
        got = [
            outcome(
                Extractor(
                    settings_for(invoice_model, jump_forward=jump, max_tokens=limit, retries=0), runner=runner
                ).extract(DOCS[0])
            )
            for jump in (True, False)
        ]
        assert got[0] == got[1] and got[0][5] == limit, (limit, got)


# --------------------------------------------------------------------------------------------- the cache itself


def _kv(tokens: int):
    import mlx.core as mx
    from mlx_vlm.models.cache import ArraysCache, KVCache

    kv, arrays = KVCache(), ArraysCache(size=2)
    kv.update_and_fetch(mx.ones((1, 2, tokens, 8)), mx.ones((1, 2, tokens, 8)))
    arrays.cache = [mx.zeros((1, 3, 4)), mx.zeros((1, 2, 4, 4))]
    return [kv, arrays]


def _fresh():
    from mlx_vlm.models.cache import ArraysCache, KVCache

    return [KVCache(), ArraysCache(size=2)]


def test_prefix_cache_is_bounded_and_least_recently_used_goes_first():
    from extractor.runners.mlx.prefix_cache import PrefixCache

    cache = PrefixCache(entries=2)
    cache.keep((1,), _kv(4))
    cache.keep((2,), _kv(5))
    assert cache.restore((1,), _fresh) is not None  # (1,) is now the most recently used
    cache.keep((3,), _kv(6))
    assert (cache.restore((2,), _fresh), len(cache)) == (None, 2)
    assert cache.restore((1,), _fresh)[0].offset == 4 and cache.restore((3,), _fresh)[0].offset == 6
    small = PrefixCache(max_bytes=600)  # one snapshot: keys + values 2 x 256 bytes, the states 176 bytes
    small.keep((1,), _kv(4))
    assert len(small) == 0


def test_a_restored_cache_never_writes_into_the_snapshot():
    import mlx.core as mx

    from extractor.runners.mlx.prefix_cache import PrefixCache

    cache = PrefixCache()
    cache.keep((7,), _kv(4))
    first = cache.restore((7,), _fresh)
    first[0].update_and_fetch(mx.full((1, 2, 1, 8), 9.0), mx.full((1, 2, 1, 8), 9.0))
    first[1].cache[0] = mx.full((1, 3, 4), 5.0)
    second = cache.restore((7,), _fresh)
    assert second[0].offset == 4 and float(second[0].keys.max()) == 1.0
    assert float(second[1].cache[0].max()) == 0.0


def test_records_report_the_cache_and_the_steps(runner):
    extractor = Extractor(settings_for(runner.model_dir, max_tokens=600), runner=runner)
    record = json.loads(extractor.extract(DOCS[0]).to_json())
    assert set(record["usage"]) == {
        "prompt_tokens",
        "image_tokens",
        "generated_tokens",
        "cached_prompt_tokens",
        "decode_steps",
        "decoding",
    }
    # qwen3_5 passes the load-time probe: our loop with every feature (how forced runs are fed is timed at load)
    assert runner.decoding.forced_feed in ("per_token", "one_pass")
    assert record["usage"]["decoding"] == {
        "path": "fast",
        "prefix_cache": True,
        "jump_forward": True,
        "forced_feed": runner.decoding.forced_feed,
        "batch": 1,
        "merged_steps": 0,
        "reasons": [],
    }
