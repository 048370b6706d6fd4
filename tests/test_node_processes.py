"""Every Node.js process the tests start is closed (issue 50): tests/frontend.py keeps at most KEEP drivers running
however many bundles the tests alter, closes them all at the session's end, and tests/conftest.py then fails the
run if any Node process below pytest is left."""

import pytest
from frontend import KEEP, close_all, node_children, page_calls

from attention_lab.live import page as pages

pytestmark = pytest.mark.slow  # runs Node.js


def test_the_drivers_of_altered_bundles_are_closed_and_none_is_left_after_close_all():
    js = pages.bundle.__wrapped__()[0]
    for n in range(KEEP + 3):  # as tests that add a mask or a stage each ask for a bundle of their own
        assert page_calls("exp", [0.0], js + f"\n// bundle {n}") == [1.0]
        assert 1 <= len(node_children()) <= KEEP  # found, and no more than KEEP
    close_all()
    assert node_children() == []
    assert page_calls("exp", [0.0]) == [1.0]  # a closed driver starts again when asked
    assert len(node_children()) == 1
