#!/bin/sh
# Runs every Go fuzz target in the module for a bounded time each
# (FUZZTIME, default 5s): their seed corpora run in every `go test`, this adds
# a short mutation run. A failure leaves the input in the package's
# testdata/fuzz/ as a regression test.
set -eu
FUZZTIME="${FUZZTIME:-5s}"
GO="${GO:-go}"
n=0
for pkg in $($GO list ./...); do
	for target in $($GO test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
		echo "fuzz: $pkg $target ($FUZZTIME)"
		$GO test -run '^$' -fuzz "^${target}\$" -fuzztime "$FUZZTIME" "$pkg" >/tmp/fuzz-short.$$ 2>&1 || {
			cat /tmp/fuzz-short.$$; rm -f /tmp/fuzz-short.$$; exit 1; }
		n=$((n + 1))
	done
done
rm -f /tmp/fuzz-short.$$
echo "fuzz: $n targets, $FUZZTIME each, no failure"
