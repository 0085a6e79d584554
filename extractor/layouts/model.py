"""What a learned layout is, and what learning and reading give back: frozen dataclasses with their JSON.

A ``Layout`` is one supplier's way of printing one schema's data, learned from documents whose data is true
(``Teacher``). Its ``id`` is a hash of its content, so two layouts learned alike are one. ``to_json`` /
``from_json`` round-trip it exactly; ``from_json`` refuses a layout of a newer format (``LAYOUT_FORMAT``) or a
malformed one with ``LayoutError`` (the store turns that into exit 2).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, replace
from typing import Any

LAYOUT_FORMAT = 1
TEACHER_SOURCES = ("review", "embedded_xml", "archive", "service_review")
# why a field was not read (LayoutRead.abstained's values)
NO_CANDIDATE, SEVERAL, UNPARSABLE, DEMOTED, PLACES_DISAGREE = (
    "no_candidate",
    "several_candidates",
    "unparsable",
    "demoted",
    "places_disagree",
)
NOT_LEARNED, IDENTITY, TABLE_CHECK = "not_learned", "identity_not_printed", "table_check_failed"


class LayoutError(ValueError):
    """A layout's JSON that cannot be used: of a newer format, or malformed (the message says which and why)."""


@dataclass(frozen=True)
class Teacher:
    """Where a layout's truth came from.

    Attributes:
        source: ``review`` | ``embedded_xml`` | ``archive`` | ``service_review``.
        document: the document's name (its path or file name as the caller knows it).
        sha256: the document's digest.
        by: who taught (a reviewer, ``embedded_xml``, a tenant's key name).
        at: when, ISO 8601 UTC.
    """

    source: str
    document: str
    sha256: str
    by: str
    at: str

    def __post_init__(self) -> None:
        if self.source not in TEACHER_SOURCES:
            raise ValueError(f"teacher source {self.source!r} is none of {', '.join(TEACHER_SOURCES)}")

    def to_json(self) -> dict:
        """The teacher as JSON."""
        return {"source": self.source, "document": self.document, "sha256": self.sha256, "by": self.by, "at": self.at}


@dataclass(frozen=True)
class Format:
    """How one value is printed.

    Attributes:
        kind: ``text`` (words joined by one space), ``compact`` (words joined without spaces: IBANs, VAT ids),
            ``date``, ``number``, ``integer`` (a number the schema holds as an integer), ``code`` (a printed word
            standing for a code: ``€`` for ``EUR``, ``kg`` for ``KGM``).
        dates: for dates, the strftime patterns the teachers' printing fits (several when one print fits several
            orders: ``12/12/2017``; a later reading must give one date under all of them).
        negated: for numbers, printed with the opposite sign (a prepayment printed ``-50,00``).
        signed: for numbers, the teacher printed a minus sign; a later printing must show the same sign (a zero
            taught no sign: a minus later is not read), so a credit note's layout never reads an invoice's sign.
        codes: for codes, printed word -> value, as taught.
    """

    kind: str
    dates: tuple[str, ...] = ()
    negated: bool = False
    codes: tuple[tuple[str, str], ...] = ()
    signed: bool = False
    words: int = 0

    def to_json(self) -> dict:
        """The format as JSON."""
        return {
            "kind": self.kind,
            "dates": list(self.dates),
            "negated": self.negated,
            "codes": [list(c) for c in self.codes],
            "signed": self.signed,
            "words": self.words,
        }

    @classmethod
    def from_json(cls, data: dict) -> Format:
        """The format from ``to_json``'s JSON."""
        return cls(
            kind=data["kind"],
            dates=tuple(data["dates"]),
            negated=bool(data["negated"]),
            codes=tuple((a, b) for a, b in data["codes"]),
            signed=bool(data["signed"]),
            words=int(data["words"]),
        )


@dataclass(frozen=True)
class Place:
    """One place where a value is printed, described by what does not change from one document to the next.

    Attributes:
        before: the folded words before the value on its line (its label), ``*`` for a word that varies.
        after: the folded words after it on its line, likewise.
        above: the folded words of the nearest lines above it on its page (nearest first), when its own line
            holds nothing else (a name under "Verkäufer:"), else empty.
        page: the page it was on, from the start (0, 1, ...) and from the end (-1, -2, ...).
        box: its box on that page (x0, y0, x1, y1): where a value alone on its line starts.
        lines: how many lines the value runs on (its first line to the end, then the next ones whole).
        stack: where its line stands among the labelled lines whose values are aligned with it (``relabel``):
            (the edge aligned: 0 left, 2 right; how many such runs of lines the page has; its run; its rank in the
            run; the run's size); empty when its line has no label.
        block: for a party's address line, the block of aligned lines it stands in (``blocks``): (its line's
            offset in the block, the block's lines, the block's left edge and top); empty when not learned so.
    """

    before: tuple[str, ...]
    after: tuple[str, ...]
    above: tuple[tuple[str, ...], ...]
    page: tuple[int, int]
    box: tuple[float, float, float, float]
    lines: int = 1
    stack: tuple[int, ...] = ()
    block: tuple[float, ...] = ()

    def to_json(self) -> dict:
        """The place as JSON."""
        return {
            "before": list(self.before),
            "after": list(self.after),
            "above": [list(a) for a in self.above],
            "page": list(self.page),
            "box": list(self.box),
            "lines": self.lines,
            "stack": list(self.stack),
            "block": list(self.block),
        }

    @classmethod
    def from_json(cls, data: dict) -> Place:
        """The place from ``to_json``'s JSON."""
        return cls(
            before=tuple(data["before"]),
            after=tuple(data["after"]),
            above=tuple(tuple(a) for a in data["above"]),
            page=(int(data["page"][0]), int(data["page"][1])),
            box=tuple(float(v) for v in data["box"]),  # type: ignore[arg-type]
            lines=int(data["lines"]),
            # a place learned before ``stack`` was kept is read by its label only
            stack=tuple(int(v) for v in data.get("stack", ())),
            # a place learned before ``block`` was kept is read at its anchors only
            block=tuple(float(v) for v in data.get("block", ())),
        )


