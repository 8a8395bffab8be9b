"""Stanford PTBTokenizer (CoreNLP 3.4.1) as pycocoevalcap runs it, in pure Python.

pycocoevalcap 1.2 (``tokenizer/ptbtokenizer.py``) joins the captions with newlines (a newline inside a caption
becomes a space), runs ``java edu.stanford.nlp.process.PTBTokenizer -preserveLines -lowerCase`` on that text,
cuts the output at newlines and drops its ``PUNCTUATIONS``. :func:`ptb_tokenize` returns the same strings without
Java; :func:`ptb_token_lines` gives each output line's tokens before lowercasing and removal.

The tokenizer is a JFlex lexer (``PTBLexer.flex``): the longest match of any rule wins, ties going to the rule
written first; a rule ``r1/r2`` needs ``r2`` after its token. Each rule here is a regex from the 2014 grammar,
checked against the jar (``tests/parity/test_ptb_java.py``), with ``-preserveLines``'s options: the defaults
(``ptb3Escaping``: ``(`` -> ``-LRB-``, quotes -> ````` ``''``, ``&amp;`` -> ``&``, ``½`` -> ``1/2``, currency ->
``$`` ``#`` ``cents``, dashes -> ``--``, "cannot" -> "can not") plus ``tokenizeNLs``: line breaks (also ``\\r``,
``\\u2028``, ``\\x0b`` ...) are tokens, and a sentence-final abbreviation sees the next line's start.

Speed: a token crosses a space only in SGML tags, phone numbers, fractions, spaced ellipses and around other
whitespace; lines without those are cut at spaces and each piece is lexed once per call, keyed by the character
after it; a piece of ASCII letters and digits with one final mark needs no lexing.

Fidelity limits (not met in the data compared): Java 7 lexes UTF-16 units with Unicode 6.2 tables (characters
outside the BMP are dropped, as here; a later Python may add letters Java drops); lowercasing is ``str.lower``;
JFlex's lookahead bug (a ``\\r`` left inside a token before ``\\r\\n``) is not reproduced.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Callable, Iterable
from functools import cache

from ngrameval.errors import InputError

# pycocoevalcap 1.2's PUNCTUATIONS, removed after lowercasing (so the "-lrb-" of a parenthesis stays).
PUNCTUATIONS = frozenset("'' ' `` ` -LRB- -RRB- -LCB- -RCB- . ? ! , : - -- ... ;".split())
_NEWLINE = "\n"  # what a line-break token becomes (tokens never contain it except inside SGML tags)


# The 2014 lexer's letters, digits and capitals are Java 7's (Unicode 6.2). BMP characters Python's Unicode 14
# classes differently: letters and digits assigned since (Java drops them), Cherokee capitals (capitals since
# Unicode 8) and two Mongolian letters that are marks today.
_NEW_LETTERS = (
    "\u037f\u0528-\u052f\u0560\u0588\u05ef\u0860-\u086a\u0870-\u0887\u0889-\u088e\u08a1"
    "\u08ad-\u08c9\u0978\u0980\u09fc\u0af9\u0c34\u0c5a\u0c5d\u0c80\u0cdd\u0d04\u0d54-\u0d56\u0d5f"
    "\u0e86\u0e89\u0e8c\u0e8e-\u0e93\u0e98\u0ea0\u0ea8-\u0ea9\u0eac\u13f5\u13f8-\u13fd\u16f1-\u16f8"
    "\u170d\u171f\u1878\u191d-\u191e\u19b0-\u19c0\u19c8-\u19c9\u1b4c\u1c80-\u1c88\u1c90-\u1cba"
    "\u1cbd-\u1cbf\u1cf2-\u1cf3\u1cfa\u2c2f\u2c5f\u312e-\u312f\u31bb-\u31bf\u4db6-\u4dbf\u9fcd-\u9fff"
    "\ua698-\ua69d\ua78f\ua794-\ua79f\ua7ab-\ua7ca\ua7d0-\ua7d1\ua7d3\ua7d5-\ua7d9\ua7f2-\ua7f7"
    "\ua8fd-\ua8fe\ua9e0-\ua9e4\ua9e6-\ua9ef\ua9fa-\ua9fe\uaa7e-\uaa7f\uab30-\uab5a\uab5c-\uab69"
    "\uab70-\uabbf"
)
_NEW_DIGITS = "\u0de6-\u0def\ua9f0-\ua9f9"
_NEW_CAPITALS = "\u13a0-\u13f4"
_OLD_LETTERS = "\u1885\u1886"


def _code_points(ranges: str) -> set:
    """The code points of a character-class body made of characters and ``a-b`` ranges."""
    return {
        code
        for first, last in re.findall("(.)(?:-(.))?", ranges, re.S)
        for code in range(ord(first), ord(last or first) + 1)
    }


def _class_body(codes: list[int]) -> str:
    """Sorted code points -> a character-class body of ranges."""
    runs = [[code for _, code in run] for _, run in itertools.groupby(enumerate(codes), lambda pair: pair[1] - pair[0])]
    return "".join(re.escape(chr(run[0])) + (f"-{re.escape(chr(run[-1]))}" if len(run) > 1 else "") for run in runs)


@cache
def _unicode_classes() -> tuple[str, str, str]:
    """Character-class bodies of Java 7's BMP letters, decimal digits and capitals."""
    new_letters, new_digits = _code_points(_NEW_LETTERS), _code_points(_NEW_DIGITS)
    new_capitals, old_letters = _code_points(_NEW_CAPITALS) | new_letters, _code_points(_OLD_LETTERS)
    codes = [*range(0xD800), *range(0xE000, 0x10000)]
    kinds = [unicodedata.category(chr(code)) for code in codes]
    letters = [
        code for code, kind in zip(codes, kinds) if (kind[0] == "L" and code not in new_letters) or code in old_letters
    ]
    digits = [code for code, kind in zip(codes, kinds) if kind == "Nd" and code not in new_digits]
    capitals = [code for code in codes if chr(code).isupper() and code not in new_capitals]
    return _class_body(letters), _class_body(digits), _class_body(capitals)


