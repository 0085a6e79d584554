"""Choosing what to ask a server for: its kind and served models, the model id to send, and the stop set for it.

Each endpoint is asked once what it is (:func:`fetch_server_info`: ``/v1/models`` and the ``server`` header,
:func:`detect_kind`); the id sent is the served id naming the user's model (:func:`choose_model`). The stop set sent
as ``stop_token_ids`` (:func:`remote_stop_set`) is resolved from the model's local directory when there is one,
else Qwen3.5's for a Qwen3.5 model, else left empty: no other family's ids are guessed from a name (the record
says ``stop_set_unknown``). The page budget's pixels per vision token (:func:`pixels_per_token`) come from the same
local directory.

httpx is imported lazily (inside functions).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from extractor.errors import ModelError
from extractor.runners.modelfiles import DEFAULT_MODEL
from extractor.runners.openai.endpoints import Endpoint, EndpointFailure
from extractor.runners.openai.wire import check_status, transport_reason
from extractor.runners.stopping import END_TOKEN_TEXTS, StopSet, resolve_stop_set

QWEN_STOP_IDS = {248044: "<|endoftext|>", 248046: "<|im_end|>"}
KNOWN_QWEN_MODELS = frozenset({DEFAULT_MODEL})  # Qwen3.5-based, whatever their names say
QWEN35_NAME = re.compile(r"qwen3[._-]?5", re.I)  # Qwen3.5 ids, not Qwen2.5-VL's 151645 or Qwen3-VL's
DEFAULT_PIXELS_PER_TOKEN = (16 * 2) ** 2  # Qwen-VL: 16-px patches merged 2x2


@dataclass(frozen=True)
class ServerInfo:
    """What a server said about itself.

    Attributes:
        kind: a key of :data:`~extractor.runners.openai.wire.KINDS`.
        models: the model ids it serves (``/v1/models``), in its order.
        detected: the kind was detected (not given with ``--server-kind``).
    """

    kind: str
    models: tuple[str, ...]
    detected: bool = True


def detect_kind(*, server_header: str, models: Sequence[Mapping[str, Any]]) -> str:
    """Tell the kind of server from its ``server`` header and its ``/v1/models`` items.

    Args:
        server_header: the response's ``server`` header ('' when absent).
        models: the ``data`` items of ``/v1/models``.

    Returns:
        ``mlx`` (header ``mlx_vlm/...``), ``vllm`` / ``sglang`` (``owned_by``), else ``openai``.
    """
    if server_header.lower().startswith("mlx_vlm"):
        return "mlx"
    owners = {str(m.get("owned_by", "")).lower() for m in models if isinstance(m, Mapping)}
    for kind in ("vllm", "sglang"):
        if kind in owners:
            return kind
    return "openai"


def choose_model(wanted: str, served: Sequence[str], *, url: str) -> str:
    """The id to send for the model the user named: the same id, the same directory, or the only one served.

    Args:
        wanted: the ``model`` setting (a served id, or a local directory the server loaded too); '' for none.
        served: the ids in the server's ``/v1/models`` (empty when it has no such list).
        url: the endpoint, for the message.

    Returns:
        The id, exactly as the server lists it (``mlx_vlm.server`` loads whatever path another id names).

    Raises:
        ModelError: the server serves several models and none of them is ``wanted``.
    """
    if not served or wanted in served:
        return wanted
    same = [s for s in served if wanted and _same_directory(wanted, s)]
    if same:
        return same[0]
    if len(served) == 1:
        return served[0]
    named = f"--model {wanted} is none of them" if wanted else "no --model given"
    raise ModelError(f"the server serves {', '.join(served)}; {named} (pass one of these ids)", source=url)


def _same_directory(a: str, b: str) -> bool:
    try:
        return Path(a).expanduser().resolve() == Path(b).expanduser().resolve() and Path(a).expanduser().is_dir()
    except (OSError, RuntimeError):
        return False


def remote_stop_set(model: str, *, stop_ids: Sequence[int] = ()) -> StopSet:
    """The stop set sent to the servers: ``stop_ids`` when given, else the local model directory's (when ``model``
    names one, or a hub id in the local cache), resolved exactly as in-process (``stopping``), else Qwen3.5's
    <|endoftext|> and <|im_end|> for a Qwen3.5 model (the default model, or an id naming Qwen3.5: every Qwen3.5
    checkpoint shares that vocabulary), else empty: the served model's stop set is unknown, and no other family's
    ids are guessed from a name (each record says so: ``stop_set_unknown``; the guards still watch the text).

    Args:
        model: the ``model`` setting.
        stop_ids: the ``--stop-id`` override.

    Returns:
        The StopSet, each id with where it came from.

    Raises:
        ModelError: the model directory exists but one of its files cannot be read.
    """
    if stop_ids:
        ids = tuple(sorted(set(int(i) for i in stop_ids)))
        return StopSet(ids=ids, sources={i: ("--stop-id",) for i in ids}, texts=END_TOKEN_TEXTS)
    directory = local_model_dir(model)
    if directory is not None:
        return resolve_stop_set(directory)
    if model in KNOWN_QWEN_MODELS or QWEN35_NAME.search(model or ""):
        return StopSet(
            ids=tuple(sorted(QWEN_STOP_IDS)),
            sources={i: (f"qwen-family id:{t}",) for i, t in QWEN_STOP_IDS.items()},
            texts=END_TOKEN_TEXTS,
        )
    return StopSet(ids=(), texts=END_TOKEN_TEXTS)


def local_model_dir(model: str) -> Path | None:
    """The model's directory when it is here: a path, or a hub id already in the local cache (never downloads).

    Args:
        model: the ``model`` setting.

    Returns:
        The directory, or None.
    """
    if not model:
        return None
    path = Path(model).expanduser()
    if path.is_dir():
        return path
    if path.exists() or "/" not in model or model.startswith((".", "/", "~")):
        return None
    try:
        from huggingface_hub import snapshot_download

        return Path(snapshot_download(repo_id=model, local_files_only=True))
    except Exception:  # noqa: BLE001 - not cached (or no hub library): the id alone decides
        return None


def pixels_per_token(model: str) -> int:
    """Image pixels per vision token: from the local directory's ``preprocessor_config.json`` when there is one
    (``(patch_size * merge_size) ** 2``), else Qwen-VL's 32 x 32."""
    directory = local_model_dir(model)
    try:
        config = json.loads((directory / "preprocessor_config.json").read_text(encoding="utf-8")) if directory else {}
    except (OSError, ValueError):
        config = {}
    patch, merge = config.get("patch_size"), config.get("merge_size")
    if isinstance(patch, int) and isinstance(merge, int) and patch > 0 and merge > 0:
        return (patch * merge) ** 2
    return DEFAULT_PIXELS_PER_TOKEN


