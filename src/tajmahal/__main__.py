"""``python -m tajmahal``: the same command line as ``tajmahal``."""

from tajmahal.cli import main

if __name__ == "__main__":
    main(prog_name="tajmahal")
