"""How commands talk to the terminal: machine-readable JSON on stdout, or rich output for people.

With ``--json`` stdout carries exactly one JSON document and nothing else; progress always goes to stderr.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console

from pipeline.choices import choose
from shijie.text import Lang


@dataclass
class Output:
    as_json: bool = False
    lang: Lang = Lang.en
    # emoji off: a page's ":warning:" is text, not a picture (see shijie.terminal for the rest of that rule)
    out: Console = field(default_factory=lambda: Console(highlight=False, emoji=False))
    err: Console = field(default_factory=lambda: Console(stderr=True, highlight=False, emoji=False))

    def __post_init__(self) -> None:
        self.lang = choose(Lang, self.lang, "lang")

    @property
    def human(self) -> Console:
        """Where tables and panels go: stdout for people, stderr when stdout is reserved for JSON."""
        return self.err if self.as_json else self.out

    def emit(self, payload: Any) -> None:
        if self.as_json:
            sys.stdout.write(json.dumps(payload, ensure_ascii=False, default=str) + "\n")
            sys.stdout.flush()
