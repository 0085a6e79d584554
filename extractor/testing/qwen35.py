"""Tiny, offline checkpoints of the real mlx-vlm ``qwen3_5`` architecture, for tests without weights.

The models built here are loadable by the real ``mlx_vlm.load`` (and ``python -m mlx_vlm.server``), use the
real Qwen3.5 special-token ids (``<|endoftext|>`` 248044, ``<|im_start|>`` 248045, ``<|im_end|>`` 248046,
``<|vision_start|>`` 248053, ``<|vision_end|>`` 248054, ``<|image_pad|>`` 248056), a vocabulary of 248,320,
float32 weights (bf16 matmuls are slow on CPUs), tied embeddings (as Qwen3.5's small models) and a preprocessor
that keeps images tiny (at most 128 x 128 px, 16 image tokens). The default size is hidden 32 x 2 layers
(linear attention, full attention): a directory is about 40 MB and builds in about a second (a schema-aware
script: 3-5 s, mostly llguidance's tokenizers). ``size="mid"`` is hidden 768 x 8 layers (full attention every
4th layer, 6 attention heads of 128, 6 key / 12+ value heads of 128 in the linear-attention layers, MLP 2,048),
about 1 GB and ~10 s to build, for benchmarks: every layer computes, so prefill is dominated by matmuls and
decoding by weight reads.

Two kinds:

* :func:`build_random_model` — random weights: generates arbitrary tokens (for plumbing, timing of a pipeline,
  constrained decoding).
* :func:`build_scripted_model` — weights programmed so that *any* prompt (and any image), decoded greedily or
  sampled at temperature 1 through ``mlx_vlm.generate`` / ``stream_generate`` / ``generate_step``, emits a
  chosen answer text exactly, then a chosen continuation forever (``then``): ``<|im_end|>`` (the real
  end-of-turn token), ``<|endoftext|>``, a whitespace token, a repeated line, or the *text* ``<|im_end|>``
  spelled with ordinary tokens. With the default eos settings (config.json ``eos_token_id`` 248044 only,
  tokenizer ``eos_token`` ``<|endoftext|>``) mlx-vlm 0.7.10 does not stop on ``<|im_end|>``: plain
  ``generate`` runs to ``max_tokens``, which reproduces the never-stopping bug. How answers become tokens:
  :mod:`extractor.testing.script`; how the weights follow them: :mod:`extractor.testing.register`.

Each directory also holds ``program.json`` (what it was built to emit, which tokens are fed, the schema, the
build options and the measured margin); :func:`read_tiny_model` reads it back.
:data:`~extractor.testing.samples.SAMPLE_INVOICE` and ``SAMPLE_INVOICE_ANSWER`` are a realistic invoice (valid
against schemas/invoice.schema.json) and its compact JSON text, shared by tests and benchmarks.

The checkpoint's files but the weights and program.json (config.json, chat template, tokenizer, preprocessors):
:mod:`extractor.testing.qwen35_files`. The shell entry point: :mod:`extractor.testing.cli`
(``python -m extractor.testing``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from extractor.errors import ModelError, UsageError
from extractor.testing.checkpoint import EosValue, _eos_json, _random_parameters, _write_json, _write_weights
from extractor.testing.qwen35_files import (
    HIDDEN_SIZE,
    MISSING,
    _Missing,
    _model_config,
    _model_size,
    _value_heads,
    _write_common,
)
from extractor.testing.register import _DEFAULT, LOGIT_SCALE, _program_register, _register_pairs
from extractor.testing.script import (
    THEN_CHOICES,
    SchemaValue,
    _plain_script,
    _resolve_schema,
    _schema_script,
    _Script,
    lean_answer,
)
from extractor.testing.tokenizer import (
    ENDOFTEXT,
    IM_END,
    _base_tokenizer,
    _write_tokenizer,
)

PROGRAM_FILE = "program.json"


@dataclass(frozen=True)
class TinyModel:
    """A tiny model directory and what it was built to emit.

    Attributes:
        path: the model directory (pass it to ``mlx_vlm.load``).
        answer: the scripted answer text; None for a random model.
        answer_token_ids: every token the answer is emitted as, in order, fed ones included (empty for a
            random model).
        then: what follows the answer (one of ``THEN_CHOICES``); None for a random model.
        continuation_token_ids: the ids of one cycle of the continuation, repeated forever after the answer
            (e.g. ``(248046,)`` for ``then="im_end"``, the repeated line's ids for ``then="repeat"``).
        fed: one flag per answer token: True where a jump-forward runtime feeds it (llguidance forces it) instead
            of sampling it; all False without a schema.
        schema_name: ``invoice``, ``receipt``, a schema file's path, ``inline`` (a dict), or None (no schema).
        schema: the JSON Schema the script follows, or None.
    """

    path: Path
    answer: str | None
    answer_token_ids: tuple[int, ...]
    then: str | None
    continuation_token_ids: tuple[int, ...]
    fed: tuple[bool, ...] = ()
    schema_name: str | None = None
    schema: Mapping[str, Any] | None = field(default=None, hash=False)

    @property
    def fed_count(self) -> int:
        """How many answer tokens a jump-forward runtime feeds rather than samples."""
        return sum(self.fed)

    def expected_token_ids(self, count: int) -> tuple[int, ...]:
        """The first ``count`` ids the scripted model emits: the answer, then the continuation cycle.

        Args:
            count: how many ids (e.g. the ``max_tokens`` of a generation).

        Returns:
            The ids, in order.

        Raises:
            UsageError: the model is a random model (it has no script).
        """
        if self.answer is None:
            raise UsageError("a random tiny model has no scripted output", source=self.path)
        ids = list(self.answer_token_ids[:count])
        cycle = self.continuation_token_ids
        while len(ids) < count:
            ids.append(cycle[(len(ids) - len(self.answer_token_ids)) % len(cycle)])
        return tuple(ids)


def _instantiate(cfg: dict):
    from mlx_vlm.models import qwen3_5
    from mlx_vlm.utils import update_module_configs

    model_config = qwen3_5.ModelConfig.from_dict(cfg)
    model_config = update_module_configs(
        model_config, qwen3_5, cfg, ["text", "vision", "perceiver", "projector", "audio"]
    )
    return qwen3_5.Model(model_config)


def _settings(*, config_eos, text_eos, generation_eos, tokenizer_eos, vision_ids, tokenizer_ids_ok, seed) -> dict:
    """The build options as program.json records them; raises UsageError for a malformed one."""
    if not isinstance(tokenizer_eos, str) or not tokenizer_eos:
        raise UsageError(f"tokenizer_eos: expected a token string such as '<|im_end|>', got {tokenizer_eos!r}")
    return {
        "config_eos": _eos_json(config_eos, "config_eos"),
        "text_eos": _eos_json(text_eos, "text_eos"),
        "generation_config": generation_eos is not MISSING,
        "generation_eos": None if generation_eos is MISSING else _eos_json(generation_eos, "generation_eos"),
        "tokenizer_eos": tokenizer_eos,
        "vision_ids": vision_ids,
        "tokenizer_ids_ok": tokenizer_ids_ok,
        "seed": seed,
    }


def build_random_model(
    path: str | Path,
    *,
    config_eos: EosValue = ENDOFTEXT,
    text_eos: EosValue = ENDOFTEXT,
    generation_eos: EosValue | _Missing = MISSING,
    tokenizer_eos: str = "<|endoftext|>",
    vision_ids: bool = True,
    tokenizer_ids_ok: bool = True,
    seed: int = 0,
) -> TinyModel:
    """Write a tiny random-weight ``qwen3_5`` checkpoint (hidden 32, float32, ~40 MB) to ``path``.

    Args:
        path: the directory to write (created; existing model files in it are overwritten).
        config_eos: config.json top-level ``eos_token_id``: an id, a list of ids, or None to omit the key.
        text_eos: config.json ``text_config.eos_token_id``: an id, a list of ids, or None to omit the key.
        generation_eos: :data:`MISSING` writes no generation_config.json; None writes one without an
            ``eos_token_id``; an id or a list of ids writes that value.
        tokenizer_eos: tokenizer_config.json ``eos_token`` (a token string, e.g. ``"<|im_end|>"``).
        vision_ids: False omits ``vision_start_token_id``/``vision_end_token_id`` from config.json, so
            mlx-vlm falls back to its defaults, which collide with ``<|im_start|>``/``<|im_end|>``.
        tokenizer_ids_ok: False writes a tokenizer_config.json whose ``added_tokens_decoder`` swaps the ids of
            ``<|im_end|>`` and ``<|object_ref_start|>`` (248046/248047), disagreeing with tokenizer.json. The
            model still loads; transformers then maps ``<|im_end|>`` to 248047.
        seed: seed of the weights (numpy; mlx's global random state is not reseeded).

    Returns:
        The :class:`TinyModel` (``answer`` None, no token ids).

    Raises:
        UsageError: an option has the wrong type.
    """
    import numpy as np

    path = Path(path)
    settings = _settings(
        config_eos=config_eos,
        text_eos=text_eos,
        generation_eos=generation_eos,
        tokenizer_eos=tokenizer_eos,
        vision_ids=vision_ids,
        tokenizer_ids_ok=tokenizer_ids_ok,
        seed=seed,
    )  # checks the options before any file is written
    _write_common(path, settings)
    model = _instantiate(json.loads((path / "config.json").read_text(encoding="utf-8")))
    model.load_weights(_random_parameters(model, np.random.default_rng(seed)), strict=False)
    _write_weights(model, path)
    program = {
        "kind": "random",
        "answer": None,
        "answer_chunks": [],
        "answer_token_ids": [],
        "fed": [],
        "then": None,
        "continuation_chunks": [],
        "continuation_token_ids": [],
        "schema_name": None,
        "schema": None,
        "hidden_size": HIDDEN_SIZE,
        "layers": 2,
        **settings,
    }
    _write_json(path / PROGRAM_FILE, program)
    return TinyModel(path=path, answer=None, answer_token_ids=(), then=None, continuation_token_ids=())


def build_scripted_model(
    path: str | Path,
    *,
    answer: str,
    then: str = "im_end",
    repeat_line: str = '\n{"note": "see above"}',
    schema: SchemaValue = None,
    omit_absent: bool = False,
    size: str = "small",
    hidden_size: int | None = None,
    layers: int | None = None,
    config_eos: EosValue = ENDOFTEXT,
    text_eos: EosValue = ENDOFTEXT,
    generation_eos: EosValue | _Missing = MISSING,
    tokenizer_eos: str = "<|endoftext|>",
    vision_ids: bool = True,
    tokenizer_ids_ok: bool = True,
    seed: int = 0,
) -> TinyModel:
    """Write a ``qwen3_5`` checkpoint that emits ``answer`` exactly, then ``then`` forever.

    Whatever the prompt and image, greedy decoding and sampling at temperature 1 emit the answer's tokens
    (``TinyModel.answer_token_ids``), then the continuation cycle (``TinyModel.continuation_token_ids``) until
    something stops the generation. With a ``schema`` the tokens are what a constrained runtime with jump-forward
    decoding sees (``TinyModel.fed`` marks the ones it feeds), so records are the same with constraints on or
    off, and with jump-forward on or off. The eos options are the same as :func:`build_random_model`'s; with the
    defaults nothing in the continuation ``"im_end"`` stops mlx-vlm 0.7.10 (the never-stopping bug).

    Args:
        path: the directory to write (created; existing model files in it are overwritten).
        answer: the text to emit (non-empty; 1,700 characters make ~280 plain tokens or ~420 schema-aware ones,
            about half of those fed).
        then: what follows the answer, forever: ``"im_end"`` (token 248046), ``"endoftext"`` (248044),
            ``"whitespace"`` (the token ``" "``), ``"repeat"`` (the chunks of ``repeat_line``, cycled), or
            ``"marker_text"`` (the text ``<|im_end|>`` as ordinary, non-special vocabulary tokens).
        repeat_line: the line cycled by ``then="repeat"`` (ignored otherwise).
        schema: None (plain chunks), ``"invoice"``, ``"receipt"``, a schema file's path, or a schema dict; the
            answer must be valid JSON text for it in the grammar's compact form.
        omit_absent: emit the answer as a model that leaves out what is absent writes it (``lean_answer``: the
            required members that are ``null`` left out; the record is the same, with fewer generated tokens).
            Needs ``schema``.
        size: ``"small"`` (hidden 32, 2 layers) or ``"mid"`` (hidden 768, 8 layers, for benchmarks).
        hidden_size: overrides the size's hidden size (8-127, or a multiple of 128).
        layers: overrides the size's number of layers (at least 2; full attention every 4th from 4 layers on).
        config_eos: see :func:`build_random_model`.
        text_eos: see :func:`build_random_model`.
        generation_eos: see :func:`build_random_model`.
        tokenizer_eos: see :func:`build_random_model`.
        vision_ids: see :func:`build_random_model`.
        tokenizer_ids_ok: see :func:`build_random_model`.
        seed: seed of the weights and of the scripted vectors.

    Returns:
        The :class:`TinyModel`.

    Raises:
        UsageError: empty answer or repeat line, an unknown ``then`` or size, an answer that does not follow the
            schema, or an option of the wrong type.
        SchemaError: the schema cannot be read or compiled.
        ModelError: the answer cannot be scripted reliably (logit margin too small, chunks or pairs collide).
    """
    from extractor.runners.stopping import resolve_stop_set

    if not isinstance(answer, str) or not answer:
        raise UsageError("answer: the scripted answer must be a non-empty string")
    if then not in THEN_CHOICES:
        raise UsageError(f"then: expected one of {', '.join(THEN_CHOICES)}, got {then!r}")
    if then == "repeat" and (not isinstance(repeat_line, str) or not repeat_line):
        raise UsageError("repeat_line: must be a non-empty string for then='repeat'")
    hidden, depth = _model_size(size, hidden_size, layers)
    schema_name, schema_json = _resolve_schema(schema)
    if omit_absent:
        answer = lean_answer(answer, schema_json)
    path = Path(path)
    settings = _settings(
        config_eos=config_eos,
        text_eos=text_eos,
        generation_eos=generation_eos,
        tokenizer_eos=tokenizer_eos,
        vision_ids=vision_ids,
        tokenizer_ids_ok=tokenizer_ids_ok,
        seed=seed,
    )  # checks the options before any file is written
    _write_common(path, settings)
    base = _base_tokenizer()
    if schema_json is None:
        script = _plain_script(answer, then=then, repeat_line=repeat_line, base_vocab=base["model"]["vocab"])
        _write_tokenizer(path, script.vocab)
    else:  # the stop set comes from the files just written, as a runtime resolves it
        stop_ids = resolve_stop_set(path).ids
        script = _schema_script(
            path, answer, schema_json, then=then, repeat_line=repeat_line, base=base, stop_ids=stop_ids
        )
    cfg = {"hidden_size": hidden, "layers": depth, "config_eos": config_eos, "text_eos": text_eos}
    pairs, margin = _program_weights(path, script, cfg=cfg, vision_ids=vision_ids, seed=seed)
    program = {
        "kind": "scripted",
        "answer": answer,
        "answer_chunks": list(script.texts),
        "answer_token_ids": list(script.ids),
        "fed": list(script.fed),
        "fed_count": sum(script.fed),
        "then": then,
        "continuation_chunks": list(script.continuation_texts),
        "continuation_token_ids": list(script.cycle),
        "repeat_line": repeat_line if then == "repeat" else None,
        "schema_name": schema_name,
        "schema": schema_json,
        "first_token_id": script.ids[0],
        "hidden_size": hidden,
        "layers": depth,
        "register_pairs": pairs,
        "min_logit_margin": round(margin, 2),
        "logit_scale": LOGIT_SCALE,
        **settings,
    }
    _write_json(path / PROGRAM_FILE, program)
    return TinyModel(
        path=path,
        answer=answer,
        answer_token_ids=script.ids,
        then=then,
        continuation_token_ids=script.cycle,
        fed=script.fed,
        schema_name=schema_name,
        schema=schema_json,
    )


def _program_weights(path: Path, script: _Script, *, cfg: dict, vision_ids: bool, seed: int) -> tuple[int, float]:
    """Write config.json and weights that emit the script: random weights, the register programmed over them.

    Args:
        cfg: ``hidden_size``, ``layers``, ``config_eos`` and ``text_eos`` as the builder was given them.

    Returns:
        The number of register pairs and the smallest logit margin of the programmed steps.
    """
    import numpy as np

    # The register sequence: the prompt's last (default) token, the answer, one cycle and its first token again.
    sequence = [_DEFAULT, *script.ids, *script.cycle, script.cycle[0]]
    writers = [True, *script.writers, *(True,) * (len(script.cycle) + 1)]
    texts = dict(zip(script.ids, script.texts, strict=False)) | {IM_END: "<|im_end|>", ENDOFTEXT: "<|endoftext|>"}
    pairs, positions = _register_pairs(sequence, writers, texts)
    config = _model_config(
        config_eos=_eos_json(cfg["config_eos"], "config_eos"),
        text_eos=_eos_json(cfg["text_eos"], "text_eos"),
        vision_ids=vision_ids,
        hidden_size=cfg["hidden_size"],
        layers=cfg["layers"],
        value_heads=_value_heads(cfg["hidden_size"], len(pairs)),
    )
    _write_json(path / "config.json", config)
    model = _instantiate(config)
    rng = np.random.default_rng(seed)
    # embed_tokens is programmed below: drawing (and evaluating) 16M+ random values is waste
    model.load_weights(_random_parameters(model, rng, skip=("language_model.model.embed_tokens.weight",)), strict=False)
    margin = _program_register(model, sequence=sequence, writers=writers, pairs=pairs, positions=positions, rng=rng)
    _write_weights(model, path)
    return len(pairs), margin


def read_tiny_model(path: str | Path) -> TinyModel:
    """Read back what a tiny model directory was built to emit (its ``program.json``).

    Args:
        path: a directory written by :func:`build_random_model` or :func:`build_scripted_model` (or the CLI).

    Returns:
        The :class:`TinyModel`.

    Raises:
        ModelError: the directory has no readable program.json.
    """
    path = Path(path)
    try:
        program = json.loads((path / PROGRAM_FILE).read_text(encoding="utf-8"))
        return TinyModel(
            path=path,
            answer=program["answer"],
            answer_token_ids=tuple(program["answer_token_ids"]),
            then=program["then"],
            continuation_token_ids=tuple(program["continuation_token_ids"]),
            fed=tuple(program.get("fed", ())),
            schema_name=program.get("schema_name"),
            schema=program.get("schema"),
        )
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ModelError(f"not a tiny test model ({PROGRAM_FILE}: {exc})", source=path) from exc


def _script_answer(path: Path) -> str:
    """A script file's answer: its text, trailing newlines dropped; a ``.json`` file is compacted, the way a model
    under constrained decoding writes JSON (so the README's demo answers the same with constraints on or off)."""
    text = path.read_text(encoding="utf-8").rstrip("\r\n")
    if path.suffix == ".json":
        try:
            return json.dumps(json.loads(text), ensure_ascii=False, separators=(",", ":"))
        except ValueError:
            pass  # not JSON after all: script it verbatim
    return text


def scripted_answer_ids(path: str | Path) -> tuple[int, ...]:
    """The ids a scripted tiny model emits its answer as (empty for a random model).

    Args:
        path: a tiny model directory.

    Returns:
        The answer's token ids, in order.

    Raises:
        ModelError: the directory has no readable program.json.
    """
    return read_tiny_model(path).answer_token_ids
