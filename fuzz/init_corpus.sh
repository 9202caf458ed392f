#!/usr/bin/env bash
# Seeds fuzz/corpus/<target>/ from the repository's rules files, docs and transcripts.
set -euo pipefail
cd "$(dirname "$0")/.."
C=fuzz/corpus
mkdir -p "$C/compile_rules" "$C/read_transcript" "$C/check_transcript" "$C/fast_readers"

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

for t in compile_rules read_transcript check_transcript fast_readers; do
    echo "$t: $(ls "$C/$t" | wc -l) seeds"
done
