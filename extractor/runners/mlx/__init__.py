"""The in-process runner on mlx-vlm: ``runner`` (MlxRunner: load, stop set, generate), ``loop`` (the decode loop:
prefill, sampling, stop matching per call), ``plan`` (which loop a request takes: fast or generic), ``batching``
and ``merged`` (several documents decoded together), ``generic`` (mlx-vlm's own loop, the fallback),
``prefix_cache`` (the shared prompt prefix kept between documents) and ``vision`` (image features).
"""
