"""Build your GPT: what a correct run looks like, against hand values and the corpus itself."""
import math
import re
from collections import Counter

from engine.capstone import SAMPLE
from engine.data import load_corpus

from page_values import page_text, shown_after

PAGE = "model/build-your-gpt.md"


def test_the_uniform_row_of_the_example_scores_ln_4():
    # the example's third row has logits [0, 0, 0, 0]: p = 1/4 for any target
    assert shown_after(PAGE, "its third row has equal logits", 1) == [f"{math.log(4):.3f}"]


def test_a_correct_short_run_beats_letter_frequencies_and_still_writes_letter_soup():
    steps, at_end, at_100, unigram, sample = shown_after(PAGE, "Do not expect words", 5)
    text = load_corpus()
    counts = Counter(text)
    entropy = -sum(n / len(text) * math.log(n / len(text)) for n in counts.values())
    assert unigram == f"{entropy:.2f}"
    assert float(at_end) < float(at_100) < entropy  # "already below": the model reads some context
    assert sample.startswith(SAMPLE["prompt"])
    words = re.findall(r"[a-z]+", sample[len(SAMPLE["prompt"]):].lower())
    known = set(re.findall(r"[a-z]+", text.lower()))
    assert sum(w in known for w in words) < len(words) / 2  # "mostly letter soup": most of its words are not words
