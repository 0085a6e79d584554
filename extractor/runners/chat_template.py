"""Render chat templates as transformers does (sandboxed Jinja), and find the token that ends an assistant turn.

The end-of-turn token is read from what the template *renders*, not from a list of known names: a conversation
with a marker assistant turn followed by another user turn, and the first special token after the marker. So
ChatML gives ``<|im_end|>``, Gemma 3 ``<end_of_turn>``, Gemma 4 ``<turn|>``, Idefics3 / SmolVLM
``<end_of_utterance>``, Llama 3 ``<|eot_id|>``, Phi ``<|end|>``, Mistral ``</s>``, and GLM, whose assistant turns
have no closing token, the next turn's opener ``<|user|>``: what each model really emits when its answer is done.
Pure Jinja: no mlx, no transformers.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

# Thinking is switched off wherever the chat template has the switch (``enable_thinking``): a <think> block costs
# tokens and is not part of the answer. The runners render with it and the doctor checks templates against it.
ENABLE_THINKING = False


def template_options(template: str) -> dict:
    """Return the chat-template variables the runners pass: ``{"enable_thinking": False}`` when the template has
    the switch, else nothing."""
    return {"enable_thinking": ENABLE_THINKING} if "enable_thinking" in (template or "") else {}


MARKER = "ZQXJ-ANSWER-7"  # an assistant turn no template changes and no tokenizer merges with its neighbours


def render(
    template: str, messages: list, *, add_generation_prompt: bool, bos_token: str = "", eos_token: str = "", **variables
) -> str:
    """Render a chat template for ``messages`` (sandboxed Jinja, transformers' globals; Mistral-style templates
    close assistant turns with ``eos_token``).

    Raises:
        Exception: whatever Jinja (or the template's ``raise_exception``) raises.
    """
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    def raise_exception(message):
        raise ValueError(message)

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
    env.filters["tojson"] = lambda value, **kw: json.dumps(value, ensure_ascii=False, **kw)
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = lambda fmt: "01 Jan 2026"
    return env.from_string(template).render(
        messages=messages,
        add_generation_prompt=add_generation_prompt,
        bos_token=bos_token,
        eos_token=eos_token,
        **variables,
    )


def _conversations():
    """The marker conversation in the content shapes templates expect: plain strings, then typed parts."""
    for content in (lambda t: t, lambda t: [{"type": "text", "text": t}]):
        yield [
            {"role": "user", "content": content("hi")},
            {"role": "assistant", "content": content(MARKER)},
            {"role": "user", "content": content("again")},
        ]


def rendered_turn_end(
    template: str | None, special_texts: Iterable[str], *, eos_token: str | None = None
) -> str | None:
    """The first special token a template renders after an assistant turn's text.

    Args:
        template: the Jinja source, or None.
        special_texts: the tokenizer's special / added token texts.
        eos_token: the tokenizer's eos text (the template's ``eos_token`` variable).

    Returns:
        The token text, or None when the template cannot be rendered or renders no special token there.
    """
    if not template:
        return None
    specials = sorted({t for t in special_texts if t and t.strip()}, key=len, reverse=True)
    for messages in _conversations():
        try:
            text = render(template, messages, add_generation_prompt=False, eos_token=eos_token or "")
        except Exception:  # noqa: BLE001 - try the next content shape
            continue
        at = text.find(MARKER)
        if at < 0:
            continue
        tail = text[at + len(MARKER) :]
        found = [(tail.find(t), t) for t in specials if t in tail]
        if found:
            return min(found, key=lambda f: (f[0], -len(f[1])))[1]
    return None
