"""The two ways a test gives a command that changes who holds a seat or ends a game by mail: with
a trusted DKIM/DMARC pass (the deployment names its mail server in `trusted_authserv_ids`), or by
answering the confirmation code Courier mailed to the registered address."""

from __future__ import annotations

import re

from courier.config.deployment import load_deployment
from tests.conftest import Table, text_of

MAIL_SERVER = "mx.courier.test"
# What the organiser's own mail server writes above a mail it checked (tests drop mail in the Maildir
# without a Received line, so this header is the receiving server's verdict).
TRUSTED_PASS = {"Authentication-Results": f"{MAIL_SERVER}; dmarc=pass header.from=courier.test"}
_CODE = re.compile(r"`confirm ([A-Z0-9]{6})`")


def trust_the_mail_server(t: Table) -> None:
    """Name the test mail server in courier.toml's `trusted_authserv_ids` (once)."""
    toml = t.root / "courier.toml"
    text = toml.read_text(encoding="utf-8")
    if MAIL_SERVER not in text:
        toml.write_text(
            text.replace("[inbox]", f'[auth]\ntrusted_authserv_ids = ["{MAIL_SERVER}"]\n\n[inbox]'),
            encoding="utf-8",
        )
        t.deployment = load_deployment(toml)


def code_for(t: Table, address: str) -> str | None:
    """The code of the last answer to this address, if it asks for a confirmation."""
    answers = [m for m in t.sent(address) if m["X-Courier-Kind"] == "answer"]
    found = _CODE.search(text_of(answers[-1])) if answers else None
    return found.group(1) if found else None