def _ci(word: str) -> str:
    """A caseless literal: JFlex's %caseless, like IGNORECASE, also takes the long s, the Kelvin sign, dotted and
    dotless I."""
    return f"(?i:{re.escape(word)})"


def _keywords(words: str) -> str:
    """Space-separated literals -> one regex, caseless but for bracketed letters (``[A]rk``), as a trie: a match
    costs the word, not the list, and longer continuations come first (Python's first match: JFlex's longest)."""
    trie: dict[str, dict] = {}
    for word in words.split():
        node = trie
        for atom in re.findall(r"\[[^\]]+\]|.", word):
            node = node.setdefault(f"(?-i:{atom})" if atom.startswith("[") else re.escape(atom.lower()), {})
        node[""] = {}

    def emit(node: dict[str, dict]) -> str:
        branches = [atom + emit(child) for atom, child in node.items() if atom]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return "(?i:" + emit(trie) + ")"


@cache
def _grammar() -> dict[str, str]:
    """The macros of PTBLexer.flex (CoreNLP 3.4.1), as Python regex sources."""
    letters, digits, capitals = _unicode_classes()
    letter, digit, ld, upper = f"[{letters}]", f"[{digits}]", f"[{letters}{digits}]", f"[{capitals}]"
    g: dict[str, str] = {"LETTER": letter, "DIGIT": digit}
    name = r"[A-Za-z][A-Za-z0-9_:.\-]*"
    attribute = rf"{name}(?: *= *(?:'[^']*'|\"[^\"]*\"))?"
    g["SGML"] = rf"<(?:[!?][A-Za-z\-][^>\r\n]*|{name}(?: +{attribute})* *\/?|\/{name}) *>"
    g["SPMDASH"] = "(?:&" + _keywords("MD mdash ndash") + ";|[\x96\x97\u2013\u2014\u2015])"
    g["SPAMP"] = _ci("&amp;")
    g["SPPUNC"] = "&(?:" + _keywords("HT TL UR LR QC QL QR odq cdq") + "|#[0-9]+);"
    g["SPLET"] = "&[aeiouAEIOU]" + _keywords("acute grave uml") + ";"
    space = " \t\u00a0\u2000-\u200a\u3000"
    newline_chars = "\n\u2028\u2029\x0b\x0c\x85"
    g["SPACE"] = f"[{space}]"
    g["SPACES"] = f"[{space}]+"
    g["NEWLINE"] = f"(?:\r\n?|[{newline_chars}])"
    g["SPACENL"] = f"(?:[{space}]|{g['NEWLINE']})"
    g["SPACENL_CHAR"] = f"[{space}\r{newline_chars}]"
    g["SENTEND"] = f"{g['SPACENL']}(?:{g['SPACENL']}|{upper}|{g['SGML']})"
    g["DATE"] = f"{digit}{{1,2}}[\\-\\/]{digit}{{1,2}}[\\-\\/]{digit}{{2,4}}"
    g["NUM"] = f"(?:{digit}*(?:[.:,\u00ad\u066b\u066c]{digit}+)+|{digit}+)"
    g["NUMBER"] = f"[\\-+]?{g['NUM']}"
    g["SUBSUPNUM"] = "[\u207a\u207b\u208a\u208b]?(?:[\u2070\u00b9\u00b2\u00b3\u2074-\u2079]+|[\u2080-\u2089]+)"
    g["FRAC"] = f"(?:{digit}{{1,4}}[- \u00a0])?{digit}{{1,4}}(?:\\\\?\\/|\u2044){digit}{{1,4}}"
    g["FRAC2"] = "[\u00bc\u00bd\u00be\u2153-\u215e]"
    g["DOLSIGN"] = r"(?:[A-Z]*\$|#)"
    g["DOLSIGN2"] = "[\u00a2\u00a3\u00a4\u00a5\x80\u20a0\u20ac\u060b\u0e3f\u20a4\uffe0\uffe1\uffe5\uffe6]"
    extra_letters = (
        "\u00ad\u0237-\u024f\u02c2-\u02c5\u02d2-\u02df\u02e5-\u02ff\u0300-\u036f\u0370-\u037d"
        "\u0384\u0385\u03cf\u03f6\u03fc-\u03ff\u0483-\u0487\u04cf\u04f6-\u04ff\u0510-\u0525"
        "\u055a-\u055f\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7\u0615-\u061a\u063b-\u063f"
        "\u064b-\u065e\u0670\u06d6-\u06ef\u06fa-\u06ff\u070f\u0711\u0730-\u074f\u0750-\u077f"
        "\u07a6-\u07b1\u07ca-\u07f5\u07fa\u0900-\u0903\u093c\u093e-\u094e\u0951-\u0955"
        "\u0962-\u0963\u0981-\u0983\u09bc-\u09c4\u09c7\u09c8\u09cb-\u09cd\u09d7\u09e2\u09e3"
        "\u0a01-\u0a03\u0a3c\u0a3e-\u0a4f\u0a81-\u0a83\u0abc-\u0acf\u0b82\u0bbe-\u0bc2"
        "\u0bc6-\u0bc8\u0bca-\u0bcd\u0c01-\u0c03\u0c3e-\u0c56\u0d3e-\u0d44\u0d46-\u0d48"
        "\u0e30-\u0e3a\u0e47-\u0e4e\u0eb1-\u0ebc\u0ec8-\u0ecd"
    )
    # WORD's letters: Java's letters, some marks and letters that Java 7 lacked, and entities like &eacute;
    wl = f"(?:[{letters}{extra_letters}]|{g['SPLET']})"
    wld = f"(?:[{letters}{extra_letters}{digits}]|{g['SPLET']})"
    g["WORD_FIRST"] = f"[{letters}{extra_letters}&]"
    g["WORD"] = f"{wl}{wld}*(?:[.!?]{wl}{wld}*)*"
    g["APOS"] = "(?:['\x92\u2019]|" + _ci("&apos;") + ")"
    apos = g["APOS"]
    g["APOSETCETERA"] = f"(?:{apos}|[`\x91\u2018\u201b])"
    etc = g["APOSETCETERA"]
    g["HYPHEN"] = "[-_\u058a\u2010\u2011]"
    apo_start = f"(?:[dDoOlL]{etc}{ld})"
    g["THING"] = f"{apo_start}?{ld}+(?:{g['HYPHEN']}{apo_start}?{ld}+)*"
    g["THINGA"] = f"[A-Z]+(?:(?:[+&]|{g['SPAMP']})[A-Z]+)+"
    g["THING3"] = r"[A-Za-z0-9]+(?:-[A-Za-z]+){0,2}(?:\\?\/[A-Za-z0-9]+(?:-[A-Za-z]+){0,2}){1,2}"
    # The spelled-out acronyms come first: Python takes the first alternative that matches, JFlex the longest.
    g["ACRO"] = (
        f"(?:{_ci('U.S.-')}{_keywords('U.S.S.R U.K')}|{_keywords('Canada Sino Korean EU Japan non')}-{_ci('U.S')}"
        r"|[A-Za-z](?:\.[A-Za-z])*)"
    )
    g["HTHING"] = r"[A-Za-z0-9][A-Za-z0-9.,\u00ad]*(?:-(?:[A-Za-z](?:\.[A-Za-z])+\.|[A-Za-z0-9\u00ad]+))+"
    g["REDAUX"] = f"{apos}(?:[msdMSD]|{_keywords('re ve ll')})"
    g["SWORD"] = "[A-Za-z\u00ad]*[A-MO-Za-mo-z]\u00ad*"
    g["SREDAUX"] = f"{_ci('n')}{etc}{_ci('t')}"
    contd, contractions = _ci("cont'd"), "|".join(map(_ci, "nor'easter c'mon e'er s'mores ev'ry li'l nat'l".split()))
    g["APOWORD"] = (
        f"(?:{letter}{letter}*[aeiouyAEIOUY]{etc}[aeiouA-Z]{letter}*|[A-HJ-XZn]{etc}{letter}{{2}}{letter}*"
        f"|{apos}{_ci('n')}{apos}?|[lLdDjJ]{apos}|"
        + "|".join(f"{_ci(word)}{apos}" for word in ("Dunkin", "somethin", "ol"))
        + f"|{apos}{_ci('em')}|{apos}[2-9]0{_ci('s')}|"
        + "|".join(f"{apos}{_ci(word)}" for word in ("till", "til", "cause"))
        + f"|{contd}\\.?|{contractions}|{_ci('o')}{etc}{_ci('o')})"
    )
    g["APOWORD2"] = f"{_ci('y')}{apos}"
    g["FULLURL"] = _ci("http") + _ci("s") + r"?:\/\/[^ \t\n\f\r\"<>|(){}]+[^ \t\n\f\r\"<>|.!?(){},-]"
    g["LIKELYURL"] = (
        "(?:(?:" + _ci("www.") + r"(?:[^ \t\n\f\r\"<>|.!?(){},]+\.)+[a-zA-Z]{2,4})|"
        r"(?:(?:[^ \t\n\f\r\"`'<>|.!?(){},-_$]+\.)+" + _keywords("com net org edu") + "))"
        r"(?:\/[^ \t\n\f\r\"<>|()]+[^ \t\n\f\r\"<>|.!?(){},-])?"
    )
    g["EMAIL"] = (
        "(?:<|" + _ci("&lt;") + r")?[a-zA-Z0-9][^ \t\n\f\r\"<>|(){}\u00a0]*@"
        r"(?:[^ \t\n\f\r\"<>|(){}.\u00a0]+\.)*[^ \t\n\f\r\"<>|(){}.\u00a0]+(?:>|" + _ci("&gt;") + ")?"
    )
    g["TWITTER"] = f"(?:@[a-zA-Z_][a-zA-Z_0-9]*|#{wl}+)"
    dates_states_companies = _keywords(
        "Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec Mon Tue Tues Wed Thu Thurs Fri "
        "Ala Ariz [A]rk [A]z Calif Colo Conn Ct Dak [D]el Fla Ga [I]ll Ind Kan Kans Ky [L]a [M]ass Md Mich Minn "
        "[M]iss Mo Mont Neb Nev Okla [O]re [P]a Penn Tenn [T]ex Va Vt [W]ash Wis Wisc Wyo "
        "Inc Co Cos Corp Pp[t][y] Pp[t][y]s Pp[t][e] Pp[t][e]s P[t][y] P[t][y]s P[t][e] P[t][e]s Ltd Plc Rt Bancorp "
        "Bhd Assn Univ Intl Sys tel est ext sq Jr Sr Bros Ed.D Ph.D Blvd Rd Esq etc al seq Bldg"
    )
    g["ABBREV1"] = dates_states_companies + r"\."
    titles = _keywords(
        "Mr Mrs Ms Drs Dr Profs Prof Sens Sen Reps Rep Attys Atty Lt Col Gen Messrs Govs Gov Adm Rev Maj Sgt "
        "Cpl Pvt Capt Ste St Ave Pres Lieut Hon Brig Comdr Cmdr Pfc Spc Supts Supt Det Mt Ft Ph Insp Sfc Ens "
        "Msgr Mme Mlle Adj Adv Assoc Asst vs Alex Wm Jos Cie a.k.a cf TREAS Invt Elec Natl Mfg Mtg Dept"
    )
    g["ABBREV2"] = f"(?:{g['ACRO']}|{titles})"  # ACRO first: where both match it is the longer ("a.k.a.X.")
    g["ABBREV3"] = _keywords("ca fig figs prop no nos art bldg pp op") + r"\."
    g["ACRONYM"] = g["ACRO"] + r"\."
    followers = (
        "A About According Additionally After An As At But Earlier He Her Here However If In It Last Many More Mr. "
        "Ms. Now Once One Other Our She Since So Some Such That The Their Then There These They This We What When "
        "While Yet You"
    ).split()
    followers.sort(key=len, reverse=True)
    g["ACRONYM_FOLLOWER"] = "(?:" + "|".join(re.escape(word[0]) + _ci(word[1:]) for word in followers) + ")"
    g["FILENAME"] = f"{wld}+\\." + _keywords(
        "bat bmp c cgi class cpp dll doc docx exe gif gz h htm html jar java jpeg jpg mov mp3 pdf php pl png ppt "
        "ps py sql tar txt wav x xml zip"
    )
    g["PHONE"] = (
        r"(?:(?:\([0-9]{2,3}\)[ \u00a0]?|(?:\+\+?)?(?:[0-9]{2,4}[\- \u00a0])?[0-9]{2,4}[\- \u00a0])"
        r"[0-9]{3,4}[\- \u00a0]?[0-9]{3,5}|(?:(?:\+\+?)?[0-9]{2,4}\.)?[0-9]{2,4}\.[0-9]{3,4}\.[0-9]{3,5})"
    )
    g["LDOTS"] = "(?:\\.{3,5}|(?:\\.[ \u00a0]){2,4}\\.|[\x85\u2026])"
    g["ASTS"] = r"(?:\*+|(?:\\\*){1,3})"
    g["INSENTP"] = "[,;:\u3001]"
    curly = "`\u2018\u2019\u201a\u201b\u201c\u201d\x91\x92\x93\x94\u201e\u201f\u2039\u203a\u00ab\u00bb"
    g["QUOTES"] = f"(?:''|[{curly}]{{1,2}}|{apos})"
    g["QUOTES_FIRST"] = f"['&{curly}]"
    g["DBLQUOT"] = '(?:"|' + _ci("&quot;") + ")"
    amp = "(?:" + _ci("&amp;") + "|&)"
    g["TBSPEC"] = (
        f"(?:-{_keywords('RRB LRB RCB LCB RSB LSB')}-|{_ci('C.D.s')}|{_ci('pro-')}|{_ci('anti-')}"
        f"|{_ci('S')}{amp}{_ci('P-500')}|{_ci('S')}{amp}{_ci('Ls')}|{_ci('Cap')}{apos}{_ci('n')}"
        f"|{_ci('c')}{apos}{_ci('est')})"
    )
    g["TBSPEC2"] = f"{apos}[0-9][0-9]"
    g["SMILEY"] = r"[<>]?[:;=][\-o\*']?[()DPdpO\\{@|\[\]]"
    face = r"[\-\^x=~<>']"
    g["ASIANSMILEY"] = rf"(?:\({face}[_.]?{face}\)|{face}_{face})"
    g["MISCSYMBOL"] = (
        "[+%&~\\^|\\\\\u00a6\u00a7\u00a8\u00a9\u00ac\u00ae\u00af\u00b0-\u00b3\u00b4-\u00ba\u00d7"
        "\u00f7\u0387\u05be\u05c0\u05c3\u05c6\u05f3\u05f4\u0600-\u0603\u0606-\u060a\u060c\u0614"
        "\u061b\u061e\u066a\u066d\u0703-\u070d\u07f6\u07f7\u07f8\u0964\u0965\u0e4f\u1fbd\u2016"
        "\u2017\u2020-\u2023\u2030-\u2038\u203b\u203e-\u2042\u2044\u207a-\u207f\u208a-\u208e"
        "\u2100-\u214f\u2190-\u21ff\u2200-\u2bff\u3012\u30fb\uff01-\uff0f\uff1a-\uff20"
        "\uff3b-\uff40\uff5b-\uff65]"
    )
    g["STOP"] = "[.\u00a1\u00bf\u037e\u0589\u061f\u06d4\u0700-\u0702\u07fa\u3002]"
    g["IGNORED"] = f"(?:{g['SPACES']}|[\x00\x7f\u200b\u200e\u200f\ufeff])"
    return g


