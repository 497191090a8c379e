"""Tianhei's engine: the Killer game's rules, records, scoring, ratings and draws.

Pure Python (plus numpy/scipy where they pay): nothing here imports Django, the
web apps or Celery, so the same code runs in the site, the CLI and the benchmarks.
"""
