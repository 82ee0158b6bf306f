"""shijie's pipeline: crawl → extract → store → score → curate, and the query API skills read.

No GPU code lives here, and nothing here imports ``skills``.
"""
