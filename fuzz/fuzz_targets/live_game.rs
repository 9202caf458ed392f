//! A live game (`Rules::new_game`) driven by any steps must never panic, hang or exhaust memory,
//! and a refused event must leave it as it was: the first byte picks a built-in game, its player
//! count and seed; each line after it applies an event (any JSON), takes or gives the k-th legal
//! event, draws, undoes, clones, judges, or resumes a game from any text (`live_game_steps.rs`
//! lists the steps and the invariants each one asserts).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../live_game_steps.rs"]
mod steps;

fuzz_target!(|data: &[u8]| steps::run(data));
