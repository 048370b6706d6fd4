"""What a learner moves: the explorer and the step widgets of notebooks 10–11.

    widget      the explorer (`al.explorer()`): controls and its picture
    steppers    generation from the KV cache and the online softmax, step by step
    explorer.js, explorer.css   the picture in the browser (no build step)
"""

from .widget import Explorer, explorer

__all__ = ["Explorer", "explorer"]
