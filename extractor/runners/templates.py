"""Render our messages through a model's own chat template, whatever the family's template accepts.

mlx-vlm's ``apply_chat_template`` places each family's image markers (before or after the text, one per page) and
passes template switches (``enable_thinking``). What it does not do is cope with a template that has no system role:
some raise on one (strict alternation), some drop it silently. Our instruction and schema live in the system message
(the shared prefix, ``prompt.build_messages``), so where the rendered prompt does not hold the system text, it goes
at the start of the first user turn instead: the model always sees the instruction.
"""

from __future__ import annotations

from typing import Sequence

from ..runner import Message


def render_messages(processor, config, messages: Sequence[Message], *, num_images: int, options: dict) -> str:
    """Render ``messages`` with the model's chat template (image placeholders for ``num_images`` pages).

    Args:
        processor: the mlx-vlm processor (its tokenizer holds the template).
        config: the model's config.
        messages: system and user messages (``prompt.build_messages``).
        num_images: page images in the user turn.
        options: template variables (``prompt.template_options``).

    Returns:
        The prompt text.
    """
    from mlx_vlm.prompt_utils import apply_chat_template

    chat = [{"role": m.role, "content": m.text} for m in messages]
    system = next((m.text for m in messages if m.role == "system"), None)
    try:
        text = apply_chat_template(processor, config, chat, num_images=num_images, **options)
        if system is None or _holds(text, system):
            return text
    except Exception:  # noqa: BLE001 - a template without a system role may raise on one; fold it below
        pass
    return apply_chat_template(processor, config, fold_system(chat), num_images=num_images, **options)


def fold_system(chat: list[dict]) -> list[dict]:
    """The chat without a system message: its text leads the first user message."""
    system = "\n\n".join(m["content"] for m in chat if m["role"] == "system")
    rest = [dict(m) for m in chat if m["role"] != "system"]
    for message in rest:
        if message["role"] == "user":
            message["content"] = f"{system}\n\n{message['content']}"
            return rest
    return [{"role": "user", "content": system}, *rest]


def _holds(text: str, system: str) -> bool:
    # templates may trim or re-space; the schema line is long and distinctive enough to look for
    probe = system.strip().splitlines()[0][:80]
    return probe in text
