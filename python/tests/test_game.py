"""The live referee from Python (`shinpan.Game`) judges as `check` does: every fixture stepped
event by event gets the verdict of the whole transcript; games drawn move by move are the
games `play` plays; a refused event, a copy and an undo leave the game as it was; a game works
from any Python thread, and its calls release the GIL."""

import copy
import json
import os
import pathlib
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

import shinpan

FIXTURES = pathlib.Path(__file__).resolve().parents[2] / "fixtures"

# Every built-in game with the player count it is played with here, and how many seeds of it
# are played out by draw: 1,000 of each (SHINPAN_GAME_SEEDS sets fewer, or more).
SEEDS = int(os.environ.get("SHINPAN_GAME_SEEDS", "1000"))
GAMES = [
    ("hangover", 4, SEEDS),
    ("curtain-call", 2, SEEDS),
    ("torite-4to6", 4, SEEDS),
    ("clock-tcg", 2, SEEDS),
    ("bridge", 4, SEEDS),
    ("bridge-duplicate", 4, SEEDS),
]


def fixture_folders():
    """The folders of the checker's fixtures: each with an expected.jsonl."""
    folders = []
    for folder in sorted(FIXTURES.iterdir()):
        inside = sorted(folder.iterdir()) if folder.name == "examples" else [folder]
        folders.extend(f for f in inside if (f / "expected.jsonl").exists())
    return folders


def judged_fixtures():
    """Every fixture transcript whose expected verdict is legal or illegal."""
    found = []
    for folder in fixture_folders():
        for line in (folder / "expected.jsonl").read_text().splitlines():
            want = json.loads(line)
            path = folder / want["file"]
            if want["verdict"] in ("legal", "illegal") and path.suffix == ".yaml":
                found.append(path)
    return found


def rules_of(path, transcript):
    """The rules a fixture names: a built-in game, or a rules file beside it."""
    name = transcript["rules"]
    return shinpan.Rules(name if name in shinpan.builtin_games() else path.parent / name)


def without_places(verdict):
    """What a verdict says that does not depend on where a transcript writes its events."""
    verdict = json.loads(json.dumps(verdict))
    for key in ("file", "rules"):
        verdict.pop(key, None)
    for v in verdict.get("violations", []):
        v.pop("line", None)
        v.pop("column", None)
        for changes in v.get("history", {}).values():
            for change in changes:
                if isinstance(change, dict):
                    change.pop("line", None)
    for note in verdict.get("notes", []):
        note.pop("line", None)
    return verdict


def stepped(rules, name, transcript):
    """Steps a transcript's events through a game: the verdict of the first one refused, or
    of the game after the last."""
    try:
        game = rules.resume_game(dict(transcript, events=[]), name=name)
    except shinpan.RulesError as refused:
        return refused.verdict
    for event in transcript["events"]:
        applied = game.apply(event)
        if not applied:
            return applied.verdict
    return game.verdict()


def test_every_fixture_stepped_gets_the_verdict_of_the_whole_transcript():
    # The fixtures are YAML: read here by PyYAML (Dask brings it), and checked as read too, so
    # a reading that differs from shinpan's fails here rather than passing unseen.
    yaml = pytest.importorskip("yaml")
    compared = {"legal": 0, "illegal": 0}
    for path in judged_fixtures():
        transcript = yaml.safe_load(path.read_text())
        rules = rules_of(path, transcript)
        whole = rules.check_path(path)
        pool = transcript.get("variant", {}).get("pool")
        if pool is not None:
            # A card file the variant names is found from the transcript's folder: named from
            # anywhere, for the transcript as read here and the game alike.
            transcript["variant"]["pool"] = str(path.parent / pool)
        as_read = rules.check(transcript, name=str(path))
        assert without_places(as_read) == without_places(whole), f"{path}: read as shinpan reads it"
        step = stepped(rules, str(path), transcript)
        assert step["file"] == str(path)
        assert without_places(step) == without_places(whole), f"{path}: stepped, then whole"
        compared[whole["verdict"]] += 1
    assert compared["legal"] > 100 and compared["illegal"] > 100, compared


def drawn_to_the_end(game):
    while game.draw() is not None:
        assert len(game) < 20_000, "a built-in game ends"
    return game


