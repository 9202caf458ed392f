#!/usr/bin/env bash
# Usage: fuzz/run.sh TARGET SECONDS — one libFuzzer process (fork=1), going on past crashes.
set -euo pipefail
target=${1:?target: compile_rules | check_transcript | read_transcript | fast_readers | live_game}
secs=${2:?seconds}
cd "$(dirname "$0")"
case $target in
    compile_rules) dict=dict/rules.dict ;;
    live_game) dict=dict/live_game.dict ;;
    *) dict=dict/yaml.dict ;;
esac
mkdir -p "corpus/$target" "artifacts/$target"
exec cargo +nightly fuzz run -O "$target" "corpus/$target" -- \
    -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -dict="$dict" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -print_final_stats=1   # cargo-fuzz sets -artifact_prefix=fuzz/artifacts/$target/
