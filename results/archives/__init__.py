"""Club and event archives (issue #22): one zip file that holds a club's or an event's
settings, every game's versions as KGR/1 records, and the standings as exported, and
loads into another instance (``docs/archives.md``).

- :mod:`results.archives.bundle` — the file: its manifest, its bounds, reading it safely;
- :mod:`results.archives.export` — ``export_archive(club or event, public=)``;
- :mod:`results.archives.imports` — ``import_archive(file, actor=)`` and its preview;
- :mod:`results.archives.digest` — standings and ratings without ids, to compare two
  instances (``manage.py compare_results``, the restore drill);
- :mod:`results.archives.views`, :mod:`results.archives.urls` — the download buttons and
  the staff import page.

It sits in ``results``, the highest layer, because it reads and writes the league, the
games and the results.
"""
