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
#   4. peak memory of `shinpan check` as the corpus grows (GNU time's maximum RSS).
# Usage: scripts/bench.sh [games]   (default 1000)
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-1000}
cargo build --release --quiet --example bench
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

echo "== the table of docs/performance.md"
echo "| game | playout events/s | a random game | check / serde-saphyr (YAML as play writes it) | (YAML through the full reader) | check / serde_json (JSON) |"
echo "|---|---|---|---|---|---|"
sed -n 's/^row: //p' "$rows"
