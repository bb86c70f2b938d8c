#!/usr/bin/env bash
# Builds the C++ standard library sear links with C++ programs, as LLVM bitcode, once per
# machine (docs/cxx.md).
#
# The source is Debian's own: `apt-get source llvm-toolchain-19` (a deb-src entry with the
# URIs, suites and keyring of the system's deb entry is added when none is configured),
# the version of the installed libc++-19-dev, whose headers the programs and the library
# are compiled against (so both agree). Only libc++'s and libc++abi's `src/` are extracted,
# and only the parts a program needs besides its headers are compiled (LIBCXX_SOURCES,
# LIBCXX_IO_SOURCES and LIBCXXABI_SOURCES below: exception classes, typeinfo and
# dynamic_cast, std::string's and the containers' out-of-line members, hashing, shared_ptr,
# charconv; locales, iostreams, string streams, regex), with clang++-19 -O1 to bitcode.
# Exception handling (__cxa_throw and the unwinder) and operator new/delete are sear's own
# (runtime/src/libc/cxa.c, the engine), so libc++abi's cxa_exception.cpp,
# cxa_personality.cpp and libc++'s new.cpp are left out; so are threads and the file system.
#
# Result, in PREFIX (by default ${XDG_CACHE_HOME:-~/.cache}/sear/libcxx-VERSION-rRECIPE;
# SEAR_LIBCXX_DIR overrides it; crates/sear-cli/src/cxx.rs looks in the same place):
#   libcxx.bc          the core (LIBCXX_SOURCES and LIBCXXABI_SOURCES)
#   libcxx-io.bc       the core and LIBCXX_IO_SOURCES (locales, streams)
#   iostream.bc        iostream.cpp: std::cout & co. and their global constructor
#   libcxx-io.symbols  the names libcxx-io.bc defines and libcxx.bc does not
#   iostream.symbols   the names iostream.bc defines
# so that a program links only the part it uses (docs/cxx.md). Idempotent: a complete
# PREFIX is kept. About two minutes on two cores (docs/cxx.md). Needs root or sudo only to
# add the deb-src entry.
set -euo pipefail
cd "$(dirname "$0")/.."

version=19.1.7 # libc++-19-dev's upstream version (crates/sear-cli/src/cxx.rs: VERSION)
recipe=3       # bump when this script builds differently (cxx.rs: RECIPE)
cache="${XDG_CACHE_HOME:-$HOME/.cache}/sear"
prefix="${SEAR_LIBCXX_DIR:-$cache/libcxx-$version-r$recipe}"
if [ -f "$prefix/.complete" ]; then
    exit 0
fi

LIBCXX_SOURCES="stdexcept string hash memory functional verbose_abort new_helpers vector error_category
    algorithm charconv optional variant any system_error typeinfo ryu/d2s ryu/f2s ryu/d2fixed"
LIBCXX_IO_SOURCES="ios ios.instantiations locale ostream strstream call_once regex"
LIBCXXABI_SOURCES="private_typeinfo stdlib_exception stdlib_stdexcept stdlib_typeinfo
    cxa_aux_runtime cxa_vector abort_message"

for tool in clang++-19 llvm-link-19 llvm-nm-19 apt-get dpkg-query tar xz; do
    command -v "$tool" >/dev/null || { echo "build-libcxx: $tool not found (scripts/setup.sh installs it)" >&2; exit 1; }
done
deb_version=$(dpkg-query -W -f='${Version}' libc++-19-dev 2>/dev/null || true)
case "$deb_version" in
    *:"$version"-*) ;;
    "") echo "build-libcxx: libc++-19-dev is not installed (scripts/setup.sh installs it)" >&2; exit 1 ;;
    *) echo "build-libcxx: libc++-19-dev is $deb_version, this recipe is for $version; revisit it" >&2; exit 1 ;;
esac
headers=/usr/lib/llvm-19/include/c++/v1
site=/usr/lib/llvm-19/include/x86_64-pc-linux-gnu/c++/v1

