"""The schema as the model reads it: a compact field list, not the JSON Schema's syntax.

Constrained decoding enforces the structure (``runners.constrain``: the grammar is always the full JSON Schema), so
the prompt only has to say what each field *means*. :func:`describe` renders any JSON Schema (ours, a file, a
Pydantic model's) as one line per field, indented by nesting, in the schema's order::

    invoice_number*
    due_date:date
    currency*:string ^[A-Z]{3}$, ISO 4217 currency code
    seller*:{}
     address:{}, Postal address
      street
    buyer*:like seller
    line_items*:[{}]
     tax_rate:number 0..100, Tax rate in percent

``*`` marks a member that is always there (any other may be ``null`` or left out: ``constrain.omit``); enums are
listed (``"a"|"b"``, or ``code`` where the description names every code), a pattern or a format is named, a short
numeric range is given; lengths and wide bounds are left to the grammar. A subschema met again (the buyer's fields
are the seller's) is named by where it was first (``like seller``), so a recursive ``$ref`` ends too; a clause that
ends several descriptions is said once, as a footnote. A member whose rendering would be longer than its compact
JSON Schema (a huge enum), or that uses what a field list cannot say (``oneOf``, ``not``, ``if``,
``patternProperties``, an open ``additionalProperties`` schema, alternatives of objects), is shown as its compact
JSON Schema instead; :attr:`Description.as_json_schema` names those parts and the record says so once
(:func:`prompt_warnings`).

A large schema's list (longer than ``DENSE_CHARS`` plainly: ``invoice-en16931``'s) is rendered *densely*, as every
one of its lines is in every document's prompt prefix: a description leaves out what the instruction's rules say for
every field (``if printed``, ``if any``, ``as printed``) and is left out where its words only restate the name
(``origin_country: Country of origin``), and so is a parenthesis that only lists the member's own fields, which
follow (``further_terms, ... (payee, delivery, references)``; :func:`prompt_rules` does the same for the schema's
own description); codes that are plain words are listed unquoted (``allowance|charge``), or not at all where the
description names each in words (``credit note`` for ``credit_note``, ``partial or instalment invoice`` for
``partial_invoice``: the grammar spells it); a pattern loses the ``^``/``$`` anchors a whole value implies, and a
described member's pattern or numeric range is left to the grammar (``iban, IBAN without spaces``, ``tax_rate:number,
Tax rate in percent``); an object or a list of objects whose fields follow, indented, is not typed again (``seller*``
rather than ``seller*:{}``, ``line_items*:[]``); a member like one described before names it by its name alone where
that is unambiguous (``address:like address``). Small schemas keep the plain list (their prefix is short already, and
their records' prompt token counts stay what they were).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from extractor.leaves import json_pointer
from extractor.record import issue
from extractor.runners.constrain.omit import admits_null

INDENT = " "
ALWAYS = "*"  # marks a member that is always there (required, not null); any other may be left out
MAX_ENUM_CHARS = 160  # an enum listed longer than this is shown as JSON Schema (where that is shorter)
MAX_PATTERN_CHARS = 48  # a longer pattern is only said to be enforced
MAX_RANGE_WIDTH = 1000  # numeric bounds wider than this are the grammar's business, not the model's
_PLAIN_KEYS = frozenset(
    {
        "type",
        "properties",
        "required",
        "items",
        "enum",
        "const",
        "format",
        "pattern",
        "description",
        "title",
        "maxLength",
        "minLength",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "maxItems",
        "minItems",
        "multipleOf",
        "uniqueItems",
        "default",
        "examples",
        "$ref",
        "$defs",
        "definitions",
        "$schema",
        "$id",
        "$comment",
        "anyOf",
        "allOf",
        "additionalProperties",
    }
)
# the formats a field list says in a word (dates are YYYY-MM-DD: the instruction's rules say so)
PROMPT_NOTE = "prompt_json_schema"  # the record's warning code: parts of the schema the prompt shows as JSON Schema
_FORMATS = {"date": "date", "date-time": "date-time", "time": "time"}
MIN_NOTE_CHARS = 32  # a clause ending several descriptions that is this long is said once, as a footnote
MIN_NAMED_CHARS = 48  # a member described again is named by where it was first when its words are this long
DENSE_CHARS = 3000  # a field list longer than this is rendered densely (see :func:`_said`): a large schema's prefix
# words the instruction's rules already say for every field ("null where a field is not printed", "as printed"):
# a dense field list leaves them out of each description
_FILLER = re.compile(
    r"(?:,? |^)(?:if (?:printed|any|stated)|as printed)(?=$|[,;:]| \()|[;,.]? null where [^;,.()]* not printed\.?$"
)
_PLAIN_CODE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
_STOPWORDS = frozenset({"the", "a", "an", "of", "or", "and", "as", "if"})


@dataclass(frozen=True)
class Description:
    """A schema rendered for the prompt.

    Attributes:
        text: the field list (or, where it would be longer, the compact JSON Schema as a whole).
        as_json_schema: JSON pointers (into the answer) of the parts shown as compact JSON Schema instead.
        dense: whether the list is rendered densely (objects untyped: the prompt's line on reading it says so).
    """

    text: str
    as_json_schema: tuple[str, ...] = ()
    dense: bool = False


class _Unsayable(Exception):
    """A subschema a field list cannot say: shown as JSON Schema."""


def _compact(node: Any) -> str:
    return json.dumps(node, separators=(",", ":"), ensure_ascii=False)


class _Renderer:
    def __init__(self, root: Mapping[str, Any], *, dense: bool = False) -> None:
        self.root = root
        self.dense = dense
        self.seen: dict[str, str] = {}  # a subschema's JSON -> where it was first described
        self.fallbacks: list[str] = []
        self.placed: dict[str, str] = {}  # every member so far: where it is -> where the one it is like is (or itself)

    def resolve(self, node: Any) -> Any:
        """Follow local ``$ref`` s and a lone ``allOf`` item, keeping the outer description."""
        for _ in range(64):
            if not isinstance(node, Mapping):
                return node
            target = None
            if isinstance(node.get("$ref"), str):
                target = self._target(node["$ref"])
                rest = {k: v for k, v in node.items() if k != "$ref"}
            elif isinstance(node.get("allOf"), list) and len(node["allOf"]) == 1:
                target = node["allOf"][0]
                rest = {k: v for k, v in node.items() if k != "allOf"}
            else:
                return node
            if not isinstance(target, Mapping) or set(rest) - {"description", "title", "default"}:
                raise _Unsayable
            node = {**target, **{k: v for k, v in rest.items() if k == "description"}}
        raise _Unsayable

    def _target(self, ref: str) -> Any:
        if not ref.startswith("#"):
            raise _Unsayable
        node: Any = self.root
        for part in [p.replace("~1", "/").replace("~0", "~") for p in ref[1:].split("/") if p]:
            node = node.get(part) if isinstance(node, Mapping) else None
        return node

    def split_null(self, node: Mapping[str, Any]) -> tuple[Mapping[str, Any], bool]:
        """(the subschema without its ``null`` alternative, whether ``null`` is one)."""
        branches = node.get("anyOf")
        if isinstance(branches, list):
            rest = [b for b in branches if not (isinstance(b, Mapping) and b.get("type") == "null")]
            if len(rest) == 1 and len(rest) < len(branches):
                merged = {**self.resolve(rest[0]), **{k: v for k, v in node.items() if k == "description"}}
                return merged, True
        return node, admits_null(node, self.root)

    def member(self, name: str, node: Any, *, optional: bool, parts: tuple, depth: int) -> list[str]:
        """The lines of one member: its own, then its children's; JSON Schema where that is shorter or needed."""
        self.placed[_where(parts)] = _where(parts)
        try:
            lines = self._member(name, node, optional=optional, parts=parts, depth=depth)
        except _Unsayable:
            lines = None
        fallback = f"{INDENT * depth}{name}:JSON Schema {_compact(node)}"
        if lines is None or sum(len(line) + 1 for line in lines) > len(fallback) + 1:
            self.fallbacks.append(json_pointer(parts))
            return [fallback]
        return lines

    def _member(self, name: str, node: Any, *, optional: bool, parts: tuple, depth: int) -> list[str]:
        if isinstance(node, bool):
            return [f"{INDENT * depth}{name}:{'any value' if node else 'nothing'}"]
        node = self.resolve(node)
        if not isinstance(node, Mapping):
            raise _Unsayable
        node, nullable = self.split_null(node)
        if set(node) - _PLAIN_KEYS or (node.get("anyOf") and not _scalar_alternatives(node)):
            raise _Unsayable
        head = f"{INDENT * depth}{name}{'' if optional or nullable else ALWAYS}"
        key = _compact(node)
        if key in self.seen:
            return [f"{head}:like {self.named(parts, self.seen[key])}"]
        word, children = self.kind(node, parts=parts, depth=depth)
        described = self.said(name, node.get("description"), own=_own_members(node))
        if self.dense and children and word in ("{}", "[{}]"):
            word = "string" if word == "{}" else "[]"  # the fields indented below say it is an object
        if self.dense and described:
            word = _unbounded(word)  # the description says what the value is; the grammar enforces its form
        words = ("" if word == "string" else f":{word}") + (
            ""
            if not described
            else described
            if described.startswith(";")
            else f" {described}"
            if described.startswith("(")
            else f", {described}"
        )
        if len(words) >= MIN_NAMED_CHARS and not children:
            self.seen[key] = _where(parts)
        return [head + words, *children]

    def named(self, parts: tuple, where: str) -> str:
        """How the member at ``parts`` names the one it is like: where that is (``seller.address``); dense, by its
        name alone (``address``) where every member so far of that name is that one or like it."""
        self.placed[_where(parts)] = where
        last = _last(where) if self.dense else ""
        others = [w for w, like in self.placed.items() if _last(w) == last and like != where]
        return last if last and not others else where

    def said(self, name: str, described: Any, *, own: frozenset[str] = frozenset()) -> str:
        """A description as the field list says it: one line; dense, without what the rules say for every field,
        without words that only restate the name (``mandate: Mandate``; ``unit (Stk., h)`` for ``Unit (Stk., h)``)
        and without a parenthesis that lists the member's own fields (``details, Further terms (references,
        period)``: they follow, indented)."""
        if not isinstance(described, str):
            return ""
        text = " ".join(described.split())
        if not self.dense:
            return text
        text = _unlisted(_FILLER.sub("", text).strip(" ,"), own)
        first, rest = re.match(r"(.*?)((?:, | \(|; |: ).*|)$", text).groups()  # type: ignore[union-attr]
        if _restates(first, name):
            text = rest.removeprefix(", ").strip()
        return "" if _restates(text, name) else text

    def names(self, code: str, described: Any) -> bool:
        """Whether a description names an enum's code: as written, or (dense) in words (``credit note`` for
        ``credit_note``: the grammar then spells it)."""
        if not isinstance(described, str):
            return False
        if re.search(rf"\b{re.escape(code)}\b", described):
            return True
        words = re.sub(r"[_-]", " ", code).lower().split()
        # dense: the code's words in order, a word or two apart at most (``partial or instalment invoice``)
        spelled = r"\W+(?:\w+\W+){0,2}?".join(re.escape(w) for w in words)
        return (
            self.dense
            and len(words) > 1
            and bool(re.search(rf"\b{spelled}\b", re.sub(r"[_-]", " ", described).lower()))
        )

    def kind(self, node: Mapping[str, Any], *, parts: tuple, depth: int) -> tuple[str, list[str]]:
        """(the type words of a subschema, its children's lines)."""
        if "enum" in node:
            values = [v for v in node["enum"] if v is not None]
            if values and all(isinstance(v, str) and self.names(v, node.get("description")) for v in values):
                return "code", []  # the description names every code (and says what it means)
            plain = self.dense and all(isinstance(v, str) and _PLAIN_CODE.fullmatch(v) for v in values)
            listed = "|".join(v if plain else _compact(v) for v in values)
            if len(listed) > MAX_ENUM_CHARS:
                raise _Unsayable
            return listed, []
        if "const" in node:
            return _compact(node["const"]), []
        if node.get("anyOf"):
            return "|".join(self.kind(self.resolve(b), parts=parts, depth=depth)[0] for b in node["anyOf"]), []
        types = node.get("type")
        types = [types] if isinstance(types, str) else [t for t in types or [] if t != "null"]
        if "properties" in node or types == ["object"]:
            return self.object_kind(node, parts=parts, depth=depth)
        if types == ["array"]:
            items = node.get("items", True)
            item = self.resolve(items) if not isinstance(items, bool) else items
            if isinstance(item, Mapping):
                item, _ = self.split_null(item)
                if set(item) - _PLAIN_KEYS:
                    raise _Unsayable
                word, children = self.kind(item, parts=(*parts, 0), depth=depth)
                return f"[{word}]", children
            return "[]", []
        return "|".join(_scalar(t, node, dense=self.dense) for t in types) or "any value", []

    def object_kind(self, node: Mapping[str, Any], *, parts: tuple, depth: int) -> tuple[str, list[str]]:
        """An object's words and its members' lines (``like <where>`` for one described before)."""
        extra = node.get("additionalProperties", False)
        if not isinstance(extra, bool):
            raise _Unsayable
        properties = node.get("properties") or {}
        if not properties:
            return "{}", []
        key = _compact({k: v for k, v in node.items() if k not in ("description", "title")})
        if key in self.seen:
            return f"like {self.named(parts, self.seen[key])}", []
        self.seen[key] = _where(parts)
        required = set(node.get("required") or ())
        lines: list[str] = []
        for name, sub in properties.items():
            optional = name not in required
            lines += self.member(name, sub, optional=optional, parts=(*parts, name), depth=depth + 1)
        return "{}" + (" (other keys too)" if extra is True else ""), lines


def _restates(text: str, name: str) -> bool:
    """Whether a description's words only restate a member's name (``Buyer's reference`` of ``buyer_reference``)."""
    words = {w for w in re.findall(r"[a-z0-9]+", re.sub(r"'s\b", "", text.lower())) if w not in _STOPWORDS}
    return words <= set(name.lower().split("_"))


def _unbounded(word: str) -> str:
    """A described member's type words without a pattern (``IBAN without spaces``'s) or a numeric range (``Tax rate
    in percent``'s ``0..100``): dense, the description says what the value is and the grammar enforces its form."""
    kind, _, detail = word.partition(" ")
    patterned = kind == "string" and detail and not detail.startswith("(")
    return kind if patterned or (kind in ("number", "integer") and ".." in detail) else word


def _own_members(node: Any) -> frozenset[str]:
    """The words of the names of an object's members, at any depth (a list of objects: its items'): what a
    parenthesis in its description may list."""
    if not isinstance(node, Mapping):
        return frozenset()
    properties = node.get("properties")
    names = properties if isinstance(properties, Mapping) else {}
    own = {word for name in names for word in name.lower().split("_") if len(word) >= 3}
    for sub in [*names.values(), node.get("items"), *(node.get("anyOf") or ())]:
        own |= _own_members(sub)
    return frozenset(own)


def _unlisted(text: str, own: frozenset[str]) -> str:
    """A description without the parentheses that only list the member's own fields (they follow, indented)."""
    return re.sub(r" ?\(([^()]*)\)", lambda m: "" if _lists(m.group(1), own) else m.group(0), text)


def _lists(inner: str, own: frozenset[str]) -> bool:
    """Whether a parenthesis only lists the member's own fields: each item has a word that starts one of theirs
    (``references`` and ``reference``, ``notes`` and ``invoice_notes``)."""
    items = [i for i in re.split(r",\s*|\s+(?:or|and)\s+", inner.lower()) if i.strip()]
    stems = {word[:5] for word in own}
    return bool(own and items) and all(
        any(word[:5] in stems for word in re.findall(r"[a-z0-9]{3,}", item)) for item in items
    )


def _last(where: str) -> str:
    """A member's own name from where it is (``vat_category`` of ``line_items[].vat_category``)."""
    return re.split(r"\.|\[\]\.?", where)[-1]


def _where(parts: tuple) -> str:
    """A member's place as the field list names it: ``seller.address``, ``line_items[].details``."""
    out = ""
    for part in parts:
        out += "[]" if isinstance(part, int) else f".{part}" if out else str(part)
    return out or "the answer"


def _scalar_alternatives(node: Mapping[str, Any]) -> bool:
    """Whether an ``anyOf`` lists plain scalars only (said as ``string|number``)."""
    return all(
        isinstance(b, Mapping) and not set(b) - {"type", "format", "description", "title"} and b.get("type") != "object"
        for b in node["anyOf"]
    )


def _scalar(kind: str, node: Mapping[str, Any], *, dense: bool) -> str:
    """A scalar type's words: its format, pattern (dense: without the anchors a field's whole value implies) or
    short range."""
    if kind == "string":
        if node.get("format") in _FORMATS:
            return _FORMATS[node["format"]]
        if node.get("format"):
            return f"string ({node['format']})"
        pattern = node.get("pattern")
        if isinstance(pattern, str):
            if dense and pattern.startswith("^") and pattern.endswith("$") and not pattern.endswith("\\$"):
                pattern = pattern[1:-1]
            return f"string {pattern}" if len(pattern) <= MAX_PATTERN_CHARS else "string (pattern enforced)"
        return "string"
    if kind in ("number", "integer"):
        low = node.get("minimum", node.get("exclusiveMinimum"))
        high = node.get("maximum", node.get("exclusiveMaximum"))
        if isinstance(low, (int, float)) and isinstance(high, (int, float)) and high - low <= MAX_RANGE_WIDTH:
            return f"{kind} {low:g}..{high:g}"
    return str(kind)


def _descriptions(node: Any):
    if isinstance(node, Mapping):
        if isinstance(node.get("description"), str):
            yield " ".join(node["description"].split())
        for value in node.values():
            yield from _descriptions(value)
    elif isinstance(node, list):
        for value in node:
            yield from _descriptions(value)


def _footnoted(text: str, root: Any) -> str:
    """A clause that ends several descriptions (``...; scheme:id where a scheme is given``) said once, in a
    footnote ``^1`` at the end."""
    clauses = {c for d in _descriptions(root) for c in d.split("; ")[1:] if len(c) >= MIN_NOTE_CHARS}
    notes = [c for c in sorted(clauses) if text.count(f"; {c}\n") + text.endswith(f"; {c}") >= 2]
    for number, clause in enumerate(notes, start=1):
        text = text.replace(f"; {clause}\n", f" ^{number}\n")
        if text.endswith(f"; {clause}"):
            text = text[: -len(clause) - 2] + f" ^{number}"
    return text + "".join(f"\n^{number}: {clause}" for number, clause in enumerate(notes, start=1))


@lru_cache(maxsize=32)
def _describe(text: str, dense: bool | None) -> Description:
    root = json.loads(text)
    whole = _compact(root)
    description = _rendered(root, whole, dense=bool(dense))
    if dense is None and len(description.text) > DENSE_CHARS:
        description = _rendered(root, whole, dense=True)
    return description


def _rendered(root: Any, whole: str, *, dense: bool) -> Description:
    renderer = _Renderer(root, dense=dense)
    try:
        resolved = renderer.resolve(root) if isinstance(root, Mapping) else root
        if isinstance(resolved, Mapping) and isinstance(resolved.get("properties"), Mapping):
            _, lines = renderer.object_kind(resolved, parts=(), depth=-1)  # its members at depth 0
        else:
            lines = renderer.member("answer", root, optional=False, parts=(), depth=0)
    except _Unsayable:
        return Description(text=f"JSON Schema {whole}", as_json_schema=("",))
    rendered = _footnoted("\n".join(lines), root)
    if len(rendered) > len(whole):
        return Description(text=f"JSON Schema {whole}", as_json_schema=("",))
    return Description(text=rendered, as_json_schema=tuple(renderer.fallbacks), dense=dense)


def describe(schema: Mapping[str, Any], *, dense: bool | None = None) -> Description:
    """Render a JSON Schema as the prompt's field list (see the module docstring); cached per schema.

    Args:
        schema: the JSON Schema as the user wrote it.
        dense: render densely (True), plainly (False), or densely where the plain list is longer than
            ``DENSE_CHARS`` (None: a large schema's, such as ``invoice-en16931``).

    Returns:
        The Description: the text, and the parts shown as compact JSON Schema (all of it, ``""``, where the field
        list would be longer than the JSON Schema itself).
    """
    return _describe(json.dumps(schema, sort_keys=False, ensure_ascii=False), dense)


def prompt_rules(schema: Mapping[str, Any]) -> str | None:
    """The schema's own description as the prompt says it (None: it has none); beside a dense field list, without
    the parentheses that only list the schema's fields (``(document type, contacts, ...)``: the list follows)."""
    described = schema.get("description")
    if not isinstance(described, str):
        return None
    return _unlisted(described, _own_members(schema)) if describe(schema).dense else described


def prompt_warnings(schema: Mapping[str, Any]) -> tuple[dict, ...]:
    """The record's note, once, about the parts of the schema the prompt shows as JSON Schema (none: ``()``)."""
    parts = describe(schema).as_json_schema
    if not parts:
        return ()
    where = "the whole schema" if parts == ("",) else ", ".join(parts)
    return (
        issue(
            PROMPT_NOTE,
            f"the prompt shows {where} as compact JSON Schema: a field list would be longer or cannot say it",
        ),
    )


__all__ = ["PROMPT_NOTE", "Description", "describe", "prompt_rules", "prompt_warnings"]
