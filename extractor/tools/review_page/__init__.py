"""``extract review OUT``: a local web page to review records beside their pages and save corrections.

Modules, by step: ``records`` (the record files in OUT, their sources, the reviewed files), ``pages`` (a source's pages
rendered in a child process, with text-layer word boxes), ``recheck`` (validation, checks and grounding of edited
data), ``app`` (the JSON APIs, the HTML pages and the server). Templates and static files ship inside the package.
"""