_LATEX_QUOTES = [(re.compile("&apos;|'"), "`", "'"), (re.compile('"|&quot;'), "``", "''")]
_QUOTE_CHARS = str.maketrans(
    {
        **dict.fromkeys("\x91\u2018\u201b\u2039", "`"),
        **dict.fromkeys("\x92\u2019\u203a", "'"),
        **dict.fromkeys("\x93\u201c\u00ab", "``"),
        **dict.fromkeys("\x94\u201d\u00bb", "''"),
    }
)


def _quotes(text: str, probably_left: bool) -> str:
    """PTBLexer.latexQuotes: ASCII and entity quotes by the side guessed, curly ones by their shape."""
    for pattern, left, right in _LATEX_QUOTES:
        text = pattern.sub(left if probably_left else right, text)
    return text.translate(_QUOTE_CHARS)


_CURRENCY = str.maketrans({"\u00a2": "cents", "\u00a3": "#", "\x80": "$", "\u00a4": "$", "\u20a0": "$", "\u20ac": "$"})
_FRACTIONS = str.maketrans({"\u00bc": "1/4", "\u00bd": "1/2", "\u00be": "3/4", "\u2153": "1/3", "\u2154": "2/3"})
_AMP = re.compile("&amp;", re.IGNORECASE)
_PARENS = str.maketrans({"(": "-LRB-", ")": "-RRB-"})


