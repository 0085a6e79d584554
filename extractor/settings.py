"""Every setting of an extraction and its default, named once.

The Python API (``Extractor(settings, **overrides)``), the batch command and ``extract watch`` all build one
``Settings``; the command line only changes the defaults listed in :data:`COMMAND_LINE_DEFAULTS`, and the batch
command its ``batch`` for a job of several documents (``job_batch``). The watcher's own
behaviour (settle time, back-off, ...) lives in ``jobs.watch.inbox.WatchSettings``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from extractor.einvoice import check_formats
from extractor.errors import UsageError
from extractor.inputs.document import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_PAGES,
    DEFAULT_VISION_TOKENS,
    RasterSettings,
    parse_pages,
)
from extractor.inputs.ocr import DEFAULT_MODE as DEFAULT_OCR
from extractor.inputs.ocr import DEFAULT_THREADS as DEFAULT_OCR_THREADS
from extractor.inputs.ocr import PLAN_SHARE, OcrSettings, resolve_mode
from extractor.inputs.ocr import check_mode as check_ocr_mode
from extractor.inputs.pool import DEFAULT_TIMEOUT
from extractor.runners.base import LogitsProcessor
from extractor.runners.guards import GuardSettings
from extractor.runners.modelfiles import DEFAULT_MODEL
from extractor.runners.openai.runner import DEFAULT_READ_TIMEOUT
from extractor.schema import schema_reference


class DefaultSchema(str):
    """The ``schema`` setting left at its default, told apart from an explicit ``"invoice"`` (it is that string):
    with ``einvoice`` formats asked for, it becomes ``EINVOICE_SCHEMA``, whose terms make valid e-invoices."""


DEFAULT_SCHEMA = DefaultSchema("invoice")
EINVOICE_SCHEMA = "invoice-en16931"  # ``schema`` when left at its default and ``einvoice`` formats are asked for
DEFAULT_EINVOICE: tuple[str, ...] = ()  # ``einvoice``: no e-invoice written unless asked for
DEFAULT_EINVOICE_ATTACHMENTS = False  # ``einvoice_attachments``: a received e-invoice's files written only on request
DEFAULT_SPLIT_QUESTIONS = 8  # ``split_questions``: unsure pages the model is asked about per file at most
DEFAULT_MAX_TOKENS = 2048
SERVER_KINDS = ("vllm", "sglang", "mlx", "openai")
IMAGE_FORMATS = ("png", "jpeg")
# The settings that only matter with endpoints (``Settings.fingerprint`` adds them only then).
REMOTE_FIELDS = ("endpoint", "concurrency", "server_kind", "api_key_env", "stop_ids", "image_format", "read_timeout")
# Bump when the prompt's wording or layout changes: records made with another prompt are not reused by a resumed
# batch (``Settings.fingerprint``).
PROMPT_VERSION = 2
# Long documents (``windows``): pages per generation, measured with bench/long.py (README "Long documents"); a
# window never exceeds MAX_WINDOW_PAGES, and the vision-token budget below may make it smaller.
DEFAULT_WINDOW_PAGES = 4
MAX_WINDOW_PAGES = 8
DEFAULT_WINDOW_VISION_TOKENS = 8 * 1300  # image tokens of one window at most (8 pages at the default 1,300)
WINDOW_OVERLAP = 1  # pages a window shares with the one before it (a line split over two pages is seen whole)
# In-process documents decoded together (``runners.batching``): measured with bench/throughput.py (README
# "Throughput"); 1 decodes one document at a time.
DEFAULT_BATCH = 1
MAX_BATCH = 16
# The batch command's --batch when not given, for two or more documents on an in-process model: bench/throughput.py
# measured 2.10x the documents per minute of one at a time at 4 (the mid model, 8 samples), ~0-2 s of load-time
# probes. An Extractor keeps DEFAULT_BATCH: it loads its model before it knows how many documents will come, and
# one document alone gains nothing.
BATCH_JOB_DEFAULT = 4
SPLIT_MODES = ("auto", "never")
DEFAULT_SPLIT = "never"
# ``passes``: 2 decodes a second, sampled answer for every document (``pipeline.passes``) at PASS_TEMPERATURE (the
# model's own distribution, as the token evidence reads it), seeded with the run's seed + PASS_SEED_OFFSET (a seed of
# None counts as 0), so a record is reproducible per seed; each field gets ``agreement``. The data stays the first.
DEFAULT_PASSES = 1
MAX_PASSES = 2
PASS_TEMPERATURE = 1.0
PASS_SEED_OFFSET = 1
# Per-field confidence (``trust.confidence``): they change a record's status, not its answer; counted in the
# fingerprint only when changed, so records made before they existed keep their fingerprints.
# The invoice register's settings: what it finds belongs to the moment of reading, not the answer (not fingerprinted).
REGISTER_FIELDS = ("register", "require_known_supplier", "duplicate_window", "learn")
DEFAULT_DUPLICATE_WINDOW = 7  # days (register.checks.DEFAULT_WINDOW_DAYS)
# Learned layouts (issue 51, docs/learning.md): with a register, a known supplier's layout reads the document first
# (``read``), or only joins the model's reading as evidence (``check``); ``off``: never tried. Without a register no
# layout exists, so records are as before whatever this says.
LEARN_MODES = ("read", "check", "off")
DEFAULT_LEARN = "read"
# ``extract watch`` / ``extract mail --hook``: seconds one run of the hook command may take before it is killed
# (``jobs.feeds.FeedSettings``); a minute is ample for a script that posts one record, and bounds a hung one.
DEFAULT_HOOK_TIMEOUT = 60.0
# Every intake's (``extract watch``, ``extract mail``: ``jobs.intake``) retry and stop rules, named once:
DEFAULT_ERROR_RETRIES = 2  # retries of a document's transient failure (model error, time-out, crashed worker)
DEFAULT_BACKOFF = 5.0  # seconds before the first retry (and the first reconnect); doubled for each further one
DEFAULT_MAX_BACKOFF = 300.0  # the longest wait between two retries (or reconnects)
DEFAULT_STOP_TIMEOUT = 10.0  # seconds a document may still run after SIGINT / SIGTERM before it is abandoned
# One configuration for every command (``cli.configfile``): the file looked for in the working directory, the
# variable naming another, and the prefix of every option's variable (``--max-tokens``: ``EXTRACT_MAX_TOKENS``).
CONFIG_FILE = "extract.toml"
CONFIG_ENV = "EXTRACT_CONFIG"
ENV_PREFIX = "EXTRACT_"
CONFIDENCE_FIELDS = ("auto_accept", "calibration", "evidence", "passes")
CONFIDENCE_DEFAULTS = {"auto_accept": None, "calibration": None, "evidence": True, "passes": DEFAULT_PASSES}
# The long-document settings (``Settings.fingerprint`` adds them only when one differs from its default).
LONG_FIELDS = ("window_pages", "window_vision_tokens", "split", "split_questions")
LONG_DEFAULTS = {
    "window_pages": DEFAULT_WINDOW_PAGES,
    "window_vision_tokens": DEFAULT_WINDOW_VISION_TOKENS,
    "split": DEFAULT_SPLIT,
    "split_questions": DEFAULT_SPLIT_QUESTIONS,
}


@dataclass(frozen=True)
class Settings:
    """Everything that shapes one extraction.

    Attributes:
        model: local model directory or cached hub id.
        schema: ``invoice``, ``receipt``, a schema file path, a Pydantic v2 model class or ``module:Class``
            naming one (its ``model_json_schema()`` is the schema; ``Record.parsed`` is then an instance of it;
            the built-ins' own ``Invoice`` / ``Receipt`` are ``invoice`` / ``receipt``). Left at its default
            (``invoice``), it is ``invoice-en16931`` when ``einvoice`` formats are asked for.
        max_tokens: cap on generated tokens per document.
        vision_tokens: vision-token budget per page (converted to pixels with the model's patch and merge sizes).
        max_pixels: explicit pixel budget per page; overrides ``vision_tokens``.
        pages: page selection such as ``1-3,5`` (None: all pages).
        passwords: passwords to try, in order, for encrypted PDFs.
        temperature: sampling temperature (0: greedy).
        seed: sampling seed.
        drop_stop_ids: ids removed from the resolved stop set; for diagnosis only (reproduces a broken config).
        guards: runaway guards (end marker as text, JSON closed, loops) and their thresholds; all on by default.
        constrained: JSON-Schema-constrained decoding (llguidance grammar; see ``constrain``). On by default: the
            answer always parses and ends on a stop token.
        isolate: open and render in worker processes (``inputs.pool.RenderPool``), so a crash, hang or memory blow-up
            in pdfium/Pillow costs one record. Off in the library (it starts no processes unless asked), on in the
            command line.
        timeout: seconds one document may take to open and render; enforced only when isolated.
        workers: render worker processes (None: the usable cores, at most 4); not isolated, the render threads of
            the documents in flight (``Extractor.extract_many`` with a batching or remote runner).
        max_pages: pages read per document at most; the rest are skipped with a warning that names the limit.
        max_bytes: larger input files fail with ``too_large``.
        retries: how many times a failed answer may be asked again in total (``retry``: ``invalid`` once with
            the errors as feedback, ``truncated`` with max_tokens doubled up to 4x, ``runaway`` once with tighter
            guards). 0 in the library, so a call is one generation unless asked; 1 on the command line.
        embedded: use the XML of a ZUGFeRD / Factur-X / XRechnung PDF as the answer when it is schema-valid
            (invoice schema only; zero tokens); False always asks the model.
        embedded_rules: check the embedded XML an answer was read from by the official EN 16931 rules (CEN's, and
            XRechnung's or Peppol's where its BT-24 names them): XML they reject is no longer taken as exact, its
            fatal rules are named in the record's warnings and it is ``review`` (docs/einvoice.md). On by default;
            False reads the XML as before, unchecked (no rules engine loaded).
        cross_check: with valid embedded XML, also run the model and list every field where the two disagree.
        prefix_cache: reuse the model state after the prompt's shared prefix (the instruction and the schema,
            before the first image): only the first document of a schema prefills it (exact; on by default).
        jump_forward: with constraints, feed the tokens the grammar forces (keys, quotes, commas) in one forward
            pass instead of one decode step each (on by default).
        ocr: which pages are read by OCR for grounding (``ocr``): ``auto`` (pages without a usable text layer:
            scans, photos, garbled or sparse text layers), ``always`` (every page that is not blank) or ``never``.
            ``auto`` without the engine installed reads nothing (a one-line warning says so).
        ocr_threads: onnxruntime threads per OCR call (1: on a busy machine one thread was faster and cheaper).
        extra_processors: called with the attempt number (1 = first) before each generation; the logits
            processors it returns run before the schema constraint's mask (logit biases, forced answers in tests;
            the confidence evidence is read between the two).
        endpoint: OpenAI-compatible inference servers to run the model on instead of this process (base URLs such
            as ``http://gpu1:8000/v1``; a string is one URL). Empty: the model runs here (mlx-vlm). With endpoints,
            ``model`` names the served model (its id in ``/v1/models``, or a local copy of its directory, which
            also gives the stop set); with one served model it may be left as it is.
        concurrency: documents in flight at once, in total over every endpoint (None: 2 per endpoint; the
            in-process model keeps ``2 * batch`` in flight when it batches, else one).
        server_kind: ``vllm``, ``sglang``, ``mlx`` (mlx_vlm.server) or ``openai`` (any other, e.g. LM Studio);
            None: detected from ``/v1/models`` and the response headers. Says which request fields the servers
            honour (``runners.openai.wire.KINDS``).
        api_key_env: the name of the environment variable holding the servers' API key (sent as a bearer token;
            the key itself is never stored, printed or written into a record).
        stop_ids: with endpoints, the stop set sent to the servers, replacing the resolved one (for a served
            model whose directory is not here and whose id is not a Qwen-family one).
        image_format: how page images travel to a server: ``png`` (lossless) or ``jpeg`` (quality 92, same
            pixels; smaller requests).
        read_timeout: with endpoints, seconds a server may stay silent (before the first token, or between two
            chunks of the stream) before the request is given up and tried on another endpoint.
        window_pages: a document with more pages is extracted in windows of this many pages (2 to
            :data:`MAX_WINDOW_PAGES`, overlapping by one page): one generation each, merged (``windows``).
        window_vision_tokens: the most image tokens one window may hold; makes windows smaller (never larger) when
            pages are given more vision tokens.
        request_processors: called with each generation's request (its messages say which pages a window covers,
            ``max_tokens`` which budget the attempt has) before it runs; the logits processors it returns run after
            ``extra_processors``' (forced answers per window in tests).
        batch: in-process (no endpoints), documents decoded together at most (1 to :data:`MAX_BATCH`): one
            forward pass steps every active one, each with its own stop set, constraint, guards and limits, the same
            tokens as alone (``runners.batching``); where that is not exact for the model, one at a time (the
            record's ``usage.decoding`` says why). The batch command makes it :data:`BATCH_JOB_DEFAULT` for several
            documents unless ``--batch`` is given (``job_batch``).
        split: ``auto``: a file holding several invoices (found from its page text: a new invoice number, page
            markers restarting, another seller) gives one record per invoice (``split``); ``never``: one record
            per file. Pages without a usable text layer are read by OCR for it unless ``ocr`` is ``never``.
        split_questions: with ``split == "auto"``, the pages whose text is unsure (``split.UNSURE``: no signal at
            all in a file of several invoices, or signals that conflict) the in-process model is asked about per
            file at most (one short question each: the page and the one before, ``{"new_invoice": bool}``, a few
            tokens); 0: the text rule decides every page.
        einvoice: e-invoice formats to write each invoice record as (``cii``, ``ubl``, ``facturx``,
            ``xrechnung-cii``, ``xrechnung-ubl``, ``peppol``: ``einvoice.FORMATS``), each checked by the pinned CEN
            EN 16931 rules (XRechnung and Peppol by their own rules too; the embedded XML an answer was read from
            is checked by ``embedded_rules``); a fatal rule that fires makes an ``ok`` record ``review`` and is
            named in its warnings,
            the record's ``einvoice`` key says what was checked, and ``--out`` writes ``<name>.<format>.xml``
            (``.pdf`` for ``facturx``) beside the record. Empty (the default): none (the rules engine then loads
            only to check embedded XML).
        einvoice_attachments: for a record read from e-invoice XML, name the files embedded in its supporting
            documents (BG-24) in ``embedded.attachments`` and, with ``--out``, write their bytes beside the record
            (``<name>.attachments/<n>-<file name>``); never inlined in the JSON. Off by default.
        auto_accept: the confidence every field must reach for an ``ok`` record (0 to 1; a schema's
            ``x-extractor-threshold`` overrides it per field); a record with a field below its threshold is
            ``review``, naming the field (``trust.confidence``). None: only the schema's thresholds apply.
        calibration: a calibration file written by ``extract calibrate`` (``trust.calibration``): the fusion the
            fields' confidence is computed with, named in every record. None: the default weights, uncalibrated.
        evidence: collect per-token evidence in the decode loop (each token's probability and margin before the
            grammar mask) for the fields' confidence; False: none is collected (the token features are null).
        passes: answers decoded per document: 1, or 2 for a second, sampled answer (:data:`PASS_TEMPERATURE`,
            seeded from ``seed``) whose agreement with the first, field by field, is evidence for the confidence
            (``fields[pointer].agreement``; the record's ``passes`` says what the second one cost). The record's
            data stays the first answer's.
        register: the invoice register to check every record against and add it to (``register``): a path or
            ``sqlite:///PATH`` (SQLite), or ``postgresql://...``; None: none (a batch still flags its own
            duplicates). Its findings belong to the moment of reading: not in the fingerprint.
        require_known_supplier: with a register, a supplier it does not know yet makes the record ``review``
            (``new_supplier``), not only a note.
        duplicate_window: ``possible_duplicate``'s window: issue dates at most this many days apart.
        learn: with a register, what its tenant's learned layouts do (``LEARN_MODES``, docs/learning.md): ``read``
            (a layout of a supplier whose identity is printed on the document reads it when it reads every required
            field; else the model reads and the layout's values are evidence), ``check`` (the model always reads,
            the layout is evidence only) or ``off``. Like the register's, not in the fingerprint.
    """

    model: str = DEFAULT_MODEL
    schema: str | type = DEFAULT_SCHEMA
    max_tokens: int = DEFAULT_MAX_TOKENS
    vision_tokens: int = DEFAULT_VISION_TOKENS
    max_pixels: int | None = None
    pages: str | None = None
    passwords: tuple[str, ...] = ()
    temperature: float = 0.0
    seed: int | None = None
    drop_stop_ids: tuple[int, ...] = ()
    guards: GuardSettings = GuardSettings()
    constrained: bool = True
    isolate: bool = False
    timeout: float = DEFAULT_TIMEOUT
    workers: int | None = None
    max_pages: int = DEFAULT_MAX_PAGES
    max_bytes: int = DEFAULT_MAX_BYTES
    retries: int = 0
    embedded: bool = True
    embedded_rules: bool = True
    cross_check: bool = False
    prefix_cache: bool = True
    jump_forward: bool = True
    ocr: str = DEFAULT_OCR
    ocr_threads: int = DEFAULT_OCR_THREADS
    extra_processors: Callable[[int], Sequence[LogitsProcessor]] | None = None
    endpoint: tuple[str, ...] = ()
    concurrency: int | None = None
    server_kind: str | None = None
    api_key_env: str | None = None
    stop_ids: tuple[int, ...] = ()
    image_format: str = "png"
    read_timeout: float = DEFAULT_READ_TIMEOUT
    window_pages: int = DEFAULT_WINDOW_PAGES
    window_vision_tokens: int = DEFAULT_WINDOW_VISION_TOKENS
    request_processors: Callable[[object], Sequence[LogitsProcessor]] | None = None
    split: str = DEFAULT_SPLIT
    batch: int = DEFAULT_BATCH
    split_questions: int = DEFAULT_SPLIT_QUESTIONS
    einvoice: tuple[str, ...] = DEFAULT_EINVOICE
    einvoice_attachments: bool = DEFAULT_EINVOICE_ATTACHMENTS
    auto_accept: float | None = None
    calibration: str | None = None
    evidence: bool = True
    passes: int = DEFAULT_PASSES
    # the invoice register (issue 40): not in the fingerprint (REGISTER_FIELDS)
    register: str | None = None
    require_known_supplier: bool = False
    duplicate_window: int = DEFAULT_DUPLICATE_WINDOW
    learn: str = DEFAULT_LEARN

    def __post_init__(self) -> None:
        # lists from callers become tuples (hashable, frozen); bad values fail here, before a model loads
        if isinstance(self.endpoint, str):
            object.__setattr__(self, "endpoint", (self.endpoint,))
        for name in ("passwords", "drop_stop_ids", "endpoint", "stop_ids"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        self._check_einvoice()
        if self.einvoice and isinstance(self.schema, DefaultSchema):  # --einvoice, no --schema: the full EN 16931
            object.__setattr__(self, "schema", EINVOICE_SCHEMA)
        for name, low in (
            ("max_tokens", 1),
            ("vision_tokens", 4),
            ("max_pages", 1),
            ("max_bytes", 1),
            ("retries", 0),
            ("ocr_threads", 1),
            ("split_questions", 0),
        ):
            if getattr(self, name) < low:
                raise UsageError(f"{name} must be at least {low}, got {getattr(self, name)}")
        if self.max_pixels is not None and self.max_pixels < 1024:
            raise UsageError(f"max_pixels must be at least 1024, got {self.max_pixels}")
        if self.temperature < 0 or self.timeout <= 0:
            raise UsageError("temperature must not be negative and timeout must be positive")
        if self.workers is not None and self.workers < 1:
            raise UsageError(f"workers must be at least 1, got {self.workers}")
        if self.pages:
            parse_pages(self.pages)  # raises UsageError for a bad selection
        check_ocr_mode(self.ocr)  # raises UsageError for an unknown mode, or "always" without the engine
        if not 2 <= self.window_pages <= MAX_WINDOW_PAGES:
            raise UsageError(f"window_pages must be 2 to {MAX_WINDOW_PAGES}, got {self.window_pages}")
        if self.learn not in LEARN_MODES:
            raise UsageError(f"learn must be one of {', '.join(LEARN_MODES)}, got {self.learn!r}")
        if self.window_vision_tokens < 1:
            raise UsageError(f"window_vision_tokens must be positive, got {self.window_vision_tokens}")
        if not 1 <= self.batch <= MAX_BATCH:
            raise UsageError(f"batch must be 1 to {MAX_BATCH}, got {self.batch}")
        if self.split not in SPLIT_MODES:
            raise UsageError(f"split {self.split!r}: expected one of {', '.join(SPLIT_MODES)}")
        if self.auto_accept is not None and not 0 <= self.auto_accept <= 1:
            raise UsageError(f"auto_accept must be a confidence from 0 to 1, got {self.auto_accept}")
        if not 1 <= self.passes <= MAX_PASSES:
            raise UsageError(f"passes must be 1 to {MAX_PASSES}, got {self.passes}")
        if self.duplicate_window < 0:
            raise UsageError(f"duplicate_window must not be negative, got {self.duplicate_window}")
        if self.calibration is not None:
            from extractor.trust.calibration import read_calibration

            read_calibration(self.calibration)  # raises UsageError naming the file and what is wrong with it
        self._check_remote()

    def _check_einvoice(self) -> None:
        """Make ``einvoice`` a tuple of known formats (a string is a comma-separated list)."""
        formats = self.einvoice.split(",") if isinstance(self.einvoice, str) else self.einvoice  # "cii,ubl" too
        try:
            object.__setattr__(self, "einvoice", check_formats(formats))
        except ValueError as exc:
            raise UsageError(str(exc)) from exc

    def _check_remote(self) -> None:
        """Check the endpoint settings (URLs, kind, counts) without contacting any server."""
        for url in self.endpoint:
            if not re.match(r"^https?://[^/\s]+", url):
                raise UsageError(f"endpoint {url!r}: expected a URL such as http://host:8000/v1")
        if self.endpoint and self.batch != 1:
            raise UsageError(
                "batch is for the in-process model; with endpoints, --concurrency sets the documents "
                "in flight (the servers batch them)"
            )
        if self.concurrency is not None and self.concurrency < 1:
            raise UsageError(f"concurrency must be at least 1, got {self.concurrency}")
        if self.server_kind is not None and self.server_kind not in SERVER_KINDS:
            raise UsageError(f"server kind {self.server_kind!r}: expected one of {', '.join(SERVER_KINDS)}")
        if self.image_format not in IMAGE_FORMATS:
            raise UsageError(f"image format {self.image_format!r}: expected one of {', '.join(IMAGE_FORMATS)}")
        if not self.read_timeout > 0:
            raise UsageError(f"read timeout must be positive, got {self.read_timeout}")

    def replace(self, **changes) -> Settings:
        """Return a copy with some settings changed.

        Raises:
            UsageError: a name that is not a setting, or a bad value.
        """
        unknown = sorted(set(changes) - {f.name for f in dataclasses.fields(self)})
        if unknown:
            raise UsageError(f"unknown setting(s): {', '.join(unknown)}")
        return dataclasses.replace(self, **changes)

    def raster(self, pixels_per_token: int, *, page_pixels: int | None = None) -> RasterSettings:
        """Return the rasterizer settings for a model with the given pixels per vision token.

        Args:
            pixels_per_token: the model's page pixels per vision token.
            page_pixels: the most pixels a page can use (a processor that resizes every image to one size); the
                budget never renders larger. ``max_pixels`` set explicitly still wins.
        """
        budget = self.vision_tokens * pixels_per_token
        max_pixels = self.max_pixels or (min(budget, page_pixels) if page_pixels else budget)
        pages = parse_pages(self.pages) if self.pages else None
        return RasterSettings(
            max_pixels=max_pixels,
            pages=pages,
            passwords=self.passwords,
            max_pages=self.max_pages,
            max_bytes=self.max_bytes,
            ocr=OcrSettings(
                mode=resolve_mode(self.ocr),
                threads=self.ocr_threads,
                plan_s=PLAN_SHARE * self.timeout,  # the OCR cut follows the work, the same in process and isolated
            ),
            text_boxes=True,  # the text layer's word boxes: where citations place the values (trust.citations)
        )

    def fingerprint(self, *, schema_text: str) -> str:
        """A short hash of everything that can change a document's answer, for resuming a batch.

        Args:
            schema_text: the schema's content (a changed schema file changes the answer).

        Returns:
            16 hex digits; equal for two runs whose records can be reused for each other.
        """
        # how, not what, is extracted (the prefix cache is exact; jump-forward may tokenize differently: it counts)
        ignored = (
            {
                "isolate",
                "timeout",
                "workers",
                "prefix_cache",
                "ocr_threads",
                "extra_processors",
                "request_processors",
                "batch",
                "einvoice",
                "einvoice_attachments",
                "embedded_rules",
            }
            | set(REMOTE_FIELDS)
            | set(LONG_FIELDS)
            | set(CONFIDENCE_FIELDS)
            | set(REGISTER_FIELDS)
        )
        values = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name not in ignored}
        if self.endpoint:
            # servers decode differently from this process (their own constraints, no jump-forward): that counts,
            # and so do the kind, the stop ids and the image format; which hosts, how many at once and the key do
            # not. (Without endpoints nothing is added, so local fingerprints stay what they were.)
            values["remote"] = {
                "server_kind": self.server_kind,
                "stop_ids": self.stop_ids,
                "image_format": self.image_format,
            }
        # a model class as the ``module:Class`` that names it (Invoice / Receipt: their schema's name)
        values["schema"] = schema_reference(self.schema)
        values["guards"] = dataclasses.asdict(self.guards)
        values["passwords"] = hashlib.sha256("\0".join(self.passwords).encode()).hexdigest()
        values["schema_text"] = hashlib.sha256(schema_text.encode()).hexdigest()
        values["prompt_version"] = PROMPT_VERSION
        long = {name: getattr(self, name) for name in LONG_FIELDS}
        if long != LONG_DEFAULTS:
            # only a changed window or split setting counts, so records made before these settings existed (and
            # every short document's) keep their fingerprints
            values["long"] = long
        if self.einvoice:  # only when asked for, so every other record keeps its fingerprint
            values["einvoice"] = list(self.einvoice)
        if self.einvoice_attachments:  # likewise: its files are named in the record (a resumed batch without them
            values["einvoice_attachments"] = True  # would reuse a record whose files were never written)
        if not self.embedded_rules:  # likewise: only switched off counts
            values["embedded_rules"] = False
        if self.timeout != DEFAULT_TIMEOUT and self.ocr != "never":  # it sets the OCR plan: pages read (issue 42)
            values["ocr_plan_s"] = PLAN_SHARE * self.timeout
        confidence = {name: getattr(self, name) for name in CONFIDENCE_FIELDS}
        if confidence != CONFIDENCE_DEFAULTS:
            if self.calibration is not None:  # its content counts: a refitted file makes other records
                confidence["calibration"] = hashlib.sha256(Path(self.calibration).read_bytes()).hexdigest()
            values["confidence"] = confidence  # they change the status: only a changed one counts (see above)
        for name in ("extra_processors", "request_processors"):
            if getattr(self, name) is not None:
                values[name] = getattr(getattr(self, name), "__qualname__", repr(getattr(self, name)))
        text = json.dumps(values, sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


# What the command line changes from the library defaults: a person running a batch wants one retry of a failed
# answer and a crash in pdfium to cost one file; a library call does exactly one generation and starts no processes.
COMMAND_LINE_DEFAULTS = {"retries": 1, "isolate": True}


def command_line_settings(**options) -> Settings:
    """Build the Settings of ``extract`` and ``extract watch`` from their shared options (one function for both).

    Args:
        options: option values by setting name (the command line's parsed options).

    Returns:
        The Settings.

    Raises:
        UsageError: an unknown option name or a bad value.
    """
    return Settings().replace(**{**COMMAND_LINE_DEFAULTS, **options})


def job_batch(settings: Settings, *, documents: int, given: bool) -> Settings:
    """The batch command's settings for a job of ``documents``: ``--batch`` as given, else :data:`BATCH_JOB_DEFAULT`
    (at most one per document) where two or more decode on an in-process model; 1 with endpoints, and with
    ``split="auto"`` (its files are extracted one at a time)."""
    if given or settings.endpoint or settings.split == "auto" or documents < 2:
        return settings
    return settings.replace(batch=min(BATCH_JOB_DEFAULT, documents))


def default(name: str):
    """The command-line default of a setting (the library default unless :data:`COMMAND_LINE_DEFAULTS` changes it)."""
    if name in COMMAND_LINE_DEFAULTS:
        return COMMAND_LINE_DEFAULTS[name]
    return next(f.default for f in dataclasses.fields(Settings) if f.name == name)


__all__ = [
    "BATCH_JOB_DEFAULT",
    "COMMAND_LINE_DEFAULTS",
    "CONFIG_ENV",
    "CONFIG_FILE",
    "DEFAULT_HOOK_TIMEOUT",
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_MODEL",
    "DEFAULT_PASSES",
    "DEFAULT_READ_TIMEOUT",
    "MAX_PASSES",
    "PASS_SEED_OFFSET",
    "PASS_TEMPERATURE",
    "DEFAULT_SCHEMA",
    "EINVOICE_SCHEMA",
    "ENV_PREFIX",
    "DefaultSchema",
    "IMAGE_FORMATS",
    "PROMPT_VERSION",
    "SERVER_KINDS",
    "Settings",
    "command_line_settings",
    "default",
    "job_batch",
]
