"""Work out the facts every dealing filter needs for each recorded turn (after a change to the
recorded turns or to the solver).

Usage: ``python scripts/record_facts.py [--level N] [--jobs 2]``; see
:mod:`dekbovinoj_edu.dealing.turn_facts`.
"""

import sys

from dekbovinoj_edu.dealing.turn_facts import main

if __name__ == "__main__":
    sys.exit(main())
