"""Step 4: each journalled message → game and player → text → the ruleset's parse → a receipt.

Orders count only from a player's registered address, never when the receiving server saw a
DKIM/DMARC failure, and only with the player's secret when one is set. Every reply goes to the
registered address, so a forger never sees it and the real player learns of the attempt.
"""

from __future__ import annotations

import json
import logging
import operator
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import timedelta
from functools import partial, reduce
from typing import Any

from courier import faults
from courier.backends.base import BackendError
from courier.commands.players import press_reply_to
from courier.commands.run import (
    organiser_confirms,
    organiser_of,
    player_commands,
    run_cli_input,
    run_commands,
)
from courier.commands.table import ORGANISER_VERBS, PLAYER_VERBS, answered_after_end, first_verb
from courier.config.game import Player
from courier.journal.interface import Input, Journal
from courier.journal.meta import LATE
from courier.mail.compose import is_our_message_id
from courier.mail.incoming import REPLY_WORD, Letter, UnreadableMail, game_tag, plus_tag, read_mail
from courier.mail.own_lines import SentLines, without_quoted
from courier.mail.quote_rules import QuoteRules, RulesError, load_rules, shipped_rules
from courier.mail.quotes import is_furniture
from courier.state.context import NOT_A_GAMES_FAULT, OPERATOR_ERRORS, LoadedGame, Tick
from courier.state.control import kicked
from courier.state.history import add_history_lines, history_lines
from courier.state.newcomers import participants, players_of
from courier.state.news import drop, hold, news_every, waiting
from courier.tick.in_your_name import refuse_in_your_name, tell_in_your_name
from courier.tick.strangers import settle_stranger
from engine.core import Event, Ruleset, Standing, Submission, visible_to, writers_of

log = logging.getLogger(__name__)

# What a subject carries besides orders: reply/forward prefixes in common languages, and [tags].
_SUBJECT_NOISE = re.compile(rf"^\s*(?:{REPLY_WORD}|\[[^\]]*\]\s*)+", re.I)
FROM_SUBJECT = "Your mail’s text held no orders, so its subject was read as your orders: “{}”."
GAME_OVER = "The game is over; no more orders are taken."
FORWARDED = "Forwarded text in your mail was ignored: only your own words count as your orders."
REUSED_ID = (
    "Your mail reused the Message-ID of an earlier mail with other content; it was read as a new mail."
)
# A command below orders (`loot` then `status`) is not done: a mail that starts with orders is orders.
COMMAND_AMONG_ORDERS = (
    "“{}” was not done: a command counts only at the top of a mail; send it in a mail of its own."
)
# A secret may hold spaces (`secret: open sesame`); spaces around it do not count.
SECRET_LINE = re.compile(r"^[ \t]*(?:secret|password)[ \t]*[:=][ \t]*(\S(?:[^\n]*\S)?)[ \t]*$", re.I | re.M)


def interpret_inputs(tick: Tick) -> None:
    """Read every mail not settled yet. Orders that arrived after the open round's deadline wait
    (``LATE``) until that round is resolved, then count for the next (``runbook.resolve_rounds``)."""
    pending = tick.journal.pending_inputs()
    pending.sort(key=lambda item: item.source != "cli")  # the organiser's CLI commands first (stable)
    for item in pending:
        if item.source == "cli":
            game = str(json.loads(item.raw).get("game", ""))
            _guarded(tick, item, "the organiser's command", [game], partial(run_cli_input, tick, item))
            continue
        try:
            letter = _letter(tick, item)
        except UnreadableMail as e:  # never retried, never answered: we cannot even say who sent it
            _settle(tick.journal, item, status="unreadable", note=f"unreadable: {e}")
            _file_away(tick, item)
            continue
        if letter.silent:
            _settle(tick.journal, item, status="ignored", note=letter.silent)
        else:
            read = partial(_interpret, tick, item, letter)
            with tick.caused_by(letter.sender):  # what it causes counts to its sender's budget
                _guarded(tick, item, f"message {item.id} from {letter.sender}", _games_of(tick, letter), read)
        _file_away(tick, item)
    tell_in_your_name(tick)  # one mail per player for the tick's mail in their name not used


