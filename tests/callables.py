"""Callable tokenizers the tests pass to the metrics: what a user may write, not what the caches like."""


class UnhashableSplitter:
    """An unhashable callable tokenizer: whitespace, and with ``split_hyphens`` hyphens too (set it
    between calls to change what the same object returns)."""

    __hash__ = None

    def __init__(self, split_hyphens=False):
        self.split_hyphens = split_hyphens

    def __call__(self, text):
        return (text.replace("-", " ") if self.split_hyphens else text).split()
