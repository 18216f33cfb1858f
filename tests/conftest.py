"""Shared fixtures: the two engines, loaded once per test session."""

from __future__ import annotations

import pytest

from logic.engines import Engine, make_engine


@pytest.fixture(scope="session")
def logic_engine() -> Engine:
    return make_engine("logic")


@pytest.fixture(scope="session")
def reference_engine() -> Engine:
    return make_engine("reference")


@pytest.fixture(scope="session", params=["reference", "logic"])
def engine(request, logic_engine, reference_engine) -> Engine:
    """Each engine in turn: every test that takes it runs on both."""
    return {"logic": logic_engine, "reference": reference_engine}[request.param]
