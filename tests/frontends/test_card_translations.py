"""The Simplified Chinese (README.zh.md) and Japanese (README.ja.md) metric cards are translations of the
English card (metrics/<name>/README.md): the same front matter but the description, the same sections, the
same code blocks (the doctests, unchanged) plus examples on Chinese and Japanese text, prose in the card's
language, and links to sections that exist. Their examples run as doctests in test_evaluate_load.py."""

import importlib
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
CARDS = sorted(path.parent.name for path in (ROOT / "metrics").glob("*/README.md"))
LANGUAGES = ["zh", "ja"]
FENCE = re.compile(r"^```[^\n]*\n.*?^```[ \t]*$", re.S | re.M)
HAN = re.compile(r"[\u4e00-\u9fff]")
KANA = re.compile(r"[\u3040-\u30ff]")
DOCTEST = re.compile(r"^>>> ", re.M)


def _read(name, card):
    return (ROOT / "metrics" / name / card).read_text(encoding="utf-8")


def _split(text):
    """(front matter as a dict, the body after it)."""
    match = re.match(r"---\n(.*?)\n---\n", text, re.S)
    assert match, "the card must start with front matter between --- lines"
    return yaml.safe_load(match.group(1)), text[match.end() :]


def _headings(body):
    """(level, title) of every Markdown heading outside the code blocks."""
    return [(len(hashes), title.strip()) for hashes, title in re.findall(r"^(#{1,6}) (.+)$", FENCE.sub("", body), re.M)]


def _prose_lines(body):
    """The non-empty lines outside the code blocks, the tables and the indented formulas."""
    return [
        line
        for line in FENCE.sub("", body).splitlines()
        if (line.strip() and not line.lstrip().startswith("|") and not line.startswith("    "))
        or (line.startswith("    ") and line.lstrip().startswith("-"))
    ]


def _slug(title):
    """GitHub's anchor of a heading: lowercased, punctuation but hyphens removed, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


@pytest.fixture(
    params=[(name, language) for name in CARDS for language in LANGUAGES], ids=lambda param: f"{param[0]}-{param[1]}"
)
def cards(request):
    name, language = request.param
    path = ROOT / "metrics" / name / f"README.{language}.md"
    assert path.is_file(), f"{path.relative_to(ROOT)} is missing"
    return _read(name, "README.md"), _read(name, path.name), language


def test_front_matter_is_the_english_one_but_the_description(cards):
    english, translated, language = cards
    english_front, _ = _split(english)
    translated_front, _ = _split(translated)
    assert set(translated_front) == set(english_front)
    assert {k: v for k, v in translated_front.items() if k != "description"} == {
        k: v for k, v in english_front.items() if k != "description"
    }
    description = translated_front["description"]
    assert HAN.search(description) and (KANA.search(description) if language == "ja" else not KANA.search(description))


def test_same_sections(cards):
    english, translated, _ = cards
    english_levels = [level for level, _ in _headings(_split(english)[1])]
    assert [level for level, _ in _headings(_split(translated)[1])] == english_levels


def test_english_code_blocks_kept_and_chinese_and_japanese_examples_added(cards):
    """Every code block of the English card, unchanged and in order; the blocks added are doctests on
    Chinese and Japanese text."""
    english, translated, _ = cards
    english_blocks, translated_blocks = FENCE.findall(_split(english)[1]), FENCE.findall(_split(translated)[1])
    remaining = iter(translated_blocks)
    missing = [block for block in english_blocks if not any(block == candidate for candidate in remaining)]
    assert not missing, f"English code blocks missing or changed: {[block[:80] for block in missing]}"
    added = list(translated_blocks)
    for block in english_blocks:
        added.remove(block)
    assert added, "no examples on Chinese and Japanese text"
    for block in added:
        assert DOCTEST.search(block), f"an added block is not a doctest: {block[:80]}"
    added_text = "".join(added)
    assert HAN.search(added_text) and KANA.search(added_text), "the added examples need Chinese and Japanese text"
    assert len(DOCTEST.findall(translated)) > len(DOCTEST.findall(english))


def test_prose_is_in_the_cards_language(cards):
    """Translated, not copied: most prose lines hold Chinese or Japanese (tables, code and tool names aside),
    Japanese prose has kana, Chinese prose none."""
    _, translated, language = cards
    lines = _prose_lines(_split(translated)[1])
    in_language = [line for line in lines if HAN.search(line) or KANA.search(line)]
    assert len(in_language) >= 0.8 * len(lines), [line for line in lines if line not in in_language][:10]
    prose = "\n".join(lines)
    if language == "ja":
        assert KANA.search(prose)
    else:
        assert not KANA.search(prose), KANA.findall(prose)[:10]


def test_section_links_resolve(cards):
    _, translated, _ = cards
    body = _split(translated)[1]
    anchors = {_slug(title) for _, title in _headings(body)}
    links = re.findall(r"\]\(#([^)]+)\)", FENCE.sub("", body))
    assert all(link in anchors for link in links), (links, anchors)


@pytest.mark.slow  # runs the METEOR 1.5 jar
def test_meteor_chinese_and_japanese_example_states_the_jars_scores():
    """The METEOR cards say meteor-1.5.jar (-l en -norm, as pycocoevalcap runs it) gives their Chinese and
    Japanese example's scores: run the jar on the same tokens."""
    from sacrebleu.tokenizers.tokenizer_ja_mecab import TokenizerJaMecab
    from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

    import ngrameval
    from tests import meteor_jar

    zh, ja = TokenizerZh(), TokenizerJaMecab()
    hypotheses = [zh("猫坐在垫子上。"), ja("猫がマットの上に座った。")]
    references = [[zh("猫在垫子上。")], [ja("猫はマットの上に座っていた。")]]
    try:
        jar = meteor_jar.MeteorJar()
    except meteor_jar.PeerMissing as missing:
        pytest.fail(str(missing))
    try:
        _, jar_scores, _ = jar.score(hypotheses, references)
    finally:
        jar.close()
    ours = ngrameval.meteor([h.split() for h in hypotheses], [[r.split() for r in refs] for refs in references])
    assert max(abs(a - b) for a, b in zip(ours.scores, jar_scores)) < 1e-12
    for language in LANGUAGES:
        card = _read("meteor", f"README.{language}.md")
        assert all(repr(score) in card for score in jar_scores), (language, jar_scores)


# Each card's library module and the constant that lists what the card's `variant` (or `metrics`) takes.
CHOICES = {
    "bleu": ("bleu", "VARIANTS"),
    "chrf": ("chrf", "VARIANTS"),
    "cider": ("cider", "VARIANTS"),
    "gleu": ("gleu", "VARIANTS"),
    "meteor": ("meteor", "VARIANTS"),
    "nist": ("nist", "VARIANTS"),
    "rouge": ("rouge", "VARIANTS"),
    "coco_caption": ("coco", "METRICS"),
}


@pytest.mark.parametrize("name", CARDS)
def test_every_card_names_every_variant_of_the_library(name):
    if name not in CHOICES:  # (TER has no variants)
        assert name == "ter"
        return
    module, constant = CHOICES[name]
    choices = getattr(importlib.import_module(f"ngrameval.metrics.{module}"), constant)
    for card in ["README.md"] + [f"README.{language}.md" for language in LANGUAGES]:
        text = _read(name, card)
        missing = [choice for choice in choices if f'"{choice}"' not in text and f"`{choice}`" not in text]
        assert not missing, f"metrics/{name}/{card} does not name {missing}"
