"""The static figures, drawn with matplotlib, in Korean or English (`al.figures` is this module).

    heatmap     the primitive: one matrix on an Axes, every cell labelled (heatmap, outline, head_box)
    layout      a page of heatmaps, operators, captions and tables whose numbers share one size
    article     the article's figures 1–5, normal or on a 16:9 slide
    overview    every stage of one head, of every head, and the scaling figure of notebook 03
    generation  the figures of notebooks 10–11: decoding from the KV cache, the online softmax, the cost over T
    heads       figure 1: Q, K, V split into heads, O₁ … Oₕ, Concat into H
    learned     notebook 13: the tiny model's training, its other matrices, its heads' mean weights
    deck        the teaching deck: its slides in the article's order, every matrix a table of all its numbers
    deck_layout the deck's slides laid out: tables sized, split into blocks, packed, alike in both editions
    export      figures to files with real text (PDF Type 42), the slides of --slides, the deck as PDF and pptx
    options     the command's options and the trace they ask for (your own Q, K, V from .npy or .csv)
    command     `python -m attention_lab.figures`: every figure to SVG, PNG or PDF, or the deck
    worksheet   the printable worksheet and its answer key (`python -m attention_lab.worksheet`)
    worksheet_numbers   the sheet's one rounding rule and the answers its key gives
    worksheet_names     a student's name as real text, in an installed Korean font
    worksheet_csv       every stage's matrix, and a class set's keys, as CSV

Rules that keep it honest: colours, number labels, masked and NaN cells come
from `look`; words from `look.words`; nothing here computes attention (every
matrix is read from a trace); figures are `matplotlib.figure.Figure` objects
made without pyplot, and rcParams are never touched. Numbers within one figure
share one size, the largest at which every number fits its cell; a heatmap
whose cells cannot hold them at the layout's smallest size (7 pt, 10 pt on
slides) leaves them out and says so. The normal layout is at most 8 in wide:
a notebook stores a figure at 100 px an inch, so it is shown at full size in
JupyterLab's output area (about 800–900 px) and its smallest text is ≈ 9.7 px. Text is black or white (by contrast); a
head's colour marks frames and swatches, never text.

In Jupyter, run `%matplotlib inline` once (it registers IPython's PNG display
for Figure objects), then end a cell with the figure or call `display(fig)`.
A slide figure (`slides=True`) fills exactly 13.33 × 7.5 in: save it without
bbox_inches to keep that size.
"""

from .article import figure_mask, figure_scores, figure_softmax, figure_weighted_sum
from .generation import cost_lines, figure_blockwise_steps, figure_decode_steps, figure_generation_cost
from .heads import figure_heads
from .heatmap import NUMBER_GID, SLIDE_SIZE, Heatmap, font_family, head_box, heatmap, outline
from .learned import figure_matrices, figure_mean_weights, figure_stage_heads, figure_training, loss_lines
from .overview import figure_all_heads, figure_scaling, figure_stages, slide_groups

# Stable names, used as file names by `python -m attention_lab.figures`.
FIGURES = {
    "fig1_heads": figure_heads,
    "fig2_scores": figure_scores,
    "fig3_mask": figure_mask,
    "fig4_softmax": figure_softmax,
    "fig5_weighted_sum": figure_weighted_sum,
    "scaling_head1": figure_scaling,
    "stages_head1": figure_stages,
    "all_heads": figure_all_heads,
}
ARTICLE_FIGURES = ("fig1_heads", "fig2_scores", "fig3_mask", "fig4_softmax", "fig5_weighted_sum")
SLIDE_FIGURES = tuple(FIGURES)  # every figure takes slides=True (all heads: one slide per group of slide_groups)

__all__ = ["FIGURES", "ARTICLE_FIGURES", "SLIDE_FIGURES", "NUMBER_GID", "SLIDE_SIZE", "Heatmap", "heatmap", "outline",
           "head_box", "font_family", "figure_heads", "figure_scores", "figure_mask", "figure_softmax",
           "figure_weighted_sum", "figure_scaling", "figure_stages", "figure_all_heads", "figure_decode_steps",
           "figure_blockwise_steps", "figure_generation_cost", "cost_lines", "slide_groups",
           "figure_training", "figure_matrices", "figure_mean_weights", "figure_stage_heads", "loss_lines"]
