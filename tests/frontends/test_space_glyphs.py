"""The BLEU Space's title and button draw the four letters of "BLEU" alike in English, Chinese and Japanese:
each letter's inked height, measured on a screenshot of the page in Chromium at 1400 px, is the same; and every
Latin letter of those bold texts is in the page's font (none is drawn by a fallback font).

gradio 6.31's default theme declared Source Sans Pro's weight 600 from a file holding "A" and "B" only, so
"B" was drawn in Source Sans Pro and "LEU" in the fallback (larger) font; ngrameval.ui.i18n.theme declares
whole files. Uses the fixtures serve and browser of conftest.py.
"""

import io

import numpy as np
import pytest

from conftest import require

LOCALES = {"en-US": "en", "zh-CN": "zh-CN", "ja-JP": "ja"}  # the browser's locale -> the page's language
WORD = "BLEU"

# The first occurrence of the word in the element's text: each letter's box (Range.getBoundingClientRect), the
# element's font (its computed style), and the Latin letters the page's font lacks at that weight (a letter the
# font lacks is drawn by the next font of the list, so its advance differs between two different fallbacks).
MEASURE = """async ([selector, word]) => {
  const element = document.querySelector(selector);
  await document.fonts.ready;
  const style = getComputedStyle(element);
  await document.fonts.load(`${style.fontWeight} ${style.fontSize} ${style.fontFamily}`, word);
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  let node, boxes = null;
  while (!boxes && (node = walker.nextNode())) {
    const at = node.textContent.indexOf(word);
    if (at < 0) continue;
    boxes = [...word].map((_, k) => {
      const range = document.createRange();
      range.setStart(node, at + k);
      range.setEnd(node, at + k + 1);
      const box = range.getBoundingClientRect();
      return {x: box.x, y: box.y, width: box.width, height: box.height};
    });
  }
  const canvas = document.createElement("canvas").getContext("2d");
  const first = style.fontFamily.split(",")[0];
  const advance = (letter, fallback) => {
    canvas.font = `${style.fontWeight} ${style.fontSize} ${first}, ${fallback}`;
    return canvas.measureText(letter).width;
  };
  const lacking = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"]
    .filter((letter) => advance(letter, "monospace") !== advance(letter, "serif")).join("");
  return {boxes, lacking, font: first, weight: style.fontWeight};
}"""


def _inked_heights(page, boxes):
    """Per letter box, the number of pixel rows holding its ink, on a screenshot of the word: pixels farther
    from the background (the word's most common colour) than half the strongest contrast in the box."""
    left, top = min(box["x"] for box in boxes), min(box["y"] for box in boxes)
    clip = {
        "x": left,
        "y": top,
        "width": max(box["x"] + box["width"] for box in boxes) - left,
        "height": max(box["y"] + box["height"] for box in boxes) - top,
    }
    image = require("PIL.Image").open(io.BytesIO(page.screenshot(clip=clip))).convert("RGB")
    pixels = np.asarray(image, dtype=np.float64)
    colours, counts = np.unique(pixels.reshape(-1, 3), axis=0, return_counts=True)
    distance = np.abs(pixels - colours[counts.argmax()]).sum(axis=2)
    heights = []
    for box in boxes:
        # The box's middle columns only: a neighbour's antialiased edge never counts.
        area = distance[:, round(box["x"] - left + 0.2 * box["width"]) : round(box["x"] - left + 0.8 * box["width"])]
        rows = np.flatnonzero((area > area.max() / 2).any(axis=1))
        heights.append(int(rows[-1] - rows[0] + 1) if len(rows) else 0)
    return heights


@pytest.mark.slow
@pytest.mark.parametrize("locale", LOCALES)
def test_bleu_letters_are_drawn_alike_in_the_title_and_the_button(serve, browser, locale):
    url, _ = serve("bleu")
    context = browser.new_context(locale=locale, viewport={"width": 1400, "height": 900})
    try:
        page = context.new_page()
        page.goto(url)
        require("playwright.sync_api").expect(page.locator("#language input")).to_have_value(
            {"en": "English", "zh-CN": "简体中文", "ja": "日本語"}[LOCALES[locale]]
        )
        for selector in ("h1", "#submit"):
            page.locator(selector).first.scroll_into_view_if_needed()
            measured = page.evaluate(MEASURE, [selector, WORD])
            assert measured["boxes"], f"{selector} shows no {WORD!r} in {locale}"
            assert measured["lacking"] == "", (
                f"{selector} ({locale}): {measured['font']} at weight "
                f"{measured['weight']} lacks {measured['lacking']!r}"
            )
            heights = _inked_heights(page, measured["boxes"])
            assert min(heights) > 5, (selector, locale, heights)
            # B, L and E are flat on top and bottom: the same height. U's round bottom may reach one row lower.
            assert heights[0] == heights[1] == heights[2], (selector, locale, dict(zip(WORD, heights)))
            assert abs(heights[3] - heights[0]) <= 1, (selector, locale, dict(zip(WORD, heights)))
    finally:
        context.close()
