"""Files that hold several invoices: where one invoice ends and the next begins, from the page text.

Decisions, in one place:

* **Text pass.** Before a file is extracted with ``Settings.split == "auto"``, its pages' text layers are read
  without rendering images worth the name (``text_raster``: 1,024-pixel pages, no OCR, at most ``max_pages``),
  in the render pool when isolated: cheap even for thousands of pages, and a hostile file still costs one record.
* **OCR text** (``find_parts``). Unless ``Settings.ocr`` is ``never`` (or the engine is missing), the pages without
  a usable text layer (``needs_ocr``: none, or garbled) are rendered once more, only they, at ``OCR_PIXELS`` and
  read by OCR (``ocr``'s ``auto`` rule: blank pages are skipped), in the render pool when isolated, under the
  same per-document time limit and OCR budget as extraction (pages left unread get a note and stay with the page
  before). Their signals come from the OCR text where ``ocrdecide.page_text`` prefers it; the records' ``split``
  warning and ``part.ocr_pages`` name those pages. With ``ocr == "never"`` such pages give no signal: they stay
  with the page before, and nothing is said.
* **Signals, strongest first** (``boundaries``), for each page after the first:
  1. a page marker ("Page 2 of 3", "Seite 2 von 3", "Seite 2/3", "Página 2 de 3", a line holding only "2/3") that
     continues the previous page's (same count, next number): the same invoice, whatever else differs;
  2. a marker saying page 1: a new invoice;
  3. another invoice number (after a label such as "Invoice No.", "Rechnung Nr.", "N° de facture") than the
     pages before it: a new invoice;
  4. VAT ids on the page, none of which the previous page printed (another seller): a new invoice.
  Otherwise the page continues the invoice before it. The rules are the ``RULES`` table; the first that holds
  decides.
* **Unsure** (``UNSURE``, ``unsure_pages``), narrowly, on the text rule's own cut: a page whose signals conflict
  (a marker continues the page before while another invoice number or only new VAT ids say another invoice; or
  a marker restarts at page 1 under the same invoice number), or a page with no signal at all (no marker, no
  number, no VAT id) in a file the text cuts into several invoices. A single invoice is never unsure, however
  many of its pages say nothing.
* **The model, where the text is unsure** (``model_question``): with the in-process runner and
  ``Settings.split_questions`` > 0 (default ``settings.DEFAULT_SPLIT_QUESTIONS``, 8: one question costs one prefill
  of two page images and ~10 decode steps, so 8 stay under the cost of extracting a few pages, and cover a bundle of
  8 invoices whose later pages print nothing), each of the first unsure pages is asked about once: the page before
  and the page (at the model's page budget, one render in the pool), "does this page start another invoice?",
  constrained to ``{"new_invoice": boolean}`` (``QUESTION_SCHEMA``), ``QUESTION_MAX_TOKENS`` tokens, through the
  same ``GenerationRequest`` as extraction (``extra_processors`` / ``request_processors`` included). Its answer
  replaces the text rule on that page (``boundaries(answers=)``); the records' ``split`` warning and
  ``part.model_pages`` (``{"page", "new_invoice", "reason"}``) say which pages the model decided. A question that
  fails (the model, a processor, an answer that is not the boolean) or pages beyond the limit keep the text rule,
  with a warning; never a failed file. Without an in-process model (endpoints) the text rule decides and a warning
  names the unsure pages; ``split_questions == 0`` asks nothing and says nothing.
* **Parts** are 1-based page ranges; a file with one part is extracted as before (no ``part`` key).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from extractor.inputs.document import RasterSettings
from extractor.record import ModelPage, Part
from extractor.settings import DEFAULT_SPLIT_QUESTIONS

TEXT_PIXELS = 1024  # the smallest page image the rasterizer makes: the text pass only wants the text layer

_ID = r"(?P<id>[A-Z0-9][A-Z0-9\-/._]*\d[A-Z0-9\-/._]*)"
_LABELS = (
    r"invoice(?:\s*(?:number|no\.?|nr\.?|#))?",
    r"rechnung(?:snummer|s-nr\.?|\s+nr\.?)?",
    r"n°\s*de\s*facture",
    r"facture(?:\s*(?:n°|no\.?))?",
    r"factura(?:\s*(?:n[°º.]|no\.?))?",
    r"fattura(?:\s*(?:n\.?|n°))?",
    r"factuur(?:nummer|\s*nr\.?)?",
)
_NUMBER = re.compile(r"(?<![A-Za-z])(?:" + "|".join(_LABELS) + r")\s*[:#.]?\s*" + _ID, re.IGNORECASE)
_MARKER = re.compile(
    r"(?:page|seite|página|pagina|pagina|blatt|p\.)\s*(\d{1,4})\s*(?:of|von|de|di|van|/)\s*"
    r"(\d{1,4})(?!\d)",
    re.IGNORECASE,
)
_BARE_MARKER = re.compile(r"^[\s\-–—(\[]*(\d{1,4})\s*/\s*(\d{1,4})[\s\-–—)\]]*$", re.MULTILINE)
_VAT = re.compile(
    r"\b(ATU\d{8}|BE0?\d{9}|DE\d{9}|FR[0-9A-Z]{2}\d{9}|GB\d{9}(?:\d{3})?|NL\d{9}B\d{2}|IT\d{11}|"
    r"ES[0-9A-Z]\d{7}[0-9A-Z]|CHE\d{9}|ATU\d{8}|PL\d{10}|SE\d{12}|DK\d{8}|FI\d{8})\b"
)


@dataclass(frozen=True)
class PageSignals:
    """What one page's text says about where it belongs.

    Attributes:
        number: the invoice number printed after a label, or None.
        marker: ``(page, of)`` from a page marker, or None.
        vat_ids: the VAT ids printed on the page (spaces, dots and dashes removed).
    """

    number: str | None = None
    marker: tuple[int, int] | None = None
    vat_ids: frozenset = frozenset()

    @property
    def empty(self) -> bool:
        """No signal at all: no marker, no invoice number, no VAT id."""
        return self.number is None and self.marker is None and not self.vat_ids


def signals(text: str | None) -> PageSignals:
    """Read a page's text for the split signals (empty signals for a page without text).

    Args:
        text: the page's text layer (None or "" when it has none).

    Returns:
        The PageSignals.
    """
    if not text or not text.strip():
        return PageSignals()
    found = _NUMBER.search(text)
    number = found["id"].rstrip("./").upper() if found else None
    marker = None
    for pattern in (_MARKER, _BARE_MARKER):
        for m in pattern.finditer(text):
            page, of = int(m[1]), int(m[2])
            if 1 <= page <= of:
                marker = (page, of)
                break
        if marker:
            break
    compact = re.sub(r"(?<=[A-Z0-9])[ .\-](?=\d)", "", text.upper())  # GB 314 1500 17, CHE-271.828.189
    return PageSignals(number=number, marker=marker, vat_ids=frozenset(_VAT.findall(compact)))


# The text rules, strongest first (``boundaries``): (name, test(before, page, current_number), new invoice?).
# The first rule whose test holds decides; none: the page continues the invoice before it.
RULES = (
    (
        "marker_continues",
        lambda b, p, n: bool(p.marker and b.marker and p.marker == (b.marker[0] + 1, b.marker[1])),
        False,
    ),
    ("marker_restarts", lambda b, p, n: bool(p.marker and p.marker[0] == 1), True),
    ("new_number", lambda b, p, n: bool(p.number and n and p.number != n), True),
    ("new_seller", lambda b, p, n: bool(p.vat_ids and b.vat_ids and not p.vat_ids & b.vat_ids), True),
)
NO_SIGNAL = "no_signal"  # a page with no marker, no invoice number and no VAT id, in a file of several invoices
CONFLICT = "conflict"  # the page's own signals point both ways
# Why the text is unsure of a page (``unsure_pages``): (reason, test(fired rules, page, current_number, several)).
UNSURE = (
    # a marker continues the page before, yet another number or only new VAT ids say another invoice
    (
        CONFLICT,
        lambda fired, p, n, several: "marker_continues" in fired and bool({"new_number", "new_seller"} & set(fired)),
    ),
    # a marker restarts at page 1 under the same invoice number (a copy, or the number of an order?)
    (CONFLICT, lambda fired, p, n, several: "marker_restarts" in fired and bool(p.number) and p.number == n),
    # nothing on the page says either way, and the file holds several invoices by its text
    (NO_SIGNAL, lambda fired, p, n, several: several and p.empty),
)


def fired_rules(before: PageSignals, page: PageSignals, *, current_number: str | None) -> list[str]:
    """The names of the text rules (``RULES``) whose test holds for ``page`` after ``before``, in order."""
    return [name for name, test, _ in RULES if test(before, page, current_number)]


def starts_new(before: PageSignals, page: PageSignals, *, current_number: str | None) -> bool:
    """Whether ``page`` starts a new invoice after the page ``before`` (the first rule of ``RULES`` that holds).

    Args:
        before: the previous page's signals.
        page: this page's signals.
        current_number: the invoice number of the part so far (None: none printed yet).
    """
    return _decides(fired_rules(before, page, current_number=current_number))


def _decides(fired: Sequence[str]) -> bool:
    """The decision of the first rule that fired (none: the page continues the invoice before it)."""
    return next(new for name, _, new in RULES if name in fired) if fired else False


def _unsure_reason(fired: Sequence[str], page: PageSignals, current_number: str | None, several: bool) -> str | None:
    """Why the text is unsure whether ``page`` starts a new invoice (the first of ``UNSURE`` that holds), or None.

    Args:
        fired: the text rules that fired for the page.
        current_number: the invoice number of the part so far.
        several: whether the text rule cuts the file into more than one invoice.
    """
    return next((reason for reason, test in UNSURE if test(fired, page, current_number, several)), None)


def _walk(
    pages: Sequence[PageSignals], answers: Mapping[int, bool]
) -> Iterator[tuple[int, list[str], str | None, bool]]:
    """Each page after the first, as the cut is made: (1-based position, the text rules that fired, the invoice
    number of the part before it, whether it starts a new invoice: ``answers``' where given, else the rules')."""
    number = pages[0].number if pages else None
    for i in range(1, len(pages)):
        fired = fired_rules(pages[i - 1], pages[i], current_number=number)
        new = answers.get(i + 1)
        if new is None:
            new = _decides(fired)
        yield i + 1, fired, number, new
        if new or number is None:  # a new part takes its own number; a part without one takes the first printed
            number = pages[i].number


def boundaries(texts: Sequence[str | None], *, answers: Mapping[int, bool] | None = None) -> list[tuple[int, int]]:
    """Cut a file's pages into invoices.

    Args:
        texts: each page's text (its text layer, or its OCR text), in order.
        answers: 1-based page position -> whether it starts a new invoice, overriding the text rules for those
            pages (the model's answers on unsure pages); None: the text rules alone.

    Returns:
        ``(first, last)`` 1-based page numbers of each part, in order (one part covering every page when the
        text finds no boundary).
    """
    if not texts:
        return []
    pages = [signals(t) for t in texts]
    parts, start = [], 1
    for position, _, _, new in _walk(pages, answers or {}):
        if new:
            parts.append((start, position - 1))
            start = position
    parts.append((start, len(pages)))
    return parts


def unsure_pages(texts: Sequence[str | None]) -> list[tuple[int, str]]:
    """The pages the text rule is unsure of, as ``(1-based position, reason)``, in order (``UNSURE``, following
    the text rule's own cut)."""
    pages = [signals(t) for t in texts]
    walk = list(_walk(pages, {}))
    several = any(new for *_, new in walk)  # the text rule cuts the file into more than one invoice
    found = (
        (position, _unsure_reason(fired, pages[position - 1], number, several)) for position, fired, number, _ in walk
    )
    return [(position, reason) for position, reason in found if reason is not None]


def needs_ocr(text: str | None) -> bool:
    """Whether a page's text layer is unusable for the signals (none, or garbled), so OCR text may stand in."""
    from extractor.inputs.ocrdecide import garbled

    return not text or not text.strip() or garbled(text)


def text_raster(raster: RasterSettings) -> RasterSettings:
    """The rasterizer settings of the text pass: the same pages and passwords, tiny images, no OCR."""
    from extractor.inputs.ocr import OcrSettings

    return dataclasses.replace(
        raster, max_pixels=max(TEXT_PIXELS, raster.min_side**2), ocr=OcrSettings(), text_boxes=False
    )


def part_entry(
    index: int, of: int, pages: tuple[int, int], *, ocr_pages: Sequence[int] = (), model_pages: Sequence[ModelPage] = ()
) -> Part:
    """The record's ``part`` (``record.Part``): its index and count, its first and last page (1-based), with this
    part's pages whose signals came from OCR text and those the model decided."""
    inside = range(pages[0], pages[1] + 1)
    return Part(
        index=index,
        of=of,
        pages=(pages[0], pages[1]),
        ocr_pages=tuple(n for n in ocr_pages if n in inside),
        model_pages=tuple(m for m in model_pages if m.page in inside),
    )


def page_spec(numbers: Sequence[int]) -> str:
    """A page selection (``--pages`` syntax) holding exactly these 1-based page numbers: ``1-3,5``."""
    ranges: list[list[int]] = []
    for n in numbers:
        if ranges and ranges[-1][1] == n - 1:
            ranges[-1][1] = n
        else:
            ranges.append([n, n])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in ranges)


@dataclass(frozen=True)
class Parts:
    """The invoices a file holds, from its text pass.

    Attributes:
        pages: per part, its 1-based page numbers (the file's selected pages, in order).
        warnings: notes for every part's record (pages the text pass did not read, OCR text used, the model's
            answers, questions that failed or were not asked).
        ocr_pages: the file's page numbers whose signals came from OCR text.
        model_pages: the pages the model decided (page, whether it starts a new invoice, why the text was unsure).
    """

    pages: tuple[tuple[int, ...], ...]
    warnings: tuple[dict, ...] = ()
    ocr_pages: tuple[int, ...] = ()
    model_pages: tuple[ModelPage, ...] = ()

    def entry(self, index: int) -> Part:
        """The record's ``part`` for the ``index``-th part (1-based)."""
        numbers = self.pages[index - 1]
        return part_entry(
            index, len(self.pages), (numbers[0], numbers[-1]), ocr_pages=self.ocr_pages, model_pages=self.model_pages
        )


# ---------------------------------------------------------------------------------------- the text pass, OCR, model
# (plumbing: rendering, OCR and the model's question; the decisions above stay pure)

OCR_PIXELS = 1_300_000  # the OCR pass's page images: the ink measure (``ocrdecide.reason_to_read``) is calibrated here
QUESTION_MAX_TOKENS = 16  # {"new_invoice":false} is 6-9 tokens in the tokenizers we ship for
QUESTION_SCHEMA = {
    "title": "page boundary",
    "type": "object",
    "required": ["new_invoice"],
    "additionalProperties": False,
    "properties": {"new_invoice": {"type": "boolean"}},
}
QUESTION_SYSTEM = (
    "You look at pages of a file that holds several invoices. Answer with one JSON value only: no "
    "prose, no Markdown, no code fences."
)
QUESTION_LINE = (
    "The first image is page {before} of the file, the second page {page}. Does page {page} start "
    "another invoice (not a continuation of page {before}'s invoice)? Answer "
    '{{"new_invoice": true}} or {{"new_invoice": false}}.'
)

# Asks the model whether a page starts a new invoice: (image of the page before, image of the page, page number,
# page number before) -> True / False; raises when it cannot answer.
Question = Callable[[object, object, int, int], bool]


def ocr_raster(raster: RasterSettings, numbers: Sequence[int]) -> RasterSettings:
    """The rasterizer settings of the OCR pass: only these pages (1-based), read by OCR where they have no usable
    text layer (``auto``, whatever ``raster.ocr.mode`` other than never), page images at ``OCR_PIXELS``."""
    from extractor.inputs.document import parse_pages

    return dataclasses.replace(
        raster,
        pages=parse_pages(page_spec(numbers)),
        max_pixels=max(OCR_PIXELS, raster.min_side**2),
        ocr=dataclasses.replace(raster.ocr, mode="auto"),
        text_boxes=False,
    )


def question_raster(raster: RasterSettings, numbers: Sequence[int]) -> RasterSettings:
    """The rasterizer settings of the model's question: only these pages, at the model's budget, no OCR."""
    from extractor.inputs.document import parse_pages
    from extractor.inputs.ocr import OcrSettings

    return dataclasses.replace(raster, pages=parse_pages(page_spec(numbers)), ocr=OcrSettings(), text_boxes=False)


def question_request(runner, settings, images: Sequence, *, page: int, before: int):
    """The model's question about one page: the page before and the page, a one-boolean schema, a few tokens;
    logits processors as the pipeline adds them (``extra_processors``, ``request_processors``)."""
    from extractor.pipeline.generate import generation_request
    from extractor.pipeline.retry import Attempt
    from extractor.runners.base import Message
    from extractor.runners.guards import GuardSettings

    messages = (
        Message(role="system", text=QUESTION_SYSTEM),
        Message(role="user", text=QUESTION_LINE.format(page=page, before=before), images=len(images)),
    )
    # one attempt, no guards: a constrained boolean cannot run away
    attempt = Attempt(number=1, max_tokens=QUESTION_MAX_TOKENS, guards=GuardSettings.without(["all"]))
    request, _, _ = generation_request(
        runner,
        settings,
        schema=QUESTION_SCHEMA,
        messages=messages,
        images=tuple(images),
        attempt=attempt,
        prefix_cache=False,
    )
    return request


def model_question(runner, settings) -> Question:
    """The ``Question`` for ``find_parts``, asked of ``runner`` (the pipeline's runner) with ``settings``."""
    from extractor.trust.parse import parse_answer

    def ask(before_image, image, page: int, before: int) -> bool:
        gen = runner.generate(question_request(runner, settings, (before_image, image), page=page, before=before))
        parsed = parse_answer(gen.text)
        value = parsed.value.get("new_invoice") if parsed.found and isinstance(parsed.value, dict) else None
        if not isinstance(value, bool):
            raise ValueError(f'the answer {gen.text[:60]!r} ({gen.finish_reason}) is not {{"new_invoice": true|false}}')
        return value

    return ask


def _pages_text(numbers: Sequence[int]) -> str:
    return ", ".join(str(n) for n in numbers)


def find_parts(
    source,
    *,
    render,
    raster: RasterSettings,
    question: Question | None = None,
    questions: int = DEFAULT_SPLIT_QUESTIONS,
    no_question: str = "",
) -> Parts | None:
    """Read a file's page texts (the text pass; OCR text for pages without a usable text layer when
    ``raster.ocr`` allows OCR), ask the model about the pages the text is unsure of, and cut the file into
    invoices.

    Args:
        source: the file (path or bytes).
        render: renders with given rasterizer settings (in the pool when isolated).
        raster: the extraction's rasterizer settings (page selection, passwords, ``max_pages``, OCR mode).
        question: asks the model about one page (``model_question``); None: the text rule decides every page.
        questions: unsure pages asked about per file at most (0: none, and nothing is said).
        no_question: why there is no question (``question`` None): said in a warning when a page was unsure.

    Returns:
        The Parts, or None when the file is not a PDF, cannot be read (the extraction then says why) or holds one
        invoice.
    """
    rendered = render(text_raster(raster))
    document = rendered.document
    if rendered.error is not None or document is None or document.kind != "pdf" or len(document.pages) < 2:
        return None
    name = document.source
    numbers = [p.index + 1 for p in document.pages]
    texts = [p.text for p in document.pages]
    notes = [f"{w} (the file was split by these pages' text only)" for w in document.warnings]
    ocr_pages = _read_by_ocr(source, texts, numbers, render=render, raster=raster, notes=notes)
    answers: dict[int, bool] = {}
    model_pages: list[ModelPage] = []
    found = unsure_pages(texts)
    if found and questions > 0:
        answers, model_pages = _ask(
            found,
            numbers,
            render=render,
            raster=raster,
            question=question,
            questions=questions,
            no_question=no_question,
            notes=notes,
        )
    parts = boundaries(texts, answers=answers)
    if len(parts) < 2:
        return None
    by_position = tuple(tuple(numbers[first - 1 : last]) for first, last in parts)
    warnings = tuple({"code": "split", "message": f"{name}: {note}"} for note in notes)
    return Parts(pages=by_position, warnings=warnings, ocr_pages=tuple(ocr_pages), model_pages=tuple(model_pages))


def _read_by_ocr(
    source, texts: list, numbers: Sequence[int], *, render, raster: RasterSettings, notes: list
) -> list[int]:
    """Put OCR text in ``texts`` for the pages without a usable text layer (one render of those pages, in the pool
    when isolated, under the document's time limit and OCR budget); returns their page numbers where OCR read
    text, and adds notes."""
    from extractor.inputs.ocrdecide import page_text

    scanned = [i for i, text in enumerate(texts) if needs_ocr(text)]
    if not scanned or raster.ocr.mode == "never":
        return []
    rendered = render(ocr_raster(raster, [numbers[i] for i in scanned]))
    if rendered.error is not None or rendered.document is None:
        reason = rendered.error if rendered.error is not None else "nothing rendered"
        notes.append(
            f"pages {_pages_text([numbers[i] for i in scanned])} have no usable text layer and could not "
            f"be read by OCR ({reason}); they stay with the page before"
        )
        return []
    position = {numbers[i]: i for i in scanned}
    read, unread = [], []
    for page in rendered.document.pages:
        i = position.get(page.index + 1)
        if i is None:
            continue
        text = page_text(texts[i], page.ocr)
        if text.source == "ocr":
            texts[i] = text.text
            read.append(numbers[i])
        elif page.warnings:
            unread.append(f"page {numbers[i]}: {'; '.join(page.warnings)}")
    if read:
        notes.append(f"pages {_pages_text(read)} have no usable text layer: the split read their OCR text")
    notes.extend(f"{u} (it stays with the page before)" for u in unread)
    return read


def _ask(
    found: Sequence[tuple[int, str]],
    numbers: Sequence[int],
    *,
    render,
    raster: RasterSettings,
    question: Question | None,
    questions: int,
    no_question: str,
    notes: list,
) -> tuple[dict[int, bool], list[ModelPage]]:
    """The model's answers on the first ``questions`` unsure pages (by position), each with the page before it
    (one render of those pages); a failed question or render leaves the text rule, with a note."""
    label = {NO_SIGNAL: "no signal", CONFLICT: "conflicting signals"}
    if question is None:
        notes.append(
            f"page(s) {_pages_text([numbers[p - 1] for p, _ in found])} unsure by their text "
            f"({', '.join(sorted({label[r] for _, r in found}))}); {no_question or 'no model to ask'}: "
            "the text rule decided"
        )
        return {}, []
    asked, skipped = found[:questions], found[questions:]
    if skipped:
        notes.append(
            f"page(s) {_pages_text([numbers[p - 1] for p, _ in skipped])} unsure by their text; the model "
            f"is asked about {questions} pages per file at most (split_questions): the text rule decided"
        )
    wanted = sorted({numbers[p - 2] for p, _ in asked} | {numbers[p - 1] for p, _ in asked})
    try:
        rendered = render(question_raster(raster, wanted))
        if rendered.error is not None or rendered.document is None:
            raise RuntimeError(str(rendered.error or "nothing rendered"))
        images = {p.index + 1: p.image for p in rendered.document.pages}
    except Exception as exc:  # noqa: BLE001 - the question is optional: the text rule stands
        notes.append(
            f"page(s) {_pages_text([numbers[p - 1] for p, _ in asked])} unsure by their text; their images "
            f"could not be rendered for the model ({exc}): the text rule decided"
        )
        return {}, []
    answers, decided = {}, []
    for position, reason in asked:
        page, before = numbers[position - 1], numbers[position - 2]
        try:
            new = question(images[before], images[page], page, before)
        except Exception as exc:  # noqa: BLE001 - a failed question (model, processor, answer) costs the answer only
            notes.append(
                f"page {page} unsure by its text ({label[reason]}); asking the model failed "
                f"({type(exc).__name__}: {exc}): the text rule decided"
            )
            continue
        answers[position] = new
        decided.append(ModelPage(page=page, new_invoice=new, reason=reason))
        notes.append(
            f"page {page} unsure by its text ({label[reason]}): the model says it "
            f"{'starts a new invoice' if new else 'continues the invoice before'}"
        )
    return answers, decided


__all__ = [
    "CONFLICT",
    "NO_SIGNAL",
    "PageSignals",
    "Parts",
    "QUESTION_SCHEMA",
    "RULES",
    "TEXT_PIXELS",
    "UNSURE",
    "boundaries",
    "find_parts",
    "fired_rules",
    "model_question",
    "needs_ocr",
    "ocr_raster",
    "page_spec",
    "part_entry",
    "question_raster",
    "question_request",
    "signals",
    "starts_new",
    "text_raster",
    "unsure_pages",
]
