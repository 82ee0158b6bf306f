"""The YAML subset that Agent Skills frontmatter uses, parsed by hand.

A ``SKILL.md`` starts with a block between two ``---`` lines holding ``key: value`` pairs, nested
mappings by indentation, lists (``[a, b]`` inline or ``- item`` lines), quoted or plain strings, numbers,
booleans and ``null``. That is all skills need, so this small parser replaces a PyYAML dependency and
gives errors with the line number a skill author has to fix. Nesting (blocks and inline lists) stops at
``MAX_DEPTH`` levels with such an error: a skill file is data from a third party, and a file nested
thousands deep must be a broken skill, not a RecursionError in whoever lists the skills.
"""

from __future__ import annotations

import re

_NUMBER = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")
MAX_DEPTH = 32  # levels of nesting; SKILL.md metadata needs three


class FrontmatterError(ValueError):
    """The frontmatter does not parse; the message names the line."""


def split(text: str) -> tuple[str, str, int]:
    """(frontmatter, body, line number where the frontmatter starts) of a SKILL.md."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        raise FrontmatterError("line 1: SKILL.md must start with a '---' line opening the frontmatter")
    for index, line in enumerate(lines[1:], start=1):
        if line.strip() == "---":
            return "\n".join(lines[1:index]), "\n".join(lines[index + 1 :]), 2
    raise FrontmatterError("the frontmatter has no closing '---' line")


def parse(text: str, first_line: int = 1) -> dict:
    """The mapping a frontmatter block describes."""
    rows = []
    for number, raw in enumerate(text.splitlines(), start=first_line):
        stripped = _strip_comment(raw).rstrip()
        if not stripped.strip():
            continue
        if "\t" in raw[: len(raw) - len(raw.lstrip())]:
            raise FrontmatterError(f"line {number}: indent with spaces, not tabs")
        rows.append((number, len(stripped) - len(stripped.lstrip()), stripped.strip()))
    if not rows:
        return {}
    value, rest = _block(rows, 0, rows[0][1])
    if rest < len(rows):
        number = rows[rest][0]
        raise FrontmatterError(f"line {number}: indentation does not match any open block")
    if not isinstance(value, dict):
        raise FrontmatterError(f"line {first_line}: the frontmatter must be a mapping of keys to values")
    return value


def _strip_comment(line: str) -> str:
    # a '#' starts a comment unless it sits inside quotes or is glued to a word (as in 'C#')
    quote = None
    for index, char in enumerate(line):
        if quote:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1] in " \t"):
            return line[:index]
    return line


def _block(rows, start: int, indent: int, depth: int = 0):
    """Parses the rows at exactly ``indent`` from ``start``; returns (value, index after the block)."""
    if depth >= MAX_DEPTH:
        raise FrontmatterError(f"line {rows[start][0]}: nested deeper than {MAX_DEPTH} levels")
    if rows[start][2].startswith("- ") or rows[start][2] == "-":
        return _sequence(rows, start, indent)
    return _mapping(rows, start, indent, depth)


def _mapping(rows, index: int, indent: int, depth: int = 0):
    result: dict = {}
    while index < len(rows):
        number, column, content = rows[index]
        if column < indent:
            break
        if column > indent:
            raise FrontmatterError(f"line {number}: unexpected indentation")
        key, sep, rest = content.partition(":")
        if not sep or not key.strip() or (rest and not rest.startswith(" ")):
            raise FrontmatterError(f"line {number}: expected 'key: value', got {content!r}")
        key = _unquote(key.strip(), number)
        if key in result:
            raise FrontmatterError(f"line {number}: key {key!r} appears twice")
        rest = rest.strip()
        index += 1
        if rest:
            if rest in ("|", ">", "|-", ">-"):
                result[key], index = _block_scalar(rows, index, indent, folded=rest.startswith(">"))
            else:
                result[key] = _scalar(rest, number)
        elif index < len(rows) and rows[index][1] > indent:
            result[key], index = _block(rows, index, rows[index][1], depth + 1)
        elif index < len(rows) and rows[index][1] == indent and rows[index][2].startswith("- "):
            result[key], index = _sequence(rows, index, indent)  # a list may sit at its key's indent
        else:
            result[key] = None
    return result, index


def _sequence(rows, index: int, indent: int):
    result = []
    while index < len(rows):
        number, column, content = rows[index]
        if column != indent or not (content.startswith("- ") or content == "-"):
            if column > indent:
                raise FrontmatterError(f"line {number}: unexpected indentation")
            break
        item = content[1:].strip()
        if not item:
            raise FrontmatterError(f"line {number}: empty list item")
        if re.match(r"^[^'\"\[{][^:]*:( |$)", item):
            raise FrontmatterError(f"line {number}: mappings inside lists are not supported")
        result.append(_scalar(item, number))
        index += 1
    return result, index


def _block_scalar(rows, index: int, indent: int, folded: bool):
    parts = []
    while index < len(rows) and rows[index][1] > indent:
        parts.append(rows[index][2])
        index += 1
    return (" " if folded else "\n").join(parts), index


def _scalar(text: str, number: int, depth: int = 0):
    if text.startswith("["):
        if depth >= MAX_DEPTH:
            raise FrontmatterError(f"line {number}: inline lists nested deeper than {MAX_DEPTH} levels")
        if not text.endswith("]"):
            raise FrontmatterError(f"line {number}: inline list is not closed with ']'")
        inner = text[1:-1].strip()
        return [_scalar(item.strip(), number, depth + 1) for item in _split_commas(inner, number)] if inner else []
    if text.startswith("{"):
        raise FrontmatterError(f"line {number}: inline mappings are not supported; use indented lines")
    if text[0] in "'\"":
        return _unquote(text, number)
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("null", "~"):
        return None
    if _NUMBER.match(text):
        return float(text) if any(c in text for c in ".eE") else int(text)
    return text


def _unquote(text: str, number: int) -> str:
    if text[:1] in "'\"":
        quote = text[0]
        if len(text) < 2 or text[-1] != quote:
            raise FrontmatterError(f"line {number}: unterminated string {text!r}")
        inner = text[1:-1]
        return inner.replace("''", "'") if quote == "'" else inner.replace('\\"', '"')
    return text


def _split_commas(text: str, number: int) -> list[str]:
    items, current, quote = [], "", None
    for char in text:
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == ",":
            items.append(current)
            current = ""
            continue
        current += char
    if quote:
        raise FrontmatterError(f"line {number}: unterminated string in list")
    items.append(current)
    if any(not item.strip() for item in items):
        raise FrontmatterError(f"line {number}: empty item in inline list")
    return items
