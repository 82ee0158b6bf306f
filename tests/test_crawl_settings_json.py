import json
import threading

from pipeline.crawl import CrawlSettings


def test_settings_json_leaves_callbacks_out_even_when_they_hold_locks():
    class Console:  # like rich's: a bound method whose object holds a lock, which deepcopy cannot copy
        def __init__(self):
            self.lock = threading.RLock()

        def progress(self, stats):
            pass

    settings = CrawlSettings(max_pages=7, on_progress=Console().progress, resolver=lambda host: ["127.0.0.1"])
    payload = settings.to_json()
    assert payload["max_pages"] == 7 and "on_progress" not in payload and "resolver" not in payload
    json.dumps(payload)
