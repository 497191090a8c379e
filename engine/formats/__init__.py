"""Championship formats (spec ``formats.md``): an event's stages with cuts and
multipliers (:mod:`engine.formats.stages`), the final table's seating design
(:mod:`engine.formats.final_seating`) and circuits of events
(:mod:`engine.formats.circuit`). Pure: plain values in, frozen values out."""
