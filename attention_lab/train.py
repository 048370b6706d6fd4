"""`python -m attention_lab.train`: train notebook 13's tiny model and write its weights, with a progress bar.

    python -m attention_lab.train                        # learned.npz here: seed 13, 300 steps, h = 2
    python -m attention_lab.train --out mine.npz --seed 7 --h 1
    python -m attention_lab.train --out small.npz --h 1 --dh 4    # one head of the article's per-head size
    python -m attention_lab.train --out slow.npz --rate 0.005     # Adam's step size (default 0.02)

With the defaults it writes the file that ships with the package (attention_lab/numeric/learned.npz), every
value within training.SAME_WITHIN = 1e-10 (bit for bit on the machine that made it), in about 5 s.
Bad options get one line on stderr and exit status 2, and so does training that diverged (too large a --rate);
--out is checked before training starts. Ctrl-C gets one line and exit status 130, and writes nothing: the
file is written beside --out and takes its name only when complete.
"""

import os
import sys

from .figures.options import _Parser, command_status
from .numeric import training


def parser():
    parser = _Parser(prog="python -m attention_lab.train", description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=training.SHIPPED, help=f"the .npz to write (default: {training.SHIPPED})")
    parser.add_argument("--seed", type=int, default=training.SEED, help=f"the seed (default: {training.SEED})")
    parser.add_argument("--steps", type=int, default=training.STEPS, help=f"Adam steps (default: {training.STEPS})")
    parser.add_argument("--h", type=int, default=2, help="the number of heads: 1, 2, 4 or 8 (default: 2)")
    parser.add_argument("--dh", type=int, help="each head's width, h·dh ≤ 8 (default: 8 / h)")
    parser.add_argument("--rate", type=float, default=training.RATE,
                        help=f"Adam's step size, the learning rate (default: {training.RATE})")
    return parser


def check_out(out):  # -> out, or a ValueError: before training, not after it
    """--out must name an .npz file in a folder that exists and can be written."""
    if not out.endswith(".npz"):
        raise ValueError(f"out: the weights are an .npz file; write e.g. --out {out}.npz")
    folder = os.path.dirname(os.path.abspath(out))
    if os.path.isdir(out):
        raise ValueError(f"out: {out} is a folder; name a file in it, e.g. --out {os.path.join(out, 'learned.npz')}")
    if not os.path.isdir(folder):
        raise ValueError(f"out: the folder {folder} does not exist; make it first (mkdir -p {folder}) "
                         "or write the weights elsewhere.")
    if not os.access(folder, os.W_OK):
        raise ValueError(f"out: the folder {folder} cannot be written; choose another --out.")
    return out


def main(argv=None):  # -> exit status
    def body():
        args = parser().parse_args(argv)
        check_out(args.out)
        weights, losses = training.train(seed=args.seed, steps=args.steps, h=args.h, progress_bar=True,
                                         dh=args.dh, rate=args.rate)
        training.save_weights(args.out, weights, losses)
        dh = weights["W_Q"].shape[1] // args.h
        print(f"{args.out}: h={args.h}, dh={dh}, {args.steps} steps, seed {args.seed}, rate {args.rate:g}, "
              f"last loss {losses[-1]:.2e}")

    try:
        return command_status(body, "the weights")
    except KeyboardInterrupt:  # Ctrl-C: one line, not a traceback; save_weights left no half-written file
        print("interrupted: no weights written.", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