@pytest.mark.parametrize("name,players,seeds", GAMES)
def test_a_game_drawn_move_by_move_is_the_game_play_plays(name, players, seeds):
    rules = shinpan.Rules(name)
    for seed in range(seeds):
        game = drawn_to_the_end(rules.new_game(players, seed))
        transcript = game.transcript()
        assert transcript == rules.play(players, seed), f"{name} seed {seed}"
        verdict = game.verdict()
        assert verdict == rules.check(transcript, name="game"), f"{name} seed {seed}"
        assert (game.scores(), game.winners(), game.finished) == (
            verdict["scores"],
            verdict["winners"],
            verdict["finished"],
        )


def until_a_player_moves(game):
    """Draws the table's moves (the deal, the score records) until a player may move: the
    legal events then."""
    legal = game.legal()
    while all(move["by"] == "table" for move in legal):
        game.draw()
        legal = game.legal()
    return legal


def test_a_refused_event_is_a_verdict_and_changes_nothing():
    rules = shinpan.Rules("hangover")
    game = rules.new_game(4, seed=1)
    first = next(move["event"] for move in until_a_player_moves(game) if move["by"] != "table")
    assert game.apply(first)
    before = (game.legal(), game.state(), game.state(all=True), game.transcript(), len(game))
    # The same card played again: no longer held, and out of turn.
    refused = game.apply(first)
    assert not refused and not refused.accepted
    assert refused.verdict["verdict"] == "illegal"
    # Exactly check's verdict on the transcript with the event added.
    with_it = game.transcript() + f"  - {json.dumps(first)}\n"
    assert refused.verdict == rules.check(with_it, name="game")
    assert (game.legal(), game.state(), game.state(all=True), game.transcript(), len(game)) == before
    unreadable = game.apply({"by": "nobody", "play": "S5"})
    assert unreadable.verdict["verdict"] == "malformed"
    assert unreadable.verdict["errors"][0]["code"] == "shinpan::transcript::malformed"
    assert (game.legal(), game.state(all=True), game.transcript(), len(game)) == before[:1] + before[2:]


def test_what_is_legal_is_listed_and_accepted():
    game = shinpan.Rules("hangover").new_game(["north", "east", "south"], seed=5)
    assert game.players == ["north", "east", "south"]
    deals = [move for move in game.legal() if move["chance"]]
    chance = {"by": "table", "action": "deal", "event": None, "words": "table deal (any the rules allow)", "chance": True}
    assert deals == [chance]
    legal = until_a_player_moves(game)
    assert all(move["by"] in game.players + ["table"] for move in legal), legal
    assert all(move["event"]["by"] == move["by"] for move in legal if not move["chance"]), legal
    for move in filter(lambda m: not m["chance"], legal):
        tried = game.copy()
        assert tried.apply(move["event"]).accepted, move
        assert len(tried) == len(game) + 1


def test_a_copy_goes_on_alone():
    rules = shinpan.Rules("curtain-call")
    game = rules.new_game(2, seed=3)
    for _ in range(12):
        game.draw()
    before = (game.transcript(), game.state(all=True), game.legal())
    for other in (game.copy(), copy.copy(game), copy.deepcopy(game)):
        assert other.transcript() == before[0]
        for _ in range(10):
            other.draw()
        assert other.transcript() != before[0]
        assert (game.transcript(), game.state(all=True), game.legal()) == before


def test_undo_gives_back_the_game_before():
    rules = shinpan.Rules("torite-4to6")
    game = rules.new_game(4, seed=8)
    assert game.undo() is False
    for _ in range(15):
        game.draw()
    before = (game.transcript(), game.state(all=True), game.legal(), len(game))
    drawn = game.draw()
    assert len(game) == before[3] + 1
    assert game.undo() is True
    assert (game.transcript(), game.state(all=True), game.legal(), len(game)) == before
    assert game.draw() == drawn, "the seed is given back too"


