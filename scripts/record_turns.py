"""Re-record the dealer's turns from simulated games (after a change to the engine or the bots).

Usage: ``python scripts/record_turns.py [--games N]``; see
:mod:`dekbovinoj_edu.dealing.recorded_turns`.
"""

from dekbovinoj_edu.dealing.recorded_turns import main

if __name__ == "__main__":
    main()
