#!/usr/bin/env bash
# Every C source, header and shader of the project is formatted with the
# repository's .clang-format (clang-format --dry-run reports any difference).
# Arguments: $1 vkmd binary (unused), $2 tests source dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args format "$@"
root=$(cd "$src/.." && pwd)
cd "$root" || exit 1
if ! command -v clang-format >/dev/null; then
  echo "FAIL: clang-format is not installed (Debian: clang-format)"
  exit 1
fi
mapfile -t files < <(git ls-files '*.c' '*.h' 2>/dev/null || find engine tools tests viewer -name '*.[ch]')
if [ ${#files[@]} = 0 ]; then
  echo "FAIL: no sources found under $root"
  exit 1
fi
if clang-format --dry-run --Werror "${files[@]}" 2>"${TMPDIR:-/tmp}/vkmd_format.log"; then
  echo "${#files[@]} passed, 0 failed"
  exit 0
fi
grep -E '^[^ ].*(warning|error):' "${TMPDIR:-/tmp}/vkmd_format.log" | cut -d: -f1 | sort -u | sed 's/^/  not formatted: /'
echo "run: clang-format -i <file>"
exit 1
