"""Generation: a prompt in, the model's answer out, ended where the model really ends it.

Shared by every backend: ``base`` (the Runner every backend subclasses, requests and results), ``stopping`` (the
stop set: what the model really emits to end its turn), ``modelfiles`` and ``chat_template`` (reading a model
directory and its template; ``templates`` folds chats for templates without a system turn), ``guards`` (runaway
guards on the decoded stream), ``constrain`` (the schema as a grammar). Backends: ``mlx`` (in this process, with
mlx-vlm; Metal on macOS, ``mlx[cpu]`` on Linux) and ``openai`` (inference servers). Backends import their heavy
dependencies inside functions, so importing this package costs nothing.
"""
