"""The peer of a random game: OpenSpiel's hand-written C++ hearts (4 players, a deal, passing,
must-follow), played at random from a Python loop, as a Python user of OpenSpiel would.

    python scripts/openspiel_hearts.py [games]

Prints the time a game and actions per second, the best of three runs. scripts/bench.sh runs it
in a local venv.
"""

import random
import sys
import time

import pyspiel


def play(game, games: int) -> tuple[int, float]:
    """Plays `games` random games; the actions taken and the seconds it took."""
    rng = random.Random(1)
    actions = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                action = rng.choice(state.chance_outcomes())[0]
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            actions += 1
    return actions, time.perf_counter() - start


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    game = pyspiel.load_game("hearts")
    # The best of three runs, as shinpan's playouts are timed.
    actions, secs = min((play(game, games) for _ in range(3)), key=lambda run: run[1])
    print(
        f"openspiel hearts (4 players): {games} random games from Python, {actions} actions in "
        f"{secs:.3f} s = {actions / secs:.0f} actions/s, {secs * 1e3 / games:.3f} ms a game"
    )
    print(f"row: | OpenSpiel hearts from Python (4 players) | {actions / secs:.0f} | {secs * 1e3 / games:.3f} ms | | | |")


if __name__ == "__main__":
    main()
