#!/usr/bin/env bash
# Builds shinpan's page into a folder that opens from disk (file://) or from any static host:
# the engine compiled to WebAssembly (the crate in web/, profile `web`), its JavaScript glue made
# by wasm-bindgen (--target no-modules: a plain script, no module loading), the module itself
# as base64 in a script (a page opened from disk may not fetch a file beside it), and the page.
#
#   web/build.sh                 # into target/web/site/
#   OUT=DIR web/build.sh         # elsewhere
#
# Needs the target (rustup target add wasm32-unknown-unknown) and the `wasm-bindgen` command of
# the version in Cargo.lock (cargo install wasm-bindgen-cli --version VERSION): found on the
# PATH, in $WASM_BINDGEN, or in target/tools/bin (where .ci/run installs it).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-target/web/site}
PROFILE=${PROFILE:-web}
version=$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock | sed -n 's/^version = "\(.*\)"$/\1/p')
bindgen=${WASM_BINDGEN:-$(command -v wasm-bindgen || echo target/tools/bin/wasm-bindgen)}
if ! [ -x "$bindgen" ] || [ "$("$bindgen" --version | cut -d' ' -f2)" != "$version" ]; then
    echo "web/build.sh: needs wasm-bindgen $version: cargo install wasm-bindgen-cli --version $version --root target/tools" >&2
    exit 1
fi
cargo build --locked --target wasm32-unknown-unknown -p shinpan-web --profile "$PROFILE"
rm -rf target/web/bindgen "$OUT"
"$bindgen" --target no-modules --no-typescript --remove-name-section --remove-producers-section --out-dir target/web/bindgen \
    "target/wasm32-unknown-unknown/$PROFILE/shinpan_web.wasm"
mkdir -p "$OUT"
cp web/page/index.html web/page/app.js web/page/style.css "$OUT/"
cp target/web/bindgen/shinpan_web.js "$OUT/"
{
    printf '// shinpan_web_bg.wasm (the engine), as base64: made by web/build.sh.\nvar SHINPAN_WASM = "'
    base64 -w0 target/web/bindgen/shinpan_web_bg.wasm
    printf '";\n'
} > "$OUT/shinpan_web_wasm.js"
echo "web/build.sh: $OUT ($(du -sh "$OUT" | cut -f1)); open $OUT/index.html"
