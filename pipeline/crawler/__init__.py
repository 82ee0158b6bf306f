"""The crawler's policies, each a small module read and tested alone; ``pipeline.crawl`` is the scheduler
that runs them and the entry point (``crawl``, ``crawl_embedded``). The map is in ``pipeline.crawl``'s
docstring."""
