"""A document's way, after its pages are read and before its record is written.

By step: ``prompt`` (the chat: instruction, schema, pages), ``document`` (one document: embedded e-invoice XML or
the model's answer, parsed, validated, reviewed, its record), ``retry`` (the pure policy for a second attempt),
``windows`` (long documents in page windows, merged), ``split`` (one file holding several documents).
"""
