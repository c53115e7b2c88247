"""Every mail a tick sends, as a context for ``compose``: the bridge between the journal's view of a
game and the templates. A player's mail carries public events and their own private ones only."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from email.message import EmailMessage
from typing import TYPE_CHECKING, Any

from courier import screenful
from courier.compose import (
    AnyContext,
    ErrorContext,
    GameOverContext,
    MailContext,
    MailPicture,
    NoticeContext,
    OrganiserContext,
    ReceiptContext,
    ReminderContext,
    ReportContext,
    WelcomeContext,
    compose,
)
from courier.pictures import mail_pictures
from courier.render import make_environment, render_event
from engine.core import Event, Opening, Outcome, Submission, visible_to

if TYPE_CHECKING:
    from datetime import datetime

    from courier.config import Deployment, GameConfig, Player
    from courier.journal import GameRow


def opening_events(ruleset: Any, state: Any) -> tuple[Event, ...]:
    """What a game tells at its start (optional ``opening_events``): secret roles, dealt cards."""
    return tuple(ruleset.opening_events(state)) if isinstance(ruleset, Opening) else ()


def seed_hash(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


class Mailer:
    def __init__(self, deployment: Deployment, *, now: datetime) -> None:
        self.deployment = deployment
        self.now = now
        self.env = make_environment(deployment.templates)

    # --- building blocks --------------------------------------------------------------------------

    def _common(
        self,
        config: GameConfig,
        player: Player,
        *,
        state: Any,
        deadline: datetime | None,
        label: str | None = None,
    ) -> MailContext:
        ruleset = config.ruleset
        finished = ruleset.outcome(state) is not None
        return MailContext(
            game_id=config.id,
            game_title=ruleset.title,
            phase_label=label or ruleset.phase(state).label,
            recipient_name=player.name,
            recipient_email=player.email,
            deadline_text=config.schedule.format_deadline(deadline) if deadline else "",
            order_template="" if finished else ruleset.order_template(state, player.name),
        )

    def _send(
        self,
        kind: str,
        ctx: AnyContext,
        *,
        to: str,
        key: str,
        in_reply_to: str | None = None,
        pictures: Sequence[MailPicture] = (),
    ) -> EmailMessage:
        return compose(
            self.env,
            kind,
            ctx,
            sender=self.deployment.sender,
            reply_to=self.deployment.reply_to,
            to=to,
            message_key=key,
            domain=self.deployment.domain,
            in_reply_to=in_reply_to,
            date=self.now,
            pictures=pictures,
        )

    def _lines(self, config: GameConfig, events: Sequence[Event], player: str | None) -> list[str]:
        return [render_event(self.env, config.ruleset.name, e) for e in visible_to(events, player)]

    # --- the kinds ----------------------------------------------------------------------------------

    def welcome(
        self, config: GameConfig, player: Player, state: Any, row: GameRow, seed: str
    ) -> EmailMessage:
        seated = set(row.setup["players"]) | set(row.setup.get("joined", ()))
        playing = [p.name for p in config.players if p.name in seated]
        ctx = WelcomeContext(
            mail=self._common(config, player, state=state, deadline=row.deadline),
            players=playing,
            rules_summary=f"{config.ruleset.title} for {len(playing)} players.",
            seed_hash=seed_hash(seed),
            private_lines=self._lines(config, opening_events(config.ruleset, state), player.name),
        )
        return self._send("welcome", ctx, to=player.email, key=f"{config.id}/welcome/{player.name}")

    def receipt(
        self,
        config: GameConfig,
        player: Player,
        *,
        row: GameRow,
        state: Any,
        parsed: Submission,
        standing: Submission,
        in_reply_to: str | None,
        key: str,
        late: bool = False,
    ) -> EmailMessage:
        errors, more = screenful.problems(parsed.errors)
        ctx = ReceiptContext(
            mail=self._common(config, player, state=state, deadline=row.deadline),
            orders=screenful.orders(parsed.orders),
            errors=errors,
            notes=screenful.notes(parsed.notes) + ([more] if more else []),
            standing=screenful.orders(standing.orders),
            late=late,
        )
        return self._send("receipt", ctx, to=player.email, key=key, in_reply_to=in_reply_to)

    def notice(
        self,
        config: GameConfig,
        player: Player,
        *,
        row: GameRow,
        events: Sequence[Event],
        key: str,
        state: Any = None,
    ) -> EmailMessage | None:
        """Events that take effect on receipt (a Truce gift, a newcomer), told to whoever may see them.
        ``state`` is the game after them (default: the journal row's)."""
        lines = self._lines(config, events, player.name)
        if not lines:
            return None
        state = config.ruleset.from_json(row.state) if state is None else state
        ctx = NoticeContext(
            mail=self._common(config, player, state=state, deadline=row.deadline), lines=lines
        )
        return self._send("notice", ctx, to=player.email, key=key)

    def announcement(
        self, config: GameConfig, player: Player, *, row: GameRow, text: str, key: str
    ) -> EmailMessage:
        """A notice from the arbiter itself (a deadline moved after an outage), to one player."""
        state = config.ruleset.from_json(row.state)
        ctx = NoticeContext(
            mail=self._common(config, player, state=state, deadline=row.deadline), lines=[text]
        )
        return self._send("notice", ctx, to=player.email, key=key)

    def report(
        self,
        config: GameConfig,
        player: Player,
        *,
        resolved_label: str,
        after: GameRow,
        state: Any,
        events: Sequence[Event],
        submissions: Mapping[str, Submission],
        outcome: Outcome | None,
        key: str,
    ) -> EmailMessage:
        ruleset = config.ruleset
        public = self._lines(config, [e for e in events if e.public], player.name)
        private = self._lines(config, [e for e in events if not e.public], player.name)
        rows = ruleset.ledger(state)
        headers = list(rows[0]) if rows else []
        table = [[_text(r.get(h)) for h in headers] for r in rows]
        mail = self._common(config, player, state=state, deadline=after.deadline, label=resolved_label)
        common: dict[str, Any] = dict(
            mail=mail,
            public_lines=public,
            private_lines=private,
            ledger_headers=headers,
            ledger_rows=table,
            next_phase_label="" if outcome else ruleset.phase(state).label,
        )
        if outcome is None:
            pictures = mail_pictures(ruleset, state, player.name)
            return self._send("report", ReportContext(**common), to=player.email, key=key, pictures=pictures)
        ctx = GameOverContext(
            **common,
            winners=list(outcome.winners),
            ranking=[list(group) for group in outcome.ranking],
            seed=after.seed,
            seed_hash=seed_hash(after.seed),
        )
        pictures = mail_pictures(ruleset, state, player.name)
        return self._send("game_over", ctx, to=player.email, key=key, pictures=pictures)

    def organiser_report(
        self,
        config: GameConfig,
        organiser: str,
        *,
        resolved_label: str,
        state: Any,
        events: Sequence[Event],
        key: str,
    ) -> EmailMessage | None:
        """The arbiter's view of a round, for games that draw maps: every event, the unfogged map."""
        ruleset = config.ruleset
        pictures = mail_pictures(ruleset, state, None)
        if not pictures:
            return None
        mail = MailContext(
            game_id=config.id,
            game_title=ruleset.title,
            phase_label=resolved_label,
            recipient_name="organiser",
            recipient_email=organiser,
        )
        lines = [render_event(self.env, ruleset.name, e) for e in events]
        ctx = ReportContext(mail=mail, public_lines=lines, next_phase_label=ruleset.phase(state).label)
        return self._send("report", ctx, to=organiser, key=key, pictures=pictures)

    def reminder(
        self, config: GameConfig, player: Player, *, row: GameRow, state: Any, key: str
    ) -> EmailMessage:
        ctx = ReminderContext(mail=self._common(config, player, state=state, deadline=row.deadline))
        return self._send("reminder", ctx, to=player.email, key=key)

    def error(
        self,
        config: GameConfig,
        player: Player,
        *,
        reason: str,
        subject: str,
        in_reply_to: str | None,
        key: str,
    ) -> EmailMessage:
        mail = MailContext(
            game_id=config.id,
            game_title=config.ruleset.title,
            phase_label="",
            recipient_name=player.name,
            recipient_email=player.email,
        )
        ctx = ErrorContext(mail=mail, reason=reason, quoted_subject=screenful.shorten(subject))
        return self._send("error", ctx, to=player.email, key=key, in_reply_to=in_reply_to)

    def organiser(self, game_id: str | None, organiser: str, problem: str, *, key: str) -> EmailMessage:
        mail = MailContext(
            game_id=game_id or "",
            game_title="Courier",
            phase_label="",
            recipient_name="organiser",
            recipient_email=organiser,
        )
        return self._send("organiser", OrganiserContext(mail=mail, problem=problem), to=organiser, key=key)


def _text(value: object) -> str:
    return "" if value is None else str(value)
