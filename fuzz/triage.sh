#!/usr/bin/env bash
# Usage: fuzz/triage.sh TARGET [FILE...] — reruns each artifact (default: artifacts/TARGET/*)
# once and prints a one-line signature: kind, message, first frames in shinpan's src/.
set -uo pipefail
target=${1:?target}; shift
cd "$(dirname "$0")"
root=$(cd .. && pwd)   # frames are named by their path under the checkout, wherever it is
# fuzz/ is a member of the workspace: cargo fuzz builds into the workspace's target/.
bin=$root/target/x86_64-unknown-linux-gnu/release/$target
[ -x "$bin" ] || { echo "no $bin: run cargo +nightly fuzz build -O" >&2; exit 1; }
files=("$@"); [ ${#files[@]} -gt 0 ] || files=(artifacts/"$target"/*)
for f in "${files[@]}"; do
    out=$(RUST_BACKTRACE=1 timeout 60 "$bin" -timeout="${TRIAGE_TIMEOUT:-5}" -rss_limit_mb=2048 "$f" 2>&1)
    kind=ok
    grep -q "stack-overflow\|stack overflow" <<<"$out" && kind=stack-overflow
    grep -q "panicked at" <<<"$out" && kind=panic
    grep -q "libFuzzer: timeout" <<<"$out" && kind=timeout
    grep -q "out-of-memory\|allocation-size-too-big" <<<"$out" && kind=oom
    msg=$(grep -A1 "panicked at" <<<"$out" | tr '\n' ' ' | cut -c1-200)
    frames=$(grep -oE "$root/src/[^ )]+" <<<"$out" | head -"${TRIAGE_FRAMES:-4}" | sed "s|$root/||" | tr '\n' ' ')
    echo "$(basename "$f") | $(wc -c <"$f")B | $kind | $msg | $frames"
done