def test_reseeding_changes_what_is_drawn():
    rules = shinpan.Rules("hangover")
    reseeded = rules.new_game(4, seed=1)
    reseeded.reseed(2)
    assert drawn_to_the_end(reseeded).transcript() != rules.play(4, 1)
    reseeded = rules.new_game(4, seed=7)
    reseeded.reseed(1)
    assert drawn_to_the_end(reseeded).transcript() == rules.play(4, 1)


def test_a_game_resumed_goes_on_where_it_stopped():
    rules = shinpan.Rules("curtain-call")
    whole = drawn_to_the_end(rules.new_game(2, seed=9))
    lines = whole.transcript().splitlines(keepends=True)
    half = "".join(lines[:-20])
    resumed = rules.resume_game(half, name="half")
    assert (resumed.name, resumed.transcript(), resumed.players) == ("half", half, whole.players)
    assert not resumed.finished
    for line in lines[-20:]:
        assert resumed.apply(json.loads(line.strip().removeprefix("- ")))
    assert resumed.transcript() == whole.transcript()
    assert (resumed.scores(), resumed.winners(), resumed.finished) == (whole.scores(), whole.winners(), True)
    assert resumed.verdict()["file"] == "half"


def test_errors_of_use_raise_with_their_codes():
    rules = shinpan.Rules("hangover")
    illegal = (FIXTURES / "hangover" / "must-follow.yaml").read_text()
    with pytest.raises(shinpan.RulesError) as refused:
        rules.resume_game(illegal, name="must-follow")
    assert refused.value.code == "shinpan::rule"
    assert refused.value.verdict == rules.check(illegal, name="must-follow")
    with pytest.raises(shinpan.RulesError) as unreadable:
        rules.resume_game("events: [")
    assert unreadable.value.verdict["verdict"] == "malformed"
    with pytest.raises(shinpan.RulesError) as too_many:
        rules.new_game(9)
    assert too_many.value.code == "shinpan::usage"
    assert too_many.value.verdict is None
    # A game of seats is for its seats, as play says.
    with pytest.raises(shinpan.RulesError) as seats:
        shinpan.Rules("bridge").new_game(3)
    assert "`bridge` is for 4 players, not 3" in str(seats.value)
    assert shinpan.Rules("bridge").new_game(4).players == ["N", "E", "S", "W"]
    with pytest.raises(shinpan.RulesError):
        rules.new_game(["solo"])
    with pytest.raises(TypeError):
        rules.new_game("aki")
    with pytest.raises(TypeError):
        shinpan.Game()
    with pytest.raises(ValueError):
        rules.new_game(4).apply({"by": "aki", "play": float("nan")})
    with pytest.raises(OverflowError):
        rules.new_game(4, seed=-1)


