"""Model backends: implementations of the ``runner.Runner`` protocol.

``mlx`` runs the model in this process with mlx-vlm (Metal on macOS, ``mlx[cpu]`` on Linux). Backends import their
heavy dependencies inside functions, so importing this package costs nothing.
"""
