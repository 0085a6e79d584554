"""Bench: what ``--einvoice``'s default schema (``invoice-en16931``) costs against ``invoice``, side by side in one run.

Per schema:

* **prefix tokens**: the prompt's shared prefix (the system message: instruction and the schema's field list,
  ``pipeline.describe``), prefilled once per batch and cached after (``pipeline.prompt``), in the kit's tokenizer
  (the scripted models' byte-level BPE with Qwen's pre-tokenizer); **plain**: the same with the plain field list
  (``describe(dense=False)``, as before the dense one for large schemas);
* **answer tokens**: each sample's expected answer (``samples/expected/*.json`` and ``samples/expected/en16931/``)
  as a model that leaves out what is absent writes it (``extractor.testing.lean_answer``), compact JSON, summed
  over the 7 invoice samples (what a model generates, jump-forward's fed tokens included);
* **extra**: of those, the tokens spent on data that ``invoice``'s answer of the same sample lacks (each
  ``"name":value`` whose value ``invoice``'s answer does not hold: item ids, contacts, VAT categories, the buyer
  reference): the page's data that only the larger schema has a place for; the line below the table gives the
  answer ratio without it (what the larger schema's shape costs for the same data);
* **decided tokens**: of those, the tokens a model decides: each answer written token by token through the
  schema's grammar (llguidance, jump-forward on), counting the sampled tokens where the grammar allowed a token
  that writes other text (``city`` where ``country`` could follow, ``","`` where ``"}`` could); fed tokens, and
  sampled ones that only spell forced text another way (``":"`` where ``":`` and ``"`` are forced), are not
  decisions. (Until 2026-12-08 a token counted only where the grammar forced no byte at all, which missed a
  decision after a forced first byte: ``invoice``'s ``city``/``country`` after a forced ``c``.)
* the same three in an **even** tokenizer: the kit's trainer on the three built-in schemas alone. The kit's own
  BPE is trained on ``invoice`` and ``receipt`` (schemas, descriptions included) and on the ``invoice`` samples'
  answers, not on ``invoice-en16931`` (``testing.tokenizer.CORPUS_SCHEMAS``, kept so that kit records' counts
  stay), so ``invoice-en16931``'s own words and the data only its answers hold (contacts, references) cost about a
  token a character there while ``invoice``'s are whole tokens: the even columns compare the schemas on equal terms;
* on the kit's scripted ``qwen3_5`` model answering ``invoice-de-einfach``'s expected answer under each schema,
  leaving out what is absent (``omit_absent=True``; the record's data is the full answer all the same), constrained,
  jump-forward on, as ``extract`` runs: the record's prompt tokens, generated tokens and decode steps,
  the first extraction's seconds (grammar compiled, prefix prefilled) and the median of the next ``--repeat``
  (prefix cached), the schemas alternating.

The kit model is tiny (hidden 32): its seconds show the pipeline's and the constraint's own cost, not a real
model's; a real model's time scales with the token counts (prefill with the prefix, decode with the decode steps).

Usage::

    HF_HUB_OFFLINE=1 MLX_DISABLE_COMPILE=1 python bench/einvoice_schema_cost.py [--repeat N] [--json] [--answers]

Prints one Markdown table (JSON with ``--json``) and the ratio row, then the machine's load average; with
``--answers`` first each schema's answer of ``invoice-de-einfach`` as a lean model writes it, its decided tokens
marked ``|``; exit 0.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("MLX_DISABLE_COMPILE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from smoke import parse, prebuilt, smoke_option  # noqa: E402  (bench/ is the script's folder)

SCHEMAS = ("invoice", "invoice-en16931")
SAMPLE = "invoice-de-einfach"


def _answers(schema: str) -> dict[str, dict]:
    folder = ROOT / "samples" / "expected" / ("en16931" if schema == "invoice-en16931" else "")
    return {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("invoice-*.json"))}


def _compact(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class _Tokenizer:
    """A tokenizer for the counts: its ``tokenizers`` backend, byte table, llguidance tokenizer and grammars."""

    def __init__(self, data: dict) -> None:
        from tokenizers import Tokenizer

        self.text = json.dumps(data)
        self.backend = Tokenizer.from_str(self.text)
        self.grammars: dict[str, object] = {}

    @functools.cached_property
    def table(self) -> dict[int, bytes]:
        """Each token's bytes (built on first use: a replay's only)."""
        from extractor.testing.forcing import _byte_table

        return _byte_table(self.backend)

    def count(self, text: str) -> int:
        """The tokens of a text."""
        return len(self.backend.encode(text).ids)

    @functools.cached_property
    def llg(self):
        """The llguidance tokenizer (built on first use), the kit's end of turn its end token."""
        import llguidance

        from extractor.testing.tokenizer import IM_END

        return llguidance.LLTokenizer(self.text, eos_token=[IM_END])

    def grammar(self, schema: str):
        """The schema's grammar (the bounded schema that lets absent members be left out), compiled once."""
        from extractor.runners.constrain.grammar import compile_schema
        from extractor.schema import load_schema

        if schema not in self.grammars:
            self.grammars[schema] = compile_schema(load_schema(schema).schema, tokenizer=self.llg, lenient=True)
        return self.grammars[schema]


