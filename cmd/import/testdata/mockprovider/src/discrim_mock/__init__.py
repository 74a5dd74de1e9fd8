"""See provider.py."""
