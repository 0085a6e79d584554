"""The plan of one generation's constraint: a local grammar, a schema for the server, or none (and why).

A runner with a tokenizer gets a grammar compiled *leniently*
(:meth:`~extractor.runners.constrain.grammar.Constrainer.compile`): keywords llguidance cannot express (``not``,
``if``/``then``/``else``, ``uniqueItems``, ``contains``, ``dependentRequired``, ``propertyNames``,
``unevaluatedProperties``, unknown formats) are ignored by the grammar, the output still always parses and ends on a
stop token, the validator checks the ignored keywords, and the record carries a ``constraint_partial`` warning
naming them. The grammar's end tokens must be in the request's stop set. A runner without a tokenizer whose server
enforces a schema (``Runner.server_constraints``) gets the bounded schema to send as ``json_schema``. A schema
llguidance cannot compile at all (e.g. a pattern with look-ahead), a runner without a tokenizer or server
constraints, or an empty stop set: the call decodes *unconstrained* and the record carries an ``unconstrained``
warning with the reason; ``extra.constrained`` says which happened.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from extractor.errors import ModelError, SchemaError
from extractor.record import issue
from extractor.runners.base import Runner
from extractor.runners.constrain.bounds import bounded_schema
from extractor.runners.constrain.grammar import CompiledSchema, constrainer_for
from extractor.runners.stopping import StopSet


@dataclass(frozen=True)
class ConstraintPlan:
    """How one generation is constrained, and what the record says about it.

    Attributes:
        compiled: the grammar for this model's tokenizer and stop set (None: no token masks here).
        active: constraints are on for this generation (for a server-side schema the runner says, per call).
        warnings: record warnings (``constraint_partial`` / ``unconstrained``), as issue dicts.
        server_schema: the bounded schema for a runner that has it enforced on its server (None: not asked).
    """

    compiled: CompiledSchema | None = None
    active: bool = False
    warnings: tuple[dict, ...] = ()
    server_schema: dict | None = None

    def factory(self, *, jump_forward: bool):
        """What a GenerationRequest carries: a callable starting one walk through the grammar (None: no masks)."""
        if self.compiled is None:
            return None
        compiled = self.compiled
        return lambda: compiled.start(jump_forward=jump_forward)


def plan_constraint(runner: Runner, *, schema: Mapping[str, Any], stop: StopSet, enabled: bool) -> ConstraintPlan:
    """Decide how one generation is constrained, falling back to unconstrained decoding with a warning.

    Args:
        runner: the runner that will generate.
        schema: the JSON Schema as the user wrote it.
        stop: the request's stop set.
        enabled: the ``constrained`` setting.

    Returns:
        The ConstraintPlan (never raises for a schema, tokenizer or stop-set problem: those become an
        ``unconstrained`` warning). A runner without a tokenizer that can have a schema enforced on its server
        (``server_constraints``) gets the bounded schema to send; whether it was enforced is the runner's to say
        (``GenerationResult.constrained``), per call.
    """
    if not enabled:
        return ConstraintPlan()
    tokenizer = runner.tokenizer
    if tokenizer is None and runner.server_constraints:
        return ConstraintPlan(server_schema=bounded_schema(schema))
    if tokenizer is None:
        reason = f"runner {type(runner).__name__} has no tokenizer to build a grammar for"
        return ConstraintPlan(warnings=(unconstrained_warning(reason),))
    try:
        compiled = constrainer_for(tokenizer).compile(schema, stop_ids=stop.ids, lenient=True)
        compiled.check_stop_set(stop)
    except (SchemaError, ModelError) as exc:
        return ConstraintPlan(warnings=(unconstrained_warning(str(exc)),))
    warnings: tuple[dict, ...] = ()
    if compiled.ignored:
        warnings = (
            issue(
                "constraint_partial",
                "constrained decoding ignores what llguidance cannot express ("
                + "; ".join(compiled.ignored)
                + "); validation still checks it",
            ),
        )
    return ConstraintPlan(compiled=compiled, active=True, warnings=warnings)


def unconstrained_warning(reason: str) -> dict:
    """The record's ``unconstrained`` warning: constrained decoding was off for this document, and why."""
    return issue("unconstrained", f"constrained decoding is off for this document: {reason}")


__all__ = ["ConstraintPlan", "plan_constraint", "unconstrained_warning"]