@dataclass(frozen=True)
class FieldRule:
    """How one scalar field is read: its places (all must agree), its format; ``absent`` when the teachers did not
    print it (its value was null): read as null; ``strict`` when its places are shared with another field's (a total
    equal to the amount due in the teacher): every place must then print it."""

    pointer: str
    places: tuple[Place, ...]
    format: Format
    absent: bool = False
    strict: bool = False

    def to_json(self) -> dict:
        """The rule as JSON."""
        return {
            "pointer": self.pointer,
            "places": [p.to_json() for p in self.places],
            "format": self.format.to_json(),
            "absent": self.absent,
            "strict": self.strict,
        }

    @classmethod
    def from_json(cls, data: dict) -> FieldRule:
        """The rule from ``to_json``'s JSON."""
        return cls(
            pointer=data["pointer"],
            places=tuple(Place.from_json(p) for p in data["places"]),
            format=Format.from_json(data["format"]),
            absent=bool(data["absent"]),
            strict=bool(data["strict"]),
        )


@dataclass(frozen=True)
class Column:
    """One column of a table: the row's key (``/amount``), its span on the page (x0, x1) and its format."""

    key: str
    span: tuple[float, float]
    format: Format

    def to_json(self) -> dict:
        """The column as JSON."""
        return {"key": self.key, "span": list(self.span), "format": self.format.to_json()}

    @classmethod
    def from_json(cls, data: dict) -> Column:
        """The column from ``to_json``'s JSON."""
        return cls(
            key=data["key"],
            span=(float(data["span"][0]), float(data["span"][1])),
            format=Format.from_json(data["format"]),
        )


@dataclass(frozen=True)
class Table:
    """How one array of objects (``/line_items``, ``/tax_lines``) is read.

    Attributes:
        pointer: the array's pointer.
        header: the folded words of its header line.
        row: the row's line as a pattern: a column's key (``{/amount}``), a fixed folded word, or ``*``.
        columns: each column read from the row's line.
        wrap: keys whose text may continue on lines above the row's line, within their column's span
            (a description printed over several lines).
        end: the folded words of the line that ends it (the first fixed line after its last row).
        sums: checks that held for the teachers and must hold again: ``("/amount", "/subtotal")`` means the rows'
            amounts add up to the subtotal read.
    """

    pointer: str
    header: tuple[str, ...]
    row: tuple[str, ...]
    columns: tuple[Column, ...]
    wrap: tuple[str, ...] = ()
    end: tuple[str, ...] = ()
    sums: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict:
        """The table as JSON."""
        return {
            "pointer": self.pointer,
            "header": list(self.header),
            "row": list(self.row),
            "columns": [c.to_json() for c in self.columns],
            "wrap": list(self.wrap),
            "end": list(self.end),
            "sums": [list(s) for s in self.sums],
        }

    @classmethod
    def from_json(cls, data: dict) -> Table:
        """The table from ``to_json``'s JSON."""
        return cls(
            pointer=data["pointer"],
            header=tuple(data["header"]),
            row=tuple(data["row"]),
            columns=tuple(Column.from_json(c) for c in data["columns"]),
            wrap=tuple(data["wrap"]),
            end=tuple(data["end"]),
            sums=tuple((a, b) for a, b in data["sums"]),
        )


