#!/usr/bin/env bash
# Performance figures of the README, reproducible with public tools only:
#   1. check vs bare parse, YAML and JSON, and playout speed (examples/bench.rs);
#   2. peak memory of `shinpan check` as the corpus grows (GNU time's maximum RSS).
# Usage: scripts/bench.sh [games]   (default 2000)
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-2000}
cargo build --release --quiet --example bench
cargo build --release --quiet
echo "== in-process: check vs parse, and playouts, per game"
./target/release/examples/bench "$games" 4 hangover
./target/release/examples/bench "$games" 2 curtain-call
./target/release/examples/bench "$games" 4 torite-4to6
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
for n in $((games / 4)) "$games"; do
  mkdir -p "$corpus/$n"
  for seed in $(seq 1 "$n"); do
    ./target/release/shinpan play --rules hangover --players 4 --seed "$seed" > "$corpus/$n/g$seed.yaml"
  done
  /usr/bin/time -f "== check $n files: %e s, max RSS %M KB" ./target/release/shinpan check --format json "$corpus/$n" > /dev/null
done
