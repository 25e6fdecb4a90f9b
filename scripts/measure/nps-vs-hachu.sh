#!/bin/sh
# Nodes per second from the chu start, Shishi against HaChu, one thread and 64 MB each,
# one engine after the other (never both at once), PAIRS pairs; prints every run and the
# medians. Run by hand on a quiet machine (timing is not a test):
#   scripts/measure/nps-vs-hachu.sh [SHISHI] [HACHU] [SECONDS] [PAIRS]
# HaChu's figure is the last `analyze` line before the time is up: its nodes over its
# centiseconds. Shishi's is the `nps` of its last info line of `go movetime`.
set -eu
SHISHI=${1:-target/release/shishi}
HACHU=${2:-/usr/games/hachu}
SECONDS_EACH=${3:-10}
PAIRS=${4:-3}

hachu_nps() {
    (printf 'xboard\nprotover 2\n'; sleep 0.5
     printf 'memory 64\nnew\nvariant chu\npost\nanalyze\n'; sleep "$SECONDS_EACH"
     printf 'exit\nquit\n') | "$HACHU" 2>/dev/null |
        awk '/^ *[0-9]+ +-?[0-9]+ +[0-9]+ +[0-9]+ / { cs = $3; nodes = $4 }
             END { if (cs > 0) printf "%d\n", nodes * 100 / cs }'
}

shishi_nps() {
    (printf 'usi\nsetoption name USI_Hash value 64\nsetoption name Threads value 1\n'
     printf 'isready\nusinewgame\nposition startpos\ngo movetime %d\n' "$((SECONDS_EACH * 1000))"
     sleep "$((SECONDS_EACH + 1))"; printf 'quit\n') | "$SHISHI" 2>/dev/null |
        awk '/^info .* nps / { for (i = 1; i < NF; i++) if ($i == "nps") nps = $(i + 1) }
             END { print nps }'
}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

: >/tmp/nps-hachu.$$
: >/tmp/nps-shishi.$$
i=1
while [ "$i" -le "$PAIRS" ]; do
    h=$(hachu_nps)
    s=$(shishi_nps)
    echo "pair $i: HaChu $h nps, Shishi $s nps"
    echo "$h" >>/tmp/nps-hachu.$$
    echo "$s" >>/tmp/nps-shishi.$$
    i=$((i + 1))
done
h=$(median </tmp/nps-hachu.$$)
s=$(median </tmp/nps-shishi.$$)
rm -f /tmp/nps-hachu.$$ /tmp/nps-shishi.$$
echo "median: HaChu $h nps, Shishi $s nps, ratio $(awk -v s="$s" -v h="$h" 'BEGIN { printf "%.2f", s / h }')"