def test_a_game_used_from_other_threads():
    rules = shinpan.Rules("hangover")
    made = {}
    # Made on a thread that then ends: the game outlives it, on the thread of shinpan's it
    # lives on, and is used from here.
    maker = threading.Thread(target=lambda: made.update(game=rules.new_game(4, seed=4)))
    maker.start()
    maker.join()
    game = made.pop("game")
    while game.draw() is not None:
        pass
    assert game.transcript() == rules.play(4, 4)
    # Copies of one game, played on by several threads at once, as one thread plays them.
    start = rules.new_game(4, seed=6)
    for _ in range(3):
        start.draw()

    def play_on(seed):
        other = start.copy()
        other.reseed(seed)
        while other.draw() is not None:
            pass
        return other.transcript()

    alone = [play_on(seed) for seed in range(8)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        assert list(pool.map(play_on, range(8))) == alone


def slow_rules(rounds):
    """A one-player game whose every toss runs a loop of ``rounds`` rounds (about 2 fuel a
    round: past a million the rules run out of fuel)."""
    text = f"""game slow
players 1..1
action toss: int 0..1
var tosses = 0
scores {{}}
winners []
flow {{
  loop {{
    choose {{
      toss(t) by players[0] {{
        let i = 0
        while i < {rounds} {{
          i += 1
        }}
        tosses += 1
      }}
    }}
  }}
}}
"""
    return shinpan.Rules.from_text("slow.rules", text)


def test_a_long_call_releases_the_gil():
    # Resuming checks the transcript whole, then takes its events one by one: one call of a
    # few tenths of a second.
    rules = slow_rules(400_000)
    transcript = {"rules": "slow", "players": ["aki"], "events": [{"by": "aki", "toss": 1}] * 6}
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(time.perf_counter())

    ticker = threading.Thread(target=tick)
    ticker.start()
    try:
        started = time.perf_counter()
        game = rules._rules.resume_game("slow", json.dumps(transcript), 0)
        ended = time.perf_counter()
    finally:
        done.set()
        ticker.join()
    assert ended - started > 0.1, "the call is long"
    # Held through the call, the GIL would let the ticker run only at its very start (a
    # switch interval, 5 ms) and not at all in its middle.
    margin = 0.03
    inside = [t for t in ticks if started + margin < t < ended - margin]
    assert len(inside) > 1000, (len(inside), ended - started)
    assert game.event_count() == 6


def test_rules_that_fail_while_running_raise_with_the_verdict():
    rules = slow_rules(10_000_000)
    game = rules.new_game(1)
    before = game.transcript()
    for call in (lambda: game.apply({"by": "aki", "toss": 1}), game.draw):
        with pytest.raises(shinpan.RulesError) as failed:
            call()
        assert failed.value.code == "shinpan::spec::fuel"
        assert failed.value.verdict["errors"][0]["kind"] == "rules-failed"
        assert game.transcript() == before and len(game) == 0
    # A game without events writes `events: []`, a list, which `check` reads.
    assert before.endswith("events: []\n") and rules.check(before)["verdict"] == "legal"
    with_it = before.replace("events: []\n", 'events:\n  - {"by": "aki", "toss": 1}\n')
    assert failed.value.verdict["errors"] == rules.check(with_it)["errors"]


CHILD_OF_A_FORK = """
import json, os, sys
import shinpan

rules = shinpan.Rules("hangover")
game = rules.new_game(4, seed=2)
game.draw()
before = game.transcript()
read, write = os.pipe()
child = os.fork()
if child == 0:
    out = {}
    try:
        game.draw()
    except RuntimeError as e:
        out["old"] = str(e)
    fresh = rules.new_game(4, seed=2)
    fresh.draw()
    out["fresh"] = fresh.transcript() == before
    out["resumed"] = len(rules.resume_game(before)) == 1
    del game  # dropped in the child: the parent's queue is left alone
    os.write(write, json.dumps(out).encode())
    os._exit(0)
os.close(write)
_, status = os.waitpid(child, 0)
out = json.loads(os.read(read, 65536))
out["status"] = status
out["parent"] = game.draw() is not None
print(json.dumps(out))
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_game_in_the_child_of_a_fork_says_it_stayed_in_the_parent():
    # In a child interpreter: forking pytest's own process, threads and all, is not wanted.
    child = subprocess.run([sys.executable, "-c", CHILD_OF_A_FORK], capture_output=True, text=True, timeout=120)
    assert child.returncode == 0, child.stderr
    out = json.loads(child.stdout)
    assert "fork" in out["old"] and "resume_game" in out["old"], out
    assert out == {"old": out["old"], "fresh": True, "resumed": True, "status": 0, "parent": True}


def test_a_dropped_game_is_freed():
    import gc

    tasks = "/proc/self/task"
    if not os.path.isdir(tasks):
        pytest.skip("counting threads needs /proc")
    rules = shinpan.Rules("hangover")
    before = len(os.listdir(tasks))
    # Games made on threads that end: each thread of shinpan's ends once its games are gone.
    for _ in range(3):
        games = []
        threads = [threading.Thread(target=lambda: games.append(rules.new_game(4))) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert all(g.draw() for g in games)
        del games
        gc.collect()
    for _ in range(600):
        if len(os.listdir(tasks)) <= before:
            break
        time.sleep(0.05)
    assert len(os.listdir(tasks)) <= before


def test_the_docs_example_runs(capsys):
    page = (FIXTURES.parent / "docs" / "python.md").read_text()
    section = page.split("## A game move by move", 1)[1].split("\n## ", 1)[0]
    snippet = section.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(snippet, "docs/python.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert printed == ["73 legal ['chie', 'dai']", "False unexpected-action"]
    assert "prints `73 legal ['chie', 'dai']` and `False unexpected-action`" in " ".join(section.split())
