"""trust."""