def _tokenizers(*, replay: bool) -> dict[str, _Tokenizer]:
    """The kit's tokenizer and (``replay``) the even one (see the module docstring)."""
    from extractor.schema import BUILTIN_SCHEMAS
    from extractor.testing.tokenizer import _base_tokenizer, schema_corpus, train_bpe, with_added_tokens

    kit = {"": _Tokenizer(_base_tokenizer())}
    if not replay:
        return kit
    return {**kit, "even": _Tokenizer(with_added_tokens(train_bpe(tuple(schema_corpus(BUILTIN_SCHEMAS)))))}


def decided(answer: str, schema: str, tokenizer: _Tokenizer) -> tuple[int, list[str]]:
    """(the tokens a model decides writing ``answer`` under ``schema``'s grammar, their texts): see the docstring."""
    import numpy as np

    from extractor.testing.forcing import _first_token

    table = tokenizer.table
    state = tokenizer.grammar(schema).start(jump_forward=True)
    target, done, pieces = answer.encode("utf-8"), b"", []
    while True:
        done += b"".join(table[token] for token in state.forced())
        if len(done) >= len(target):
            return len(pieces), pieces
        allowed = np.flatnonzero(np.unpackbits(state.mask().view(np.uint8), bitorder="little"))
        token = _first_token(tokenizer.backend, table, target[len(done) :])
        text = table[token]
        # a decision: the grammar allowed a token that writes other text (``city`` where ``country`` could follow);
        # tokens that only spell forced text another way (``":"`` for ``":`` + ``"``) are not
        if any(not (table[u].startswith(text) or text.startswith(table[u])) for u in allowed if u in table):
            pieces.append(text.decode("utf-8", "replace"))
        state.accept(token)
        done += text


def _counts(schema: str, answers: dict[str, dict], tokenizers: dict[str, _Tokenizer], *, replay: bool) -> dict:
    """The prefix, answer and decided token counts of one schema in each tokenizer (see the module docstring)."""
    from extractor.pipeline.describe import describe, prompt_rules
    from extractor.pipeline.prompt import DENSE_FIELDS_LINE, FIELDS_LINE, build_messages
    from extractor.schema import load_schema
    from extractor.testing import lean_answer

    loaded = load_schema(schema)
    prefix = build_messages(loaded, pages=1)[0].text
    plain = prefix.replace(describe(loaded.schema).text, describe(loaded.schema, dense=False).text)
    if describe(loaded.schema).dense:  # the prompt as it was before the dense list: its line and rules too
        plain = plain.replace(DENSE_FIELDS_LINE, FIELDS_LINE)
        plain = plain.replace(str(prompt_rules(loaded.schema)), str(loaded.schema.get("description")))
    lean = [lean_answer(a, schema) for a in answers.values()]
    row: dict = {}
    for name, tokenizer in tokenizers.items():
        tag = f"_{name}" if name else ""
        row[f"prefix{tag}"] = tokenizer.count(prefix)
        row[f"plain{tag}"] = tokenizer.count(plain)
        row[f"answer{tag}"] = sum(tokenizer.count(a) for a in lean)
        row[f"extra{tag}"] = sum(_extra_data(a, name_, tokenizer) for name_, a in zip(answers, lean, strict=True))
        if replay:
            row[f"decided{tag}"] = sum(decided(a, schema, tokenizer)[0] for a in lean)
    return row


def _leaves(value, key: str = ""):
    """(the member's name, the value) of each leaf of an answer."""
    if isinstance(value, dict):
        for name, sub in value.items():
            yield from _leaves(sub, name)
    elif isinstance(value, list):
        for sub in value:
            yield from _leaves(sub, key)
    else:
        yield key, value


def _extra_data(lean: str, sample: str, tokenizer: _Tokenizer) -> int:
    """The tokens a lean answer spends on data ``invoice``'s answer of the same sample does not hold (its
    ``"name":value`` pairs whose values ``invoice``'s leaves lack, counted one by one): the page's data that only
    the larger schema has a place for (0 for ``invoice`` itself)."""
    from extractor.testing import lean_answer

    held = [value for _, value in _leaves(json.loads(lean_answer(_answers("invoice")[sample], "invoice")))]
    count = 0
    for name, value in _leaves(json.loads(lean)):
        if value in held:
            held.remove(value)
        else:
            count += tokenizer.count(_compact({name: value})[1:-1])
    return count


