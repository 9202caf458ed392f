#!/usr/bin/env bash
# Mutation testing of the engine with cargo-mutants, in pieces that finish on a 2-core machine:
# one file or folder at a time, or one shard of the whole engine; optimized incremental builds;
# a timeout per mutant (a mutant that hangs counts as caught). Results go to
# target/mutants/mutants.out/ (caught.txt, missed.txt, timeout.txt, unviable.txt, outcomes.json).
#
#   scripts/mutants.sh 'src/run/*.rs'     # a folder (any number of globs)
#   SHARD=0/4 scripts/mutants.sh             # a quarter of every mutant of the engine
#   scripts/mutants.sh                       # the whole engine (hours on 2 cores)
#   JOBS=2 scripts/mutants.sh ...            # two mutants at once (each in its own copy)
#   RE='in core_float|in Decoder' scripts/mutants.sh   # only the mutants whose names match
#   OUT=target/mutants-pool scripts/mutants.sh src/transcript/pool.rs   # results elsewhere (runs side by side)
#   DIFF=changes.diff scripts/mutants.sh     # only the lines a diff changed (git diff BASE -- src)
#   TESTS='bridge cli' scripts/mutants.sh 'src/import/*.rs'   # only these test files and the unit tests (built and run)
#   LIST=names.txt scripts/mutants.sh        # only the mutants named there, one a line
#   UNIT=no TESTS=lint scripts/mutants.sh ... # with TESTS: without the library's unit tests
#   NO_FAIL_FAST=1 scripts/mutants.sh ...    # every test file run for each mutant (its log names all that fail)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo-mutants >/dev/null || cargo install cargo-mutants --locked
# insta must not write snapshots, and proptest must draw the same cases for every mutant; a
# property a mutant breaks fails at its first failing case, without minutes of shrinking it
# that would end in a timeout (the mutant is caught either way, but a timeout costs 120 s).
export CI=true INSTA_UPDATE=no PROPTEST_RNG_SEED=7 PROPTEST_MAX_SHRINK_ITERS=0
mkdir -p "${OUT:-target/mutants}"
args=(--timeout 120 --build-timeout 300 --jobs "${JOBS:-1}" --output "${OUT:-target/mutants}")
for glob in "$@"; do
    args+=(--file "$glob")
done
if [ -n "${LIST:-}" ]; then
    # Each name matched exactly: regex characters escaped, anchored at both ends.
    RE=$(sed -e 's/[][\\.*^$(){}?+|]/\\&/g' -e 's/^/^/' -e 's/$/$/' "$LIST" | paste -sd'|')
fi
if [ -n "${RE:-}" ]; then
    args+=(--re "$RE")
fi
if [ -n "${DIFF:-}" ]; then
    args+=(--in-diff "$DIFF")
fi
if [ -n "${NO_FAIL_FAST:-}" ]; then
    # Every test file runs for every mutant, so its log names every test that caught it.
    args+=(--cargo-test-arg=--no-fail-fast)
fi
if [ -n "${SHARD:-}" ]; then
    args+=(--shard "$SHARD")
fi
if [ -n "${TESTS:-}" ]; then
    # Given to every cargo command, the build's too: a mutant compiles only the library, its
    # unit tests and these test files, not all of tests/ (minutes more per mutant).
    if [ "${UNIT:-yes}" != no ]; then
        args+=(--cargo-arg=--lib)
    fi
    for t in $TESTS; do
        args+=("--cargo-arg=--test=$t")
    done
fi
exec cargo mutants "${args[@]}"
