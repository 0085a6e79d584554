"""Shared test setup: offline settings, a session-wide tiny-model factory, ../shared, the sample invoice.

Fixtures:
    model_factory: ``model_factory.random(...)`` / ``model_factory.scripted(answer=..., ...)`` /
        ``model_factory.family(name, config_bug=...)`` build tiny mlx-vlm models (see :mod:`extractor.testing`)
        once per session, cached by their arguments. The returned
        directories are shared by every test: never change files in them; use ``model_factory.copy(model,
        dest)`` to get a private copy first.
    shared_dir: ``../shared`` (data and references); skips the test when it is absent (fails under ``CI=true``).
    invoice_answer: :data:`INVOICE_ANSWER`.

Constants:
    INVOICE_ANSWER: ``extractor.testing.SAMPLE_INVOICE`` as compact JSON text (~1,700 characters, valid against
        schemas/invoice.schema.json): the default answer of scripted models.
"""

from __future__ import annotations

import os

# Set before anything imports huggingface_hub / transformers / mlx: no network, no 7 s kernel compile.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("MLX_DISABLE_COMPILE", "1")
# The workers of `pytest -n N` (and every subprocess a test starts) share the cores: OpenBLAS's spinning threads
# would only fight each other (2 workers: ~23 % more wall time, most of it sys time). A preloaded OpenBLAS reads
# this at process start, so it is set here, in the controller, for the workers it spawns.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
if "EXTRACTOR_CACHE_DIR" not in os.environ:
    # The package's cache (CLDR tables) in a directory of this session, shared by its workers, not ~/.cache.
    import atexit
    import shutil as _shutil
    import tempfile

    os.environ["EXTRACTOR_CACHE_DIR"] = tempfile.mkdtemp(prefix="extractor-test-cache-")
    atexit.register(_shutil.rmtree, os.environ["EXTRACTOR_CACHE_DIR"], True)

import json  # noqa: E402
import shutil  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from helpers import shared_path  # noqa: E402

from extractor.testing import (
    ENDOFTEXT,
    MISSING,
    SAMPLE_INVOICE_ANSWER,
    FamilyModel,
    TinyModel,
    build_family_model,
    build_random_model,
    build_scripted_model,
    read_tiny_model,
)

INVOICE_ANSWER: str = SAMPLE_INVOICE_ANSWER

_Eos = int | Sequence[int] | None


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: takes more than ~20 s (deselect with -m 'not slow')")


# The modules that take longest (seconds on one xdist worker of `-n auto`, measured at 61888fb; the last round's
# files from CI's 1,167 s run, scaled by their CPU seconds alone before and after 53b5954-f4f8619), longest first:
# collected first, and with --no-loadscope-reorder (pyproject's addopts) sent to the workers first, so no long one
# runs alone at the end.
LONGEST_FIRST = (
    "test_benches",  # fourteen benches at their smoke size in the test process, on the session's models (~100 CPU-s)
    "test_faults",  # serve, two workers, watch and mail under a fault schedule, mostly waiting (~90 s)
    "test_ray",  # a Ray cluster, an mlx_vlm.server, two drivers and their actors killed (~100 s on an idle replica)
    "test_same_record",  # six documents four ways, a small scan and its copy OCR'd, on 1 and 2 render workers (~70 s)
    "test_testing_kit",
    "test_decode",
    "test_records_unchanged",  # the samples end to end, through the CLI and the API (~90 s)
    "test_serve",  # a server subprocess per case, kill -9 and restart (~60 s)
    "test_mail",  # a Dovecot, two extract mail subprocesses killed -9, a server restart (~45 s)
    "test_windows",  # a 30-page invoice in five windows, ~4,000 decode steps on the mistral3 kit model (~35 s)
    "test_intake_core",  # a toy source's process started four times, killed -9 at three steps (~30 s)
    "test_confidence",  # seven extractions of one page on the records test's model (~25 s)
    "test_pydantic_schema",  # builds its own scripted model (~20 s)
    "test_clients",  # two clients generated from the OpenAPI document, compiled and type-checked (~20 s)
    "test_einvoice_out",  # the demo model end to end with --einvoice, the CEN rules compiled (~17 s)
    "test_db_outage",  # a private PostgreSQL made, restarted and stopped twice for 4 s (~16 s)
    "test_learning_review",  # the review page in Chromium, and a real extract serve's tenant reviewed (~30 s)
    "test_layouts_corpus",  # the real groups: learn from each document, read the others (~25 s)
    "test_mail_outage",  # a private Dovecot stopped across ten reconnects (~20 s)
    "test_stores_full",  # a tmpfs filled under the ledgers, the register and the job store (~15 s)
    "test_testing_kit_schema",
    "test_watch",
    "test_pipeline",
    "test_families",
    "test_constrain",
    "test_hostile",
    "test_cli",
    "test_disk_full",  # a tmpfs filled, a batch in process and two intakes waiting for space (~10 s)
    "test_batching",
    "test_ocr",
    "test_testing_families",
    "test_endpoints",
    "test_doctor",
    "test_guards",
)


