"""Inference servers speaking the OpenAI chat API (vLLM, SGLang, mlx_vlm.server, others): ``runner``
(OpenAIRunner: requests, stop handling, retries) and ``endpoints`` (several servers, the least busy chosen).
"""
