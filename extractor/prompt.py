"""Build the chat for one document: an instruction, the JSON Schema in compact form, one image per page.

The messages are model-agnostic; the runner renders them through the model's own chat template (with thinking
disabled where the template supports ``enable_thinking``).
"""

from __future__ import annotations

from typing import Sequence

from .runner import Message
from .validate import Schema

# Thinking is switched off wherever the chat template has the switch (``enable_thinking``): a <think> block costs
# tokens and is not part of the answer. The runners render with it and the doctor checks templates against it.
ENABLE_THINKING = False


def template_options(template: str) -> dict:
    """Return the chat-template variables the runners pass: ``{"enable_thinking": False}`` when the template has
    the switch, else nothing."""
    return {"enable_thinking": ENABLE_THINKING} if "enable_thinking" in (template or "") else {}


SYSTEM = (
    "You extract structured data from business documents. Answer with one JSON value only: no prose, no Markdown, "
    "no code fences."
)


def instruction(schema: Schema) -> str:
    """Return the user instruction for a schema.

    Args:
        schema: the schema in use (its title / description shape the wording).

    Returns:
        The instruction text, schema included.
    """
    what = schema.schema.get("title") or schema.name
    description = schema.schema.get("description", "")
    return (
        f"Read the attached page images of a {what} and return its data as JSON matching this JSON Schema. "
        f"{description} Use null for fields that are not printed; copy identifiers exactly; write numbers as JSON "
        f"numbers without currency signs or thousands separators; write dates as YYYY-MM-DD.\n"
        f"JSON Schema:\n{schema.compact()}"
    )


def build_messages(schema: Schema, *, pages: int, feedback: Sequence[str] = ()) -> tuple[Message, ...]:
    """Build the messages for one document.

    Args:
        schema: the schema the answer must follow.
        pages: number of page images attached to the user turn.
        feedback: problems with a previous answer, for a retry (empty on the first attempt).

    Returns:
        The messages (system, user).
    """
    text = instruction(schema)
    if feedback:
        text += "\nYour previous answer had these problems; fix them:\n" + "\n".join(f"- {f}" for f in feedback)
    return (Message(role="system", text=SYSTEM), Message(role="user", text=text, images=pages))