def pytest_collection_modifyitems(items: list) -> None:
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.module.__name__.rsplit(".", 1)[-1], len(rank)))  # stable


def _frozen(value: object) -> object:
    """A hashable form of an option value (lists become tuples, dicts their sorted JSON)."""
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True)
    return value


class ModelFactory:
    """Builds tiny models once per test session, cached by their arguments, under one temporary directory that
    every xdist worker of the session shares: the first worker to ask builds (under a file lock), the others wait
    for it and read its result (a scripted model with a schema takes ~5 s to build)."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self._cache: dict[tuple, TinyModel] = {}

    def _get(self, kind: str, build: Callable[..., TinyModel], options: dict) -> TinyModel:
        key = (kind, *sorted((name, _frozen(value)) for name, value in options.items()))
        if key not in self._cache:
            self._cache[key] = self._built(key, kind, build, options)
        return self._cache[key]

    def _built(self, key: tuple, kind: str, build: Callable[..., TinyModel], options: dict) -> TinyModel:
        import fcntl
        import hashlib
        import pickle

        name = f"{kind}-{hashlib.sha1(repr(key).encode()).hexdigest()[:12]}"
        done = self._root / f"{name}.pickle"
        self._root.mkdir(parents=True, exist_ok=True)
        with open(self._root / f"{name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
            if not done.exists():
                model = build(self._root / name, **options)
                done.with_suffix(".tmp").write_bytes(pickle.dumps(model))
                done.with_suffix(".tmp").replace(done)
            return pickle.loads(done.read_bytes())

    def random(
        self,
        *,
        config_eos: _Eos = ENDOFTEXT,
        text_eos: _Eos = ENDOFTEXT,
        generation_eos: object = MISSING,
        tokenizer_eos: str = "<|endoftext|>",
        vision_ids: bool = True,
        tokenizer_ids_ok: bool = True,
        seed: int = 0,
    ) -> TinyModel:
        """A random-weight model; arguments as :func:`extractor.testing.build_random_model`'s."""
        return self._get(
            "random",
            build_random_model,
            dict(
                config_eos=config_eos,
                text_eos=text_eos,
                generation_eos=generation_eos,
                tokenizer_eos=tokenizer_eos,
                vision_ids=vision_ids,
                tokenizer_ids_ok=tokenizer_ids_ok,
                seed=seed,
            ),
        )

    def scripted(
        self,
        *,
        answer: str = INVOICE_ANSWER,
        then: str = "im_end",
        schema=None,
        omit_absent: bool = False,
        repeat_line: str = '\n{"note": "see above"}',
        config_eos: _Eos = ENDOFTEXT,
        text_eos: _Eos = ENDOFTEXT,
        generation_eos: object = MISSING,
        tokenizer_eos: str = "<|endoftext|>",
        vision_ids: bool = True,
        tokenizer_ids_ok: bool = True,
        seed: int = 0,
    ) -> TinyModel:
        """A scripted model (default answer :data:`INVOICE_ANSWER`); arguments as
        :func:`extractor.testing.build_scripted_model`'s. Pass the ``schema`` (a name or a file path) whenever the
        model answers through the pipeline with constraints on: then its script is what jump-forward decoding feeds
        and samples. A schema file is built and cached by its content (its ``schema_name`` is ``inline``): modules
        that write the same schema to files of their own share one build (~5 s each)."""
        return self._get(
            "scripted",
            build_scripted_model,
            dict(
                answer=answer,
                then=then,
                schema=_schema_option(schema),
                omit_absent=omit_absent,
                repeat_line=repeat_line,
                config_eos=config_eos,
                text_eos=text_eos,
                generation_eos=generation_eos,
                tokenizer_eos=tokenizer_eos,
                vision_ids=vision_ids,
                tokenizer_ids_ok=tokenizer_ids_ok,
                seed=seed,
            ),
        )

    def family(self, name: str, *, config_bug: bool = False, seed: int = 0) -> FamilyModel:
        """A tiny random checkpoint of a model family; arguments as :func:`extractor.testing.build_family_model`'s."""
        return self._get(f"family-{name}", build_family_model, dict(family=name, config_bug=config_bug, seed=seed))

    @staticmethod
    def copy(model: TinyModel, dest: Path) -> TinyModel:
        """A private copy of ``model``'s directory at ``dest`` (for tests that change or delete its files)."""
        shutil.copytree(model.path, dest)
        return read_tiny_model(dest)


