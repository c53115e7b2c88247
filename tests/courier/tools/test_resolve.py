"""``courier resolve GAME`` as a client drives it, in a real subprocess: JSON Lines answered line by
line as they come, one document answered as one, and the Diplomacy known answers beyond the DATC
(tests/data/diplomacy/adjudication.txt) adjudicated through it."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from typing import Any

from tests.helpers.datc_reader import Case, beyond_datc

SPRING = {
    "phase": {"season": "spring", "year": 1901, "kind": "movement"},
    "units": [
        {"power": "England", "type": "F", "location": "lon"},
        {"power": "France", "type": "A", "location": "par"},
    ],
    "orders": {"England": ["F lon - nth"], "France": ["A par - bur"]},
}


def _courier_resolve(game: str, stdin: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "courier", "resolve", game]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=120)


def test_json_lines_are_answered_as_they_come() -> None:
    """A client writes a phase, waits for its answer, and only then writes the next phase (built
    from the first answer): each answer must come before the input ends."""
    command = [sys.executable, "-m", "courier", "resolve", "diplomacy"]
    client = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert client.stdin is not None and client.stdout is not None
    try:
        answers = _lines_of(client.stdout)
        client.stdin.write(json.dumps(SPRING) + "\n")
        client.stdin.flush()
        fall = _next_answer(answers)
        assert fall["phase"] == {"season": "fall", "year": 1901, "kind": "movement"}
        client.stdin.write(json.dumps({**fall, "orders": {"France": ["A bur - mun"]}}) + "\n")
        client.stdin.flush()
        winter = _next_answer(answers)
        assert {"power": "France", "type": "A", "location": "mun"} in winter["units"]
        client.stdin.close()
        assert client.wait(timeout=60) == 0
    finally:
        client.kill()  # a no-op once it has ended; else the reading thread would never end
        client.wait()


def _lines_of(stream: Any) -> queue.Queue[str]:
    """The stream's lines as they come, read by a thread so a test can wait for one with a timeout."""
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for line in stream:
            lines.put(line)

    threading.Thread(target=read, daemon=True).start()
    return lines


def _next_answer(answers: queue.Queue[str]) -> Any:
    try:
        return json.loads(answers.get(timeout=30))
    except queue.Empty:
        raise AssertionError("no answer to a JSON line while the input stayed open") from None


def test_one_json_line_is_answered_with_one_line() -> None:
    done = _courier_resolve("diplomacy", json.dumps(SPRING) + "\n")
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 1
    assert json.loads(done.stdout)["phase"]["season"] == "fall"


def test_a_document_over_several_lines_is_answered_indented() -> None:
    done = _courier_resolve("diplomacy", json.dumps(SPRING, indent=2))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("{\n  ") and json.loads(done.stdout)["phase"]["season"] == "fall"


def test_the_known_answers_beyond_the_datc_through_courier_resolve() -> None:
    """Each movement case of tests/data/diplomacy/adjudication.txt as one JSON line, its powers'
    orders as a player mails them: the units after the phase and every result the case states."""
    cases = [case for case in beyond_datc() if case.phase.kind == "movement"]
    done = _courier_resolve("diplomacy", "".join(json.dumps(_request(case)) + "\n" for case in cases))
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(cases)
    for case, answer in zip(cases, answers, strict=True):
        expected = sorted(f"{u.power}: {u.type} {u.location}" for u in case.units("POSTSTATE"))
        assert sorted(_units(answer)) == expected, f"{case.id} {case.title}"
        results = {f"{r['power']}: {r['order']}": r["result"] for r in answer["order_results"]}
        for order, verdict in case.expected_results():
            assert results[order] == verdict, f"{case.id} {case.title}: {order}"


def _request(case: Case) -> dict[str, Any]:
    orders: dict[str, list[str]] = {}
    for line in case.lines("ORDERS"):
        power, _, order = line.partition(": ")
        orders.setdefault(power, []).append(order)
    units = [{"power": u.power, "type": u.type, "location": u.location} for u in case.units("PRESTATE")]
    phase = {"season": case.phase.season, "year": case.phase.year, "kind": case.phase.kind}
    return {"phase": phase, "units": units, "orders": orders}


def _units(answer: dict[str, Any]) -> list[str]:
    return [f"{u['power']}: {u['type']} {u['location']}" for u in answer["units"]]
