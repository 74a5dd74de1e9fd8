"""Registers the discrim-mock model API with Inspect (the entry point)."""

from inspect_ai.model import modelapi


@modelapi(name="discrim-mock")
def discrim_mock():
    from .provider import DiscrimMock

    return DiscrimMock
