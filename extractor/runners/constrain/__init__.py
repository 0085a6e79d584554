"""Constrained decoding: JSON-Schema-guided generation with llguidance, one module per step of a call.

Every step, llguidance computes which tokens may come next under the schema's grammar; all others are set to
``-inf``. Where the grammar forces text (keys, quotes, commas), the tokens are handed to the runner so it feeds them
in one forward pass (jump-forward) instead of sampling each. Each decision keeps a weak model from breaking or
looping; the answer is still validated afterwards against the *original* schema, so the grammar only has to be a
subset of it.

The steps, in the order a generation meets them:

* ``plan`` (:func:`~extractor.runners.constrain.plan.plan_constraint`): what one call gets: a local grammar for a
  runner with a tokenizer, the bounded schema for a runner whose server enforces it (``json_schema``), or
  unconstrained decoding with a warning.
* ``bounds`` (:func:`~extractor.runners.constrain.bounds.bounded_schema`): the bounded copy of the schema that
  generation is constrained by (every string, number and array bounded, objects closed).
* ``grammar`` (:class:`~extractor.runners.constrain.grammar.Constrainer`,
  :class:`~extractor.runners.constrain.grammar.ConstraintState`): the bounded schema compiled into an llguidance
  grammar for a tokenizer and stop set, and one generation's walk through it (masks, forced tokens).
* ``mask`` (:func:`~extractor.runners.constrain.mask.apply_bitmask`): a mask applied to mx logits with plain mx
  ops (the in-process runner only).

Costs (``bench/constrained.py``, 2 CPU cores, vocabulary 248,320): once per process, llguidance's tokenizer
~1.7-2.3 s (per stop set) and the token index ~0.25 s; a grammar ~10-20 ms (cached per schema and stop set); per
token, the mask ~0.1 ms to compute (median; p95 ~0.8 ms) and ~0.7 ms to apply with mx ops (0.85 ms in all,
median); the runner computes it on the host while the model's forward pass runs. A matcher per generation is a deep
copy of a cached one.

mlx, numpy and llguidance are imported lazily (inside functions), so importing these modules costs nothing.
"""
