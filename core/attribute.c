/* attribute.c: whose event is it. A line that names no rank of its own
 * may still name the rank it is about (a launcher's report of a failed
 * local rank, a pid, a GPU's bus id); this pass gives such events their
 * rank, before anything is ordered or counted. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "xmalloc.h"

/* --- kernel lines to ranks ------------------------------------------------ */

/* PCI bus and device from "0000:5d:00" / "0000:5d:00.0" (Xid), or from
 * NCCL's busId "5d000" (domain << 20 | bus << 12 | device << 4 | fn... as
 * printed with %lx: the bus is the two hex digits before the last three). */
static int
pci_of_xid(const char *s, unsigned *bus, unsigned *dev)
{
	unsigned d, b, v;

	if (sscanf(s, "%x:%x:%x", &d, &b, &v) == 3) {
		*bus = b;
		*dev = v;
		return 1;
	}
	if (sscanf(s, "%x:%x", &b, &v) == 2) {
		*bus = b;
		*dev = v;
		return 1;
	}
	return 0;
}

static int
pci_of_busid(const char *s, unsigned *bus, unsigned *dev)
{
	unsigned long v;
	char *end;

	v = strtoul(s, &end, 16);
	if (end == s || *end != '\0')
		return 0;
	*bus = (unsigned)((v >> 12) & 0xff);
	*dev = (unsigned)((v >> 4) & 0xff);
	return 1;
}

/* An unranked event naming a GPU (fact pci: a kernel Xid line) belongs to
 * the rank whose NCCL init line shows that bus (fact bus_id), on the same
 * host when the line's host is known (syslog prefix, or a host named in
 * the file's name). Ambiguous matches stay unranked. */
static void
attribute_by_gpu(struct incident *in)
{
	int pci = rulebook_find_fact(in->rb, "pci"), busid = rulebook_find_fact(in->rb, "bus_id");
	size_t i, j;

	if (pci < 0 || busid < 0)
		return;
	for (i = 0; i < in->nevents; i++) {
		struct event *ev = in->events[i];
		const char *p = ev->rank < 0 ? event_fact(ev, pci) : NULL;
		unsigned bus, dev;
		int found = -1, many = 0;

		if (p == NULL || !pci_of_xid(p, &bus, &dev))
			continue;
		for (j = 0; j < in->nevents; j++) {
			const struct event *b = in->events[j];
			const char *v = event_fact(b, busid);
			const char *host = b->rank >= 0 ? incident_host(in, b->rank) : NULL;
			unsigned bb, bd;

			if (v == NULL || b->rank < 0 || !pci_of_busid(v, &bb, &bd) || bb != bus)
				continue;
			if (host != NULL && ((ev->host != NULL && strcmp(ev->host, host) != 0) ||
			    (ev->host == NULL && strstr(ev->file, host) == NULL && in->multi_hosts)))
				continue;
			if (found >= 0 && found != b->rank)
				many = 1;
			found = b->rank;
		}
		if (found >= 0 && !many) {
			ev->rank = found;
			ev->rank_from = RANK_NAMED;
		}
	}
}

void
attribute_events(struct incident *in, struct analysis *an)
{
	const char *h0 = NULL;
	size_t i;

	in->multi_hosts = 0;
	for (i = 0; i < in->nranks; i++)
		if (in->ranks[i] != NULL && in->ranks[i]->host != NULL) {
			if (h0 == NULL)
				h0 = in->ranks[i]->host;
			else if (strcmp(h0, in->ranks[i]->host) != 0)
				in->multi_hosts = 1;
		}
	attribute_by_gpu(in);
	an->world = (int)in->nranks;
}
