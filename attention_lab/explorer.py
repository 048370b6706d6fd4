"""`python -m attention_lab.explorer --out FILE`: an explorer as one page that needs no Python (live/command.py).

Importing this module must not hide `al.explorer`, the function: Python sets a package's attribute to a
submodule once it is imported, so this module is itself callable and does what the function does.
"""

import sys
import types


class _CallableModule(types.ModuleType):
    def __call__(self, *args, **kwargs):  # al.explorer(…), after `import attention_lab.explorer`
        from .live import explorer

        return explorer(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule


def main(argv=None):
    from .live.command import main as run

    return run(argv)


if __name__ == "__main__":
    sys.exit(main())