def _fixed(token: str) -> Callable[[str], str]:
    return lambda text: token


_FIXED_TOKENS = {"dash": "--", "ellipsis": "...", "lt": "<", "gt": ">", "newline": _NEWLINE}
_BRACKETS = ("lcb", "rcb", "lsb", "rsb", "lrb", "rrb")
_FIXED_TOKENS.update({name: f"-{name.upper()}-" for name in _BRACKETS})

# Each action maps the token's text to the token (None: no token, for spaces and unknown characters).
_ACTIONS: dict[str, Callable[[str], str | None]] = {
    "text": lambda t: t,
    "soft": lambda t: t.replace("\u00ad", "") or "-",  # soft hyphens removed
    "amp": lambda t: _AMP.sub("&", t),
    "left": lambda t: _quotes(t, True),
    "right": lambda t: _quotes(t, False),
    "nbsp": lambda t: t.replace(" ", "\u00a0"),
    "parens": lambda t: t.translate(_PARENS),
    "phone": lambda t: t.replace(" ", "\u00a0").translate(_PARENS),
    "dashes": lambda t: "--" if 3 <= len(t) <= 4 else t,
    "fraction": lambda t: t.translate(_FRACTIONS),
    "currency": lambda t: t.translate(_CURRENCY),
    **{name: _fixed(token) for name, token in _FIXED_TOKENS.items()},
    # processAcronym: a one-letter "acronym" ("I.") loses its period, a longer one keeps it; either way
    # the period is also the next token.
    "acronym": lambda t: t[:-1] if len(t) == 2 else t,
    "skip": lambda t: None,
}


