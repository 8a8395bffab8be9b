"""The metric families: each reproduces its tools and registers itself with ngrameval.metric."""
