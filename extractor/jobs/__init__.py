"""Many documents: ``batch`` (a job over files, in input order, resumable), ``sinks`` (where records go: files,
JSON Lines), ``ray`` (the same job on a Ray cluster), ``watch`` (a folder inbox: ``watch.inbox`` finds and settles
its files, ``watch.steps`` takes each exactly once, with ``ledger`` holding its state), ``mail`` (a mailbox inbox),
``feeds`` (where watch's and mail's records go besides OUT: an appended JSON Lines log, a command run on each) and
``hooks`` (the kill tests' pauses).
"""