def fetch_server_info(client, endpoint: Endpoint, *, kind: str | None, timeout) -> ServerInfo:
    """Ask ``/models`` what a server serves, and tell its kind (unless given).

    Args:
        client: the httpx client.
        endpoint: the endpoint.
        kind: the ``--server-kind`` (None: detect).
        timeout: httpx time-out for the request.

    Returns:
        The ServerInfo (a server without ``/models``: no ids, kind as given or ``openai``).

    Raises:
        EndpointFailure: unreachable, or a 5xx / 429.
        ExtractorError: (code ``auth``) the key was refused.
        ModelError: another error status.
    """
    import httpx

    try:
        response = client.get(f"{endpoint.base}/models", timeout=timeout)
    except httpx.TransportError as exc:
        raise EndpointFailure(transport_reason(exc)) from exc
    if response.status_code == 404:
        return ServerInfo(kind=kind or "openai", models=(), detected=kind is None)
    check_status(response.status_code, response.text, url=endpoint.url, headers=response.headers)
    try:
        items = response.json().get("data") or []
    except (ValueError, AttributeError):
        raise ModelError(f"{endpoint.base}/models did not answer with a model list", source=endpoint.url) from None
    items = [m for m in items if isinstance(m, dict)]
    found = kind or detect_kind(server_header=response.headers.get("server", ""), models=items)
    return ServerInfo(kind=found, models=tuple(str(m.get("id")) for m in items if m.get("id")), detected=kind is None)


__all__ = [
    "DEFAULT_PIXELS_PER_TOKEN",
    "KNOWN_QWEN_MODELS",
    "QWEN35_NAME",
    "QWEN_STOP_IDS",
    "ServerInfo",
    "choose_model",
    "detect_kind",
    "fetch_server_info",
    "local_model_dir",
    "pixels_per_token",
    "remote_stop_set",
]
