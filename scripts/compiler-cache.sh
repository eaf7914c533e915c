# Sourced by the build scripts: compile through ccache when it is installed and its cache
# directory is writable (the same objects, built once: a second build of an unchanged file
# takes no compiler time), unless DLBKIT_CCACHE=0 or the caller chose a launcher. Paths
# below this checkout are hashed relative to it, so two checkouts share the cache; the
# debug information then names the directory of the checkout that compiled first. Sets
# compiler_cache, CMake arguments.
compiler_cache=()
if [ "${DLBKIT_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null; then
  cache_dir=$(ccache -k cache_dir 2>/dev/null || true)
  if [ -n "$cache_dir" ] && mkdir -p "$cache_dir" 2>/dev/null && [ -w "$cache_dir" ]; then
    compiler_cache=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
  fi
  unset cache_dir
fi
