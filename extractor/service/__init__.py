"""``extract serve``: the HTTP face over the core, for tools in any language.

A document's way through the service: ``app`` accepts an upload (API key, size limit) and ``store`` keeps it as a
queued job in one SQLite file; ``worker`` claims the job in one transaction, runs it through one
``extractor.api.Extractor`` (the core ``extract run`` uses) and stores its record; ``app`` answers it. Nothing here
extracts: the record is the core's, unchanged. FastAPI and uvicorn are imported only when a server starts
(``app.serve``).
"""
