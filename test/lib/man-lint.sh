#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# man-lint.sh PAGE...: the man pages render without run-together words
# (make check-unit runs it on every page of the tree).
#
# The alternating-font macros (.BR, .RB, .IR, .RI, .BI, .IB) join their
# arguments without a space: ".RB ( x ). Each key" renders "x).Eachkey".
# An argument that ends in a letter or digit followed by one that starts
# with one is such a join.  groff -ww is run too, for what it warns about.
set -u
fail=0
for page in "$@"; do
	out=$(awk '
	/^\.(BR|RB|IR|RI|BI|IB)[ \t]/ {
		line = $0
		sub(/^\.[A-Z][A-Z][ \t]+/, "", line)
		n = 0
		while (length(line) > 0) {
			if (substr(line, 1, 1) == "\"") {
				rest = substr(line, 2)
				e = index(rest, "\"")
				if (e == 0) { arg = rest; line = "" }
				else { arg = substr(rest, 1, e - 1); line = substr(rest, e + 1) }
			} else {
				e = match(line, /[ \t]/)
				if (e == 0) { arg = line; line = "" }
				else { arg = substr(line, 1, e - 1); line = substr(line, e) }
			}
			sub(/^[ \t]+/, "", line)
			args[++n] = arg
		}
		for (i = 1; i < n; i++)
			if (args[i] ~ /[A-Za-z0-9.,;]$/ && args[i + 1] ~ /^[A-Za-z0-9]/)
				{ printf "%d: \"%s\" and \"%s\" run together: %s\n", NR, args[i], args[i + 1], $0; break }
	}' "$page")
	if [ -n "$out" ]; then
		printf '%s\n' "$out" | sed "s|^|$page:|" >&2
		fail=1
	fi
	warn=$(LC_ALL=C.UTF-8 groff -ww -man -Tutf8 -z "$page" 2>&1)
	if [ -n "$warn" ]; then
		printf '%s: groff: %s\n' "$page" "$warn" >&2
		fail=1
	fi
done
[ "$fail" -eq 0 ] && echo "man pages: $# rendered, no run-together words"
exit "$fail"