def _guarded(tick: Tick, item: Input, what: str, games: list[str], read: Callable[[], None]) -> None:
    """Read one input; whatever fails, the other inputs and games go on. An operator's problem (e.g.
    a mail server's refusal) leaves the input waiting for the fix; a bug in a game's reading leaves
    it waiting too, and counts as that game's failure (a game failing tick after tick is set aside)."""
    try:
        read()
    except OPERATOR_ERRORS as e:
        tick.problem(f"{what} waits: {e}")
        tick.tell_organiser(None, tick.deployment.organiser, str(e))
    except NOT_A_GAMES_FAULT:
        raise
    except Exception as e:
        log.debug("%s (input %s)", what, item.id, exc_info=True)  # -vv: the traceback
        tick.problem(f"{what} waits: {type(e).__name__}: {e}")
        for game_id in games:
            if game_id in tick.games:
                tick.failed_games.setdefault(game_id, f"reading a mail: {type(e).__name__}: {e}")


def _games_of(tick: Tick, letter: Letter) -> list[str]:
    playing = [gid for gid, g in tick.games.items() if g.config.player_by_email(letter.sender)]
    tagged = [gid for gid in letter.tags if gid in playing]
    return tagged or playing


def _file_away(tick: Tick, item: Input) -> None:
    """Tidy the mailbox once a mail is settled: used mail to the processed folder, the rest to the
    rejected one (where the inbox has them). Only tidying: a failure here loses nothing."""
    status = tick.journal.input_status(item.id)
    if item.source != "mail" or status == "new":
        return
    try:
        tick.inbox.file_away(item.source_id, rejected=status in ("ignored", "unreadable"))
    except BackendError as e:
        log.warning("could not file message %s away: %s", item.id, e)


def quote_rules(tick: Tick) -> QuoteRules:
    """Courier's quote patterns and the organiser's own; a broken file of theirs is told once, and
    replies are read with Courier's alone until it is fixed."""
    path = tick.deployment.quote_patterns
    if path is None:
        return shipped_rules()
    try:
        return load_rules((path,))
    except RulesError as e:
        notice = f"quote_patterns: {e}. Replies are read with Courier's own quote patterns until you fix it."
        tick.tell_organiser(None, tick.deployment.organiser, notice)
        return shipped_rules()


def _letter(tick: Tick, item: Input) -> Letter:
    if item.source == "form":
        body = json.loads(item.raw)
        return Letter(
            body["email"], "", "", (body["game"],), body["orders"], body["secret"] or "", None, None
        )
    deployment = tick.deployment
    mail = read_mail(
        item.raw,
        trusted_authserv_ids=deployment.trusted_authserv_ids,
        require_pass=deployment.require_pass,
        quotes=quote_rules(tick),
    )
    silent = mail.automatic
    if is_our_message_id(mail.message_id, tick.deployment.domain):
        silent = "our own mail came back"
    # Only a bracket naming one of our games is a tag: "[urgent]" in a subject is just a word.
    known = {g.id.lower(): g.id for g in tick.deployment.games}
    found = [game_tag(mail.subject), *map(plus_tag, mail.recipients)]
    tags = tuple(known[t.lower()] for t in found if t and t.lower() in known)
    return Letter(
        mail.sender,
        mail.subject,
        mail.message_id,
        tags,
        mail.text,
        None,
        mail.refusal,
        silent,
        mail.forwarded,
        mail.in_reply_to,
        mail.references,
        mail.authenticated,
        mail.sender_name,
    )


