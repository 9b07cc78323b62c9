"""``python -m dekbovinoj_edu.cli``: the ``dekbovinoj`` command, for when it is not on the PATH."""

import sys

from . import main

sys.exit(main())
