"""Fixtures shared by the test files."""

import pytest

from attention_lab import masks, stages


def stripe_allowed(T, every, rows=None, cols=None):  # a throwaway mask: each token and every `every`-th one
    i, j = masks._rows_cols(T, rows, cols)
    return (j % every == 0) | (i == j)


@pytest.fixture
def new_entries(monkeypatch):
    """A stage ("S_double", 2·S) and a mask ("stripe", with parameter `every`) added to the registries for one
    test, each as the one entry it should take: the test then shows that every consumer picks them up."""
    doubled = stages.Stage("S_double", "2S", {"ko": "2배 점수", "en": "twice the scores"}, "scores", "query",
                           ("query", "key"), "cell", read=lambda tr: 2 * tr.S)
    monkeypatch.setitem(stages.STAGES, "S_double", doubled)
    stripe = masks.Mask("stripe", {"ko": "줄무늬", "en": "stripe"}, {"ko": "…", "en": "…"}, {"ko": "…", "en": "…"},
                        allowed=stripe_allowed,
                        params=(masks.Param("every", {"ko": "간격", "en": "every"}, default=2, lo=1, hi_T=0),))
    monkeypatch.setitem(masks.MASKS, "stripe", stripe)
    monkeypatch.setattr(masks, "MASK_NAMES", (*masks.MASK_NAMES, "stripe"))
    return doubled, stripe
