"""What the teacher can do to a student's seat on the dashboard, with what the page asks
first and says afterwards, and the dashboard's timings.

>>> ACTIONS["reset"].label, sorted(ACTIONS)[:2]
('Start again', ['merge', 'release'])
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "ACTIONS",
    "FLOOD_MINUTES",
    "HERE_SECONDS",
    "MOST_FLOOD_MINUTES",
    "REFRESH_SECONDS",
    "SeatAction",
]

REFRESH_SECONDS = 2.0
"""How often the page asks for the board again."""

HERE_SECONDS = 15.0
"""A seat whose page gave a sign of life this recently is shown as on a page now."""


FLOOD_MINUTES = 10
"""The seats "remove these" offers first: those without an answer that joined in the last
this many minutes (the teacher may change it, up to :data:`MOST_FLOOD_MINUTES`)."""

MOST_FLOOD_MINUTES = 240


@dataclass(frozen=True)
class SeatAction:
    """Something the teacher can do to one student's seat, with what the page asks first
    and what it says afterwards (``{nickname}``, ``{into}``: the seats; ``{code}``: the new
    rejoin code a release gave)."""

    name: str
    label: str
    confirm: str
    done: str
    code: str = ""
    """The new rejoin code the action gave the seat (a release's), for the teacher to give
    its student; "" for the others."""


ACTIONS: dict[str, SeatAction] = {
    action.name: action
    for action in (
        SeatAction(
            "release",
            "Release",
            "Give {nickname} a new rejoin code? Their old code stops working; this page "
            "shows the new one, for you to give to {nickname}.",
            "The new rejoin code of {nickname} is {code}. Give it to {nickname}: they join "
            "with their nickname and this code, where they were.",
        ),
        SeatAction(
            "reset",
            "Start again",
            "Start {nickname} again at puzzle 1? Their attempts are deleted.",
            "{nickname} starts again at puzzle 1.",
        ),
        SeatAction(
            "remove",
            "Remove",
            "Remove {nickname} from the class, with every attempt? This cannot be undone.",
            "{nickname} was removed from the class.",
        ),
        SeatAction(
            "merge",
            "Merge",
            "Move every attempt of {nickname} to {into}, and remove {nickname}?",
            "The attempts of {nickname} are now those of {into}.",
        ),
        SeatAction(
            "remove-these",
            "Remove these",
            "Remove these {count} seats, which have no answer and joined in the last "
            "{minutes} minutes? This cannot be undone.",
            "Seats removed: {count}.",
        ),
    )
}
"""The seat actions, by name (the page's buttons and the service's routes); "remove-these"
removes many seats at once (a flood), with one question (:meth:`TeacherView.new_seats`)."""