class _Rule:
    """A lexer rule: ``pattern`` the token, ``context`` JFlex's trailing context, ``first`` its possible first
    characters; ``pushback`` characters are given back before the token, ``split`` after ("etc." + ".")."""

    def __init__(
        self,
        name: str,
        pattern: str,
        action: str,
        first: str,
        context: str | None = None,
        context_length: int | None = None,
        pushback: int = 0,
        split: int = 0,
        reach: str | None = None,
    ):
        self.name, self.pattern, self.context, self.first = name, pattern, context, first
        # ``reach`` spans every character a match could use, for rules whose first regex match can be shorter than
        # their longest one (nested repetitions); see :meth:`longest_end`.
        self.reach = re.compile(reach) if reach is not None else None
        self.action = _ACTIONS[action]
        self.pushback, self.split, self.context_length = pushback, split, context_length
        self.regex = re.compile(pattern if context is None else pattern + context)
        self.token_re = re.compile(pattern) if context is not None and context_length is None else None
        self.context_re = re.compile(context) if context is not None and context_length is None else None

    def longest_end(self, text: str, pos: int, end: int) -> int:
        """The end of the longest match at ``pos``, given one ending at ``end`` (JFlex's, not Python's first)."""
        if self.reach is not None:
            reach = self.reach.match(text, pos)
            assert reach is not None, f"rule {self.name}: its reach does not match where its token does"
            for longer in range(reach.end(), end, -1):
                if self.regex.fullmatch(text, pos, longer):
                    return longer
        return end

    def length(self, matched: str) -> int:
        """The token's length in a match of ``pattern + context``: the longest ``pattern`` before a ``context``."""
        if self.context is None:
            return len(matched)
        if self.context_length is not None:
            return len(matched) - self.context_length
        assert self.token_re is not None and self.context_re is not None  # built for a context of no fixed length
        for end in range(len(matched), -1, -1):
            if self.token_re.fullmatch(matched, 0, end) and self.context_re.fullmatch(matched, end):
                return end
        raise AssertionError(f"rule {self.name}: no split of {matched!r}")  # pragma: no cover


