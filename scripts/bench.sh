#!/usr/bin/env bash
# The performance figures of docs/performance.md, side by side in one run, with public tools only:
#   1. every built-in game: random playouts (events/s, ms a game; playing only, the best of
#      three runs), and `check` against the bare parse of the same files (serde-saphyr for
#      YAML, serde_json for JSON), one core, each side timed as the best of three runs; YAML
#      twice: as `play` writes it (which the line reader takes) and behind a comment (which
#      sends it to the full YAML reader);
#   2. the peer of a random game: OpenSpiel's C++ hearts driven from Python, the best of three
#      runs (installed into target/bench-venv from PyPI when missing; skipped with a note when
#      it cannot be);
#   3. the per-event cost of checking one game 10, 100, 1,000 and 10,000 rounds long
#      (fixtures/bench/long.rules), which must stay flat;
#   4. peak memory of `shinpan check` as the corpus grows (GNU time's maximum RSS);
#   5. Hangover against a hand-written referee (examples/handwritten_hangover), on one core,
#      CPU time, the best of three runs: `check --jobs 1 --stream` of 10 x games 4-player games
#      against the referee checking the same JSON Lines, and 20 x games random playouts
#      (`play --games N --stats`) against its own playout loop; the ratios shinpan / hand-written;
#      and, when valgrind is there, callgrind's instructions a game of each (which the machine's
#      other work does not move);
#   6. the live referee (examples/bench_game.rs): `games` Hangover games played move by move
#      through `Game` (from `legal()`, and by `draw()`) against `play`'s own, one `apply` in games
#      10 to 10,000 rounds long beside replaying the game so far, a `clone` against an `apply`;
#      and callgrind's instructions a game of each way of playing.
# Usage: scripts/bench.sh [games]   (default 1000)
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-1000}
cargo build --release --quiet --example bench --example handwritten_hangover
cargo build --release --quiet
shinpan=./target/release/shinpan
rows=$(mktemp)
corpus=$(mktemp -d)
trap 'rm -rf "$rows" "$corpus"' EXIT

echo "== 1. every built-in game: playouts, and check / bare parse ($games games each)"
for game in "4 hangover" "2 curtain-call" "4 torite-4to6" "2 clock-tcg" "4 bridge" "4 bridge-duplicate"; do
    # shellcheck disable=SC2086 # players and name, split on purpose
    ./target/release/examples/bench "$games" $game | tee -a "$rows"
done

echo "== 2. a random game against OpenSpiel's hearts from Python"
venv=target/bench-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import pyspiel' 2>/dev/null; then
    python3 -m venv "$venv" && "$venv/bin/pip" install --quiet --disable-pip-version-check open_spiel ||
        echo "(open_spiel could not be installed: the OpenSpiel row is missing)"
fi
if "$venv/bin/python" -c 'import pyspiel' 2>/dev/null; then
    "$venv/bin/python" scripts/openspiel_hearts.py "$games" | tee -a "$rows"
fi

echo "== 3. per-event cost of checking one long game (fixtures/bench/long.rules, 2 players)"
long=()
for rounds in 10 100 1000 10000; do
    long+=("$corpus/long-$rounds.yaml")
    "$shinpan" play --rules fixtures/bench/long.rules --players 2 --seed 1 --variant "rounds=$rounds" > "${long[-1]}"
done
./target/release/examples/bench long "${long[@]}"

echo "== 4. peak memory of check as the corpus grows (hangover, 4 players)"
for n in $((games / 4)) "$games" $((games * 4)); do
    mkdir -p "$corpus/$n"
    "$shinpan" play --rules hangover --players 4 --seed 1 --games "$n" > "$corpus/$n.jsonl"
    split -l 1 -d -a 6 --additional-suffix=.json "$corpus/$n.jsonl" "$corpus/$n/g"
    /usr/bin/time -f "$n files: %e s, max RSS %M KB" "$shinpan" check --format json "$corpus/$n" > /dev/null
done

