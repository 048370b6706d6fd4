"""Taking out the height a figure's layout leaves over.

A heatmap keeps square cells, so constrained layout gives a row of them that is limited by its width room above
and below it; and a figure is sized before its text is measured. `lay_out` runs the layout, measures that room,
and takes it out: a slide keeps its 16:9 size and its panels move together into the middle between title and
caption; any other figure gets shorter (a notebook shows it at 100 px an inch, and crops it to its ink at the
sides). The cells never get smaller: where taking the room out would shrink them, less is taken, or none. Only
the height: a narrower figure would need its title and captions wrapped again.
"""

import warnings

import numpy as np

LEAVE_IN = 0.05  # less spare height than this (inches) is left alone
PASSES = 3  # the layout gives part of a cut to rows of text and tables: later passes take most of what is left
SHARES = (0.9, 0.45)  # of the spare height measured, what a pass tries to take out (all of it leaves the layout on
# the edge of collapsing, where one more layout can tip it over)


def _panels(fig):  # -> the Axes of fixed aspect that the layout places: heatmaps and tables
    return [ax for ax in fig.axes if ax.axison and ax.get_subplotspec() is not None]


def spare(fig):  # -> inches the figure's height could lose without any panel drawing smaller
    """A panel of fixed aspect gets a room from the layout and draws in part of it; what it draws with its ticks,
    labels and title (its ink) the layout keeps inside that room where it fits. Room above and below a panel is
    spare for the figure only as far as every column has it: of the lines down the figure through the middle of
    each panel, the one whose panels have the least room above and below them limits the height."""
    W, H = fig.get_size_inches()
    panels = _panels(fig)
    if not panels:
        return 0.0
    room = np.array([ax.get_position(original=True).extents for ax in panels]) * [W, H, W, H]
    ink = np.array([ax.get_tightbbox().transformed(fig.dpi_scale_trans.inverted()).extents for ax in panels])
    given = np.maximum(room[:, 3], ink[:, 3]) - np.minimum(room[:, 1], ink[:, 1])  # the room with its margins
    extra = given - (ink[:, 3] - ink[:, 1])
    middle = (room[:, 0] + room[:, 2]) / 2
    crossed = (room[None, :, 0] <= middle[:, None]) & (middle[:, None] <= room[None, :, 2])
    return max(float(min(extra[line].sum() for line in crossed)), 0.0)


def _sizes(fig):  # -> (n, 2) inches the panels draw
    for ax in fig.axes:
        ax.apply_aspect()
    return np.array([ax.get_position().size for ax in _panels(fig)]).reshape(-1, 2) * fig.get_size_inches()


def lay_out(fig, slides, place):
    """Run the layout, then take out the height it left over around the panels.

    place(dy): sets the layout's rectangle dy inches in from the top and the bottom of the room between the
    figure's title and caption (`layout.keep_clear`).
    """
    starts = {ax: ax.get_position(original=True).frozen() for ax in fig.axes}  # where the first layout starts
    place(0.0)
    fig.draw_without_rendering()
    height, cells = fig.get_figheight(), _sizes(fig)

    def take(cut):  # -> whether every cell keeps its size with `cut` inches of height taken out
        if slides:
            place(cut / 2)
        else:
            fig.set_figheight(height - cut)
            place(0.0)
        for ax, start in starts.items():  # every try starts where the first layout did: the same result each time
            ax._set_position(start)  # (private: the public set_position takes an Axes out of the layout)
        return settled()

    def settled():  # -> whether the layout, run again from where it is, keeps every cell
        with warnings.catch_warnings(record=True) as warned:  # "axes sizes collapsed": a cut far too deep
            warnings.simplefilter("always")
            fig.get_layout_engine().execute(fig)  # the layout alone: far quicker than drawing
        return not warned and bool(np.all(_sizes(fig) >= cells - 0.01))

    # The layout shares a cut among all its rows, text too: a cut can reach a panel with less room than measured,
    # so if the panels shrink, half the cut, else none. Then once more from where that left the panels, as `finish`
    # will lay it out one last time: a layout on the edge of collapsing may not hold a second time.
    taken = 0.0
    for _ in range(PASSES):
        cut = spare(fig)
        if cut < LEAVE_IN:
            break
        share = next((share for share in SHARES if take(taken + share * cut) and settled()), None)
        if share is None:
            take(taken)  # back to the last cut that held (it held from where the first layout started)
            break
        taken += share * cut
