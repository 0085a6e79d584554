"""Many documents: ``batch`` (a job over files, in input order, resumable), ``sinks`` (where records go: files,
JSON Lines), ``ray`` (the same job on a Ray cluster), ``intake`` (every intake's exactly-once core: lock, stop,
retry policy, one document's steps on the ``ledger``), ``watch`` (a folder inbox, a source on it: ``watch.inbox``
finds and settles its files, ``watch.steps`` hands each to the core and moves it), ``mail`` (a mailbox inbox),
``feeds`` (where watch's and mail's records go besides OUT: an appended JSON Lines log, a command run on each) and
``pause`` (the kill tests' pauses).
"""
