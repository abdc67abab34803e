#!/bin/sh
# The facts the attribution pass reads from any event (core/attribute.c,
# by name) are the ones INCIDENT_ENGINE_FACTS lists (core/incident.h): of
# the events the incident only counts, attribute_summarise reads them as
# they arrive. A name read there and missing from the list would be looked
# for in events the incident did not keep.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

list=$(sed -n '/#define INCIDENT_ENGINE_FACTS/,/}/p' "$top_srcdir/core/incident.h")
read=$(grep -o 'rulebook_find_fact([^)]*"[a-z_]*")' "$top_srcdir/core/attribute.c" |
	sed 's/.*"\([a-z_]*\)")/\1/' | sort -u)
check "core/attribute.c reads facts by name" test -n "$read"
for name in $read; do
	check "$name is in INCIDENT_ENGINE_FACTS" sh -c 'printf "%s\n" "$1" | grep -q "\"$2\""' _ "$list" "$name"
done
finish
