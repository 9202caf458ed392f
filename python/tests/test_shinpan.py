"""The Python package against the repository's fixtures: verdicts as the command line gives
them, variants, threads, and errors of use with their codes."""

import json
import pathlib
from concurrent.futures import ThreadPoolExecutor

import pytest

import shinpan

FIXTURES = pathlib.Path(__file__).resolve().parents[2] / "fixtures"


def expected(game):
    """The expectations of a fixture folder: file name -> its line of expected.jsonl."""
    lines = (FIXTURES / game / "expected.jsonl").read_text().splitlines()
    return {e["file"]: e for e in map(json.loads, lines)}


def agrees(verdict, want):
    assert verdict["verdict"] == want["verdict"], (verdict, want)
    if want["verdict"] == "illegal":
        first = verdict["violations"][0]
        assert (first["rule"], first["event"]) == (want["rule"], want["event"]), (verdict, want)
    if want["verdict"] == "legal":
        assert (verdict["finished"], verdict["scores"], verdict["winners"]) == (
            want["finished"],
            want["scores"],
            want["winners"],
        )


@pytest.mark.parametrize("game", ["hangover", "torite-4to6", "curtain-call", "clock-tcg", "bridge"])
def test_every_fixture_gets_its_expected_verdict(game):
    want = expected(game)
    paths = sorted(FIXTURES / game / name for name in want)
    verdicts = list(shinpan.check_paths(paths, jobs=2))
    assert len(verdicts) == len(paths) > 10
    for path, verdict in zip(paths, verdicts):
        assert verdict["file"] == str(path)
        agrees(verdict, want[path.name])
    kinds = {v["verdict"] for v in verdicts}
    assert {"legal", "illegal"} <= kinds


def test_legal_illegal_and_malformed_from_text_and_dicts():
    rules = shinpan.Rules("hangover")
    illegal = rules.check((FIXTURES / "hangover" / "must-follow.yaml").read_text())
    assert illegal["verdict"] == "illegal"
    assert illegal["violations"][0]["rule"] == "must-follow"
    assert illegal["violations"][0]["code"] == "shinpan::rule"
    assert rules.check(rules.play(3, seed=5), name="played")["verdict"] == "legal"
    as_dict = {"rules": "hangover", "players": ["aki", "ben", "chie"], "events": []}
    fresh = rules.check(as_dict)
    assert (fresh["verdict"], fresh["finished"]) == ("legal", False)
    broken = rules.check("events: [", name="broken.yaml")
    assert broken["verdict"] == "malformed"
    assert broken["file"] == "broken.yaml"
    assert broken["errors"][0]["kind"] == "syntax"
    missing = rules.check_path(FIXTURES / "no-such-file.yaml")
    assert missing["verdict"] == "malformed"


def test_variants_change_the_game():
    three = shinpan.Rules("hangover", variant={"hand_size": 3})
    game = three.play(3, seed=2)
    assert '"hand_size":3' in game
    assert three.check(game)["verdict"] == "legal"
    # The same game under the default hand size deals the wrong number of cards.
    assert shinpan.Rules("hangover").check(game.replace('variant: {"hand_size":3}\n', ""))["verdict"] == "illegal"
    assert shinpan.play("hangover", 4, seed=2, variant={"hand_size": 3}) == shinpan.Rules(
        "hangover", {"hand_size": 3}
    ).play(4, seed=2)


def test_one_rules_shared_by_threads():
    rules = shinpan.Rules("hangover")
    paths = sorted((FIXTURES / "hangover").glob("*.yaml"))
    alone = [rules.check_path(p) for p in paths]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(rules.check_path, paths))
    assert together == alone
    assert list(shinpan.check_paths(paths, jobs=3, rules=rules)) == alone


def test_errors_of_use():
    with pytest.raises(shinpan.RulesError) as unknown:
        shinpan.Rules("hangovr")
    assert unknown.value.code == "shinpan::usage"
    assert "did you mean `hangover`?" in str(unknown.value)
    with pytest.raises(shinpan.RulesError) as bad_name:
        shinpan.Rules("hangover", variant={"hand_sise": 3})
    assert "did you mean `hand_size`?" in str(bad_name.value)
    with pytest.raises(shinpan.RulesError) as out_of_range:
        shinpan.Rules("hangover", variant={"hand_size": 99})
    assert out_of_range.value.code == "shinpan::usage"
    with pytest.raises(shinpan.RulesError) as players:
        shinpan.Rules("bridge").play(3)
    assert "`bridge` is for 4 players, not 3" in str(players.value)
    with pytest.raises(shinpan.RulesError) as broken:
        shinpan.Rules(FIXTURES / "spec" / "unknown-name_1.rules")
    assert broken.value.code == "shinpan::spec::unknown-name"
    with pytest.raises(ValueError):
        list(shinpan.check_paths([FIXTURES / "hangover" / "must-follow.yaml"], jobs=-1))
    with pytest.raises(TypeError):
        shinpan.Rules(42)


def test_the_games_and_the_names():
    assert "hangover" in shinpan.builtin_games()
    assert shinpan.Rules("bridge").game == "bridge"


def test_the_installed_package_and_its_docstring_example():
    import doctest

    # The wheel is what is tested, not the source folder beside the tests.
    assert "site-packages" in shinpan.__file__
    assert doctest.testmod(shinpan).failed == 0
    assert doctest.testmod(shinpan).attempted >= 3


def test_the_docs_snippet_runs(monkeypatch, capsys):
    root = FIXTURES.parent
    page = (root / "docs" / "python.md").read_text()
    section = page.split("# From Python", 1)[1].split("\n## ", 1)[0]
    snippet = section.split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(root)
    exec(compile(snippet, "docs/python.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert printed == ["illegal must-follow", "fixtures/demo/hangover-1000-0000.yaml legal"]


def test_texts_check_as_their_files():
    paths = sorted((FIXTURES / "torite-4to6").glob("*.yaml"))
    by_path = list(shinpan.check_paths(paths, jobs=2))
    by_text = list(shinpan.check_texts(((str(p), p.read_text()) for p in paths), jobs=2))
    assert by_text == by_path
    rules = shinpan.Rules("torite-4to6")
    as_dicts = [("t", {"rules": "torite-4to6", "players": ["a", "b", "c"], "events": []})]
    assert [v["verdict"] for v in shinpan.check_texts(as_dicts, jobs=1, rules=rules)] == ["legal"]


def test_rules_given_as_text():
    text = (FIXTURES.parent / "specs" / "hangover.rules").read_text().replace("must-follow", "follow-suit")
    rules = shinpan.Rules.from_text("mine.rules", text, base=FIXTURES.parent, variant={"hand_size": 3})
    verdict = rules.check_path(FIXTURES / "hangover" / "must-follow.yaml")
    assert verdict["violations"][0]["rule"] == "follow-suit"
    with pytest.raises(shinpan.RulesError) as broken:
        shinpan.Rules.from_text("broken.rules", "game g\nplayers 2..2\nflow {")
    assert broken.value.code == "shinpan::spec::syntax"