echo "== 5. Hangover against a hand-written referee (4 players, one core, CPU seconds, best of three)"
hand=./target/release/examples/handwritten_hangover
checked=$((games * 10))
playouts=$((games * 20))
# The CPU time (user + system, to the millisecond) of the best of three runs, pinned to core 0.
cpu_seconds() {
    local best="" t
    for _ in 1 2 3; do
        t=$( { TIMEFORMAT='%3U %3S'; time taskset -c 0 "$@" > /dev/null; } 2>&1 | awk '{ print $1 + $2 }')
        best=$(awk -v t="$t" -v b="${best:-$t}" 'BEGIN { print (t < b) ? t : b }')
    done
    echo "$best"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0fx", a / b }'; }
"$shinpan" play --rules hangover --players 4 --seed 1 --games "$checked" > "$corpus/hangover.jsonl"
engine_check=$(cpu_seconds "$shinpan" check --jobs 1 --stream "$corpus/hangover.jsonl")
hand_check=$(cpu_seconds "$hand" check "$corpus/hangover.jsonl")
echo "check $checked games: shinpan $engine_check s, hand-written $hand_check s: $(ratio "$engine_check" "$hand_check")"
"$shinpan" play --rules hangover --players 4 --seed 1 --games "$playouts" --stats | sed -n 1p
"$hand" play "$playouts" 4 1
engine_play=$(cpu_seconds "$shinpan" play --rules hangover --players 4 --seed 1 --games "$playouts" --stats)
hand_play=$(cpu_seconds "$hand" play "$playouts" 4 1)
echo "$playouts playouts: shinpan $engine_play s, hand-written $hand_play s: $(ratio "$engine_play" "$hand_play")"
if command -v valgrind > /dev/null; then
    # Instructions a game, which the machine's other work does not move: the difference
    # between two corpus sizes, so that starting up and compiling the rules are left out.
    small=$(((games + 9) / 10))
    large=$((3 * small))
    instructions() {
        # shellcheck disable=SC2069 # callgrind's summary (standard error) to the pipe, the output away
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 > /dev/null | sed -n 's/.*Collected : //p'
    }
    a_game() { awk -v a="$1" -v b="$2" -v n=$((large - small)) 'BEGIN { printf "%.0f", (b - a) / n }'; }
    for n in "$small" "$large"; do
        "$shinpan" play --rules hangover --players 4 --seed 1 --games "$n" > "$corpus/callgrind-$n.jsonl"
    done
    engine_a_game=$(a_game "$(instructions "$shinpan" check --jobs 1 --stream "$corpus/callgrind-$small.jsonl")" \
        "$(instructions "$shinpan" check --jobs 1 --stream "$corpus/callgrind-$large.jsonl")")
    hand_a_game=$(a_game "$(instructions "$hand" check "$corpus/callgrind-$small.jsonl")" \
        "$(instructions "$hand" check "$corpus/callgrind-$large.jsonl")")
    echo "callgrind, checking a game: shinpan $engine_a_game, hand-written $hand_a_game instructions: $(ratio "$engine_a_game" "$hand_a_game")"
    play_a_game() {
        a_game "$(instructions "$@" "$small")" "$(instructions "$@" "$large")"
    }
    engine_a_game=$(play_a_game "$shinpan" play --rules hangover --players 4 --seed 1 --stats --games)
    hand_a_game=$(play_a_game "$hand" play)
    echo "callgrind, playing a game: shinpan $engine_a_game, hand-written $hand_a_game instructions: $(ratio "$engine_a_game" "$hand_a_game")"
fi

echo "== 6. a game move by move (the live referee): Game against play, apply in long games, clone"
cargo build --release --quiet --example bench_game
taskset -c 0 ./target/release/examples/bench_game "$games"
if command -v valgrind > /dev/null; then
    # Instructions a game of each way of playing, less those of compiling the rules (0 games).
    for way in written play drawn listed; do
        zero=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null ./target/release/examples/bench_game "$way" 0 2>&1 |
            sed -n 's/.*Collected : //p')
        some=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null ./target/release/examples/bench_game "$way" 100 2>&1 |
            sed -n 's/.*Collected : //p')
        echo "callgrind, a game played $way: $(((some - zero) / 100)) instructions"
    done
fi

echo "== the table of docs/performance.md"
echo "| game | playout events/s | a random game | check / serde-saphyr (YAML as play writes it) | (YAML through the full reader) | check / serde_json (JSON) |"
echo "|---|---|---|---|---|---|"
sed -n 's/^row: //p' "$rows"
