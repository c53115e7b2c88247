"""Every mail a tick sends, as a context for ``compose``: the bridge between the journal's view of a
game and the templates. A player's mail carries public events and their own private ones only."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping, Sequence
from dataclasses import replace
from email.message import EmailMessage
from typing import TYPE_CHECKING, Any

from courier import screenful
from courier.mail.compose import (
    AnswerContext,
    AnyContext,
    ErrorContext,
    GameOverContext,
    MailContext,
    MailPicture,
    NoticeContext,
    OrganiserContext,
    PressContext,
    ReceiptContext,
    ReminderContext,
    ReportContext,
    WelcomeContext,
    compose,
)
from courier.mail.now import asked_of, headline_of
from courier.mail.pictures import mail_pictures
from courier.mail.render import RenderError, make_environment, render_event
from courier.mail.rules import rules_summary, rules_text
from engine.core import (
    AbsentDefault,
    Event,
    Opening,
    OrganiserLines,
    Outcome,
    Submission,
    Windowed,
    YourPart,
    visible_to,
)

if TYPE_CHECKING:
    from datetime import datetime

    from jinja2 import Environment

    from courier.config.deployment import Deployment
    from courier.config.game import GameConfig, Player
    from courier.journal.interface import GameRow


def opening_events(ruleset: Any, state: Any) -> tuple[Event, ...]:
    """What a game tells at its start (optional ``opening_events``): secret roles, dealt cards."""
    return tuple(ruleset.opening_events(state)) if isinstance(ruleset, Opening) else ()


def seed_hash(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


class Mailer:
    def __init__(self, deployment: Deployment, *, now: datetime, secret: bytes = b"") -> None:
        self.deployment = deployment
        self.now = now
        # Message-IDs, boundaries and picture ids derive from the outbox key ("receipt/<input id>")
        # through this journal's secret, so nobody can count the mail we received between two of theirs.
        self.secret = secret
        self.env = make_environment(deployment.templates)
        # An organiser's broken template never holds a player's mail: that mail uses the built-in
        # one, and the tick tells the organiser what to fix (``broken_templates``).
        self.builtin = make_environment() if deployment.templates else None
        self.broken_templates: set[str] = set()
        # A round's events are the same objects in every recipient's report, and a line depends on
        # its event alone: each is rendered once (the event kept, so its id is not reused).
        self._event_lines: dict[int, tuple[Event, str]] = {}

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
        now = asked_of(config, state, player.name)  # what the open phase asks of them (issue 30)
        return MailContext(
            game_id=config.id,
            game_title=ruleset.title,
            phase_label=label or ruleset.phase(state).label,
            recipient_name=player.greeted,
            recipient_email=player.email,
            deadline_text=config.schedule.format_deadline(deadline) if deadline else "",
            order_template="" if finished else ruleset.order_template(state, player.name),
            deadline_at=deadline.astimezone(config.schedule.timezone) if deadline else None,
            deadline_key=ruleset.phase(state).key if deadline and not finished else "",
            awaited=now.awaited,
            asked=now.asked,
            absent_default="" if finished else absent_default(config, state, player.name),
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
        try:
            return self._compose(
                self.env, kind, ctx, to=to, key=key, in_reply_to=in_reply_to, pictures=pictures
            )
        except RenderError as e:
            if self.builtin is None:
                raise
            self.broken_templates.add(str(e))
            return self._compose(
                self.builtin, kind, ctx, to=to, key=key, in_reply_to=in_reply_to, pictures=pictures
            )

    def _compose(
        self,
        env: Environment,
        kind: str,
        ctx: AnyContext,
        *,
        to: str,
        key: str,
        in_reply_to: str | None,
        pictures: Sequence[MailPicture],
    ) -> EmailMessage:
        return compose(
            env,
            kind,
            ctx,
            sender=self.deployment.sender,
            reply_to=self.deployment.reply_to,
            to=to,
            message_key=hmac.new(self.secret, key.encode(), hashlib.sha256).hexdigest()
            if self.secret
            else key,
            domain=self.deployment.domain,
            in_reply_to=in_reply_to,
            date=self.now,
            pictures=pictures,
        )

    def _lines(self, config: GameConfig, events: Sequence[Event], player: str | None) -> list[str]:
        return [self._event_line(config.ruleset.name, e) for e in visible_to(events, player)]

    def forget_event_lines(self) -> None:
        """A round's mail is written: its event lines will not be asked for again."""
        self._event_lines.clear()

    def _event_line(self, game: str, event: Event) -> str:
        kept = self._event_lines.get(id(event))
        if kept is None or kept[0] is not event:
            kept = (event, self._render_event(game, event))
            self._event_lines[id(event)] = kept
        return kept[1]

    def _render_event(self, game: str, event: Event) -> str:
        try:
            return render_event(self.env, game, event)
        except RenderError as e:
            if self.builtin is None:
                raise
            self.broken_templates.add(str(e))
            return render_event(self.builtin, game, event)

    # --- the kinds ----------------------------------------------------------------------------------

    def welcome(
        self,
        config: GameConfig,
        player: Player,
        state: Any,
        row: GameRow,
        seed: str,
        *,
        key: str = "",
        took_over: str = "",
    ) -> EmailMessage:
        """The first mail of a seat's holder; ``took_over``: a substitute's, who takes over that seat
        in the game under way."""
        seated = set(row.setup["players"]) | set(row.setup.get("joined", ()))
        playing = [config.shown(p.name) for p in config.players if p.name in seated]  # as the Ledger
        ctx = WelcomeContext(
            mail=self._common(config, player, state=state, deadline=row.deadline),
            players=playing,
            rules_summary=self._summary(config, len(playing)),
            seed_hash=seed_hash(seed),
            private_lines=[
                *_your_part(config, state, player.name),
                *([SECRET_NEEDED] if player.secret else []),
                *self._lines(config, opening_events(config.ruleset, state), player.name),
            ],
            took_over=took_over,
        )
        pictures = mail_pictures(config.ruleset, state, player.name)  # the starting map, as they see it
        key = key or f"{config.id}/welcome/{player.name}"
        return self._send("welcome", ctx, to=player.email, key=key, pictures=pictures)

    def rules(self, game: str) -> str:
        """The game's rules for its players (``courier.mail.rules``), as a ``rules`` command answers."""
        return rules_text(self.env, game)

    def _summary(self, config: GameConfig, players: int) -> str:
        """What the game is about, in a paragraph, and where the whole rules are."""
        summary = rules_summary(self.rules(config.ruleset.name))
        if not summary:
            return f"{config.ruleset.title} for {players} players."
        return f"{summary} ({players} players; write `rules` in a mail for the whole rules.)"

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
        kept: bool = False,
        news: Sequence[str] = (),
    ) -> EmailMessage:
        errors, more = screenful.problems(parsed.errors)
        mail = self._common(config, player, state=state, deadline=row.deadline)
        ctx = ReceiptContext(
            mail=replace(mail, news=tuple(news)),
            orders=screenful.orders(parsed.orders),
            errors=errors,
            # The mail's notes, then what combining it with the orders before did (``combine``'s own).
            notes=screenful.notes((*parsed.notes, *(n for n in standing.notes if n not in parsed.notes)))
            + ([more] if more else []),
            standing=screenful.orders(standing.orders),
            late=late,
            kept=kept,
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

    def news_lines(self, config: GameConfig, events: Sequence[Event], player: str) -> list[str]:
        """The lines of ``events`` one player may see: news that waits for their next mail."""
        return self._lines(config, events, player)

    def digest(
        self, config: GameConfig, player: Player, *, row: GameRow, state: Any, lines: Sequence[str], key: str
    ) -> EmailMessage:
        """News that waited for a mail and found none (courier/state/news.py), in one notice."""
        mail = self._common(config, player, state=state, deadline=row.deadline)
        return self._send("notice", NoticeContext(mail=mail, lines=list(lines)), to=player.email, key=key)

    def announcement(
        self, config: GameConfig, player: Player, *, row: GameRow, text: str, key: str
    ) -> EmailMessage:
        """A notice from the arbiter itself (a deadline moved after an outage), to one player."""
        state = config.ruleset.from_json(row.state)
        mail = self._common(config, player, state=state, deadline=row.deadline)
        if row.deadline is None and not row.finished:  # paused: the round's calendar event is cancelled
            mail = replace(mail, deadline_key=config.ruleset.phase(state).key)
        return self._send("notice", NoticeContext(mail=mail, lines=[text]), to=player.email, key=key)

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
        news: Sequence[str] = (),
    ) -> EmailMessage:
        ruleset = config.ruleset
        public = self._lines(config, [e for e in events if e.public], player.name)
        private = self._lines(config, [e for e in events if not e.public], player.name)
        headers, table = _ledger(config, state)
        mail = self._common(config, player, state=state, deadline=after.deadline, label=resolved_label)
        mail = replace(mail, news=tuple(news))
        common: dict[str, Any] = dict(
            mail=mail,
            public_lines=public,
            private_lines=private,
            ledger_headers=headers,
            ledger_rows=table,
            next_phase_label="" if outcome else ruleset.phase(state).label,
            headline=headline_of(ruleset, state, events, player.name),
        )
        window = ruleset.window_opened(state) if isinstance(ruleset, Windowed) else None
        if window is not None:  # nothing resolved yet: a window opened (Star Trek's intelligence)
            common.update(window_title=window[0], window_intro=window[1])
        if outcome is None:
            pictures = mail_pictures(ruleset, state, player.name)
            return self._send("report", ReportContext(**common), to=player.email, key=key, pictures=pictures)
        ctx = GameOverContext(
            **common,
            **_final(config, outcome),
            seed=after.seed,
            seed_hash=seed_hash(after.seed),
        )
        pictures = mail_pictures(ruleset, state, player.name)
        return self._send("game_over", ctx, to=player.email, key=key, pictures=pictures)

    def ended(
        self, config: GameConfig, player: Player, *, row: GameRow, state: Any, outcome: Outcome, key: str
    ) -> EmailMessage:
        """The last mail of a game the organiser ended before its end: no round was resolved, so no
        results and no order form; the standings as they were, and the seed."""
        ruleset = config.ruleset
        headers, table = _ledger(config, state)
        label = ruleset.phase(state).label
        mail = replace(self._common(config, player, state=state, deadline=None), order_template="")
        mail = replace(mail, deadline_key=ruleset.phase(state).key)  # the open round's event is cancelled
        ctx = GameOverContext(
            mail=mail,
            ledger_headers=headers,
            ledger_rows=table,
            **_final(config, outcome),
            seed=row.seed,
            seed_hash=seed_hash(row.seed),
            ended_during=label,
            reason=outcome.reason,
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
        news: Sequence[str] = (),
    ) -> EmailMessage:
        """The arbiter's view of a round, in every game: every event, and the unfogged map where the
        game draws one. An organiser who also plays in the game reads only the public events (their
        seat's own news comes in their report)."""
        ruleset = config.ruleset
        plays = config.player_by_email(organiser) is not None
        pictures = [] if plays else mail_pictures(ruleset, state, None)
        mail = MailContext(
            game_id=config.id,
            game_title=ruleset.title,
            phase_label=resolved_label,
            recipient_name="organiser",
            recipient_email=organiser,
            news=tuple(news),
        )
        lines = self.organiser_lines(config, organiser, events)
        after = "" if ruleset.outcome(state) is not None else ruleset.phase(state).label  # never "Finished"
        ctx = ReportContext(mail=mail, public_lines=lines, next_phase_label=after)
        return self._send("report", ctx, to=organiser, key=key, pictures=pictures)

    def organiser_lines(self, config: GameConfig, organiser: str, events: Sequence[Event]) -> list[str]:
        """A round's events as the organiser reads them: each once, in full; only the public ones
        for an organiser who also plays in the game."""
        ruleset = config.ruleset
        plays = config.player_by_email(organiser) is not None
        if isinstance(ruleset, OrganiserLines):  # events told twice, vaguer to some: once, in full
            events = ruleset.organiser_events(events)
        # A private line speaks to its player ("Your secret targets: …"): the organiser is told whose.
        return [
            self._event_line(ruleset.name, e)
            if e.public or not e.audience
            else f"Only for {', '.join(sorted(e.audience))}: {self._event_line(ruleset.name, e)}"
            for e in events
            if e.public or not plays
        ]

    def reminder(
        self,
        config: GameConfig,
        player: Player,
        *,
        row: GameRow,
        state: Any,
        key: str,
        news: Sequence[str] = (),
    ) -> EmailMessage:
        mail = self._common(config, player, state=state, deadline=row.deadline)
        ctx = ReminderContext(mail=replace(mail, news=tuple(news)))
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
        mail = _outside_phases(config, player.greeted, player.email)
        ctx = ErrorContext(mail=mail, reason=reason, quoted_subject=screenful.shorten(subject))
        return self._send("error", ctx, to=player.email, key=key, in_reply_to=in_reply_to)

    def organiser(self, game_id: str | None, organiser: str, problem: str, *, key: str) -> EmailMessage:
        mail = replace(_outside_phases(None, "organiser", organiser), game_id=game_id or "")
        return self._send("organiser", OrganiserContext(mail=mail, problem=problem), to=organiser, key=key)

    def answer(
        self,
        config: GameConfig | None,
        *,
        to: str,
        name: str,
        topic: str,
        lines: Sequence[str],
        key: str,
        block: str = "",
        in_reply_to: str | None = None,
    ) -> EmailMessage:
        """The arbiter's answer to a command, to the organiser or a player (``name``)."""
        mail = _outside_phases(config, name, to)
        ctx = AnswerContext(mail=mail, topic=topic, lines=list(lines), block=block)
        return self._send("answer", ctx, to=to, key=key, in_reply_to=in_reply_to)

    def press(
        self,
        config: GameConfig,
        player: Player,
        *,
        author: str,
        addressees: Sequence[str],
        text: str,
        key: str,
        reply: bool = False,
    ) -> EmailMessage:
        """Press relayed in the arbiter's own mail: From, Reply-To and every header are the arbiter's."""
        mail = _outside_phases(config, player.greeted, player.email)
        ctx = PressContext(mail=mail, author=author, addressees=list(addressees), text=text, reply=reply)
        return self._send("press", ctx, to=player.email, key=key)


