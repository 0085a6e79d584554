"""Programming a qwen3_5 checkpoint's weights so that it emits a script (the register machine).

A bigram machine cannot know where it is after a run of structural tokens that
occurs many times (``","quantity":`` once per line item), so the first linear-attention layer (Gated DeltaNet)
is a *register* holding the most recent writer token: chunk tokens, continuation tokens and the one default
embedding shared by every non-script token write; structural script tokens and image positions do not. Its
conv1d looks at the current position only; q = k = one constant direction (every embedding, and every image
feature, carries a constant "bias" component that the q/k rows read); beta = sigmoid(+-40) from a "writer flag"
component; A_log = -30, so nothing decays. The layer's output at position t is then out_proj(rmsnorm(v_c) *
silu(z_t)) for the register's token c: a feature of the pair (c, t). ``linear_num_value_heads`` is chosen so
that there are at least 1.3 features per distinct (c, t) pair of the script, and out_proj is fitted by least
squares (on features computed by the real mlx layer) so that embedding(t) + out_proj(...) equals the embedding
of the pair's successor. Every other residual write is zero (other linear-attention layers, full attention,
MLPs: they still compute). Script tokens get random directions, every other token one shared default
direction; the final norm scales the logits (the scripted token scores ``LOGIT_SCALE`` x sqrt(hidden - 2),
~550 at hidden 32, the default). The minimum logit margin over the whole script, measured by a forward pass of
the weights as written, must be at least :data:`MIN_LOGIT_MARGIN` (measured at hidden 32: 189 for the sample
invoice, 160 for a 5,900-character answer, 121 for a 27,000-character one; about twice that at hidden 64), else
:class:`~extractor.errors.ModelError`; so temperature-1 sampling never leaves the script. A long answer takes a
while to build (27,000 characters: ~40 s): the fit's linear system grows with the square of the pairs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from extractor.errors import ModelError
from extractor.testing.tokenizer import VOCAB_SIZE

LOGIT_SCALE = 100.0
MIN_LOGIT_MARGIN = 100.0  # exp(-100) per wrong token: temperature-1 sampling never leaves the script
FEATURE_RATIO = 1.3  # register features per distinct (register, token) pair: keeps the fit well conditioned

# The register layer (see the module docstring): embedding components and gains.
_BIAS = 0  # constant component: q and k read it, so both are one fixed direction
_FLAG = 1  # +1 for writer tokens, -1 for the others
_QK_GAIN = 4.0
_BETA_GAIN = 40.0  # beta = sigmoid(+-40): exactly 1.0 / ~4e-18 in float32
_A_LOG = -30.0  # decay exp(-exp(A_log) * softplus(dt_bias)) == 1.0 in float32
_IMAGE_GAIN = 10.0  # image features: bias +10, flag -10 (never write, keep q = k)
_DEFAULT = -1  # the shared default embedding, in register sequences


def _register_pairs(
    sequence: Sequence[int], writers: Sequence[bool], texts: Mapping[int, str]
) -> tuple[dict[tuple[int, int], int], list[int]]:
    """Every (register, token) pair a script visits, with its successor, and the first position of each pair.

    Args:
        sequence: token ids, :data:`_DEFAULT` for the shared default embedding (the prompt's last tokens).
        writers: per token, whether it writes the register.
        texts: token texts, for error messages.

    Raises:
        ModelError: a pair has two successors, or a token both writes and does not.
    """
    pairs: dict[tuple[int, int], int] = {}
    positions: list[int] = []
    writes: dict[int, bool] = {}
    register = _DEFAULT
    for i, (token, writer) in enumerate(zip(sequence[:-1], writers, strict=False)):
        if writes.setdefault(token, writer) != writer:
            raise ModelError(f"cannot script token {texts.get(token, token)!r}: it is both a chunk and forced text")
        register = token if writer else register
        successor = sequence[i + 1]
        known = pairs.setdefault((register, token), successor)
        if known != successor:
            raise ModelError(
                f"cannot script the answer: after {texts.get(register, 'the prompt')!r}, token "
                f"{texts.get(token, token)!r} is followed by both {texts.get(known, known)!r} and "
                f"{texts.get(successor, successor)!r}"
            )
        if len(pairs) > len(positions):
            positions.append(i)
    return pairs, positions


def _token_vectors(writers: Sequence[bool], hidden: int, rng):
    """One embedding per script token (and the default, last): bias 1, writer flag +-1, a random direction.

    Every row has RMS 1, so the input RMSNorm leaves it as it is.
    """
    import numpy as np

    rows = np.zeros((len(writers), hidden), np.float32)
    random = rng.standard_normal((len(writers), hidden - 2))
    rows[:, 2:] = random * (np.sqrt(hidden - 2) / np.linalg.norm(random, axis=1, keepdims=True))
    rows[:, _BIAS] = 1.0
    rows[:, _FLAG] = np.where(np.asarray(writers), 1.0, -1.0)
    return rows


def _set_register(layer, rng) -> None:
    """Make a Gated DeltaNet layer a register (see the module docstring); out_proj is fitted later."""
    import mlx.core as mx
    import numpy as np

    attn = layer.linear_attn
    hidden = layer.input_layernorm.weight.shape[0]
    layer.input_layernorm.weight = mx.ones((hidden,))
    key_dim, value_dim, head = attn.key_dim, attn.value_dim, attn.head_k_dim
    qkv = np.zeros((2 * key_dim + value_dim, hidden), np.float32)
    qkv[0:key_dim:head, _BIAS] = _QK_GAIN  # q: the first component of each key head
    qkv[key_dim : 2 * key_dim : head, _BIAS] = _QK_GAIN  # k: the same
    qkv[2 * key_dim :] = rng.standard_normal((value_dim, hidden)) / np.sqrt(hidden)  # v: the token's features
    attn.in_proj_qkv.weight = mx.array(qkv)
    attn.in_proj_z.weight = mx.array((rng.standard_normal((value_dim, hidden)) / np.sqrt(hidden)).astype(np.float32))
    gates = np.zeros((attn.num_v_heads, hidden), np.float32)
    gates[:, _FLAG] = _BETA_GAIN
    attn.in_proj_b.weight = mx.array(gates)
    attn.in_proj_a.weight = mx.zeros_like(attn.in_proj_a.weight)
    attn.A_log = mx.full(attn.A_log.shape, _A_LOG)
    attn.dt_bias = mx.ones(attn.dt_bias.shape)
    conv = np.zeros(attn.conv1d.weight.shape, np.float32)  # (channels, kernel, 1): the last tap is "now"
    conv[:, -1, :] = 1.0
    attn.conv1d.weight = mx.array(conv)
    attn.norm.weight = mx.ones(attn.norm.weight.shape)


def _quiet_everything_else(model) -> None:
    """Zero every residual write but the register's, make image features non-writers, scale the logits."""
    import mlx.core as mx
    import numpy as np

    text = model.language_model.model
    for i, layer in enumerate(text.layers):
        layer.mlp.down_proj.weight = mx.zeros_like(layer.mlp.down_proj.weight)
        if not layer.is_linear:
            layer.self_attn.o_proj.weight = mx.zeros_like(layer.self_attn.o_proj.weight)
        elif i > 0:
            layer.linear_attn.out_proj.weight = mx.zeros_like(layer.linear_attn.out_proj.weight)
    hidden = text.norm.weight.shape[0]
    # Vision features keep the bias component (q = k stay fixed) and a strongly negative writer flag: an image,
    # however long, never touches the register.
    merger = model.vision_tower.merger.linear_fc2
    weight, bias = np.array(merger.weight), np.array(merger.bias)
    weight[[_BIAS, _FLAG]] = 0.0
    bias[_BIAS], bias[_FLAG] = _IMAGE_GAIN, -_IMAGE_GAIN
    merger.weight, merger.bias = mx.array(weight), mx.array(bias)
    # Logits read the random directions only (not bias/flag): the scripted token scores LOGIT_SCALE*sqrt(h-2).
    scale = np.full((hidden,), LOGIT_SCALE / np.sqrt(hidden - 2), np.float32)
    scale[[_BIAS, _FLAG]] = 0.0
    text.norm.weight = mx.array(scale)


def _register_features(layer, inputs):
    """The register layer's features rmsnorm(v_c) * silu(z_t) at every position of ``inputs`` (L, hidden)."""
    import mlx.core as mx
    import mlx.nn as nn
    import numpy as np

    attn = layer.linear_attn
    identity = nn.Linear(attn.value_dim, attn.value_dim, bias=False)
    identity.weight = mx.eye(attn.value_dim)
    fitted, attn.out_proj = attn.out_proj, identity  # the real layer, its output projection taken out
    try:
        return np.array(attn(layer.input_layernorm(mx.array(inputs)[None])))[0]
    finally:
        attn.out_proj = fitted


def _embed_script(model, sequence: Sequence[int], writers: Sequence[bool], rng):
    """Give every script token its own embedding row and every other token the default one.

    Returns:
        (rows, row of each token id with :data:`_DEFAULT` last): the embeddings of the script's tokens.
    """
    import mlx.core as mx
    import numpy as np

    text = model.language_model.model
    tokens = sorted({t for t in sequence if t != _DEFAULT}) + [_DEFAULT]
    token_writes = dict(zip(sequence, writers, strict=False))
    rows = _token_vectors([token_writes.get(t, True) for t in tokens], text.norm.weight.shape[0], rng)
    embedding = np.empty((VOCAB_SIZE, rows.shape[1]), np.float32)
    embedding[:] = rows[-1]  # every non-script token shares the default (a writer)
    embedding[np.array(tokens[:-1], dtype=np.int64)] = rows[:-1]
    text.embed_tokens.weight = mx.array(embedding)
    return rows, {token: i for i, token in enumerate(tokens)}


def _fit_output(layer, features, targets) -> None:
    """Set the register's out_proj to the minimum-norm exact solution of ``out_proj(features) == targets``."""
    import mlx.core as mx
    import numpy as np

    try:  # out_proj = Y^T (F F^T)^-1 F: one (pairs x pairs) system, well conditioned at FEATURE_RATIO
        solved = np.linalg.solve(features @ features.T, targets)
    except np.linalg.LinAlgError as exc:
        raise ModelError(f"cannot fit the register's output for {len(features)} pairs: {exc}") from exc
    layer.linear_attn.out_proj.weight = mx.array((features.T @ solved).T.astype(np.float32))


def _logit_margin(model, inputs, positions: Sequence[int], rows, wanted) -> float:
    """The minimum margin (wanted token minus the best other) at ``positions`` of one forward pass over
    ``inputs`` (embeddings, (L, hidden)); every non-script token scores like the default row (the last)."""
    import mlx.core as mx
    import numpy as np

    lm = model.language_model
    length = len(inputs)
    position_ids = mx.broadcast_to(mx.arange(length)[None, None], (3, 1, length))
    normed = lm.model(
        mx.zeros((1, length), dtype=mx.int32),
        inputs_embeds=mx.array(inputs)[None],
        cache=lm.make_cache(),
        position_ids=position_ids,
    )
    logits = np.array(normed)[0][list(positions)] @ rows.T  # tied: the lm_head rows are the embeddings
    correct = logits[np.arange(len(wanted)), wanted]
    logits[np.arange(len(wanted)), wanted] = -np.inf
    return float(np.min(correct - logits.max(axis=1)))


def _program_register(
    model,
    *,
    sequence: Sequence[int],
    writers: Sequence[bool],
    pairs: Mapping[tuple[int, int], int],
    positions: Sequence[int],
    rng,
) -> float:
    """Program a model so that every (register, token) pair of ``sequence`` predicts its successor.

    Returns:
        The minimum logit margin over the sequence (the successor minus the best other token), measured by a
        forward pass of the weights as they will be written.

    Raises:
        ModelError: the margin is below ``MIN_LOGIT_MARGIN``, or the fit is singular.
    """
    import numpy as np

    rows, row = _embed_script(model, sequence, writers, rng)
    _quiet_everything_else(model)
    register = model.language_model.model.layers[0]
    _set_register(register, rng)
    inputs = rows[[row[t] for t in sequence]]  # (L, hidden): the sequence's embeddings
    wanted = np.array([row[successor] for successor in pairs.values()])  # insertion order == positions order
    features = _register_features(register, inputs)[list(positions)].astype(np.float64)
    _fit_output(register, features, (rows[wanted] - inputs[list(positions)]).astype(np.float64))
    margin = _logit_margin(model, inputs, positions, rows, wanted)
    if not margin >= MIN_LOGIT_MARGIN:  # NaN fails too
        hidden = rows.shape[1]
        raise ModelError(
            f"scripted program of {len(pairs)} (register, token) pairs is unreliable at hidden size "
            f"{hidden}: logit margin {margin:.1f} < {MIN_LOGIT_MARGIN} (try another seed)"
        )
    return margin
