"""extractor: invoices and business PDFs to schema-valid JSON with a local vision-language model.

Python API::

    from extractor import Extractor
    ex = Extractor(model="path/to/model-dir", schema="invoice")   # or Extractor(Settings(...), retries=1)
    record = ex.extract("invoice.pdf")        # -> Record; record.status, record.data, record.to_dict()

Names are imported on first use, so ``import extractor.trust.parse`` stays light; mlx / mlx-vlm load only with a model.
"""

from importlib import import_module

__version__ = "0.1.0"

_EXPORTS = {
    "DEFAULT_MODEL": "settings",
    "Settings": "settings",
    "Extractor": "api",
    "extract_document": "pipeline.extract",
    "Record": "record",
    "Status": "record",
    "Usage": "record",
    "ExitCode": "errors",
    "ExtractorError": "errors",
    "InputError": "errors",
    "ModelError": "errors",
    "SchemaError": "errors",
    "UsageError": "errors",
    "WatchSummary": "jobs.watch",
    "Invoice": "schema_models",  # the built-in schemas as Pydantic models (imports pydantic on first use)
    "Receipt": "schema_models",
    "InvoiceEN16931": "schema_models_en16931",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name):
    """Import a public name from its module on first use."""
    if name in _EXPORTS:
        return getattr(import_module(f".{_EXPORTS[name]}", __name__), name)
    raise AttributeError(f"module 'extractor' has no attribute {name!r}")
