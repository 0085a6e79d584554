"""Which of a record's keys the register can stand behind.

A key makes a **claim** (counts for duplicates and bank checks) only when it was read exactly or found on the page:

* the record's data came from the embedded e-invoice XML (``data_source == "embedded_xml"``: the issuer's own
  values, also for a bare e-invoice file), or
* grounding found the value on the page (``grounding.fields[pointer] is True``: in the text layer or OCR text).

A value the model wrote that is nowhere on the page (``false``) or could not be checked (``null``) makes no claim:
a hallucinated number never makes another document a duplicate, a hallucinated IBAN never raises or settles a
bank check. A record is **verified** when its number and the identifier its supplier key is made of (VAT id, tax
number, or name) both claim; an unverified record is still registered (and says so), but it is never anyone's
original and is never flagged as a duplicate itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from extractor.register.keys import Keys

# the data's pointer of each key (``invoice`` / ``invoice-en16931`` field names)
POINTERS = {
    "vat_id": ("/seller/vat_id",),
    "tax_number": ("/seller/tax_id", "/seller/tax_number"),
    "name": ("/seller/name",),
    "number": ("/invoice_number",),
    "iban": ("/bank_account/iban",),
    "total": ("/total",),
}
SHOWN = ("vat_id", "number", "iban", "total")  # the record's ``register.claims``


@dataclass(frozen=True)
class Claims:
    """Per key, whether it counts (``claims``).

    Attributes:
        keys: key name (``vat_id``, ``tax_number``, ``name``, ``number``, ``iban``, ``total``) -> bool.
        identifier: which key the supplier key is made of (``vat_id``, ``tax_number`` or ``name``), None when the
            supplier cannot be identified.
        exact: the data came from embedded XML.
    """

    keys: Mapping[str, bool]
    identifier: str | None = None
    exact: bool = False

    def __getitem__(self, name: str) -> bool:
        return bool(self.keys.get(name))

    @property
    def supplier(self) -> bool:
        """Whether the identifier the supplier key is made of claims (VAT id, else tax number, else name)."""
        return self.identifier is not None and self[self.identifier]

    @property
    def verified(self) -> bool:
        """Number and supplier both claim: the entry can be an original, or a duplicate."""
        return self["number"] and self.supplier

    def shown(self) -> dict[str, bool]:
        """The record's ``register.claims``: ``{vat_id, number, iban, total}``."""
        return {name: self[name] for name in SHOWN}


def claims(keys: Keys, *, data_source: str | None, grounding: Any) -> Claims:
    """Which of ``keys`` claim (module docstring).

    Args:
        keys: the record's normalised keys (``keys.read_keys``).
        data_source: the record's ``data_source`` (``embedded_xml``, ``model``).
        grounding: the record's ``grounding`` entry (``{"fields": {pointer: true|false|null}, ...}``), or None.

    Returns:
        The Claims; a key the record does not have never claims.
    """
    present = {
        "vat_id": keys.vat_id,
        "tax_number": keys.tax_number,
        "name": keys.name_norm,
        "number": keys.number,
        "iban": keys.iban,
        "total": keys.total,
    }
    # the supplier is identified by the first of these it has: the others do not decide it
    identifier = next((n for n in ("vat_id", "tax_number", "name") if present[n]), None)
    exact = data_source == "embedded_xml"
    fields = grounding.get("fields") if isinstance(grounding, Mapping) else None
    fields = fields if isinstance(fields, Mapping) else {}
    out = {
        name: bool(value) and (exact or any(fields.get(p) is True for p in POINTERS[name]))
        for name, value in present.items()
    }
    return Claims(keys=out, identifier=identifier, exact=exact)


__all__ = ["POINTERS", "SHOWN", "Claims", "claims"]
