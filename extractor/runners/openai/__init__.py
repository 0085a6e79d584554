"""Inference servers speaking the OpenAI chat API (vLLM, SGLang, mlx_vlm.server, others): ``runner`` (OpenAIRunner:
one generation on the least busy server, retried elsewhere), ``choose`` (what a server serves, the model id and the
stop set to send), ``wire`` (the request body, the streamed answer, error answers) and ``endpoints`` (several
servers, the least busy chosen).
"""
