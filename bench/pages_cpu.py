"""CPU per request of the web benchmark's three pages, in this process (no server).

Django's test client asks the pages of ``bench/web.py`` (its random paths, seed 7) of a
database that ``bench/web.py`` built; after a quarter of them warm the cache, it prints
the median process CPU time and wall time per request. The figure moves least with the
machine's load, so two checkouts can be compared by alternating runs:

    cd /tmp/before && .venv/bin/python /work/main/bench/pages_cpu.py --db URL_BEFORE
    cd /work/main  && .venv/bin/python bench/pages_cpu.py --db URL_AFTER

It imports the ``bench/web.py`` of the checkout it runs in (its ``setup_django`` and
``page_paths``), so each layout is asked the same paths of its own models. Only talks to
127.0.0.1.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path[:0] = [os.getcwd(), os.path.join(os.getcwd(), "bench")]

import web  # noqa: E402  (the checkout's own bench/web.py, found through the path above)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", default=web.DEFAULT_DB, help="PostgreSQL URL (127.0.0.1 only)")
    ap.add_argument("--redis", default="redis://127.0.0.1:6379/14", help="cache (127.0.0.1)")
    ap.add_argument("--requests", type=int, default=300, help="per page")
    args = ap.parse_args(argv)
    web.setup_django(args.db, args.redis)
    from django.conf import settings
    from django.test import Client

    settings.ALLOWED_HOSTS.append("testserver")
    client = Client()
    figures = []
    for name, path in web.page_paths().items():
        rng = random.Random(7)
        urls = [path(rng) for _ in range(args.requests)]
        for url in urls[: args.requests // 4]:
            client.get(url)
        cpu, wall = [], []
        for url in urls:
            c, w = time.process_time(), time.perf_counter()
            status = client.get(url).status_code
            cpu.append(time.process_time() - c)
            wall.append(time.perf_counter() - w)
            if status != 200:
                raise SystemExit(f"{url}: {status}")
        figures.append(
            f"{name}: cpu {statistics.median(cpu) * 1e3:.1f} ms, "
            f"wall {statistics.median(wall) * 1e3:.1f} ms"
        )
    print(os.getcwd(), " | ".join(figures), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
