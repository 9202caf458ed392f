"""Work on Python threads with small stacks: rules that recurse as deep as the documented
limits allow (helpers calling each other 199 deep with eight nested evaluations each, near the
2,000 nested evaluations; a helper of 64 nested brackets) are compiled, checked and played on a
`threading.Thread` made after `threading.stack_size(...)`. That needs about 1 MiB of stack, more
than such a thread has: shinpan must do the work on threads of its own and give verdicts, never
kill the interpreter. Each case runs in a child interpreter, so a crash is a failed assertion
with its signal, not a dead test run."""

import json
import subprocess
import sys

import pytest


def deep_rules():
    body = "down(n - 1)"
    for _ in range(8):
        body = f"1 + ({body})"
    nest = "(" * 64 + "1" + ")" * 64
    return f"""game deep
players 2..2
rule r "the helpers give a number that is not negative"
action toss: int 0..1
// 199 calls deep, each nesting nine evaluations: near both limits (200 calls, 2,000 nested).
fn down(n) = if n <= 0 then 0 else {body}
// 64 brackets: the most one expression may nest.
fn nest() = {nest}
scores {{}}
winners []
flow {{
  choose {{
    toss(t) by players[0] {{
      require down(199) + nest() >= 0 else r "negative"
    }}
  }}
}}
"""


TRANSCRIPT = "{rules: deep.rules, players: [a, b], events: [{by: a, toss: 1}]}\n"

# Everything the module does that compiles, checks or plays, on one small-stacked thread.
CHILD = """
import json, sys, threading
import shinpan

stack, folder = int(sys.argv[1]), sys.argv[2]
threading.stack_size(stack)
rules_text = open(folder + "/deep.rules").read()
game = folder + "/game.yaml"
transcript = open(game).read()
out = {}

def work():
    rules = shinpan.Rules.from_text("deep.rules", rules_text, folder)
    out["game"] = rules.game
    out["check"] = rules.check(transcript)["verdict"]
    out["check_path"] = rules.check_path(game)["verdict"]
    out["file"] = shinpan.Rules(folder + "/deep.rules").check(transcript)["verdict"]
    played = rules.play(players=2, seed=1)
    out["played"] = rules.check(played)["verdict"]
    pairs = [("a", transcript), ("b", transcript), ("c", played)]
    for jobs in (1, 2):
        out[f"texts {jobs}"] = [v["verdict"] for v in shinpan.check_texts(pairs, jobs=jobs, rules=rules)]
        # Without rules: each transcript names its own, compiled on the checking threads.
        out[f"paths {jobs}"] = [v["verdict"] for v in shinpan.check_paths([game, game], jobs=jobs)]

thread = threading.Thread(target=work)
thread.start()
thread.join()
print(json.dumps(out))
"""


@pytest.mark.parametrize("stack_kib", [256, 512])
def test_deep_rules_on_a_thread_with_a_small_stack_give_verdicts(tmp_path, stack_kib):
    (tmp_path / "deep.rules").write_text(deep_rules())
    (tmp_path / "game.yaml").write_text(TRANSCRIPT)
    child = subprocess.run(
        [sys.executable, "-c", CHILD, str(stack_kib * 1024), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert child.returncode == 0, f"the interpreter ended with status {child.returncode}:\n{child.stderr}"
    out = json.loads(child.stdout)
    assert out == {
        "game": "deep",
        "check": "legal",
        "check_path": "legal",
        "file": "legal",
        "played": "legal",
        "texts 1": ["legal"] * 3,
        "texts 2": ["legal"] * 3,
        "paths 1": ["legal"] * 2,
        "paths 2": ["legal"] * 2,
    }, child.stderr


def test_errors_made_on_the_worker_are_raised_on_the_caller():
    """Errors made on the worker thread are raised on the caller's, with their codes."""
    import shinpan

    with pytest.raises(shinpan.RulesError) as unknown:
        shinpan.Rules("hangovr")
    assert unknown.value.code == "shinpan::usage"
    with pytest.raises(shinpan.RulesError):
        shinpan.Rules.from_text("broken.rules", "game broken\nplayers 2\nflow {")
    with pytest.raises(shinpan.RulesError):
        shinpan.Rules("hangover").play(players=9)


def test_a_workers_thread_ends_with_its_python_thread():
    """Each Python thread's work is done by a thread of shinpan's that ends with it: threads
    that come and go leave no threads behind."""
    import os
    import threading
    import time

    import shinpan

    tasks = "/proc/self/task"
    if not os.path.isdir(tasks):
        pytest.skip("counting threads needs /proc")
    rules = shinpan.Rules("hangover")
    before = len(os.listdir(tasks))
    for _ in range(3):
        threads = [threading.Thread(target=lambda: rules.check_path(os.devnull)) for _ in range(16)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    # A worker ends just after its Python thread does: waited for, not timed.
    for _ in range(600):
        if len(os.listdir(tasks)) <= before:
            break
        time.sleep(0.05)
    assert len(os.listdir(tasks)) <= before
