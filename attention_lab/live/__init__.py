"""What a learner moves: the explorer and the step widgets of notebooks 10–11.

The page draws the explorer (live/picture.js, the one renderer of it); Python keeps the reference numbers (the
trace) and checks the state the page sends.

    views       what an explorer shows: views as lists of names, from the pipeline
    state       the controls' values as one dict, and what they put on screen (sizes, mask, the trace)
    controls    the controls a view offers, and their Python handles (ex.controls)
    data        what the browser gets once: the visual language, the pipeline, the example values, mask tables
    page        the front-end (*.js, *.css here, no build step) as one bundle; pages that mount it
    widget      the explorer widget (al.explorer()): connects the page's state to the parts above
    command     `python -m attention_lab.explorer --out FILE`: an explorer as a page with no Python
    steppers    generation from the KV cache and the online softmax, step by step
"""

from .widget import Explorer, explorer

__all__ = ["Explorer", "explorer"]
