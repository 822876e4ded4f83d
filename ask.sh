#!/bin/sh
# ask.sh: sponge ask in plain POSIX shell, so the pipeline can be read and changed.
#
#   ./ask.sh [--library DIR] [--limit N] [--passages] [--json] [--extractive]
#            [--endpoint URL] [--model NAME] [--timeout DURATION]
#            [--passage-tokens N] QUESTION
#
# It runs the same stages as `sponge ask`:
#   sponge-search | sponge-rank | sponge-draft | sponge-verify | sponge-render
# (with --passages: sponge-search | sponge-rank | sponge-render).
# The stage binaries are taken from bin/ beside this script if they are
# there, else from PATH. Exit codes are those of `sponge ask`.
set -u

here=$(cd "$(dirname "$0")" && pwd)
if [ -x "$here/bin/sponge-search" ]; then PATH="$here/bin:$PATH"; fi

lib="" limit="" passages="" json="" extractive="" endpoint="" model="" timeout="" ptokens=""
while [ $# -gt 0 ]; do
	case "$1" in
	--library) lib="$2"; shift 2 ;;
	--library=*) lib="${1#*=}"; shift ;;
	--limit) limit="$2"; shift 2 ;;
	--limit=*) limit="${1#*=}"; shift ;;
	--passages) passages=1; shift ;;
	--json) json=1; shift ;;
	--extractive) extractive=1; shift ;;
	--endpoint) endpoint="$2"; shift 2 ;;
	--endpoint=*) endpoint="${1#*=}"; shift ;;
	--model) model="$2"; shift 2 ;;
	--model=*) model="${1#*=}"; shift ;;
	--timeout) timeout="$2"; shift 2 ;;
	--timeout=*) timeout="${1#*=}"; shift ;;
	--passage-tokens) ptokens="$2"; shift 2 ;;
	--passage-tokens=*) ptokens="${1#*=}"; shift ;;
	-h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	--) shift; break ;;
	-*) echo "ask.sh: error: unknown option $1" >&2; echo "ask.sh: hint: run 'ask.sh --help'" >&2; exit 2 ;;
	*) break ;;
	esac
done
question="$*"
if [ -z "$question" ]; then
	echo "ask.sh: error: ask needs a question" >&2
	exit 2
fi
for s in sponge-search sponge-rank sponge-draft sponge-verify sponge-render; do
	if ! command -v "$s" >/dev/null 2>&1; then
		echo "ask.sh: error: cannot find $s in $here/bin or on PATH" >&2
		echo "ask.sh: hint: build every stage with 'make build'" >&2
		exit 1
	fi
done

# Each stage's exit status is written to a file descriptor, since POSIX sh
# has no pipefail: the first stage that failed gives the exit code. A stage
# killed by SIGPIPE (status 141) because a later one ended early is fine.
status=$(mktemp) || exit 1
trap 'rm -f "$status"' EXIT
run() { # NAME ARGS...: run a stage and note its exit status
	name=$1; shift
	"$name" "$@"
	echo "$name $?" >>"$status"
}

if [ -n "$passages" ]; then
	run sponge-search ${lib:+--library="$lib"} ${limit:+--limit="$limit"} -- "$question" |
		run sponge-rank ${lib:+--library="$lib"} |
		run sponge-render ${json:+--json}
else
	run sponge-search ${lib:+--library="$lib"} ${limit:+--limit="$limit"} -- "$question" |
		run sponge-rank ${lib:+--library="$lib"} |
		run sponge-draft ${lib:+--library="$lib"} ${extractive:+--extractive} ${endpoint:+--endpoint="$endpoint"} ${model:+--model="$model"} ${timeout:+--timeout="$timeout"} ${ptokens:+--passage-tokens="$ptokens"} |
		run sponge-verify ${lib:+--library="$lib"} |
		run sponge-render ${json:+--json}
fi

# The stages in pipeline order; the first non-zero status (but SIGPIPE) wins.
for s in sponge-search sponge-rank sponge-draft sponge-verify sponge-render; do
	code=$(sed -n "s/^$s //p" "$status")
	case "$code" in
	""|0|141) ;;
	*) exit "$code" ;;
	esac
done
exit 0