def _interpret(tick: Tick, item: Input, letter: Letter) -> None:
    organised = organiser_of(tick, letter.sender)
    if organised and _for_organiser(tick, letter, organised):
        _organiser_mail(tick, item, letter, organised)
        return
    playing = {gid: g for gid, g in tick.games.items() if g.config.player_by_email(letter.sender)}
    if (not playing and tick.broken) or any(tag in tick.broken for tag in letter.tags):
        return  # maybe a player of a game whose config is broken: keep it until the config is fixed
    if not playing:
        # Unregistered or spoofed: moves nothing, and we do not answer strangers (backscatter); the
        # organiser hears of one that looks like a player's from another address.
        settle_stranger(tick, item, letter)
        return
    game_id, reason = _choose_game(tick, letter, playing)
    if game_id is None:
        _refuse(tick, item, letter, next(iter(playing.values())), reason)
        return
    loaded = playing[game_id]
    player = loaded.config.player_by_email(letter.sender)
    assert player is not None
    if letter.refusal:  # maybe not theirs: told in one mail per tick (in_your_name.py)
        why = f"A message from your address was not used: {letter.refusal}."
        refuse_in_your_name(tick, item, letter, loaded, why)
        return
    text, secret_ok = check_secret(letter, player.secret)
    if not secret_ok:
        why = (
            "The message did not carry your secret. Add a line `secret: …` with the secret the organiser "
            "gave you (anywhere in the mail) and send it again."
        )
        refuse_in_your_name(tick, item, letter, loaded, why)
        return
    view = tick.view(game_id)
    if view is None:
        _refuse(tick, item, letter, loaded, "The game has not started yet; orders open with the first round.")
        return
    row = view.row
    if row.finished and not answered_after_end(text):  # `status`, `rules`, `help` are still answered
        _refuse(tick, item, letter, loaded, GAME_OVER)
        return
    if player.name not in players_of(row.setup):
        _refuse(
            tick,
            item,
            letter,
            loaded,
            "You were added to the Players tab after this game began, "
            "and this game takes no newcomers: ask the organiser.",
        )
        return
    if player.name in kicked(row):
        _refuse(tick, item, letter, loaded, "You have left this game; your mail no longer counts in it.")
        return
    if item.source == "mail":
        text = _without_our_lines(tick, letter, loaded, player, text=text, state=view.state)
    verb = first_verb(text)
    if verb in ORGANISER_VERBS:
        why = f"`{verb}` is the organiser's command; only the organiser's address may give it."
        _refuse(tick, item, letter, loaded, why)
        return
    if verb in PLAYER_VERBS or press_reply_to(tick, letter.in_reply_to, loaded):
        player_commands(tick, item, letter, loaded, player, text)
        return
    if row.finished:
        _refuse(tick, item, letter, loaded, GAME_OVER)
        return
    if row.deadline is not None and item.received_at > row.deadline:
        # Arrived after this round closed: read it once the round is resolved (it waits meanwhile,
        # even while the game fails). Noted in the journal, so the receipt says "late" even when a
        # crash falls between the round and the receipt.
        LATE.set(tick.journal, str(item.id), row.phase_key)
        return
    _accept(tick, item, letter, loaded, player, text)


def _for_organiser(tick: Tick, letter: Letter, organised: dict[str, LoadedGame]) -> bool:
    """Whether a mail from an organiser's address is the organiser's: their commands, a code kept
    for them, and, unless they also play, any mail (one with no command is answered, never dropped)."""
    text = SECRET_LINE.sub("", letter.text)
    verb = first_verb(text)
    if verb in ORGANISER_VERBS:
        return True
    if verb == "confirm" and organiser_confirms(tick, organised, text):
        return True
    return not any(g.config.player_by_email(letter.sender) for g in tick.games.values())


def _organiser_mail(tick: Tick, item: Input, letter: Letter, organised: dict[str, LoadedGame]) -> None:
    """Commands from an organiser's address: the same checks as a player's mail, and the game's
    `organiser_secret` when the Config tab sets one."""
    if any(tag in tick.broken for tag in letter.tags):
        return  # the game's config is broken: keep the mail until it is fixed
    tagged = [t for t in letter.tags if t in organised]
    if not tagged and len(organised) > 1:
        why = f"You organise several games; put the game's tag in the subject, one of {_names(organised)}."
        return _refuse_organiser(tick, item, letter, None, why)
    loaded = organised[tagged[0] if tagged else next(iter(organised))]
    if letter.refusal:
        return _refuse_organiser(
            tick, item, letter, loaded, f"A message from your address was not used: {letter.refusal}."
        )
    secret = loaded.config.commands.get("organiser_secret", "")
    text, secret_ok = check_secret(letter, secret)
    if not secret_ok:
        why = "The message did not carry the organiser's secret (a line `secret: …`)."
        return _refuse_organiser(tick, item, letter, loaded, why)
    proven = letter.authenticated or bool(secret)  # else a seat's or the game's end waits for a code
    run_commands(
        tick,
        input_id=item.id,
        loaded=loaded,
        text=text,
        proven=proven,
        in_reply_to=letter.message_id or None,
    )


def _refuse_organiser(
    tick: Tick, item: Input, letter: Letter, loaded: LoadedGame | None, reason: str
) -> None:
    config = loaded.config if loaded else None
    message = tick.mailer.answer(
        config,
        to=letter.sender,
        name="organiser",
        topic="Commands: not done",
        lines=[f"{reason} Nothing was done."],
        key=f"answer/{item.id}",
        in_reply_to=letter.message_id or None,
    )
    game = config.id if config else None
    with tick.journal.transaction() as db:
        db.settle_input(item.id, status="ignored", game=game, player="organiser", note=reason)
        tick.queue(db, key=f"answer/{item.id}", message=message, game=game, kind="answer")


def _choose_game(tick: Tick, letter: Letter, playing: dict[str, LoadedGame]) -> tuple[str | None, str]:
    for tag in letter.tags:
        if tag in playing:
            return tag, ""
    if letter.tags:
        return None, f"You are not a player in [{letter.tags[0]}]. Your games: {_names(playing)}."
    active = [gid for gid in playing if (view := tick.view(gid)) is None or not view.row.finished]
    if len(playing) == 1:
        return next(iter(playing)), ""
    if len(active) == 1:
        return active[0], ""
    return None, f"You play in several games; put the game's tag in the subject, one of {_names(playing)}."


