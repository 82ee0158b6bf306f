"""The closed sets of words that leave the pipeline: a score's level and a user's mark.

They are ``StrEnum``s, so they compare equal to, store as, and serialize to the plain words the database
and every ``--json`` output have always held (``"high"``, ``"good"``); the CLI and the report translate
them. ``choose`` reads one from what a user typed, with the one-line error a user can act on.

    from pipeline.choices import Label, choose
    choose(Label, "good", "label")        # Label.good
    choose(Label, "meh", "label")         # UsageError: label must be good or bad, not 'meh'
"""

from __future__ import annotations

from enum import StrEnum
from typing import TypeVar

from .errors import UsageError

E = TypeVar("E", bound=StrEnum)


class Level(StrEnum):
    """Relevance is high, medium or low; redundancy high or low (their thresholds live with their scores)."""

    high = "high"
    medium = "medium"
    low = "low"


class Label(StrEnum):
    """A user's mark on a document (``shijie mark``), which the next scoring learns from."""

    good = "good"
    bad = "bad"


def one_of(words: list[str]) -> str:
    """``auto, cpu or cuda``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def choose(kind: type[E], value: object, field: str) -> E:
    """``value`` as a member of ``kind``; a ``UsageError`` about ``field`` listing the choices otherwise."""
    if isinstance(value, kind):
        return value
    members = {member.value: member for member in kind}
    if isinstance(value, str) and value in members:
        return members[value]
    raise UsageError(f"must be {one_of(list(members))}, not {value!r}", field=field)
