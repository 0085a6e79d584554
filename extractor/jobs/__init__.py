"""Many documents: ``batch`` (a job over files, in input order, resumable), ``sinks`` (where records go: files,
JSON Lines), ``ray`` (the same job on a Ray cluster), ``watch`` (a folder inbox: ``watch.inbox`` finds and settles
its files, ``watch.steps`` takes each exactly once, with ``ledger`` holding its state) and ``hooks`` (commands run
on each record).
"""
