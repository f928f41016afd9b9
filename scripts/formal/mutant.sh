#!/bin/sh
# mutant.sh NAME OUT: apply the mutant NAME of scripts/formal/mutants.txt to
# a copy of rtl/ in OUT/NAME/rtl, run its proof there (prove.sh), and write
# OUT/NAME.result, one line:
#   name|proof|what|seconds|KILLED, SURVIVED, PASSES, UNEXPECTED or BROKEN|detail
# KILLED: the proof failed, as it must; SURVIVED: it passed; BROKEN: the
# mutant could not be applied (its text is not in the file exactly once, or
# at the occurrence it names) or the mutated RTL does not elaborate.
# A mutant with "expect: survive" (an over-strong assumption, to show that
# a vacuous proof passes and only its covers catch it) must pass: PASSES,
# else UNEXPECTED.
#
# mutants.txt holds one paragraph per mutant (blank lines between), one
# "key: value" a line: name, proof, file, what (one line, for the table),
# from and to (one line each: the literal text replaced and its
# replacement, leading blanks of the value kept after the first space),
# and optionally at (which occurrence of from, counted from 1, when it
# occurs more than once) and expect (survive).
set -u
name=$1
out=$2
here=$(dirname "$0")
table=$here/mutants.txt

rec=$(awk -v RS= -v n="$name" '$0 ~ "(^|\n)name: " n "(\n|$)" { print; exit }' "$table")
if [ -z "$rec" ]; then
	echo "mutant.sh: no mutant $name in $table" >&2
	exit 2
fi
key() { echo "$rec" | awk -v k="$1" 'index($0, k ": ") == 1 { print substr($0, length(k) + 3); exit }'; }
proof=$(key proof)
file=$(key file)
what=$(key what)
at=$(key at)
expect=$(key expect)
[ -n "$at" ] || at=0

dir=$out/$name
rm -rf "$dir"
mkdir -p "$dir"
cp -r rtl "$dir/rtl"

start=$(date +%s.%N)
# the literal replacement, in awk (no regular expressions involved)
if ! echo "$rec" | awk -v at="$at" -v f="$dir/$file" '
	index($0, "from: ") == 1 { from = substr($0, 7) }
	index($0, "to: ") == 1 { to = substr($0, 5) }
	END {
		text = ""
		while ((getline line < f) > 0) text = text line "\n"
		close(f)
		n = 0; rest = text; out = ""; done = 0
		while ((i = index(rest, from)) > 0) {
			n++
			if ((at == 0 && n == 1) || n == at) {
				out = out substr(rest, 1, i - 1) to
				done = 1
			} else {
				out = out substr(rest, 1, i - 1 + length(from))
			}
			rest = substr(rest, i + length(from))
		}
		out = out rest
		if (from == "" || !done || (at == 0 && n != 1)) exit 1
		printf "%s", out > f
	}'; then
	end=$(date +%s.%N)
	secs=$(echo "$start $end" | awk '{ printf "%.1f", $2 - $1 }')
	echo "$name|$proof|$what|$secs|BROKEN|the text to replace is not in $file exactly once (or at its occurrence)" > "$out/$name.result"
	echo "mutant $name: BROKEN"
	exit 0
fi
diff -u "rtl/${file#rtl/}" "$dir/$file" > "$dir/mutant.diff"

sh "$here/prove.sh" "$proof" "$dir" "$dir/rtl" > "$dir/prove.out" 2>&1
end=$(date +%s.%N)
secs=$(echo "$start $end" | awk '{ printf "%.1f", $2 - $1 }')
res=$(cat "$dir/$proof.result" 2>/dev/null)
verdict=$(echo "$res" | awk -F'|' '{ print $6 }')
detail=$(echo "$res" | awk -F'|' '{ print $7 }')
case "$verdict" in
FAIL)
	case "$detail" in
	yosys:*) result=BROKEN ;;
	*) result=KILLED ;;
	esac
	;;
PASS) result=SURVIVED; detail="the proof passed" ;;
*) result=BROKEN; detail="no result from prove.sh" ;;
esac
if [ "$expect" = survive ]; then
	case $result in
	SURVIVED) result=PASSES; detail="the proof passes, as expected" ;;
	KILLED) result=UNEXPECTED; detail="expected to pass: $detail" ;;
	esac
fi
echo "$name|$proof|$what|$secs|$result|$detail" > "$out/$name.result"
echo "mutant $name: $result ($proof) $detail"
