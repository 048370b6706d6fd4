"""`python -m attention_lab.figures`: see `attention_lab.figures.command`."""

import sys

from .command import main

sys.exit(main())