def _schema_option(schema: object) -> object:
    """A scripted model's ``schema`` as the factory keys and builds it: a file's content (a dict), a name as is."""
    if schema is None or isinstance(schema, dict):
        return schema
    path = Path(str(schema))
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else str(schema)


@pytest.fixture(scope="session")
def model_factory(tmp_path_factory: pytest.TempPathFactory) -> ModelFactory:
    base = tmp_path_factory.getbasetemp()
    # under xdist each worker's base is <session>/popen-gwN: the session folder above them is shared
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    return ModelFactory(shared / "tiny-models")


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    return shared_path()


@pytest.fixture(scope="session")
def invoice_answer() -> str:
    return INVOICE_ANSWER


KEPT_RUNNERS = 4  # loaded tiny models a worker keeps for reuse (~40 MB each: the real vocabulary's head, hidden 32)


@pytest.fixture(autouse=True, scope="session")
def _reuse_loaded_models():
    """Every ``Extractor`` that loads an in-process model for a directory the session has loaded before (the same
    files, unchanged) gets that runner again, its prefix cache emptied, as a long-running process would: loading a
    tiny model and its load-time probes cost ~3 s, and the CLI tests load the same few models again and again.
    Changed, copied or broken directories load afresh (the key holds every file's size and mtime), and so does one
    named another way (a link to it: the runner's ``model_id``, which records report, is the name it was loaded by)."""
    from collections import OrderedDict

    from extractor import api

    real = api.load_runner
    kept: OrderedDict[tuple, object] = OrderedDict()

    def load_runner(settings):
        path = Path(settings.model)
        if settings.endpoint or not path.is_dir():
            return real(settings)
        files = tuple(sorted((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in path.iterdir() if p.is_file()))
        key = (settings.model, str(path.resolve()), settings.batch, files)
        runner = kept.get(key)
        if runner is None:
            runner = kept[key] = real(settings)
            while len(kept) > KEPT_RUNNERS:
                kept.popitem(last=False)
        else:
            kept.move_to_end(key)
            runner.clear_prefix_cache()
        return runner

    api.load_runner = load_runner
    yield
    api.load_runner = real


@pytest.fixture(autouse=True)
def _wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The commands a test runs print to a terminal wide enough for any temporary path: rich folds a long line,
    inside a path too, wherever the width falls (set per test: pytest's own progress line reads it too)."""
    monkeypatch.setenv("COLUMNS", "1000")
