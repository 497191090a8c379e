"""An event's stages (spec ``formats.md`` §1): qualifying, semi-final, final, each with its
scoring, multiplier, carry-over and entry; the cut that freezes who enters the next one."""
