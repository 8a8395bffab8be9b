"""Named tokenizers: a string in, a list of tokens out. Each is found by name (``get_tokenizer("13a")``) or
wraps a callable, and tokenizes a whole corpus at once (``tokenize(lines)``): the fast 13a path is a handful of
C-level passes over the joined text instead of four regex substitutions per line.

Lowercasing is part of the tokenizer because the reference tools disagree on it: sacrebleu applies
``str.lower()`` before tokenizing, mteval-v13a lowercases ASCII letters only, after replacing entities.
"""

from __future__ import annotations

import bisect
import importlib
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Union

from ngrameval.errors import InputError

Tokens = list[str]
TokenizerSpec = Union[str, Callable[[str], str | Sequence[str]], None]

# mteval-v13a's "tokenize punctuation" class ({ | } ~ [ \ ] ^ _ ` space ! " # $ % & ( ) * + : ; < = > ? @ /).
_PUNCTUATION_13A = '{|}~[\\]^_` !"#$%&()*+:;<=>?@/'
_SPLIT_PUNCTUATION = re.compile("([" + re.escape(_PUNCTUATION_13A) + "])")
_ASCII_LOWER = str.maketrans({chr(c): chr(c + 32) for c in range(ord("A"), ord("Z") + 1)})

# The 13a rules after the first (:data:`_SPLIT_PUNCTUATION`'s), as mteval-v13a.pl and sacrebleu apply them (TER's
# Tercom normalizer ends with the same three).
RULES_13A = [
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
]
# The same rules as single-character rewrites, valid on text where no period or comma touches another one: then a
# period or comma is split off unless it sits between two digits, and a dash after a digit. They start with the literal
# character (the regex engine jumps from one to the next) and replace literally (no Python call per match).
_SPLIT_PERIOD = re.compile(r"\.(?:(?<![0-9]\.)|(?![0-9]))")
_SPLIT_COMMA = re.compile(r",(?:(?<![0-9],)|(?![0-9]))")
_SPLIT_DASH = re.compile(r"-(?<=[0-9]-)")
_ADJACENT_PERIOD_OR_COMMA = re.compile(r"[.,][.,]")


def _unescape_13a(text: str) -> str:
    """The four entities 13a replaces (after ``<skipped>`` and the line breaks are gone)."""
    if "&" in text:
        text = text.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    return text


class Tokenizer:
    """A named tokenizer. ``tokenize(lines)`` returns one token list per line."""

    name = "base"

    def __init__(self, lowercase: bool = False) -> None:
        self.lowercase = lowercase

    def __call__(self, line: str) -> Tokens:
        return self.tokenize([line])[0]

    def tokenize(self, lines: Sequence[str]) -> list[Tokens]:
        raise NotImplementedError

    def _cased(self, lines: Sequence[str]) -> Sequence[str]:
        return [line.lower() for line in lines] if self.lowercase else lines

    def __repr__(self) -> str:
        return f"{type(self).__name__}(lowercase={self.lowercase})"


class WhitespaceTokenizer(Tokenizer):
    """``none``: split on whitespace (sacrebleu's ``tokenize='none'``, NLTK's usual input)."""

    name = "none"
    separator: str | None = None  # str.split's argument

    def tokenize(self, lines: Sequence[str]) -> list[Tokens]:
        return [line.split(self.separator) for line in self._cased(lines)]


class SpaceTokenizer(WhitespaceTokenizer):
    """``space``: split on single spaces, as Dive into Deep Learning's ``bleu`` does
    (``str.split(" ")``): runs of spaces give empty tokens, an empty line one empty token.

    >>> SpaceTokenizer().tokenize(["a  b", ""])
    [['a', '', 'b'], ['']]
    """

    name = "space"
    separator = " "