@cache
def _rules() -> tuple[_Rule, ...]:
    """PTBLexer's rules in its order (the order breaks ties between matches of equal length)."""
    g = _grammar()
    apos_first, caseless_first = "['\x92\u2019&]", "[A-Za-z\u017f\u212a\u0130\u0131]"
    word_first, letter, digit = g["WORD_FIRST"], g["LETTER"], g["DIGIT"]
    cannot, gonna = f"(?:{_ci('cannot')}|{g['APOS']}{_ci('twas')})", _keywords("gimme gonna gotta lemme wanna")
    subsupnum_first = "[\u207a\u207b\u208a\u208b\u2070\u00b9\u00b2\u00b3\u2074-\u2079\u2080-\u2089]"
    acronym_end = f"{g['SPACENL']}+(?:{g['ACRONYM_FOLLOWER']}|{g['SGML']}){g['SPACENL_CHAR']}"
    company, ltd = f"(?:{_keywords('pty pte co')})\\.", g["SPACE"] + _keywords("ltd lim")
    R = _Rule
    return (
        R("assimilation3", cannot, "text", "[cC'\x92\u2019&]", pushback=3),
        R("assimilation2", f"(?:{gonna}|{g['APOS']}{_ci('tis')})", "text", "[gGlLwW'\x92\u2019&]", pushback=2),
        R("sgml", g["SGML"], "nbsp", "<"),
        R("spmdash", g["SPMDASH"], "dash", "[&\x96\x97\u2013\u2014\u2015]"),
        R("spamp", g["SPAMP"], "amp", "&"),
        R("sppunc", g["SPPUNC"], "text", "&"),
        R("word_redaux", g["WORD"], "soft", word_first, context=g["REDAUX"]),
        R("sword_sredaux", g["SWORD"], "soft", "[A-Za-z\u00ad]", context=g["SREDAUX"]),
        R("word", g["WORD"], "soft", word_first),
        R("apoword", g["APOWORD"], "text", f"(?:{letter}|{apos_first})"),
        R("apoword2", g["APOWORD2"], "text", "[yY]", context=letter, context_length=1),
        R("fullurl", g["FULLURL"], "text", "[hH]"),
        R("likelyurl", g["LIKELYURL"], "text", "(?:[wW]|[^ \t\n\f\r\"`'<>|.!?(){},-_$])", reach='[^ \t\n\f\r"<>|()]*'),
        R("email", g["EMAIL"], "text", "[a-zA-Z0-9<&]"),
        R("twitter", g["TWITTER"], "text", "[@#]"),
        R("redaux_nonletter", g["REDAUX"], "right", apos_first, context="[^A-Za-z]", context_length=1),
        R("sredaux", g["SREDAUX"], "right", "[nN]"),
        R("date", g["DATE"], "text", digit),
        R("number", g["NUMBER"], "soft", f"(?:[-+.:,\u00ad\u066b\u066c]|{digit})"),
        R("subsupnum", g["SUBSUPNUM"], "text", subsupnum_first),
        R("frac", g["FRAC"], "nbsp", digit),
        R("frac2", g["FRAC2"], "fraction", g["FRAC2"]),
        R("tbspec", g["TBSPEC"], "amp", "[-cCpPaAsS\u017f]"),
        R("thing3", g["THING3"], "text", "[A-Za-z0-9]"),
        R("dolsign", g["DOLSIGN"], "text", "[A-Z$#]"),
        R("dolsign2", g["DOLSIGN2"], "currency", g["DOLSIGN2"]),
        # An acronym ends a sentence before a common sentence-initial word or a markup tag (then a
        # space or line break): "A. <br/> b" is "A", "." and the tag, as "A. The b" is "A", ".", "The".
        R("acronym_followed", g["ACRONYM"], "acronym", caseless_first, context=acronym_end, split=1),
        R("abbrev3_number", g["ABBREV3"], "text", caseless_first, context=f"{g['SPACENL']}?{digit}"),
        R("company_ltd", company, "text", "[pPcC]", context=ltd, context_length=4),
        R("abbrev1_sentend", g["ABBREV1"], "text", caseless_first, context=g["SENTEND"], split=1),
        R("abbrev1_inside", g["ABBREV1"], "text", caseless_first, context="(?s:..)", context_length=2),
        R("abbrev1_final", g["ABBREV1"], "text", caseless_first, split=1),
        R("abbrev2", g["ABBREV2"] + r"\.", "text", caseless_first),
        R("abbrev4", g["ABBREV2"], "text", caseless_first, context=g["SPACE"], context_length=1),
        R("acro", g["ACRO"], "text", caseless_first, context=g["SPACENL"]),
        R("tbspec2", g["TBSPEC2"], "text", apos_first, context=g["SPACENL"]),
        R("filename", g["FILENAME"], "text", f"(?:{word_first}|{digit})", context=f"(?:{g['SPACENL']}|[.?!,])"),
        R("word_insentp", g["WORD"] + r"\.", "soft", word_first, context=g["INSENTP"], context_length=1),
        R("phone", g["PHONE"], "phone", "[(+0-9]", reach="[-0-9 ().+\u00a0]*"),
        R("dblquot_left", g["DBLQUOT"], "left", '["&]', context="[A-Za-z0-9$]", context_length=1),
        R("dblquot", g["DBLQUOT"], "right", '["&]'),
        R("lt", "(?:<|" + _ci("&lt;") + ")", "lt", "[<&]"),
        R("gt", "(?:>|" + _ci("&gt;") + ")", "gt", "[>&]"),
        R("smiley", g["SMILEY"], "parens", "[<>:;=]", context="[^A-Za-z0-9]", context_length=1),
        R("asiansmiley", g["ASIANSMILEY"], "parens", r"[(\-\^x=~<>']"),
        *(R(name, re.escape(bracket), name, re.escape(bracket)) for name, bracket in zip(_BRACKETS, "{}[]()")),
        R("hyphens", "-+", "dashes", "-"),
        R("ldots", g["LDOTS"], "ellipsis", "[.\x85\u2026]"),
        R("fnmarks", "(?:@+|#+|_+)", "text", "[@#_]"),
        R("asts", g["ASTS"], "text", r"[*\\]"),
        R("insentp", g["INSENTP"], "text", g["INSENTP"]),
        R("bangs", "[?!]+", "text", "[?!]"),
        R("stop", g["STOP"], "text", g["STOP"]),
        R("equals", "=", "text", "="),
        R("slash", "/", "text", "/"),
        R("hthing_insentp", g["HTHING"] + r"\.", "soft", "[A-Za-z0-9]", context=g["INSENTP"], context_length=1),
        R("hthing", g["HTHING"], "soft", "[A-Za-z0-9]"),
        R("prog_lang", "(?:" + _ci("c++") + "|[cCfF]#)", "text", "[cCfF]"),
        R("thing_insentp", g["THING"] + r"\.", "text", f"(?:{letter}|{digit})", context=g["INSENTP"], context_length=1),
        R("thing", g["THING"], "text", f"(?:{letter}|{digit})"),
        R("thinga_insentp", g["THINGA"] + r"\.", "amp", "[A-Z]", context=g["INSENTP"], context_length=1),
        R("thinga", g["THINGA"], "amp", "[A-Z]"),
        R("quote_left", "'", "left", "'", context="[A-Za-z][^ \t\n\r\u00a0]", context_length=2),
        R("redaux", g["REDAUX"], "right", apos_first),
        R("quotes", g["QUOTES"], "right", g["QUOTES_FIRST"]),
        R("fakeduckfeet", "(?:<<|>>)", "text", "[<>]"),
        R("miscsymbol", g["MISCSYMBOL"], "text", g["MISCSYMBOL"]),
        R("space", g["IGNORED"], "skip", g["IGNORED"]),
        R("newline", g["NEWLINE"], "newline", "[\r\n\u2028\u2029\x0b\x0c\x85]"),
        R("nbsp_entity", _ci("&nbsp;"), "skip", "&"),
        R("untokenizable", "(?s:.)", "skip", "(?s:.)"),
    )


