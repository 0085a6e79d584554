"""Build the chat for one document: a fixed prefix (instruction and the schema's field list), then the page images and
one line.

The schema is described, not spelled out (``describe``: one line per field, its type, meaning, format and codes):
constrained decoding enforces the structure, so the model needs to know what each field means, not the JSON Schema's
syntax; a field not marked ``*`` may be left out when the page does not hold it (``runners.constrain.omit``).

The messages are model-agnostic; the runner renders them through the model's own chat template (with thinking
disabled where the template supports ``enable_thinking``).
"""

from __future__ import annotations

from collections.abc import Sequence

from extractor.pipeline.describe import describe, prompt_rules
from extractor.runners.base import Message
from extractor.schema import Schema

SYSTEM = (
    "You extract structured data from business documents. Answer with one JSON value only: no prose, no Markdown, "
    "no code fences."
)
# Said only when the schema has no description of its own (ours say it, in their words).
DEFAULT_RULES = (
    "Numbers are JSON numbers (no currency signs or thousands separators); dates are YYYY-MM-DD; null "
    "where a field is not printed."
)
DOCUMENT_LINE = "Extract this document."
# how to read the field list (``describe``): one line per field, nested fields indented under theirs
FIELDS_LINE = (
    "Fields, one a line: name (* always there; leave out others the document lacks), :type unless a string ({} "
    "object, [] list: its fields indented below), meaning:"
)
# the same for a dense list (``describe``: a large schema's), whose objects are not typed
DENSE_FIELDS_LINE = (
    "Fields, one a line: name (* always there; leave out others), :type unless a string ([] list), meaning; nested "
    "fields indented:"
)


def instruction(schema: Schema) -> str:
    """Return the instruction for a schema: what to do, the rules, and the schema's field list (``describe``).

    It depends on the schema only, never on the document, so it belongs to the shared prompt prefix.
    """
    what = schema.schema.get("title") or schema.name
    rules = prompt_rules(schema.schema) or DEFAULT_RULES
    fields = describe(schema.schema)
    return (
        f"The user shows the page images of one document ({what}). Return its data as one JSON value with "
        f"these fields, in this order. {rules} Copy identifiers exactly. "
        f"{DENSE_FIELDS_LINE if fields.dense else FIELDS_LINE}\n{fields.text}"
    )


def build_messages(schema: Schema, *, pages: int, feedback: Sequence[str] = ()) -> tuple[Message, ...]:
    """Build the messages for one document, laid out for a shared, cacheable prefix.

    Everything that does not depend on the document (the system text, the instruction, the schema) comes first, in
    the system message; the user turn holds the page images, then one short fixed line and, on a retry, the problems
    with the previous answer. So every document of a batch starts with the same tokens up to its first image
    (``runners`` cache them), and only the images and a few words are new.

    Args:
        schema: the schema the answer must follow.
        pages: number of page images in the user turn (they come before its text).
        feedback: problems with a previous answer, for a retry (empty on the first attempt).

    Returns:
        The messages (system, user).
    """
    text = DOCUMENT_LINE
    if feedback:
        text += "\nYour previous answer had these problems; fix them:\n" + "\n".join(f"- {f}" for f in feedback)
    return (
        Message(role="system", text=f"{SYSTEM}\n\n{instruction(schema)}"),
        Message(role="user", text=text, images=pages),
    )
