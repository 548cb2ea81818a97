#!/usr/bin/env bash
# docs/ARCHITECTURE.md's term table ("Every term: its four pieces") against
# the tree:
#   1. every file the table names (a `path` with a slash; a * in it must
#      match at least one file) exists;
#   2. every pass (engine/forces/pass_*.c) and every reference
#      (engine/ref/ref_*.c) in the tree is named in the table;
#   3. no two source files (git ls-files '*.c' '*.h' '*.comp' '*.glsl' '*.py'
#      '*.sh'; find where there is no git checkout) share a name.
# No device needed.
. "$(dirname "$0")/cli_lib.sh" && cli_args term_table "$@"
root=$(cd "$src/.." && pwd)
cd "$root" || exit 1
doc=docs/ARCHITECTURE.md

# The table: the rows after the section's heading, up to the next heading.
table=$(awk '/^## Every term/ {on = 1; next} /^## / {on = 0} on && /^\| / && !/^\| term \|/ && !/^\|---/' "$doc")
rows=$(grep -c . <<<"$table")
if [ "$rows" -ge 10 ]; then ok "$doc: $rows term rows"; else bad "$doc: $rows term rows (the section 'Every term' is missing or cut)"; fi

# 1. Every named file exists.
mapfile -t named < <(grep -o '`[^` ]*/[^` ]*`' <<<"$table" | tr -d '`' | sort -u)
missing=0
for p in "${named[@]}"; do
  # shellcheck disable=SC2086 # a * in the table is a glob
  if ! compgen -G "$p" >/dev/null; then
    bad "$doc names $p, which does not exist"
    missing=$((missing + 1))
  fi
done
[ $missing = 0 ] && ok "all ${#named[@]} files the table names exist"

# 2. Every pass and reference is in the table.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t sources < <(git ls-files '*.c' '*.h' '*.comp' '*.glsl' '*.py' '*.sh')
else
  mapfile -t sources < <(find engine shaders tests tools viewer examples include -type f \
    \( -name '*.c' -o -name '*.h' -o -name '*.comp' -o -name '*.glsl' -o -name '*.py' -o -name '*.sh' \) 2>/dev/null)
fi
absent=0
for p in "${sources[@]}"; do
  case $p in engine/forces/pass_*.c | engine/ref/ref_*.c) ;; *) continue ;; esac
  if ! grep -qF "\`$p\`" <<<"$table"; then
    bad "$p is not in $doc's term table"
    absent=$((absent + 1))
  fi
done
[ $absent = 0 ] && ok "every engine/forces/pass_*.c and engine/ref/ref_*.c is in the table"

# 3. One name per file across the tree.
dups=$(printf '%s\n' "${sources[@]}" | awk -F/ '{print $NF}' | sort | uniq -d)
if [ -z "$dups" ]; then
  ok "${#sources[@]} source files, no two share a name"
else
  for d in $dups; do
    bad "two source files are named $d: $(printf '%s\n' "${sources[@]}" | grep -E "(^|/)$d\$" | tr '\n' ' ')"
  done
fi
cli_finish test_term_table
