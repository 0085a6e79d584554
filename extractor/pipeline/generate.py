"""One attempt's generation: the request as the pipeline makes it (stop set, constraint, sampling, logits
processors), the model's answer parsed, validated and given its verdict, and that attempt's record.

``generation_request`` is also how ``split`` asks the model its one-boolean question, so both calls are made alike.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping
from typing import Any

from extractor.inputs.document import Document
from extractor.pipeline.describe import prompt_warnings
from extractor.pipeline.job import DocumentJob
from extractor.pipeline.prompt import build_messages
from extractor.pipeline.retry import Attempt
from extractor.record import Record, Usage
from extractor.runners.base import GenerationRequest, Message, Runner
from extractor.runners.constrain.omit import complete
from extractor.runners.constrain.plan import plan_constraint
from extractor.schema import validate_data
from extractor.settings import Settings
from extractor.trust.evidence import field_tokens
from extractor.trust.parse import parse_answer
from extractor.trust.verdict import decide


def generation_request(
    runner: Runner,
    settings: Settings,
    *,
    schema: Mapping[str, Any],
    messages: tuple[Message, ...],
    images: tuple,
    attempt: Attempt,
    prefix_cache: bool = True,
):
    """A model call as the pipeline makes it: the stop set less ``drop_stop_ids``, the schema's constraint, the
    settings' sampling and logits processors (``extra_processors`` for this attempt, then ``request_processors``,
    which see the request).

    Args:
        runner: the loaded model.
        settings: sampling, constraint and logits-processor options.
        schema: the JSON Schema the answer must follow (constrained where the settings and runner allow).
        messages: the prompt.
        images: the page images, one per image the messages announce.
        attempt: which attempt this is (its number for ``extra_processors``), its ``max_tokens`` and guards.
        prefix_cache: whether the runner may reuse a cached prompt prefix.

    Returns:
        (the GenerationRequest, its stop set, the planned constraint).
    """
    stop = runner.stop_set.without(settings.drop_stop_ids)
    constraint = plan_constraint(runner, schema=schema, stop=stop, enabled=settings.constrained)
    request = GenerationRequest(
        messages=messages,
        images=images,
        max_tokens=attempt.max_tokens,
        stop=stop,
        temperature=settings.temperature,
        seed=settings.seed,
        monitor_factory=attempt.guards.factory(stop_texts=stop.texts),
        logits_processors=tuple(settings.extra_processors(attempt.number) if settings.extra_processors else ()),
        constraint=constraint.factory(jump_forward=settings.jump_forward),
        prefix_cache=prefix_cache,
        json_schema=constraint.server_schema,
        evidence=settings.evidence,
    )
    if settings.request_processors is not None:  # they see the request (its pages, its budget) before it runs
        request = dataclasses.replace(
            request, logits_processors=request.logits_processors + tuple(settings.request_processors(request))
        )
    return request, stop, constraint


def generate_record(
    job: DocumentJob,
    document: Document,
    attempt: Attempt,
    *,
    timings: dict,
    messages: tuple[Message, ...] | None = None,
) -> Record:
    """Run one attempt on a document's pages (all of them, or one window's) and make its record.

    Args:
        job: the document's job (model, schema, settings).
        document: the pages to show the model.
        attempt: how this attempt runs (``retry``).
        timings: the document's timings so far; this attempt's ``prefill_s`` / ``decode_s`` / ``total_s`` are
            written into it (a later attempt's overwrite an earlier one's).
        messages: the prompt (a window's); None: the document prompt with the attempt's feedback.

    Returns:
        The attempt's record, its status the answer's verdict (``verdict.decide``: what retries read).

    Raises:
        ModelError: the model failed.
    """
    runner, schema, settings = job.runner, job.schema, job.settings
    request, stop, constraint = generation_request(
        runner,
        settings,
        schema=schema.schema,
        messages=messages or build_messages(schema, pages=len(document.pages), feedback=attempt.feedback),
        images=tuple(p.image for p in document.pages),
        attempt=attempt,
        prefix_cache=settings.prefix_cache,
    )
    gen = runner.generate(request)
    written = parse_answer(gen.text)  # the members the model left out (``constrain.omit``) are put back as null
    parsed = dataclasses.replace(written, value=complete(written.value, schema.schema)) if written.found else written
    schema_errors = validate_data(parsed.value, schema) if parsed.found else []
    verdict = decide(finish_reason=gen.finish_reason, parsed=parsed, schema_errors=schema_errors, guard=gen.guard)
    warnings = document_warnings(document) + prompt_warnings(schema.schema)  # the prompt's note: once per record
    timings.update(prefill_s=gen.prefill_s, decode_s=gen.decode_s, total_s=time.perf_counter() - job.start)
    return Record(
        **job.base,
        status=verdict.status,
        sha256=document.sha256,
        pages=len(document.pages),
        data=verdict.data,
        errors=verdict.errors,
        warnings=warnings + constraint.warnings + gen.warnings + verdict.warnings,
        finish_reason=gen.finish_reason,
        stop_token_id=gen.stop_token_id,
        stop_token_ids=stop.ids,
        guard=gen.guard,
        usage=Usage(
            prompt_tokens=gen.prompt_tokens,
            image_tokens=gen.image_tokens,
            generated_tokens=gen.generated_tokens,
            cached_prompt_tokens=gen.cached_prompt_tokens,
            decode_steps=gen.decode_steps,
            decoding=dict(gen.decoding) if gen.decoding else None,
        ),
        timings={k: round(v, 4) for k, v in timings.items()},
        extra={
            "stop_sources": stop.to_dict()["sources"],
            **_runner_extra(gen),
            "guards": attempt.guards.report(fired=gen.guard),
            "constrained": constraint.active if gen.constrained is None else gen.constrained,
            **ocr_extra(document),
            # each written value's token evidence (a value left out has none); review adds grounding, checks and
            # confidence (``trust.confidence``)
            **({"fields": field_tokens(gen.evidence, gen.text, written.value)} if parsed.found else {}),
        },
    )


def ocr_extra(document: Document) -> dict:
    """The record's ``ocr`` entry: per page, why OCR read it, its mean confidence, lines and seconds (null for
    pages it did not read); absent when it read none."""
    if all(p.ocr is None for p in document.pages):
        return {}
    return {"ocr": [None if p.ocr is None else p.ocr.summary() for p in document.pages]}


def document_warnings(document: Document) -> tuple[dict, ...]:
    """The rasterizer's notes on the document and its pages, as warnings."""
    warnings = tuple({"code": "input", "message": w} for w in document.warnings)
    return warnings + tuple(
        {"code": "page", "message": f"page {p.index + 1}: {w}"} for p in document.pages for w in p.warnings
    )


def _runner_extra(gen) -> dict:
    """The record's facts about where the answer was generated: this process's peak memory, or the server that
    answered (its memory is not ours to report)."""
    if gen.server is None:
        return {"peak_memory_gb": round(gen.peak_memory_gb, 3)}
    return {"server": dict(gen.server)}


__all__ = ["document_warnings", "generate_record", "generation_request", "ocr_extra"]
