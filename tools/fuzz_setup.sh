# The sanitizer build's meson setup arguments, sourced by tools/fuzz.sh (which configures
# build-fuzz on its own) and tools/test-all.sh (which builds and tests it first, then fuzzes in
# it): clang with ASan + UBSan and libFuzzer's coverage, -O2 with line tables only (file:line in
# the sanitizers' reports; full -g took a fifth of the compile). Run with CC=clang.
fuzz_setup_args=(-Doptimization=2 -Ddebug=false -Dfuzz=true -Dbench=disabled
                 -Db_sanitize=address,undefined -Db_lundef=false
                 "-Dc_args=-gline-tables-only -fno-sanitize-recover=all")
