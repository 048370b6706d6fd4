"""The numbers of Core Attention, in NumPy only: the stage functions, the pipeline and its trace, the masks,
the examples, the argument checks, the mask conventions, generation from a KV cache and the blockwise softmax.

Nothing in this folder imports matplotlib or ipywidgets (tests/test_layers.py checks it): what is drawn is
in `attention_lab.look`, `attention_lab.figures` and `attention_lab.live`, and they read a trace.
"""
