"""The errors a user can cause. The CLI prints them as one line and exits 1.

ShijieError
 ├── UsageError         bad arguments, unknown document, bad seed
 ├── DataError          a data file (seeds, taxonomy, profile) that does not parse
 ├── EmptyCorpusError   a stage that needs documents found none
 ├── StorageError       the database cannot be read or written: a full disk, a damaged file, a read-only
 │                      location, another program's database (``pipeline.store.storage_error``)
 └── MissingExtraError  an optional part is not installed (carries the install hint)

An error about one input names it by its name in the library, ``field`` (``min_value``), and its message
follows that name: ``str(UsageError("must be between 0 and 100, not 120", field="min_value"))`` reads
``min_value must be between 0 and 100, not 120``. A front end that calls the input something else sets
``shown_as`` and the same line names its flag: ``--min-value must be between 0 and 100, not 120``. Where
the message must name the input again, it writes ``FIELD`` there.
"""

from __future__ import annotations

FIELD = "{field}"


class ShijieError(Exception):
    """Base of every error a user can cause; its message is the one line they see."""

    exit_code = 1  # what the CLI exits with

    def __init__(self, message: str, *, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        self.shown_as: str | None = None  # the field's name where the user typed it (a CLI flag)

    def __str__(self) -> str:
        name = self.shown_as or self.field
        if not name:
            return self.message
        return f"{name} {self.message}".replace(FIELD, name)


class UsageError(ShijieError):
    pass


class DataError(ShijieError):
    pass


class EmptyCorpusError(ShijieError):
    pass


class StorageError(ShijieError):
    pass


class MissingExtraError(ShijieError):
    def __init__(self, what: str, extra: str):
        super().__init__(f"{what} needs the '{extra}' extra: pip install 'shijie[{extra}]'")
