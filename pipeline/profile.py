"""Topic profiles: what "relevant" means to the scorer.

A profile is a paragraph of text plus weighted phrases (see ``data/profiles/operator_adaptation.toml``, the
default: adapting LLM-training operators to a new GPU). ``shijie score --profile FILE`` loads another file
of the same shape; ``--topic TEXT`` makes a profile of a sentence, its words and adjacent word pairs
becoming the terms.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from .errors import DataError
from .resources import data_dir
from .terms import raw_tokens

DEFAULT_PROFILE = "operator_adaptation.toml"

# words that carry no topic in a --topic sentence
_STOP = frozenset("a an and are as at be by for from how in into is it of on or the to what when which with".split())


@dataclass(frozen=True)
class Profile:
    name: str
    text: str
    terms: dict[str, float]

    def describe(self) -> str:
        return self.name


def default_profile() -> Profile:
    return load_profile(data_dir() / "profiles" / DEFAULT_PROFILE)


def load_profile(path: str | Path) -> Profile:
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError(f"profile file {path} does not exist") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise DataError(f"profile file {path} does not parse: {exc}") from None
    text = raw.get("text", "")
    terms = raw.get("terms", {})
    if not isinstance(text, str):
        raise DataError(f"profile file {path}: 'text' must be a string")
    if not isinstance(terms, dict) or not all(
        isinstance(w, (int, float)) and not isinstance(w, bool) for w in terms.values()
    ):
        raise DataError(f"profile file {path}: [terms] must map phrases to numbers")
    if not text.strip() and not any(w > 0 for w in terms.values()):
        raise DataError(f"profile file {path} needs a 'text' or at least one positive term in [terms]")
    name = raw.get("name") or path.stem
    return Profile(str(name), text.strip(), {k.strip().lower(): float(w) for k, w in terms.items() if k.strip()})


def profile_from_topic(topic: str) -> Profile:
    """A profile from a sentence: its content words (weight 1) and adjacent word pairs (weight 2)."""
    words = [w for w in raw_tokens(topic) if w not in _STOP]
    if not words:
        raise DataError("needs at least one word that says what the topic is", field="topic")
    terms: dict[str, float] = {w: 1.0 for w in words if len(w) > 1}
    for first, second in zip(words, words[1:]):
        terms[f"{first} {second}"] = 2.0
    return Profile(f"topic: {topic.strip()}", topic.strip(), terms)
