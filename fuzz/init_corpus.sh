#!/usr/bin/env bash
# Seeds fuzz/corpus/<target>/ from the repository's rules files, docs and transcripts.
set -euo pipefail
cd "$(dirname "$0")/.."
C=fuzz/corpus
mkdir -p "$C/compile_rules" "$C/read_transcript" "$C/check_transcript" "$C/fast_readers" "$C/live_game"

# Rules files: specs/, fixtures/ (including .rules.ok), and the ```rules blocks of docs/language.md.
for f in specs/*.rules fixtures/*/*.rules fixtures/*/*.rules.ok; do
    [ -f "$f" ] && cp "$f" "$C/compile_rules/$(echo "$f" | tr / _)"
done
awk -v dir="$C/compile_rules" '
    /^```rules/ { n++; out = sprintf("%s/docs_language_%02d.rules", dir, n); inblk = 1; next }
    /^```/      { inblk = 0; next }
    inblk       { print > out }
' docs/language.md

# Built-in rules, in BUILTIN order (build.rs: the sorted stems of specs/*.rules).
mapfile -t names < <(ls specs/*.rules | xargs -n1 basename | sed 's/\.rules$//' | LC_ALL=C sort)

# Transcripts: as they are for read_transcript; behind a byte naming their game for check_transcript.
for f in fixtures/*/*.yaml fixtures/*/*.json; do
    [ -f "$f" ] || continue
    base=$(echo "$f" | tr / _)
    cp "$f" "$C/read_transcript/$base"
    rules=$(sed -n 's/^rules:[[:space:]]*"\{0,1\}\([^"#[:space:]]*\)"\{0,1\}.*/\1/p' "$f" | head -1)
    pick=0
    for i in "${!names[@]}"; do
        [ "${names[$i]}" = "$rules" ] && pick=$i
    done
    { printf "\\x$(printf %02x "$pick")"; cat "$f"; } > "$C/check_transcript/$base"
done
cargo build --release --quiet
# The fast readers: the transcripts, and one game of each built-in as `play` writes it, in
# YAML and as JSON Lines (each line a JSON file).
cp "$C/read_transcript/"* "$C/fast_readers/"
for game in "${names[@]}"; do
    players=4
    case $game in curtain-call | clock-tcg) players=2 ;; esac
    target/release/shinpan play --rules "$game" --players "$players" --seed 1 > "$C/fast_readers/play-$game.yaml" || true
    target/release/shinpan play --rules "$game" --players "$players" --seed 1 --games 1 > "$C/fast_readers/play-$game.json" || true
done

# The live game: for each built-in game and each player count it allows, the events of random
# games (`play --games 3`) as steps, one event a line, with steps that leave the game where it
# was between them (`take 0` then `undo`); random games drawn and played on; the
# fixtures behind `resume K`. The first byte picks the game and the player count as
# fuzz/live_game_steps.rs reads it.
for i in "${!names[@]}"; do
    game=${names[$i]}
    counts=()
    for players in 1 2 3 4 5 6 7 8; do
        target/release/shinpan play --rules "$game" --players "$players" --seed 1 --games 1 > /dev/null 2>&1 \
            && counts+=("$players")
    done
    [ ${#counts[@]} -gt 0 ] || continue
    fewest=${counts[0]}
    for players in "${counts[@]}"; do
        pick=$(( i + ${#names[@]} * (players - fewest) ))
        target/release/shinpan play --rules "$game" --players "$players" --games 3 --seed 1 \
            | python3 -c '
import json, sys
steps = ["legal", "take 0\nundo", "clone", "look", "give 1\nundo", "verdict", "draw 2\nundo\nundo", "resume"]
for n, line in enumerate(sys.stdin):
    events = json.loads(line)["events"]
    with open(sys.argv[1] + "-" + str(n), "w") as out:
        for k, event in enumerate(events):
            out.write(json.dumps(event, separators=(",", ":")) + "\n")
            if k % 7 == n:
                out.write(steps[(k // 7) % len(steps)] + "\n")
        out.write("verdict\nundo\nlook\n")
' "$C/live_game/play-$game-$players"
        for f in "$C/live_game/play-$game-$players"-*; do
            { printf "\\x$(printf %02x "$pick")"; cat "$f"; } > "$f.tmp" && mv "$f.tmp" "$f"
        done
        { printf "\\x$(printf %02x "$pick")"; printf 'draw 200\nverdict\nundo\nlegal\ntake 3\nclone\ndraw 5\nundo\nresume\n'; } \
            > "$C/live_game/draw-$game-$players"
    done
    for f in fixtures/"$game"/*.yaml; do
        [ -f "$f" ] || continue
        { printf "\\x$(printf %02x "$i")"; printf 'resume 5\n'; cat "$f"; } > "$C/live_game/resume-$(echo "$f" | tr / _)"
    done
done

for t in compile_rules read_transcript check_transcript fast_readers live_game; do
    echo "$t: $(ls "$C/$t" | wc -l) seeds"
done
