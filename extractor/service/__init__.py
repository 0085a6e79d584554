"""``extract serve``: the HTTP face over the core, for tools in any language.

A document's way through the service: ``gate`` checks the request (API key, size limit, request id), ``intake``
reads an upload (or a URL) and ``app`` checks it, ``store`` keeps it as a queued job (SQLite or PostgreSQL);
``worker`` claims the job in one transaction (``sources`` fetches a URL), runs it through one
``extractor.api.Extractor`` (the core ``extract run`` uses) and stores its record; ``app`` answers it in
``contract``'s shapes, every error as ``problems``' problem+json. Nothing here
extracts: the record is the core's, unchanged. FastAPI and uvicorn are imported only when a server starts
(``app.serve``).
"""
