"""``extract serve``: the HTTP face over the core, for tools in any language.

A document's way through the service: ``gate`` checks the request (API key, size limit, request id), ``intake``
reads an upload (or a URL) and a route of ``routes`` checks it (``request_options``), ``store`` keeps it as a queued
job (SQLite or PostgreSQL); ``worker`` claims the job in one transaction (``sources`` fetches a URL), runs it through
one ``extractor.api.Extractor`` (the core ``extract run`` uses) and stores its record; ``routes`` answer it with
``contract``'s models (``routes.answers``), every error as ``problems``' problem+json. Nothing here extracts: the
record is the core's, unchanged. FastAPI and uvicorn are imported only when a server starts (``process.serve``).
"""
