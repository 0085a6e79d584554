"""Many documents: ``batch`` (a job over files, in input order, resumable), ``sinks`` (where records go: files,
JSON Lines), ``ray`` (the same job on a Ray cluster), ``watch`` (a folder inbox, exactly once per document, with
``ledger`` holding its state) and ``hooks`` (commands run on each record).
"""
