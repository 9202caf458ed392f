//! Card pools: which file a transcript's cards come from, that one run keeps each
//! transcript's own pool, and the limits of a pool file.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

use std::path::Path;

use shinpan::report::check::{Checker, Verdict};

fn fixtures() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/clock-tcg"))
}

/// One checker, two transcripts with different pools: each gets its own cards.
#[test]
fn one_run_keeps_each_transcripts_pool() {
    let mut checker = Checker::new(None);
    for _ in 0..2 {
        let small = checker.check_path(&fixtures().join("pool-small.yaml"));
        assert_eq!(small.verdict, Verdict::Legal, "{:?}", small.errors);
        let default = checker.check_path(&fixtures().join("legal-document-example.yaml"));
        assert_eq!(default.verdict, Verdict::Legal, "{:?}", default.errors);
        let broken = checker.check_path(&fixtures().join("pool-broken.yaml"));
        assert_eq!(broken.verdict, Verdict::Malformed);
    }
}

/// A variant that extends the game and keeps its own `clock-tcg-pool.yaml` beside it reads
/// that file, not the built-in one of the same name.
#[test]
fn a_variants_default_pool_is_the_file_beside_it() {
    let dir = std::env::temp_dir().join(format!("shinpan-pools-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("small-clock.rules"), "extends clock-tcg\ngame small-clock\n").unwrap();
    std::fs::copy(fixtures().join("pools/small.yaml"), dir.join("clock-tcg-pool.yaml")).unwrap();
    let small = std::fs::read_to_string(fixtures().join("pool-small.yaml")).unwrap();
    let text = small.replace("rules: clock-tcg", "rules: small-clock.rules").replace("pool: pools/small.yaml, ", "");
    let report = Checker::new(None).check_text("t.yaml", text, &dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(report.verdict, Verdict::Legal, "{:?}", report.errors);
}

/// A pool file past 16 MiB is refused by its size, not read.
#[test]
fn a_pool_file_has_a_size_limit() {
    let dir = std::env::temp_dir().join(format!("shinpan-pool-size-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let big = std::fs::File::create(dir.join("big.yaml")).unwrap();
    big.set_len(shinpan::transcript::pool::MAX_POOL_BYTES + 1).unwrap();
    let text = "rules: clock-tcg\nplayers: [a, b]\nvariant: {pool: big.yaml}\nevents: []\n".to_string();
    let report = Checker::new(None).check_text("t.yaml", text, &dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(report.verdict, Verdict::Malformed);
    assert!(report.errors[0].message.contains("larger than 16 MiB"), "{}", report.errors[0].message);
}