def _names(playing: dict[str, LoadedGame]) -> str:
    return ", ".join(f"[{gid}]" for gid in sorted(playing))


def check_secret(letter: Letter, secret: str) -> tuple[str, bool]:
    """The text without its `secret:` line, and whether the secret (when one is set) was given."""
    given = letter.secret
    text = letter.text
    match = SECRET_LINE.search(text)
    if match:
        given = given or match.group(1)
        text = SECRET_LINE.sub("", text)
    if not secret:
        return text, True
    return text, given is not None and " ".join(given.split()) == " ".join(secret.split())


def _accept(tick: Tick, item: Input, letter: Letter, loaded: LoadedGame, player: Player, text: str) -> None:
    config, journal = loaded.config, tick.journal
    view = tick.view(config.id)
    assert view is not None
    row, state, ruleset = view.row, view.state, config.ruleset
    text, parsed, subject = read_orders(ruleset, state, player.name, text=text, subject=letter.subject)
    if player.name not in writers_of(ruleset, state):
        # The game may know why (a courtier who delivered last turn's orders): say that first.
        reasons = [e.reason for e in parsed.errors]
        why = " ".join(f"{r}." for r in reasons[:1])
        _refuse(tick, item, letter, loaded, f"{why} No orders are needed from you in this phase.".strip())
        return
    new_state, events = ruleset.immediate(state, parsed)
    standing_rows = journal.standing(config.id, row.phase_key)
    earlier = standing_rows.get(player.name)
    kept = _kept(ruleset, state, player.name)
    standing = ruleset.combine(Submission.from_json(earlier[0]) if earlier else kept, parsed)
    waits = news_every(config) > timedelta(0)  # news waits for a mail: the writer's goes in this one
    own_news = tick.mailer.news_lines(config, events, player.name) if waits else []
    news = [*waiting(journal, config.id, player.email, player.name), *own_news]
    receipt = tick.mailer.receipt(
        config,
        player,
        row=row,
        state=new_state,
        parsed=replace(
            parsed,
            notes=(
                *_shell_notes(tick, item, letter, subject),
                *_commands_among(ruleset, state, player.name, text),
                *parsed.notes,
            ),
            # Quote furniture that survived the cut ("On … wrote:") is no order attempt to quote back.
            errors=tuple(e for e in parsed.errors if not is_furniture(e.line, quote_rules(tick))),
        ),
        standing=standing,
        in_reply_to=letter.message_id or None,
        key=f"receipt/{item.id}",
        late=LATE.get(journal, str(item.id)) not in (None, row.phase_key),
        kept=kept is not None,
        news=news,
    )
    with journal.transaction() as db:
        db.add_submission(
            game=config.id,
            phase_key=row.phase_key,
            player=player.name,
            input_id=item.id,
            received_at=item.received_at,
            text=text,
            parsed=parsed.to_json(),
            standing=standing.to_json(),
        )
        new_json = ruleset.to_json(new_state)
        db.set_state(config.id, new_json)
        db.settle_input(item.id, status="used", game=config.id, player=player.name, phase_key=row.phase_key)
        # What took effect in public (a Truce gift) is on History, in the round it happened in.
        add_history_lines(
            tick, db, config.id, ruleset.phase(state).label, history_lines(tick, ruleset, events)
        )
        if tick.queue(db, key=f"receipt/{item.id}", message=receipt, game=config.id, kind="receipt"):
            if tick.held_last:  # a budget held the receipt: its news waits for the next mail
                hold(
                    db,
                    journal,
                    game=config.id,
                    to=player.email,
                    name=player.name,
                    lines=own_news,
                    now=tick.now,
                )
            else:
                drop(db, journal, config.id, player.email, player.name)
        for recipient in participants(config, row) if events else ():
            if waits and not _urgent_for(events, recipient.name):
                if recipient.name != player.name and not recipient.bot:
                    lines = tick.mailer.news_lines(config, events, recipient.name)
                    hold(
                        db,
                        journal,
                        game=config.id,
                        to=recipient.email,
                        name=recipient.name,
                        lines=lines,
                        now=tick.now,
                    )
                continue
            notice = tick.mailer.notice(
                config,
                recipient,
                row=row,
                events=events,
                key=f"notice/{item.id}/{recipient.name}",
                state=new_state,
            )
            if notice is not None:
                tick.queue(
                    db,
                    key=f"notice/{item.id}/{recipient.name}",
                    message=notice,
                    game=config.id,
                    kind="notice",
                )
    tick.remember(replace(row, state=new_json), new_state)
    log.info("%s: orders from %s for %s", config.id, player.name, row.phase_key)
    faults.checkpoint("interpret.committed")


