"""The errors a user can cause. The CLI prints them as one line and exits 1.

ShijieError
 ├── UsageError         bad arguments, unknown document, bad seed
 ├── DataError          a data file (seeds, taxonomy, profile) that does not parse
 ├── EmptyCorpusError   a stage that needs documents found none
 └── MissingExtraError  an optional part is not installed (carries the install hint)
"""


class ShijieError(Exception):
    """Base of every error a user can cause; its message is the one line they see."""


class UsageError(ShijieError):
    pass


class DataError(ShijieError):
    pass


class EmptyCorpusError(ShijieError):
    pass


class MissingExtraError(ShijieError):
    def __init__(self, what: str, extra: str):
        super().__init__(f"{what} needs the '{extra}' extra: pip install 'shijie[{extra}]'")
