"""``python -m npubuild.cli``: the console script without its installed wrapper (the tests run it so)."""
import sys

from .table import main

sys.exit(main())
