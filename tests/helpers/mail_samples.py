"""The sample mail context the compose tests and the own-lines tests share: Agatha in Truce, Round 3."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from courier.mail.compose import MailContext

ORDER_TEMPLATE = "# One action line, e.g.: attack Barney / defend / loot / support Agatha / pass\naction: "

MAIL = MailContext(
    game_id="truce-1",
    game_title="Truce",
    phase_label="Round 3 of 10",
    recipient_name="Agatha",
    recipient_email="agatha@example.com",
    deadline_text="Mon 23 Nov 2026 20:00 CET (19:00 UTC)",
    order_template=ORDER_TEMPLATE,
    deadline_at=datetime(2026, 11, 23, 20, 0, tzinfo=ZoneInfo("Europe/Paris")),
    deadline_key="round-3",
)