@dataclass(frozen=True)
class Layout:
    """One supplier's learned layout.

    Attributes:
        id: a hash of everything below but ``teacher``/``documents``/``demoted`` (``content_id``).
        supplier_key: the register's supplier key (``register.keys.supplier_key``) of the teachers' seller.
        supplier_name: the seller's name as taught.
        identity: the keys that must be printed on a document for this layout to read it (``vat:``, ``iban:``,
            ``tax:``, and ``name:<name_key>``).
        schema: the schema's name (``invoice``).
        fields: the scalar fields' rules, by pointer.
        tables: the arrays of objects' rules.
        fingerprint: the folded fixed words all teachers' pages print (``choose`` compares documents to it).
        vocabulary: the folded fixed words any teacher's pages print: a document with a line of other fixed words
            and a number may print a field the teachers left empty, so those fields are not read as null there.
        teacher: the latest teacher.
        documents: how many documents taught it.
        demoted: pointers it no longer reads (``demote``), until taught again.
        unlearned: the teachers' fields and tables that could not be learned (a value not printed, a zero, a table
            whose rows do not line up): read as abstained (``not_learned``), never left out of the data.
    """

    id: str
    supplier_key: str
    supplier_name: str
    identity: tuple[str, ...]
    schema: str
    fields: tuple[FieldRule, ...]
    tables: tuple[Table, ...]
    fingerprint: frozenset[str]
    teacher: Teacher
    documents: int = 1
    demoted: frozenset[str] = frozenset()
    decimal: str = ","
    vocabulary: frozenset[str] = frozenset()
    unlearned: tuple[str, ...] = ()

    def field(self, pointer: str) -> FieldRule | None:
        """The rule of ``pointer``, None when the layout has none."""
        return next((f for f in self.fields if f.pointer == pointer), None)

    def to_json(self) -> dict:
        """The layout as JSON (``from_json`` reads it back)."""
        return {
            "format": LAYOUT_FORMAT,
            "id": self.id,
            "supplier_key": self.supplier_key,
            "supplier_name": self.supplier_name,
            "identity": list(self.identity),
            "schema": self.schema,
            "decimal": self.decimal,
            "fields": [f.to_json() for f in self.fields],
            "tables": [t.to_json() for t in self.tables],
            "fingerprint": sorted(self.fingerprint),
            "vocabulary": sorted(self.vocabulary),
            "teacher": self.teacher.to_json(),
            "documents": self.documents,
            "demoted": sorted(self.demoted),
            "unlearned": list(self.unlearned),
        }

    @classmethod
    def from_json(cls, data: Any) -> Layout:
        """A layout from ``to_json``'s JSON.

        Raises:
            LayoutError: a newer format than this version reads, or JSON that is not a layout (with the reason).
        """
        if not isinstance(data, dict):
            raise LayoutError("a layout must be a JSON object")
        version = data.get("format")
        if not isinstance(version, int) or version > LAYOUT_FORMAT:
            raise LayoutError(f"layout format {version!r} is newer than this version reads ({LAYOUT_FORMAT})")
        try:
            return cls(
                id=str(data["id"]),
                supplier_key=str(data["supplier_key"]),
                supplier_name=str(data["supplier_name"]),
                identity=tuple(data["identity"]),
                schema=str(data["schema"]),
                decimal=str(data["decimal"]),
                fields=tuple(FieldRule.from_json(f) for f in data["fields"]),
                tables=tuple(Table.from_json(t) for t in data["tables"]),
                fingerprint=frozenset(data["fingerprint"]),
                vocabulary=frozenset(data["vocabulary"]),
                teacher=Teacher(**data["teacher"]),
                documents=int(data["documents"]),
                demoted=frozenset(data["demoted"]),
                # a layout stored before ``unlearned`` was kept reads as one with none
                unlearned=tuple(data.get("unlearned", ())),
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise LayoutError(f"malformed layout: {type(exc).__name__}: {exc}") from exc


def content_id(layout: Layout) -> str:
    """The layout's id: a SHA-256 (first 16 hex) of what it reads and how, not of who taught it when."""
    body = layout.to_json()
    for key in ("id", "teacher", "documents", "demoted"):
        body.pop(key)
    return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]


def with_id(layout: Layout) -> Layout:
    """The layout with its ``id`` set from its content."""
    return replace(layout, id=content_id(layout))


@dataclass(frozen=True)
class LearnResult:
    """What learning gave: the layout (None when nothing could be learned) and notes in plain words (a field not
    printed, a value not found on its page, ...)."""

    layout: Layout | None
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class LayoutRead:
    """What a layout read from a document.

    Attributes:
        values: pointer -> value read (scalars, and each table cell as ``/line_items/0/amount``).
        abstained: pointer -> why not (``no_candidate``, ``several_candidates``, ``unparsable``, ``demoted``,
            ``places_disagree``, ``not_learned``, ``identity_not_printed``, ``table_check_failed``).
        citations: pointer -> where it was read: ``[{"page": 1-based, "box": [x0, y0, x1, y1], "text": printed,
            "source": "text_layer" | "ocr", "confidence": OCR's or None}]``.
        data: the schema-shaped data, set only when every field the schema requires was read.
        notes: pointer -> how a value was read where the page alone does not say it exactly, in plain words (a unit
            price printed rounded, a unit read by its symbol, a field read as not printed): the record's
            ``layout.notes``.
        precision: pointer -> the decimals a number read was printed with where the page printed it rounded (its
            row's amount says more): the value is the printed one, true to that many decimals.
    """

    values: dict[str, Any] = field(default_factory=dict)
    abstained: dict[str, str] = field(default_factory=dict)
    citations: dict[str, list[dict]] = field(default_factory=dict)
    data: dict | None = None
    notes: dict[str, str] = field(default_factory=dict)
    precision: dict[str, int] = field(default_factory=dict)
