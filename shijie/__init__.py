"""shijie (视界): GPU kernel optimization literature → curated corpus → skills. The CLI lives in ``shijie.cli``."""

__version__ = "0.1.0"