def _text(value: object) -> str:
    return "" if value is None else str(value)


def _ledger(config: GameConfig, state: Any) -> tuple[list[str], list[list[str]]]:
    """The ledger's headers and rows as the Ledger tab shows them: a seat named as ``config.shown``
    names it (``Emmett (for Darcy)``, ``Darcy (bot)``), so the mail and the sheet agree."""
    rows = config.ruleset.ledger(state)
    headers = list(rows[0]) if rows else []
    return headers, [[_text(config.shown(r.get(h))) for h in headers] for r in rows]


def _final(config: GameConfig, outcome: Outcome) -> dict[str, Any]:
    """The winners and the ranking, each seat named as the Ledger names it."""
    return {
        "winners": [config.shown(w) for w in outcome.winners],
        "ranking": [[config.shown(p) for p in group] for group in outcome.ranking],
    }


SECRET_NEEDED = (
    "Every mail of yours must carry a line `secret: …` with the secret the organiser gave you; "
    "a mail without it is not used."
)


def absent_default(config: GameConfig, state: Any, player: str) -> str:
    """What happens for ``player`` if nothing comes by the deadline: the bot plays the seat, or the
    game's default as it describes it ("you pass"); "" when the game does not say."""
    if config.bot_plays(player):
        return "the game's bot plays your seat"
    ruleset = config.ruleset
    return ruleset.absent_default(state, player) if isinstance(ruleset, AbsentDefault) else ""


def _your_part(config: GameConfig, state: Any, player: str) -> list[str]:
    """The welcome's "You play France.": the power, faction or nation the seat was given, if any."""
    if isinstance(config.ruleset, YourPart):
        sentence = config.ruleset.your_part(state, player)
        return [sentence] if sentence else []
    part = config.ruleset.seat_labels(state, [player]).get(player, player)
    return [] if part == player else [f"You play {part[:1].upper() + part[1:]}."]


def _outside_phases(config: GameConfig | None, name: str, address: str) -> MailContext:
    """The frame of a mail that belongs to no phase (an error, an answer, press, the organiser's);
    without a game's config it has no game title (the footer then names no game)."""
    return MailContext(
        game_id=config.id if config else "",
        game_title=config.ruleset.title if config else "",
        phase_label="",
        recipient_name=name,
        recipient_email=address,
    )