class _Lexer:
    """JFlex's choice: the longest match of the rules that can start at the character (the first on a tie)."""

    def __init__(self) -> None:
        self.rules = _rules()
        self.firsts = [re.compile(rule.first) for rule in self.rules]
        self.candidates: dict[str, tuple[tuple[Callable, _Rule], ...]] = {}

    def _candidates(self, char: str) -> tuple[tuple[Callable, _Rule], ...]:
        found = self.candidates.get(char)
        if found is None:
            found = self.candidates[char] = tuple(
                (rule.regex.match, rule) for rule, first in zip(self.rules[:-1], self.firsts) if first.match(char)
            )
        return found

    def tokens(
        self, text: str, pos: int, stop: int, check: re.Pattern[str] | None = None
    ) -> tuple[list[str], int, bool]:
        """The tokens from ``pos`` until one ends at or after ``stop``, the position after them, and whether
        ``check`` matched the rest up to ``stop`` from a token's start."""
        out: list[str] = []
        checked = False
        candidates = self.candidates
        while pos < stop:
            if check is not None and not checked and check.fullmatch(text, pos, stop):
                checked = True
            best, best_end = None, pos
            for match, rule in candidates.get(text[pos]) or self._candidates(text[pos]):
                found = match(text, pos)
                if found is not None:
                    end = found.end() if rule.reach is None else rule.longest_end(text, pos, found.end())
                    if end > best_end:
                        best, best_end = rule, end
            if best is None:  # only the last rule, one character of any kind
                best, best_end = self.rules[-1], pos + 1
            length = best.length(text[pos:best_end]) - best.pushback
            token = best.action(text[pos : pos + length])
            if token is not None:
                out.append(token)
            pos += length - best.split
        return out, pos, checked


_lexer = cache(_Lexer)  # one lexer, built on first use


# A line without these is cut at its spaces, which no token there crosses (SGML tags, phone numbers, fractions
# and spaced ellipses can hold a space; other whitespace may sit inside a URL).
_SPECIAL_CHARACTER = re.compile("[<\t\r\x0b\x0c\x85\u00a0\u2000-\u200a\u2028\u2029\u3000]")
_SPACE_BEFORE = re.compile(r" [\d.]")
_SPACED = re.compile(r"\d \d|\) \d|\. \.")


# A piece of ASCII letters and digits, alone or before one of , ; : . or a run of ? and !, is that word and that
# mark whatever follows, unless the lexer splits the word or the word and its period are an abbreviation.
_PLAIN_PIECE = re.compile("([A-Za-z0-9]+)([,;:.]|[?!]+)?")
_SPLIT_WORDS = frozenset(["cannot", "gimme", "gonna", "gotta", "lemme", "wanna"])


