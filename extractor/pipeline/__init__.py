"""A document's way, after its pages are read and before its record is written.

By step: ``job`` (what every step of one document reads), ``prompt`` (the chat: instruction, schema, pages),
``extract`` (one document: embedded e-invoice XML or the model's answer, reviewed, its status decided, its record),
``generate`` (one attempt: the request, the answer parsed, validated and judged), ``retry`` (the pure policy for a
second attempt), ``windows`` (long documents in page windows: planned and merged), ``split`` (one file holding
several documents).
"""
