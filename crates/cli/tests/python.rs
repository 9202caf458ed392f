//! The Python package (`python/`): its wheel built by maturin, installed in the virtual
//! environment `target/py`, and its pytest suite run against the installed wheel. CI makes the
//! environment (.ci/run, with Dask for the cluster example) and sets
//! SHINPAN_PYTHON_TEST=required; elsewhere the test is skipped when the environment is
//! missing, so `cargo test` needs nothing but cargo.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(common::repo())
}

fn venv_tool(name: &str) -> PathBuf {
    root().join("target/py/bin").join(name)
}

fn run(program: &Path, args: &[&str]) {
    let out = Command::new(program).args(args).current_dir(root()).output().unwrap();
    assert!(
        out.status.success(),
        "{} {}\n{}{}",
        program.display(),
        args.join(" "),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_python_package_passes_its_tests() {
    let ready = ["maturin", "pytest", "pip"].iter().all(|t| venv_tool(t).exists());
    if !ready {
        assert!(
            std::env::var("SHINPAN_PYTHON_TEST").as_deref() != Ok("required"),
            "the Python test needs target/py: python3 -m venv target/py && target/py/bin/pip install maturin pytest"
        );
        eprintln!("skipped: no target/py (python3 -m venv target/py && target/py/bin/pip install maturin pytest)");
        return;
    }
    let wheels = root().join("target/wheels");
    let _ = std::fs::remove_dir_all(&wheels);
    let out = wheels.display().to_string();
    run(&venv_tool("maturin"), &["build", "--release", "--locked", "-m", "python/Cargo.toml", "-o", &out]);
    let wheel = std::fs::read_dir(&wheels)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "whl"))
        .expect("maturin wrote no wheel");
    run(&venv_tool("pip"), &["install", "--quiet", "--force-reinstall", wheel.to_str().unwrap()]);
    // The cluster test compares the cluster's verdicts with this build's command line.
    let out = Command::new(venv_tool("pytest"))
        .args(["-q", "-p", "no:cacheprovider", "python/tests"])
        .env("SHINPAN_BIN", env!("CARGO_BIN_EXE_shinpan"))
        .current_dir(root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
}