@cache
def _abbreviations() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(Tokens ending with a period that the lexer keeps whole; those of them whose rule looks past the next space,
    as "Co." before "Ltd": a piece ending with one is lexed where it stands.)"""
    g = _grammar()
    looking = [g["ACRONYM"], g["ABBREV1"], g["ABBREV3"], _keywords("pty pte co") + r"\."]
    return (
        re.compile("(?:" + "|".join(looking + [g["ABBREV2"] + r"\."]) + ")"),
        re.compile("(?:" + "|".join(looking) + ")"),
    )


class _Pieces:
    """Java's output for lines cut at spaces, each piece lexed once, keyed by the piece and the character after it
    (all the lexer looks at beyond a piece unless it ends with a token of :func:`_abbreviations` that looks on)."""

    def __init__(self, text: str, lowercase: bool):
        self.text, self.lowercase = text, lowercase
        self.lexer = _lexer()
        self.abbreviation, self.next_word = _abbreviations()
        self.known: dict[str, dict[str, str]] = {" ": {"": ""}, "\n": {"": ""}, "": {"": ""}}

    def line(self, start: int, end: int) -> str:
        text = self.text
        pieces = text[start:end].split(" ")
        joined = list(map(self.known[" "].get, pieces))
        last, after = len(pieces) - 1, text[end : end + 1]
        joined[last] = self.known[after].get(pieces[last])
        index = -1
        while None in joined:
            index = joined.index(None, index + 1)
            joined[index] = self._lex(pieces, index, " " if index < last else after, start)
        return " ".join(filter(None, joined))

    def _lex(self, pieces: list[str], index: int, after: str, start: int) -> str:
        """The tokens of ``pieces[index]`` (the line's pieces start at ``start`` in the text)."""
        piece, looks_further = pieces[index], False
        plain = _PLAIN_PIECE.fullmatch(piece)
        if (
            plain
            and plain.group(1).lower() not in _SPLIT_WORDS
            and not (plain.group(2) == "." and self.abbreviation.fullmatch(piece))
        ):
            tokens = [token for token in plain.groups() if token]
        else:
            tokens, _, looks_further = self.lexer.tokens(
                piece + after, 0, len(piece), self.next_word if piece[-1] == "." else None
            )
            if looks_further:
                pos = start + sum(len(before) + 1 for before in pieces[:index])
                tokens = self.lexer.tokens(self.text, pos, pos + len(piece))[0]
        joined = " ".join(tokens).lower() if self.lowercase else " ".join(tokens)
        if not looks_further:
            self.known[after][piece] = joined
        return joined


def _java_output(text: str, lowercase: bool) -> str:
    """What ``PTBTokenizer -preserveLines [-lowerCase]`` prints for ``text``."""
    lexer, pieces = _lexer(), _Pieces(text, lowercase)
    parts: list[str] = []
    size, start = len(text), 0
    while True:
        end = text.find("\n", start)
        last = end < 0
        end = size if last else end
        if not _SPECIAL_CHARACTER.search(text, start, end) and not (
            _SPACE_BEFORE.search(text, start, end) and _SPACED.search(text, start, end)
        ):
            parts.append(pieces.line(start, end))
            if last:
                break
            parts.append("\n")
            start = end + 1
            continue
        # Lex from the line start through its line break, and on while a token (an SGML tag) spans lines.
        pos, line_start = start, True
        while True:
            stop = text.find("\n", pos)
            stop = size if stop < 0 else stop + 1
            tokens, pos, _ = lexer.tokens(text, pos, stop)
            for token in tokens:
                if token != _NEWLINE and not line_start:
                    parts.append(" ")
                line_start = token == _NEWLINE
                parts.append(token.lower() if lowercase else token)
            if pos >= size or text[pos - 1] == "\n":
                break
        if pos >= size:
            break
        start = pos
    return "".join(parts)


def ptb_token_lines(text: str) -> list[list[str]]:
    """The tokens on each line of Java's ``PTBTokenizer -preserveLines`` output for ``text`` (case kept,
    nothing removed; one line per line break in ``text``, plus one).

    >>> ptb_token_lines("A dog (white) isn't running.\\nIt cannot, e.g. at 3:30 p.m.")
    [['A', 'dog', '-LRB-', 'white', '-RRB-', 'is', "n't", 'running', '.'], ['It', 'can', 'not', ',', 'e.g.', 'at', \
'3:30', 'p.m.']]
    """
    if not isinstance(text, str):
        raise InputError(f"text must be a string, got {type(text).__name__}")
    return [line.split(" ") if line else [] for line in _java_output(text, lowercase=False).split("\n")]


def ptb_tokenize(texts: Iterable[str], *, lowercase: bool = True, remove_punctuation: bool = True) -> list[str]:
    """pycocoevalcap 1.2's ``PTBTokenizer.tokenize``: one string of space-separated tokens per text.
    ``lowercase`` and ``remove_punctuation`` (dropping :data:`PUNCTUATIONS`) are what pycocoevalcap always does.
    The texts are tokenized together, as there: a text's last token can depend on how the next one begins
    ("etc." before a capital is "etc. ."), and a text holding another line break (``\\r``, ``\\u2028``, ...)
    shifts the following results.

    >>> ptb_tokenize(["A man's hat, (red).", "Two dogs can't play...", "In the U.S."])
    ["a man 's hat -lrb- red -rrb-", "two dogs ca n't play", 'in the u.s.']
    """
    if isinstance(texts, (str, bytes)) or not isinstance(texts, Iterable):
        raise InputError(f"texts must be a list of strings, got {type(texts).__name__}")
    texts = list(texts)
    for index, text in enumerate(texts):
        if not isinstance(text, str):
            raise InputError(f"texts[{index}] must be a string, got {type(text).__name__}")
    lines = _java_output("\n".join(text.replace("\n", " ") for text in texts), lowercase).split("\n")
    if not remove_punctuation:
        return lines[: len(texts)]
    return [
        " ".join([token for token in line.rstrip().split(" ") if token not in PUNCTUATIONS])
        for _, line in zip(texts, lines)
    ]
