"""Tests of ngrameval.training."""