class Tokenizer13a(Tokenizer):
    """``13a``: mteval-v13a's tokenization, token for token what sacrebleu's ``13a`` gives (as there,
    ``lowercase`` applies ``str.lower()`` first, and trailing whitespace is stripped).

    >>> Tokenizer13a()("Hello, world... it's 3.5-4 (approx.)")
    ['Hello', ',', 'world', '.', '.', '.', "it's", '3.5', '-', '4', '(', 'approx', '.', ')']
    """

    name = "13a"
    _lower_ascii_after_unescape = False
    _strip_trailing_whitespace = True

    def _prepare(self, line: str) -> str:
        if self.lowercase and not self._lower_ascii_after_unescape:
            line = line.lower()
        return line.rstrip() if self._strip_trailing_whitespace else line

    def tokenize_line(self, line: str) -> Tokens:
        """The 13a rules applied literally to one line (the slow, obviously exact path)."""
        # mteval-v13a's and sacrebleu's order: <skipped>, then hyphenated line breaks, then line breaks.
        line = self._prepare(line).replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
        line = _unescape_13a(line)
        if self.lowercase and self._lower_ascii_after_unescape:
            line = line.translate(_ASCII_LOWER)
        # The first rule, ``([{-~[-` -&(-+:-@/]) -> " \\1 "``, as a split on its class joined by spaces: the same
        # string (text, " p ", text, ...), without a template expanded at every match (every space matches).
        line = " ".join(_SPLIT_PUNCTUATION.split(f" {line} "))
        for pattern, replacement in RULES_13A:
            line = pattern.sub(replacement, line)
        return line.split()

    def tokenize(self, lines: Sequence[str]) -> list[Tokens]:
        prepared = [self._prepare(line) for line in lines]
        multiline = [i for i, line in enumerate(prepared) if "\n" in line]
        if multiline:
            prepared = [line.replace("\n", " ") for line in prepared]
        text = _unescape_13a("\n".join(prepared).replace("<skipped>", ""))
        if self.lowercase and self._lower_ascii_after_unescape:
            text = text.translate(_ASCII_LOWER)
        # re.split keeps the captured punctuation; joining with spaces surrounds each one.
        text = " ".join(_SPLIT_PUNCTUATION.split(text))
        # Lines where a period or comma touches another one go through the literal rules.
        exact_lines = set(multiline)
        if _ADJACENT_PERIOD_OR_COMMA.search(text):
            starts = [0] + [m.end() for m in re.finditer("\n", text)]
            exact_lines.update(
                bisect.bisect_right(starts, m.start()) - 1 for m in _ADJACENT_PERIOD_OR_COMMA.finditer(text)
            )
        text = _SPLIT_DASH.sub(" - ", _SPLIT_COMMA.sub(" , ", _SPLIT_PERIOD.sub(" . ", text)))
        tokens = [line.split() for line in text.split("\n")]
        for i in exact_lines:
            tokens[i] = self.tokenize_line(lines[i])
        return tokens


class TokenizerMteval13a(Tokenizer13a):
    """``mteval-v13a``: 13a with mteval-v13a.pl's lowercasing (without ``-c``: ASCII letters only, after
    unescaping); with ``lowercase=False`` it is ``13a``."""

    name = "mteval-v13a"
    _lower_ascii_after_unescape = True


class TokenizerHf13a(Tokenizer13a):
    r"""``hf-13a``: the 13a tokenizer of Hugging Face evaluate's ``bleu`` metric (its ``tokenizer_13a.py``):
    sacrebleu's 13a rules on the line as given, trailing whitespace not stripped first, so a line ending in a
    hyphen and a line break loses both.

    >>> TokenizerHf13a()("the cat-\n"), Tokenizer13a()("the cat-\n")
    (['the', 'cat'], ['the', 'cat-'])
    """

    name = "hf-13a"
    _strip_trailing_whitespace = False