def _urgent_for(events: Sequence[Event], name: str) -> bool:
    """Whether a rule needs ``name`` told of these events at once (``Event.urgent``), not as news
    that waits for the next mail."""
    return any(e.urgent for e in visible_to(events, name))


# A References header may list a long thread; the answered mail is among its last ids.
_REFERENCES_READ = 50


def _without_our_lines(
    tick: Tick, letter: Letter, loaded: LoadedGame, player: Player, *, text: str, state: Any
) -> str:
    """``text`` without the lines it quotes from the mail it answers, found by its In-Reply-To and
    References, else the latest mail sent to the player in this game (``courier.mail.own_lines``)."""
    answered = [letter.in_reply_to, *letter.references[-_REFERENCES_READ:]]
    found = tick.journal.sent_lines(player.email, loaded.config.id, [m for m in answered if m])
    if not found:
        return text
    ruleset = loaded.config.ruleset

    def is_order(line: str) -> bool:  # a command is new text too: `rules` after `help` listed it
        return first_verb(line) is not None or bool(ruleset.parse(state, player.name, line).orders)

    sent = reduce(operator.or_, map(SentLines.unpack, found))
    return without_quoted(text, sent, is_order=is_order)


def _commands_among(ruleset: Any, state: Any, player: str, text: str) -> list[str]:
    """The commands written in a mail read as orders (`rules` under a greeting, `status` after
    `loot`): the receipt says they were not done, rather than dropping them unsaid."""
    found = [
        line.strip()
        for line in text.splitlines()
        if first_verb(line) in PLAYER_VERBS and not ruleset.parse(state, player, line).orders
    ]
    return [COMMAND_AMONG_ORDERS.format(line) for line in found[:5]]


def _shell_notes(tick: Tick, item: Input, letter: Letter, subject: str) -> list[str]:
    """What the receipt says about how the mail was read, before the game's own notes."""
    notes = [FROM_SUBJECT.format(subject)] if subject else []
    if letter.forwarded:
        notes.append(FORWARDED)
    if item.source == "mail" and tick.journal.reused_message_id(item):
        notes.append(REUSED_ID)
    return notes


def _kept(ruleset: Ruleset, state: Any, player: str) -> Submission | None:
    """The orders the game keeps for a player before their first mail of the phase, if any."""
    return ruleset.standing(state, player) if isinstance(ruleset, Standing) else None


def read_orders(
    ruleset: Ruleset, state: Any, player: str, *, text: str, subject: str
) -> tuple[str, Submission, str]:
    """(the text read, what it says, the subject's text when the orders came from the subject).

    A mail whose text holds no orders and no mistakes (empty, or a quote, a greeting, a signature) but
    whose subject, without ``Re:``/``Fwd:``/``AW:``/``SV:`` and tags, reads as orders counts the
    subject's orders. A subject that reads only as a mistake counts when the game has a "did you
    mean" for it (a typo in an order); "Spring 1901: results" is no order attempt and changes nothing.
    The journal keeps the text read, so a replay reads the same."""
    parsed = ruleset.parse(state, player, text)
    written = _SUBJECT_NOISE.sub("", subject).strip()
    if parsed.orders or parsed.errors or not written:
        return text, parsed, ""
    from_subject = ruleset.parse(state, player, written)
    if from_subject.orders or any(e.suggestion for e in from_subject.errors):
        return written, from_subject, written
    return text, parsed, ""


def _refuse(tick: Tick, item: Input, letter: Letter, loaded: LoadedGame, reason: str) -> None:
    """Tell the registered player why their mail was not used; the input is settled as ignored."""
    player = loaded.config.player_by_email(letter.sender)
    assert player is not None
    message = tick.mailer.error(
        loaded.config,
        player,
        reason=reason,
        subject=letter.subject,
        in_reply_to=letter.message_id or None,
        key=f"error/{item.id}",
    )
    with tick.journal.transaction() as db:
        db.settle_input(item.id, status="ignored", game=loaded.config.id, player=player.name, note=reason)
        tick.queue(db, key=f"error/{item.id}", message=message, game=loaded.config.id, kind="error")


def _settle(journal: Journal, item: Input, *, status: str, note: str) -> None:
    log.info("input %s %s: %s", item.id, status, note)
    with journal.transaction() as db:
        db.settle_input(item.id, status=status, note=note)
