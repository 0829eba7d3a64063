#!/usr/bin/env bash
# Builds the fuzz targets under .build/fuzz: QRSealKit's sources compiled once with
# libFuzzer's coverage instrumentation and AddressSanitizer, then each target in
# Fuzz/Targets linked against that object.
# Usage: Fuzz/build.sh [TARGET...]   build the targets (all by default)
#        Fuzz/build.sh --seeds       write the seed corpora in Fuzz/corpus again
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFTC=${SWIFTC:-$(command -v swiftc 2>/dev/null || echo /opt/swift/usr/bin/swiftc)}
CLANGXX=${CLANGXX:-$(dirname "$(readlink -f "$SWIFTC")")/clang++}
OUT=.build/fuzz
mkdir -p "$OUT/obj"

# The C modules QRSealKit imports, found the way SwiftPM finds them.
CFLAGS=()
for dir in Sources/C*/; do CFLAGS+=(-I "$dir"); done
# SwiftPM writes the module maps of C targets with an include folder itself; so do we, each
# over its whole folder as SwiftPM's are.
for target in CEngine CLoader; do
  mkdir -p "$OUT/modules/$target"
  printf 'module %s {\n    umbrella "%s"\n    export *\n}\n' "$target" "$PWD/Sources/$target/include" \
    > "$OUT/modules/$target/module.modulemap"
  CFLAGS+=(-I "$OUT/modules/$target")
done
for flag in $(pkg-config --cflags libpng zxing); do CFLAGS+=(-Xcc "$flag"); done
SANITIZE=(-sanitize=fuzzer,address)
OPT=(-O -g)

newer() {  # true when $1 is missing or older than any of the other files
  local target=$1; shift
  [ -e "$target" ] || return 0
  for f in "$@"; do [ "$f" -nt "$target" ] && return 0; done
  return 1
}

# The engine's helper, qrseal-engine, beside the targets where QRSealKit looks for it: zxing-cpp's
# shim and Tesseract's start run there, out of the fuzzed process (Sources/CEngine). Built
# without sanitizers: AddressSanitizer's shadow memory does not fit the helper's memory limit,
# and libFuzzer cannot follow into another process anyway; a crash there is the engine's to
# report (EngineFailure), and the targets check what the detector does with it.
ENGINE=$OUT/qrseal-engine
if newer "$ENGINE" Sources/CZXingShim/shim.cpp Sources/CZXingShim/include/zxing_shim.h \
    Sources/qrseal-engine/main.c Sources/CEngine/include/qrseal_engine.h Sources/CLoader/*.c Sources/CLoader/lazy.h; then
  echo "fuzz: building the engine's helper"
  "$CLANGXX" -std=c++17 -O1 -g -I Sources/CZXingShim/include -I Sources/CEngine/include $(pkg-config --cflags zxing) \
    -c Sources/CZXingShim/shim.cpp -o "$OUT/obj/engine-shim.o"
  "$(dirname "$CLANGXX")/clang" -O1 -g -I Sources/CZXingShim/include -I Sources/CEngine/include -I Sources/CLoader/include \
    Sources/qrseal-engine/main.c Sources/CLoader/*.c "$OUT/obj/engine-shim.o" \
    -Wl,--export-dynamic-symbol=_ZN9tesseract13UnicharAmbigs13LoadUniversalERKNS_10UNICHARSETEPS1_ \
    -lZXing -lstdc++ -lm -o "$ENGINE"
fi

# The engine's caller side, which QRSealKit calls.
CLIENT=$OUT/obj/engine-client.o
if newer "$CLIENT" Sources/CEngine/client.c Sources/CEngine/include/qrseal_engine.h; then
  "$(dirname "$CLANGXX")/clang" -O1 -g -fsanitize=fuzzer-no-link,address -I Sources/CEngine/include \
    -c Sources/CEngine/client.c -o "$CLIENT"
fi

# CLoader's functions, which stand in for the libraries it opens on first use.
LOADER=()
for source in Sources/CLoader/*.c; do
  object=$OUT/obj/loader-$(basename "$source" .c).o
  LOADER+=("$object")
  if newer "$object" "$source" Sources/CLoader/lazy.h Sources/CLoader/include/loader.h; then
    "$(dirname "$CLANGXX")/clang" -O1 -g -I Sources/CLoader/include -I Sources/CEngine/include -c "$source" -o "$object"
  fi
done

# The library: one module, internal API reachable through @testable import.
mapfile -t LIB_SOURCES < <(find Sources/QRSealKit -name '*.swift' | sort)
LIB=$OUT/obj/QRSealKit.o
if newer "$LIB" "${LIB_SOURCES[@]}" Fuzz/build.sh; then
  echo "fuzz: compiling QRSealKit (${#LIB_SOURCES[@]} files, a few minutes)"
  "$SWIFTC" -parse-as-library -module-name QRSealKit -enable-testing -wmo \
    "${SANITIZE[@]}" "${OPT[@]}" "${CFLAGS[@]}" \
    -emit-module -emit-module-path "$OUT/obj/QRSealKit.swiftmodule" \
    -c "${LIB_SOURCES[@]}" -o "$LIB"
fi

LIBS=("${LOADER[@]}" "$CLIENT" $(pkg-config --libs libqrencode libpng libturbojpeg libbrotlienc libbrotlidec libisal))

if [ "${1:-}" = --seeds ]; then
  # Not a fuzzer: AddressSanitizer's runtime also takes the coverage callbacks. The tests'
  # drawings of QR Model 1 symbols and of curled pages make seeds too.
  "$SWIFTC" -parse-as-library -module-name Seeds -sanitize=address "${OPT[@]}" "${CFLAGS[@]}" -I "$OUT/obj" \
    -use-ld=lld Fuzz/Seeds/main.swift Tests/QRSealKitTests/Detect/QR/Model1Symbol.swift \
    Tests/QRSealKitTests/Detect/QR/WarpedCode.swift Tests/QRSealKitTests/Detect/Common/ReedSolomon+encoding.swift \
    "$LIB" "${LIBS[@]}" -o "$OUT/seeds"
  rm -rf Fuzz/corpus
  SWIFT_BACKTRACE=enable=no "$OUT/seeds" Fuzz/corpus
  echo "fuzz: wrote $(find Fuzz/corpus -type f | wc -l) seeds in Fuzz/corpus"
  exit 0
fi

# One binary per target; Fuzz/Targets/Support.swift is compiled into each.
if [ $# -eq 0 ]; then
  set -- $(ls Fuzz/Targets | sed -n 's/^\(.*\)\.swift$/\1/p' | grep -v '^Support$')
fi
for target in "$@"; do
  source=Fuzz/Targets/$target.swift
  [ -f "$source" ] || { echo "fuzz: no target $target ($source)" >&2; exit 64; }
  binary=$OUT/fuzz-$target
  if newer "$binary" "$source" Fuzz/Targets/Support.swift "$LIB" "$CLIENT"; then
    echo "fuzz: linking $target"
    "$SWIFTC" -parse-as-library -module-name "Fuzz_${target//-/_}" \
      "${SANITIZE[@]}" "${OPT[@]}" "${CFLAGS[@]}" -I "$OUT/obj" \
      -use-ld=lld "$source" Fuzz/Targets/Support.swift "$LIB" "${LIBS[@]}" -o "$binary"
  fi
done