def show_answers(tokenizers: dict[str, _Tokenizer]) -> None:
    """Print each schema's lean answer of the sample and its decided tokens (``--answers``)."""
    from extractor.testing import lean_answer

    for schema in SCHEMAS:
        answer = lean_answer(_answers(schema)[SAMPLE], schema)
        for name, tokenizer in tokenizers.items():
            count, pieces = decided(answer, schema, tokenizer)
            print(f"{schema}, {name or 'kit'} tokenizer: {count} decided\n{'|'.join(pieces)}\n")
    print(f"answers (lean):\n{chr(10).join(lean_answer(_answers(s)[SAMPLE], s) for s in SCHEMAS)}\n")


def measure(*, repeat: int, tokenizers: dict[str, _Tokenizer], replay: bool) -> list[dict]:
    """One row per schema (see the module docstring)."""
    from extractor import Extractor
    from extractor.testing import build_scripted_model

    rows: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="einvoice-schema-cost-") as tmp:
        kept = {"invoice": prebuilt("demo"), "invoice-en16931": prebuilt("en16931")}  # the tests' models
        models = {
            schema: kept[schema]
            or build_scripted_model(
                Path(tmp) / schema, answer=_compact(_answers(schema)[SAMPLE]), schema=schema, omit_absent=True
            ).path
            for schema in SCHEMAS
        }
        for schema in SCHEMAS:
            answers = _answers(schema)
            counts = _counts(schema, answers, tokenizers, replay=replay)
            rows[schema] = {"schema": schema, **counts, "samples": len(answers)}
            rows[schema]["runs"] = []
        extractors = {s: Extractor(model=str(models[s]), schema=s, isolate=False) for s in SCHEMAS}
        try:
            for _ in range(repeat + 1):  # the first run of each: cold (grammar, prefix)
                for schema in SCHEMAS:
                    start = time.perf_counter()
                    record = extractors[schema].extract(str(ROOT / "samples" / f"{SAMPLE}.pdf"))
                    seconds = time.perf_counter() - start
                    assert record.data == _answers(schema)[SAMPLE], (schema, record.status, record.errors)
                    rows[schema]["runs"].append(seconds)
                    rows[schema].update(
                        prompt_tokens=record.usage.prompt_tokens,
                        generated_tokens=record.usage.generated_tokens,
                        decode_steps=record.usage.decode_steps,
                    )
        finally:
            for ex in extractors.values():
                ex.close()
    out = []
    for row in rows.values():
        runs = row.pop("runs")
        out.append({**row, "first_s": round(runs[0], 3), "warm_median_s": round(statistics.median(runs[1:]), 3)})
    return out


KEYS = (
    "plain",
    "prefix",
    "plain_even",
    "prefix_even",
    "answer",
    "answer_even",
    "extra",
    "extra_even",
    "decided",
    "decided_even",
    "prompt_tokens",
    "generated_tokens",
    "decode_steps",
    "first_s",
    "warm_median_s",
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="warm extractions per schema (default 5)")
    parser.add_argument("--json", action="store_true", help="print JSON rows")
    parser.add_argument("--answers", action="store_true", help="first print the sample's answers, decisions marked")
    parser.add_argument(
        "--replay",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="the decided tokens and the even tokenizer's columns (~2 min a tokenizer: a mask per token)",
    )
    smoke_option(parser, repeat=1, replay=False)
    args = parse(parser)
    tokenizers = _tokenizers(replay=args.replay or args.answers)
    if args.answers:
        show_answers(tokenizers)
    rows = measure(repeat=max(1, args.repeat), tokenizers=tokenizers, replay=args.replay)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print("| schema | " + " | ".join(KEYS) + " |")
    print("|---|" + "---:|" * len(KEYS))
    for row in rows:
        print(f"| {row['schema']} | " + " | ".join(str(row.get(k, "")) for k in KEYS) + " |")
    base, big = rows
    print("| ratio | " + " | ".join(f"{big[k] / base[k]:.2f}x" if base.get(k) else "" for k in KEYS) + " |")
    for tag in ("", "_even"):
        if f"extra{tag}" in big:
            same = (big[f"answer{tag}"] - big[f"extra{tag}"]) / base[f"answer{tag}"]
            print(f"answer{tag} without the extra data: {same:.2f}x")
    print(f"\nload average (1, 5, 15 min) after the run: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
