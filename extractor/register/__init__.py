"""The invoice register (issue 40): every invoice read is checked against the ones before it, and every supplier's
trusted bank accounts, in one transaction; its warnings turn ``ok`` into ``review`` through ``trust.verdict``.

The stage after ``trust`` and ``einvoice`` (it reads a record's data, grounding and embedded type code, and feeds
``trust.verdict``'s status decision), before ``settings`` and ``pipeline``: the API (``Extractor(register=...)``)
and the batch call it once a record's status is decided from every other signal.

Modules, by step: ``keys`` (normalisation: numbers, names, VAT ids, IBANs; the supplier key; invoice or credit
note), ``claims`` (which keys count: read from embedded XML or found on the page), ``checks`` (the pure decision:
every finding and its code), ``db`` (SQLite / PostgreSQL by URL, the schema version), ``store`` (``Register``: the
one transaction that checks and adds, master data, people's decisions), ``recall`` (what the register knew before
an entry, read inside that transaction), ``result`` (``RegisterResult``: the record's ``register`` key, applied),
``listing`` (suppliers and invoices read back), ``masterdata`` (an import file read and checked whole).

Public API::

    register = Register.open("register.sqlite")        # a path, sqlite:///PATH or postgresql://user:pw@host/db
    result = register.check_and_add(record, place=path)  # RegisterResult | None (no data: nothing registered)
    record = result.apply(record)                        # + register key, warnings, status re-decided
    register.import_suppliers(read_master_data(path))    # master data: known suppliers, trusted accounts
    register.trust("vat:DE123456789", "DE89 3704 ...", by="anna")
    register.suppliers(), register.invoices(flagged=True), register.export(), register.forget(source=path)
"""

from extractor.register.checks import CheckSettings
from extractor.register.db import RegisterError
from extractor.register.register import Register, RegisterResult

__all__ = ["CheckSettings", "Register", "RegisterError", "RegisterResult"]