class SacrebleuTokenizer(Tokenizer):
    """A sacrebleu tokenizer (``intl``, ``zh``, ``char``, ``ja-mecab``), applied as sacrebleu applies it: lowercase
    first if asked, strip trailing whitespace, tokenize, split."""

    _CLASSES = {
        "intl": ("tokenizer_intl", "TokenizerV14International"),
        "zh": ("tokenizer_zh", "TokenizerZh"),
        "char": ("tokenizer_char", "TokenizerChar"),
        "ja-mecab": ("tokenizer_ja_mecab", "TokenizerJaMecab"),
    }

    def __init__(self, name: str, lowercase: bool = False) -> None:
        super().__init__(lowercase)
        module_name, class_name = self._CLASSES[name]
        module = importlib.import_module(f"sacrebleu.tokenizers.{module_name}")
        try:
            self._tokenizer = getattr(module, class_name)()
        except RuntimeError as error:  # sacrebleu's message when MeCab is missing
            raise InputError(
                f"tokenizer {name!r} needs optional packages: pip install mecab-python3==1.0.12 ipadic==1.0.0 "
                "(ngrameval's 'ja' extra)"
            ) from error
        self.name = self._tokenizer.signature()

    def tokenize(self, lines: Sequence[str]) -> list[Tokens]:
        return [self._tokenizer(line.rstrip()).split() for line in self._cased(lines)]


class CallableTokenizer(Tokenizer):
    """Any ``str -> list[str]`` (or ``str -> str``, then split on whitespace) function."""

    def __init__(self, function: Callable[[str], str | Sequence[str]], lowercase: bool = False):
        super().__init__(lowercase)
        self.function = function
        self.name = getattr(function, "__name__", type(function).__name__)

    def tokenize(self, lines: Sequence[str]) -> list[Tokens]:
        result = []
        for line in self._cased(lines):
            tokens = self.function(line)
            if isinstance(tokens, str):
                tokens = tokens.split()
            elif not all(isinstance(token, str) for token in tokens):
                raise InputError(f"tokenizer {self.name!r} must return a string or a list of strings")
            result.append(list(tokens))
        return result


class PtbTokenizer(Tokenizer):
    """``ptb``: pycocoevalcap's tokenization of captions (Stanford PTBTokenizer with -preserveLines -lowerCase, then
    its punctuation dropped), in Python (:mod:`ngrameval.text.ptb`); always lowercased, as pycocoevalcap does."""

    name = "ptb"

    def tokenize(self, lines: Sequence[str]) -> list[Tokens]:
        from ngrameval.text.ptb import ptb_tokenize

        return [line.split(" ") if line else [] for line in ptb_tokenize(list(lines))]


_NAMED: dict[str, type[Tokenizer]] = {
    named.name: named
    for named in (WhitespaceTokenizer, SpaceTokenizer, Tokenizer13a, TokenizerMteval13a, TokenizerHf13a, PtbTokenizer)
}
TOKENIZER_NAMES = tuple(_NAMED) + tuple(SacrebleuTokenizer._CLASSES)


def get_tokenizer(spec: TokenizerSpec, lowercase: bool = False) -> Tokenizer:
    """Return the tokenizer named ``spec`` (see ``TOKENIZER_NAMES``), or wrap a callable.

    >>> get_tokenizer("none")("a  b c")
    ['a', 'b', 'c']
    """
    if isinstance(spec, Tokenizer):
        return spec
    if callable(spec):
        return CallableTokenizer(spec, lowercase)
    if spec in _NAMED:
        return _NAMED[spec](lowercase)
    if spec in SacrebleuTokenizer._CLASSES:
        return SacrebleuTokenizer(spec, lowercase)
    raise InputError(f"unknown tokenize {spec!r}; valid names: {', '.join(TOKENIZER_NAMES)}, or a callable")


def is_builtin(tokenizer: Tokenizer) -> bool:
    """Whether ``tokenizer`` is one of ngrameval's named tokenizers, whose output depends on its name and
    lowercasing only (so tokenized references may be cached); a user's callable or subclass may be unhashable or
    return other tokens on the next call.

    >>> is_builtin(get_tokenizer("13a")), is_builtin(get_tokenizer(str.split))
    (True, False)
    """
    return type(tokenizer) in _NAMED.values() or type(tokenizer) is SacrebleuTokenizer


def lowercase_tokens(segments: Iterable[Tokens], tokenizer: Tokenizer) -> list[Tokens]:
    """Lowercase already-tokenized input the way ``tokenizer`` would lowercase text."""
    if isinstance(tokenizer, TokenizerMteval13a):
        return [[token.translate(_ASCII_LOWER) for token in tokens] for tokens in segments]
    return [[token.lower() for token in tokens] for tokens in segments]
