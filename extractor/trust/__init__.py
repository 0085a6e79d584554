"""Why a record's data can be trusted: ``parse`` (the JSON in the model's text), ``verdict`` (every status decided),
``checks`` (invoice arithmetic, as the EN 16931 rules compute it in ``einvoice.arithmetic``, and identifiers),
``grounding`` (each value found in the page text) and ``review``
(checks and grounding applied to a record).
"""
