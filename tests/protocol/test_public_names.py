"""The lazy table of public names in ``ngrameval/__init__.py`` matches what exists: every name in ``__all__``
resolves, every family ngrameval ships has its public function exported under the family's name, and the protocol
functions are exported as themselves."""

import importlib

import pytest

import ngrameval
from ngrameval import metric


@pytest.mark.parametrize("name", ngrameval.__all__)
def test_every_public_name_resolves_from_its_module(name):
    value = getattr(ngrameval, name)
    if name != "__version__":
        assert getattr(importlib.import_module(ngrameval._DEFINED_IN[name]), name) is value


@pytest.mark.parametrize("name", sorted(metric.BUILTIN_FAMILIES))
def test_every_family_exports_its_public_function_under_its_name(name):
    assert name in ngrameval.__all__
    assert getattr(ngrameval, name) is metric.get_family(name).function


def test_the_protocol_functions_are_public():
    for name in ("statistics", "get_family", "metric_names", "Statistics", "MetricFamily"):
        assert getattr(ngrameval, name) is getattr(metric, name), name