if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
if ! apt-get source --print-uris "llvm-toolchain-19=$deb_version" >/dev/null 2>&1; then
    # A deb-src twin of the system's Debian deb entry (same URIs, suites, keyring).
    src=/etc/apt/sources.list.d/sear-deb-src.sources
    if [ -f /etc/apt/sources.list.d/debian.sources ]; then
        sed -n '/^Types: deb$/,/^$/p' /etc/apt/sources.list.d/debian.sources |
            sed 's/^Types: deb$/Types: deb-src/' | $sudo tee "$src" >/dev/null
    else
        grep -E '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' |
            $sudo tee /etc/apt/sources.list.d/sear-deb-src.list >/dev/null
    fi
    echo "build-libcxx: added Debian's deb-src entry; apt-get update" >&2
    $sudo apt-get update -qq
fi

mkdir -p "$(dirname "$prefix")"
exec 9>"$prefix.lock"
flock 9
if [ -f "$prefix/.complete" ]; then
    exit 0
fi
work=$(mktemp -d "$(dirname "$prefix")/libcxx-build.XXXXXX")
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
echo "build-libcxx: building libc++ $version as bitcode into $prefix (about two minutes, once)" >&2
(
    cd "$work"
    # As root, apt's sandbox user cannot write here; that is only a warning.
    apt-get source --download-only "llvm-toolchain-19=$deb_version" >download.log 2>&1 ||
        { cat download.log >&2; exit 1; }
    tar -xJf llvm-toolchain-19_"$version".orig.tar.xz --wildcards \
        '*/libcxx/src/*' '*/libcxxabi/src/*' '*/libcxxabi/include/*'
    rm -f ./*.tar.xz
)
src=$(echo "$work"/llvm-toolchain-19_"$version")
mkdir -p "$work/bc" "$work/prefix"
flags=(-c -emit-llvm -O1 -g -nostdinc++ -isystem "$headers" -isystem "$site" -std=c++23
    -D_LIBCPP_BUILDING_LIBRARY -DLIBCXX_BUILDING_LIBCXXABI -D_LIBCXXABI_BUILDING_LIBRARY
    -D_LIBCPP_DISABLE_DEPRECATION_WARNINGS -U_FORTIFY_SOURCE -fvisibility-inlines-hidden
    -Wno-user-defined-literals -I "$src/libcxx/src" -I "$src/libcxxabi/include")
list=()
for f in $LIBCXX_SOURCES $LIBCXX_IO_SOURCES iostream; do list+=("libcxx/src/$f.cpp"); done
for f in $LIBCXXABI_SOURCES; do list+=("libcxxabi/src/$f.cpp"); done
printf '%s\n' "${list[@]}" | xargs -P "${CARGO_BUILD_JOBS:-2}" -I{} sh -c '
    work=$1 file=$2 src=$3
    shift 3
    out="$work/bc/$(echo "$file" | tr / _).bc"
    clang++-19 "$@" "$src/$file" -o "$out" 2>"$out.log" || { cat "$out.log" >&2; exit 255; }
' sh "$work" {} "$src" "${flags[@]}"
core=() io=()
for f in $LIBCXX_SOURCES; do core+=("$work/bc/libcxx_src_$(echo "$f" | tr / _).cpp.bc"); done
for f in $LIBCXXABI_SOURCES; do core+=("$work/bc/libcxxabi_src_$f.cpp.bc"); done
for f in $LIBCXX_IO_SOURCES; do io+=("$work/bc/libcxx_src_$f.cpp.bc"); done
llvm-link-19 "${core[@]}" -o "$work/prefix/libcxx.bc"
llvm-link-19 "${core[@]}" "${io[@]}" -o "$work/prefix/libcxx-io.bc"
cp "$work/bc/libcxx_src_iostream.cpp.bc" "$work/prefix/iostream.bc"
defined() { llvm-nm-19 --defined-only --format=just-symbols "$1" | sort -u; }
defined "$work/prefix/libcxx.bc" >"$work/core.symbols"
defined "$work/prefix/libcxx-io.bc" | comm -23 - "$work/core.symbols" >"$work/prefix/libcxx-io.symbols"
defined "$work/prefix/iostream.bc" >"$work/prefix/iostream.symbols"
printf 'libc++ %s (Debian %s), built %s in %ss\n' "$version" "$deb_version" "$(date -u +%FT%TZ)" \
    "$(($(date +%s) - start))" >"$work/prefix/BUILD-INFO"
touch "$work/prefix/.complete"
rm -rf "$prefix"
mv "$work/prefix" "$prefix"
echo "build-libcxx: done in $(($(date +%s) - start))s" >&2
