"""Every intake's core: ``extract watch`` and ``extract mail`` are *sources* on it (what arrives, how it is
acknowledged and filed); the core makes each of their documents exactly once across a kill -9.

``document`` (one document's steps on the ledger: see, claim, extract with retries, write, feed, finish),
``policy`` (which failures are retried, after how long, and when a document that keeps killing the process is
given up), ``lock`` (one process per ledger; the default state folder), ``stop`` (SIGINT / SIGTERM and the stop's
time-out). How to add an intake: docs/development.md, "Adding an intake"; a whole toy source is in
tests/test_intake_core.py.
"""
