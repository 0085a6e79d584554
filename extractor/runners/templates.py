"""Render our messages through a model's own chat template, whatever the family's template accepts.

mlx-vlm builds each family's messages (where the image markers go, one per page; text parts as a list where the
family's template wants one) and passes template switches (``enable_thinking``). Two things it does not do:

* a system message as plain text: it hands some families' system content over as a list of parts, and a template
  that prints ``{{ message.content }}`` for the system turn (GLM's) then writes the list's Python repr into the
  prompt; so the system content goes in as a string first, as a list only where the string does not render;
* a template without a system role: some raise on one (strict alternation), some drop it silently.

Our instruction and schema live in the system message (the shared prefix, ``prompt.build_messages``). Whatever
renders, the prompt must hold the system text verbatim; where no form does, the text leads the first user turn.
"""

from __future__ import annotations

from collections.abc import Sequence

from extractor.runners.base import Message


def render_messages(processor, config, messages: Sequence[Message], *, num_images: int, options: dict) -> str:
    """Render ``messages`` with the model's chat template (image placeholders for ``num_images`` pages).

    Args:
        processor: the mlx-vlm processor (its tokenizer holds the template).
        config: the model's config.
        messages: system and user messages (``prompt.build_messages``).
        num_images: page images in the user turn.
        options: template variables (``chat_template.template_options``).

    Returns:
        The prompt text.
    """
    from mlx_vlm.prompt_utils import apply_chat_template, get_chat_template

    chat = [{"role": m.role, "content": m.text} for m in messages]
    system = next((m.text for m in messages if m.role == "system"), None)
    built = apply_chat_template(processor, config, chat, num_images=num_images, return_messages=True, **options)
    if system is not None and isinstance(built, list):
        for candidate in (_plain_system(built, system), built):
            try:
                text = get_chat_template(processor, candidate, True, **options)
            except Exception:  # noqa: BLE001 - a template without a system role may raise on one
                continue
            if holds(text, system):
                return text
    return apply_chat_template(processor, config, fold_system(chat), num_images=num_images, **options)


def _plain_system(messages: list, system: str) -> list:
    """mlx-vlm's messages with the system turn's content as the plain string."""
    return [{**m, "content": system} if isinstance(m, dict) and m.get("role") == "system" else m for m in messages]


def fold_system(chat: list[dict]) -> list[dict]:
    """The chat without a system message: its text leads the first user message."""
    system = "\n\n".join(m["content"] for m in chat if m["role"] == "system")
    rest = [dict(m) for m in chat if m["role"] != "system"]
    for message in rest:
        if message["role"] == "user":
            message["content"] = f"{system}\n\n{message['content']}"
            return rest
    return [{"role": "user", "content": system}, *rest]


def holds(text: str, system: str) -> bool:
    """Whether a rendered prompt holds the system text verbatim, its line breaks included (a Python repr of a
    list of parts escapes them)."""
    return system.strip() in text
