"""Tools around the pipeline: ``doctor`` (a model directory's files and a live smoke test), ``evaluate`` with ``ted``
(records against expected JSON) and ``review_page`` (the web page where a person settles flagged records).
"""
