"""The draw as CSV (round, table, referee, seat, player), for the page and the API."""

from __future__ import annotations

from django.http import HttpResponse

from league.csv_cells import SafeWriter
from league.events.models import Round

CSV_EXPORT_HEADER = [
    "round",
    "round_status",
    "starts_at",
    "table",
    "referee",
    "seat",
    "handle",
    "display_name",
]


def write_draw_csv(response: HttpResponse, rounds: list[Round]) -> None:
    response.write("\ufeff")
    out = SafeWriter(response)
    out.writerow(CSV_EXPORT_HEADER)
    for rnd in rounds:
        for table in rnd.tables.all():
            ref = str(table.referee) if table.referee else ""
            for seat in table.seats.all():
                out.writerow(
                    [
                        rnd.number,
                        rnd.status,
                        rnd.starts_at.isoformat() if rnd.starts_at else "",
                        table.number,
                        ref,
                        seat.number,
                        seat.player.handle,
                        seat.player.display_name,
                    ]
                )
