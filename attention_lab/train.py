"""`python -m attention_lab.train`: train notebook 13's tiny model and write its weights, with a progress bar.

    python -m attention_lab.train                        # learned.npz here: seed 13, 300 steps, h = 2
    python -m attention_lab.train --out mine.npz --seed 7 --h 1
    python -m attention_lab.train --out small.npz --h 1 --dh 4    # one head of the article's per-head size

With the defaults it writes the file that ships with the package (attention_lab/numeric/learned.npz), every
value within training.SAME_WITHIN = 1e-10 (bit for bit on the machine that made it), in about 5 s.
Bad options get one line on stderr and exit status 2.
"""

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
    return parser


def main(argv=None):  # -> exit status
    def body():
        args = parser().parse_args(argv)
        if not args.out.endswith(".npz"):
            raise ValueError(f"out: the weights are an .npz file; write e.g. --out {args.out}.npz")
        weights, losses = training.train(seed=args.seed, steps=args.steps, h=args.h, progress_bar=True,
                                         dh=args.dh)
        training.save_weights(args.out, weights, losses)
        dh = weights["W_Q"].shape[1] // args.h
        print(f"{args.out}: h={args.h}, dh={dh}, {args.steps} steps, seed {args.seed}, last loss {losses[-1]:.2e}")

    return command_status(body, "the weights")


if __name__ == "__main__":
    sys.exit(main())
