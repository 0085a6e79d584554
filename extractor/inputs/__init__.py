"""A document's input: from the files named on the command line to the page images (and texts) the model reads.

By step: ``discover`` (the files to process: paths, directories and patterns as typed, and how they are named),
``document`` (``RasterSettings``, ``Document`` and ``Page``, the page selection and the pixel budget), ``load``
(opening a source: read once, sniffed by content, handed to) ``pdf`` (pdfium rendering, passwords, forms) or
``image`` (Pillow), with ``textlayer`` (a PDF page's text and word boxes) and ``ocr`` (pages without a usable text
layer, read by an OCR engine); ``attachments`` (a PDF's attachments: an e-invoice XML is only found here and
handed to ``einvoice.read``, which reads it); ``xmlhead`` (an XML's prolog and root element, from its first bytes:
XML told from HTML, an e-invoice in a folder). Where rendering runs:
``renderer`` (one interface, and ``LocalRenderer``: in this process) or ``pool`` (``RenderPool``: isolated worker
processes, the ``worker`` side of them and the ``wire`` format between the two).
"""
