/* main.c: rankwatch's command line. Headless modes (--report,
 * --check-rules, --list-rules, --show) never initialise curses. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#ifdef HAVE_MALLOC_H
#include <malloc.h>
#endif
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "config_file.h"
#include "encyclopedia.h"
#include "matcher.h"
#include "outfile.h"
#include "replay.h"
#include "report.h"
#include "rulebook.h"
#include "rulecheck.h"
#include "theme.h"
#include "run.h"
#include "stream.h"
#include "tui.h"
#include "watch.h"
#include "xmalloc.h"

#ifndef RW_PKGDATADIR
#define RW_PKGDATADIR "/usr/local/share/rankwatch"
#endif
#ifndef RW_SHIPPED_RULES
#define RW_SHIPPED_RULES 0	/* entries shipped: make passes their count */
#endif

enum mode {
	MODE_CONSOLE,
	MODE_REPORT,
	MODE_CHECK,
	MODE_LIST,
	MODE_SHOW,
	MODE_PATTERNS,
	MODE_ERRORS,
	MODE_THEMES,
	MODE_WATCH,
	MODE_DEMO,
};

static void
usage(FILE *fp)
{
	fputs("usage: rankwatch [options] PATH...\n"
	    "       rankwatch --report [--format text|json|markdown|prometheus] [--output FILE] PATH...\n"
	    "       rankwatch --check-rules [DIR]\n"
	    "       rankwatch --watch [--format text|jsonl] PATH...\n"
	    "       rankwatch --watch --format prometheus --output FILE PATH...\n"
	    "       rankwatch --list-rules | --show ENTRY | --errors | --list-themes\n"
	    "\n"
	    "PATH is a run directory, log files, or - for standard input.\n"
	    "\n"
	    "      --cmd COMMAND       also read COMMAND's output as a log, live; braces\n"
	    "                          expand: --cmd 'kubectl logs -f job-worker-{0..15}'\n"
	    "                          runs 16 commands, one log each\n"
	    "  -r, --report            print the diagnosis and exit (no console)\n"
	    "  -f, --format FORMAT     text (default), json, markdown or prometheus; jsonl with\n"
	    "                          --watch; json also with --list-rules, --show, --errors,\n"
	    "                          --list-themes; prometheus with --report and --watch\n"
	    "  -o, --output FILE       write the report to FILE atomically (a temporary file\n"
	    "                          renamed over it); --watch --format prometheus rewrites\n"
	    "                          it as new lines are read, and every 15 s\n"
	    "  -R, --rules DIR         also load encyclopedia entries from DIR\n"
	    "      --theme NAME        console colours: dark, light, high-contrast, mono, or yours\n"
	    "      --all-attempts      read every torchrun attempt_N, not only the last\n"
	    "  -j, --jobs N            read files on N threads (default: the CPUs this\n"
	    "                          process may use); the answer is the same for any N\n"
	    "  -w, --watch             follow the run: print the verdict so far, then new\n"
	    "                          failures and verdict changes until stopped\n"
	    "                          (--format jsonl: one JSON object per line)\n"
	    "      --replay            --watch: first print every event already written\n"
	    "      --all-events        --watch: progress and context events too\n"
	    "      --poll[=MS]         poll every MS ms (default 1000) instead of trusting inotify\n"
	    "      --demo[=SAMPLE]     replay a bundled incident (default oom-collateral) live\n"
	    "      --check-rules [DIR] validate rule files and run their examples\n"
	    "      --list-rules        list the encyclopedia\n"
	    "      --show ENTRY        print one encyclopedia entry\n"
	    "      --errors            every error message the encyclopedia knows, side by side\n"
	    "      --list-themes       list the console's colour themes\n"
	    "  -h, --help              this help\n"
	    "  -V, --version           the version\n"
	    "\n"
	    "Exit status: 0 healthy, 1 failure or hang found, 2 usage error or nothing readable.\n",
	    fp);
}

static int
is_dir(const char *p)
{
	struct stat sb;

	return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* A shipped data folder ("rules", "themes", "samples"): in a build tree,
 * the one beside the binary, or in the source tree a rankwatch-srcdir
 * file beside the binary names (make writes it in a build outside the
 * source tree); else the installed one. Nothing else: an installed
 * rankwatch never reads the checkout it was built from. The installed
 * path is returned even when it is not there, so messages can say where
 * rankwatch looked. */
static char *
shipped(const char *what)
{
	char exe[PATH_MAX], src[PATH_MAX], *slash, *p;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	FILE *fp;

	if (n > 0) {
		exe[n] = '\0';
		if ((slash = strrchr(exe, '/')) != NULL) {
			*slash = '\0';
			p = xasprintf("%s/%s", exe, what);
			if (is_dir(p))
				return p;
			free(p);
			p = xasprintf("%s/rankwatch-srcdir", exe);
			fp = fopen(p, "r");
			free(p);
			if (fp != NULL) {
				if (fgets(src, sizeof src, fp) != NULL) {
					src[strcspn(src, "\n")] = '\0';
					p = xasprintf("%s/%s", src, what);
					if (src[0] == '/' && is_dir(p)) {
						fclose(fp);
						return p;
					}
					free(p);
				}
				fclose(fp);
			}
		}
	}
	return xasprintf("%s/%s", RW_PKGDATADIR, what);
}

static char *
shipped_rules(void)
{
	return shipped("rules");
}

/* $XDG_DATA_HOME/rankwatch/<what> (default ~/.local/share/...), if it exists. */
static char *
user_data(const char *what)
{
	const char *x = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	char *p;

	if (x != NULL && *x == '/')
		p = xasprintf("%s/rankwatch/%s", x, what);
	else if (home != NULL)
		p = xasprintf("%s/.local/share/rankwatch/%s", home, what);
	else
		return NULL;
	if (is_dir(p))
		return p;
	free(p);
	return NULL;
}

static char *
user_rules(void)
{
	return user_data("rules");
}

static void
print_notes(const struct notes *ns, enum note_level min)
{
	size_t i;

	for (i = 0; i < ns->n; i++) {
		char *s;

		if (ns->v[i].level < min)
			continue;
		s = note_format(&ns->v[i]);
		fprintf(stderr, "rankwatch: %s\n", s);
		free(s);
	}
	if (ns->dropped)
		fprintf(stderr, "rankwatch: ... and %zu more\n", ns->dropped);
}

static size_t shipped_loaded = (size_t)-1;	/* entries load_rules found shipped */

static struct rulebook *
load_rules(char **extra, size_t nextra, int shipped, struct notes *ns)
{
	struct rulebook *rb = rulebook_new();
	char *d;
	size_t i;

	if (shipped) {
		d = shipped_rules();
		rulebook_load_dir(rb, d, ns);
		/* an install missing its data, or half of it, says so: without
		 * its entries a failure goes unrecognised */
		shipped_loaded = rb->nentries;
		if (rb->nentries < RW_SHIPPED_RULES)
			notes_add(ns, NOTE_ERROR, d, 0, 0, "%zu of the %d encyclopedia entries "
			    "rankwatch ships were loaded from here%s", rb->nentries,
			    RW_SHIPPED_RULES, rb->nentries == 0 ? " (none: is it installed?)" : "");
		free(d);
		if ((d = user_rules()) != NULL) {
			rulebook_load_dir(rb, d, ns);
			free(d);
		}
	}
	for (i = 0; i < nextra; i++)
		rulebook_load_dir(rb, extra[i], ns);
	rulebook_finish(rb, ns);
	return rb;
}

/* What --format FORMAT goes with, when it does not go with mode; NULL when
 * it does. */
static const char *
format_misfit(enum mode mode, const char *format)
{
	int list = mode == MODE_LIST || mode == MODE_SHOW || mode == MODE_ERRORS ||
	    mode == MODE_THEMES;

	if (strcmp(format, "text") == 0)
		return NULL;
	if (strcmp(format, "prometheus") == 0)
		return mode == MODE_REPORT || mode == MODE_WATCH ? NULL :
		    "--report and --watch (a Prometheus exposition of the diagnosis)";
	if (strcmp(format, "jsonl") == 0)
		return mode == MODE_WATCH ? NULL :
		    "--watch (one JSON object per line as the run goes on)";
	if (mode == MODE_REPORT || (list && strcmp(format, "json") == 0))
		return NULL;
	if (mode == MODE_WATCH)
		return "a whole report (--report); --watch prints text, jsonl or prometheus";
	if (strcmp(format, "json") == 0)
		return "--report, --list-rules, --show, --errors and --list-themes";
	return "--report";
}

/* The theme folders, shipped then the user's, into dirs[2]; how many.
 * theme_dirs_free frees them. */
static size_t
theme_dirs(char **dirs)
{
	size_t nd = 0;

	dirs[nd++] = shipped("themes");
	if ((dirs[nd] = user_data("themes")) != NULL)
		nd++;
	return nd;
}

static void
theme_dirs_free(char **dirs, size_t nd)
{
	while (nd > 0)
		free(dirs[--nd]);
}

/* --list-themes: the console's themes, as the console finds them. */
static void
list_themes(int json, struct buf *out)
{
	struct theme_set ts;
	struct notes ns;
	char *dirs[2];
	size_t nd = 0, i;

	notes_init(&ns);
	nd = theme_dirs(dirs);
	theme_set_load(&ts, dirs, nd, &ns);
	print_notes(&ns, NOTE_WARN);
	if (json)
		buf_addc(out, '[');
	/* v[0] is the built-in mono theme, which a mono.yaml may also be */
	for (i = 0; i < ts.n; i++) {
		const struct theme *th = ts.v[i];

		if (i == 0 && ts.n > 1) {
			size_t j;

			for (j = 1; j < ts.n && strcmp(ts.v[j]->name, th->name) != 0; j++)
				;
			if (j < ts.n)
				continue;
		}
		if (json) {
			buf_adds(out, out->len > 1 ? ",\n {\"name\": " : "{\"name\": ");
			buf_add_jstr(out, th->name);
			buf_adds(out, ", \"file\": ");
			buf_add_jstr(out, th->file);
			buf_addc(out, '}');
		} else
			buf_printf(out, "%-16s  %s\n", th->name, th->file ? th->file : "(built in)");
	}
	if (json)
		buf_adds(out, "]\n");
	theme_set_release(&ts);
	theme_dirs_free(dirs, nd);
	notes_release(&ns);
}

static int
do_check(char **dirs, size_t ndirs)
{
	struct notes ns;
	struct rulebook *rb;
	struct rulecheck_stats st;
	size_t load_errors;

	notes_init(&ns);
	rb = load_rules(dirs, ndirs, ndirs == 0, &ns);
	load_errors = ns.errors;
	rulecheck_run(rb, 1, &ns, &st);
	print_notes(&ns, NOTE_WARN);
	printf("%zu entries, %zu signatures, %zu conditions; %zu examples and "
	    "%zu counterexamples checked; %zu signature%s unfiltered\n",
	    st.entries, st.signatures, st.conditions, st.examples,
	    st.counterexamples, st.unfiltered, st.unfiltered == 1 ? "" : "s");
	if (st.shortest != NULL)
		printf("prefilter stride %d (set by \"%s\", %zu bytes, of %s; 11 bytes or more "
		    "allow 8); %zu literal%s under %d bytes in the one-pass literal scan\n",
		    st.step, st.shortest_lit, st.shortest_len, st.shortest->fullid, st.shorts,
		    st.shorts == 1 ? "" : "s", MATCHER_LONG_FRAG);
	free(st.shortest_lit);
	if (load_errors + st.failures > 0)
		printf("%zu problem%s\n", load_errors + st.failures,
		    load_errors + st.failures == 1 ? "" : "s");
	else
		printf("all rules are valid\n");
	rulebook_free(rb);
	notes_release(&ns);
	return load_errors + st.failures > 0 ? 1 : 0;
}

static int
rm_one(const char *p, const struct stat *sb, int flag, struct FTW *f)
{
	(void)sb;
	(void)flag;
	(void)f;
	return remove(p);
}

/* --demo: a sample incident written again into a temporary folder
 * ($TMPDIR or /tmp) at a watchable pace by a child process, while the console follows it. */
static int
demo_run(const struct rulebook *rb, const char *scenario, const char *theme)
{
	const char *tmpdir = getenv("TMPDIR") && *getenv("TMPDIR") == '/' ? getenv("TMPDIR") : "/tmp";
	char *samples = shipped("samples"), *src, *why = NULL;
	char *tmp = xasprintf("%s/rankwatch-demo-XXXXXX", tmpdir);
	char *dirs[2];
	const char *paths[1];
	struct replay *rp;
	struct run *r;
	size_t nd = 0, i;
	pid_t pid;
	int status;
	double seconds = 45;

	src = xasprintf("%s/%s", samples, scenario);
	free(samples);
	if (!is_dir(src)) {
		fprintf(stderr, "rankwatch: no demo '%s' (%s): the demos are the folders of samples/\n",
		    scenario, src);
		free(src);
		free(tmp);
		return 2;
	}
	if (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO)) {
		fprintf(stderr, "rankwatch: --demo needs a terminal\n");
		free(src);
		free(tmp);
		return 2;
	}
	if (getenv("RANKWATCH_DEMO_SECONDS") != NULL && atof(getenv("RANKWATCH_DEMO_SECONDS")) > 0)
		seconds = atof(getenv("RANKWATCH_DEMO_SECONDS"));
	if (mkdtemp(tmp) == NULL || (rp = replay_new(src, tmp, seconds, &why)) == NULL) {
		fprintf(stderr, "rankwatch: %s\n", why ? why : strerror(errno));
		free(why);
		free(src);
		free(tmp);
		return 2;
	}
	free(src);
	if ((pid = fork()) == 0) {
		for (i = 0; i < replay_lines(rp); i++) {
			long w = replay_step(rp, i);

			if (w > 0)
				usleep((useconds_t)w * 1000);
		}
		_exit(0);
	}
	paths[0] = tmp;
	r = run_new(rb, paths, 1, NULL, &why);
	if (r == NULL) {
		fprintf(stderr, "rankwatch: %s\n", why);
		free(why);
		status = 2;
	} else {
		nd = theme_dirs(dirs);
		status = tui_main(r, rb, paths, 1, theme, dirs, nd, 1);
		theme_dirs_free(dirs, nd);
		run_free(r);
	}
	if (pid > 0) {
		kill(pid, SIGTERM);
		waitpid(pid, NULL, 0);
	}
	replay_free(rp);
	nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(tmp);
	return status;
}

static volatile sig_atomic_t stop;
static int out_errno;	/* the first failed write to standard output */

/* Write to standard output and flush; remember the first failure. */
static void
out_write(const char *s, size_t n)
{
	if (out_errno != 0)
		return;
	errno = 0;
	if ((n > 0 && fwrite(s, 1, n, stdout) != n) || fflush(stdout) != 0)
		out_errno = errno ? errno : EIO;
}

static void
out_drain(void *arg, const char *s, size_t n)
{
	(void)arg;
	out_write(s, n);
}

/* Exit status once the output is done: a reader that went away (EPIPE) is
 * a quiet end, any other failed write an error. */
static int
out_status(int status)
{
	if (out_errno == 0 && (fflush(stdout) != 0 || ferror(stdout)))
		out_errno = errno ? errno : EIO;
	if (out_errno == 0 || out_errno == EPIPE)
		return status;
	fprintf(stderr, "rankwatch: writing to standard output: %s\n", strerror(out_errno));
	return 2;
}

static void
on_stop(int sig)
{
	stop = sig;
}

/* ... before a report reads its first file (the rules compiled, the files
 * found: seconds for 100,000 files on a network filesystem): nothing to
 * say of how far it got, and nothing to wait for. */
static void
on_stop_early(int sig)
{
	static const char i[] = "rankwatch: interrupted (SIGINT) while finding the logs "
	    "and loading the rules; no report\n";
	static const char t[] = "rankwatch: interrupted (SIGTERM) while finding the logs "
	    "and loading the rules; no report\n";

	if (sig == SIGINT)
		(void)!write(STDERR_FILENO, i, sizeof i - 1);
	else
		(void)!write(STDERR_FILENO, t, sizeof t - 1);
	_exit(128 + sig);
}

/* SIGINT and SIGTERM to fn (a background job's inherited ignoring too). */
static void
catch_stop(void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = fn;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* --watch's choices, and where it is. */
struct watch_opts {
	int		 jsonl;
	int		 replay;	/* print the events already written */
	int		 all_events;	/* progress and context events too */
	int		 live;		/* past what was written when it started */
	const char	*output;	/* --format prometheus: the file to rewrite */
	struct run	*run;
};

/* --watch --format prometheus rewrites its file when something new was
 * read (lines, bytes, files), at most once per poll interval, and at
 * least every PROM_REFRESH_MS so that the ages it shows stay current and
 * the file's mtime says rankwatch is alive. */
#define PROM_REFRESH_MS	15000

struct prom_state {
	const char	*path;
	int		 interval_ms;
	int		 written;	/* at least once */
	long long	 last_ms;	/* monotonic time of the last write (or try) */
	unsigned long	 lines;		/* what had been read at the last write */
	uint64_t	 bytes;
	size_t		 files;
	time_t		 changed;	/* when the verdict last changed */
	char		*failing;	/* the last write's error, said once */
};

static long long
mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Milliseconds until the file is due to be written again. */
static long long
prom_due(const struct prom_state *ps, const struct run *r)
{
	int dirty = !ps->written || ps->lines != r->incident->lines ||
	    ps->bytes != r->incident->bytes || ps->files != r->nsources;
	long long wait = (dirty ? ps->interval_ms : PROM_REFRESH_MS) - (mono_ms() - ps->last_ms);

	return !ps->written || wait < 0 ? 0 : wait;
}

/* Write the exposition when it is due (or now, force: the streams have
 * ended); -1 when the first write fails (later failures are said once and
 * tried again). */
static int
prom_update(struct prom_state *ps, struct run *r, const struct analysis *an, int force)
{
	struct report_clock clk;
	struct buf b = BUF_INIT;
	char *why = NULL;
	int rc;

	if (!force && prom_due(ps, r) > 0)
		return 0;
	clk.now = (int64_t)time(NULL);
	clk.changed = (int64_t)ps->changed;
	report_prometheus(r, an, &clk, &b);
	rc = outfile_write(ps->path, b.s, b.len, &why);
	buf_release(&b);
	ps->last_ms = mono_ms();
	if (rc != 0 && !ps->written) {
		fprintf(stderr, "rankwatch: --output %s\n", why);
		free(why);
		return -1;
	}
	if (rc != 0) {
		if (ps->failing == NULL || strcmp(ps->failing, why) != 0)
			fprintf(stderr, "rankwatch: --output %s (trying again)\n", why);
		free(ps->failing);
		ps->failing = why;
		return 0;
	}
	if (ps->failing != NULL)
		fprintf(stderr, "rankwatch: --output %s: written again\n", ps->path);
	free(ps->failing);
	ps->failing = NULL;
	ps->written = 1;
	ps->lines = r->incident->lines;
	ps->bytes = r->incident->bytes;
	ps->files = r->nsources;
	return 0;
}

static void
print_event(void *arg, const struct event *ev)
{
	struct watch_opts *wo = arg;
	struct buf b = BUF_INIT;

	if ((!wo->live && !wo->replay) || wo->output != NULL)
		return;
	if (!wo->all_events && (ev->sig->role == ROLE_PROGRESS || ev->sig->role == ROLE_CONTEXT))
		return;
	if (wo->jsonl)
		report_event_jsonl(wo->run->rb, ev, &b);
	else
		report_event_text(ev, &b);
	out_write(b.s, b.len);
	buf_release(&b);
}

/* Was a folder among the paths (where files may yet appear)? */
static int
any_dir(const struct run *r)
{
	size_t i;

	for (i = 0; i < r->npaths; i++)
		if (is_dir(r->paths[i]))
			return 1;
	return 0;
}

/* Streams (standard input, --cmd) polled at once; more are read on the
 * watch's timer. */
#define WATCH_STREAMS	256

/* Only streams, and no folder where files may appear: when the streams
 * have all ended, nothing more will come. */
static int
streams_only(const struct run *r)
{
	size_t i;

	for (i = 0; i < r->nsources; i++)
		if (!SOURCE_IS_STREAM(r->sources[i]))
			return 0;
	return !any_dir(r);
}

/* --watch: follow the run until SIGINT/SIGTERM. First the verdict on
 * what was already written (after its events, with --replay), then each
 * new event (not progress or context ones, unless --all-events) and each
 * change of the verdict; as text, or one JSON object per line. */
static int
watch_run(struct run *r, int poll_ms, struct watch_opts *wo)
{
	struct notes wn;
	struct watch *w;
	struct buf b = BUF_INIT;
	char *last = NULL;
	size_t shown = 0;
	const char *why;
	struct prom_state ps;
	int sfd[WATCH_STREAMS], ending = 0;
	long long scanned = 0;

	memset(&ps, 0, sizeof ps);
	ps.path = wo->output;
	ps.interval_ms = poll_ms > 0 ? poll_ms : WATCH_POLL_MS;
	ps.changed = time(NULL);
	notes_init(&wn);
	run_follow(r);
	w = watch_new((const char *const *)r->paths, r->npaths, poll_ms, &wn);
	print_notes(&wn, NOTE_INFO);
	notes_release(&wn);
	catch_stop(on_stop);
	setvbuf(stdout, NULL, _IOLBF, 0);
	wo->run = r;
	r->on_event = print_event;
	r->on_event_arg = wo;
	if (watch_polling(w, &why))
		fprintf(stderr, "rankwatch: polling (%s)\n", why);
	while (!stop) {
		struct pollfd pfd = { watch_fd(w), POLLIN, 0 };
		const struct analysis *an;
		int rescan = 0;

		run_scan(r, ending);
		scanned = mono_ms();
		for (; shown < r->notes.n; shown++) {
			char *s = note_format(&r->notes.v[shown]);

			fprintf(stderr, "rankwatch: %s\n", s);
			free(s);
		}
		if (last == NULL && run_readable(r) == 0 && !any_dir(r)) {
			/* files given by name, none readable: nothing will come */
			fprintf(stderr, "rankwatch: nothing readable\n");
			buf_release(&b);
			watch_free(w);
			return 2;
		}
		an = incident_analyse(r->incident);
		buf_clear(&b);
		if (ps.path != NULL) {
			/* the verdict line says when the diagnosis changed */
			if (r->incident->lines > 0)
				report_verdict_jsonl(an, &b);
			if (last == NULL || strcmp(last, b.s ? b.s : "") != 0) {
				if (last != NULL)
					ps.changed = time(NULL);
				if (last == NULL && r->incident->lines == 0)
					fprintf(stderr, "rankwatch: nothing to analyse yet; waiting for "
					    "lines\n");
				free(last);
				last = xstrdup(b.s ? b.s : "");
			}
			if (prom_update(&ps, r, an, ending) != 0) {
				free(last);
				buf_release(&b);
				watch_free(w);
				return 2;
			}
		} else if (r->incident->lines == 0) {
			/* nothing read yet is no verdict, least of all "healthy" */
			if (last == NULL) {
				fprintf(stderr, "rankwatch: nothing to analyse yet; waiting for "
				    "lines\n");
				last = xstrdup("");
			}
		} else {
			if (wo->jsonl)
				report_verdict_jsonl(an, &b);
			else
				buf_printf(&b, "%s: %s\n", verdict_name(an->verdict), an->reason);
			if (last == NULL || strcmp(last, b.s) != 0) {
				out_write(b.s, b.len);
				free(last);
				last = xstrdup(b.s);
			}
			wo->live = 1;	/* what comes now is new */
		}
		if (out_errno != 0)
			break;	/* the reader has gone */
		if (ending)
			break;
		if (streams_only(r) && run_stream_fds(r, sfd, 1) == 0) {
			ending = 1;	/* every stream has ended: read their last lines */
			continue;
		}
		while (!stop) {
			/* standard output: a pipe whose reader went away reports
			 * POLLERR without a write (head -1 got its line); the
			 * watch; the streams */
			struct pollfd pf[2 + WATCH_STREAMS];
			/* a stream written to all the time is read, like files,
			 * at most every WATCH_COALESCE_MS: not polled till then */
			long long hold = WATCH_COALESCE_MS - (mono_ms() - scanned);
			size_t ns = hold > 0 ? 0 : run_stream_fds(r, sfd, WATCH_STREAMS), np = 1, k;
			int rc, readable = 0, ms = ns < WATCH_STREAMS ? watch_timeout(w) :
			    watch_timeout(w) >= 0 && watch_timeout(w) < 100 ? watch_timeout(w) : 100;

			if (hold > 0 && run_stream_fds(r, sfd, 1) > 0 && (ms < 0 || ms > hold))
				ms = (int)hold;

			/* --output: no reader to watch for */
			pf[0] = (struct pollfd){ ps.path ? -1 : STDOUT_FILENO, 0, 0 };
			if (pfd.fd >= 0)
				pf[np++] = pfd;
			for (k = 0; k < ns; k++)
				pf[np++] = (struct pollfd){ sfd[k], POLLIN, 0 };
			if (ps.path != NULL) {	/* the file may be due before the watch is */
				long long due = prom_due(&ps, r);

				if (ms < 0 || due < ms)
					ms = (int)due;
			}
			rc = poll(pf, (nfds_t)np, ms);
			if (rc < 0 && errno != EINTR)
				break;
			if (ps.path != NULL && prom_due(&ps, r) == 0)
				break;
			if (pf[0].revents & (POLLERR | POLLHUP)) {
				out_errno = EPIPE;
				break;
			}
			for (k = np - ns; k < np; k++)
				if (pf[k].revents != 0)
					readable = 1;
			if (watch_check(w, &rescan) || readable)
				break;
		}
		if (out_errno != 0)
			break;
		if (rescan) {
			run_rediscover(r);
			watch_refresh(w, (const char *const *)r->paths, r->npaths, &r->notes);
		}
	}
	free(last);
	free(ps.failing);
	buf_release(&b);
	watch_free(w);
	/* the streams ended: the run's answer, as a report's (nothing to
	 * judge when no stream could be read: a command that failed) */
	if (ending && run_readable(r) == 0) {
		fprintf(stderr, "rankwatch: nothing readable\n");
		return out_status(2);
	}
	return out_status(ending && r->incident->lines > 0 ?
	    report_exit_status(incident_analyse(r->incident)) : 0);
}

/* --cmd's commands, expanded. */
static char **cmds;
static size_t ncmds;

static void
free_cmds(void)
{
	while (ncmds > 0)
		free(cmds[--ncmds]);
	free(cmds);
	cmds = NULL;
}

static int
add_cmds(const char *pattern)
{
	char **v, *why = NULL;
	size_t n = stream_expand(pattern, &v, &why), i;

	if (n == 0 || ncmds + n > STREAM_MAX) {
		fprintf(stderr, "rankwatch: --cmd %s: %s\n", pattern, why ? why :
		    "more than " STREAM_MAX_S " commands in all");
		free(why);
		for (i = 0; i < n; i++)
			free(v[i]);
		free(v);
		return 2;
	}
	if (cmds == NULL)
		atexit(free_cmds);
	cmds = xrealloc(cmds, (ncmds + n) * sizeof *cmds);
	memcpy(cmds + ncmds, v, n * sizeof *v);
	ncmds += n;
	free(v);
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "report", no_argument, NULL, 'r' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "rules", required_argument, NULL, 'R' },
		{ "all-attempts", no_argument, NULL, 'A' },
		{ "check-rules", no_argument, NULL, 'C' },
		{ "list-rules", no_argument, NULL, 'L' },
		{ "show", required_argument, NULL, 'S' },
		{ "dump-patterns", no_argument, NULL, 'P' },
		{ "errors", no_argument, NULL, 'E' },
		{ "list-themes", no_argument, NULL, 'H' },
		{ "replay", no_argument, NULL, 'Y' },
		{ "all-events", no_argument, NULL, 'a' },
		{ "theme", required_argument, NULL, 'T' },
		{ "watch", no_argument, NULL, 'W' },
		{ "demo", optional_argument, NULL, 'D' },
		{ "poll", optional_argument, NULL, 'O' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "cmd", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	enum mode mode = MODE_CONSOLE;
	const struct report_format *fmt = report_format_find("text");
	char **rules = xcalloc((size_t)argc + 2, sizeof *rules), *show = NULL, *why = NULL;
	const char *theme = NULL, *format = "text", *demo = NULL, *misfit, *output = NULL;
	struct outfile *of = NULL;
	int poll_ms = 0;
	struct config cfg;
	size_t nrules = 0, i;
	struct run_options ro = { 0 };
	struct watch_opts wo = { 0 };
	struct rulebook *rb;
	struct notes ns;
	struct run *r;
	struct buf out = BUF_INIT;
	int c, status;

#if defined(HAVE_MALLOPT) && defined(M_MMAP_THRESHOLD)
	/* glibc raises its mmap threshold each time a mapped block is freed
	 * (a folder's listing, a pass's queues), after which the arrays a big
	 * run grows by realloc (its events, ranks, files) come from the heap,
	 * each step leaving a hole as large as the array was. Kept at its
	 * first value, they stay mapped: they grow in place and go back to
	 * the system when freed (a 131,072-rank report: 1.6 MiB less). */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
	while ((c = getopt_long(argc, argv, "rf:o:R:hVwj:", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			mode = MODE_REPORT;
			break;
		case 'f':
			format = optarg;
			if (strcmp(optarg, "jsonl") == 0)
				break;
			if ((fmt = report_format_find(optarg)) == NULL) {
				fprintf(stderr, "rankwatch: unknown format '%s' (text, json, markdown, "
				    "prometheus)\n", optarg);
				free(rules);
				return 2;
			}
			break;
		case 'o':
			output = optarg;
			break;
		case 'R':
			rules[nrules++] = optarg;
			break;
		case 'A':
			ro.all_attempts = 1;
			break;
		case 'C':
			mode = MODE_CHECK;
			break;
		case 'L':
			mode = MODE_LIST;
			break;
		case 'S':
			mode = MODE_SHOW;
			show = optarg;
			break;
		case 'P':
			mode = MODE_PATTERNS;
			break;
		case 'E':
			mode = MODE_ERRORS;
			break;
		case 'H':
			mode = MODE_THEMES;
			break;
		case 'Y':
			wo.replay = 1;
			break;
		case 'a':
			wo.all_events = 1;
			break;
		case 'T':
			theme = optarg;
			break;
		case 'W':
		case 'w':
			mode = MODE_WATCH;
			break;
		case 'D':
			mode = MODE_DEMO;
			demo = optarg ? optarg : "oom-collateral";
			break;
		case 'j': {
			char *end;
			long n = strtol(optarg, &end, 10);

			if (end == optarg || *end != '\0' || n < 1 || n > 1024) {
				fprintf(stderr, "rankwatch: --jobs takes a number of threads from 1 "
				    "to 1024, not '%s'\nTry 'rankwatch --help'.\n", optarg);
				free(rules);
				return 2;
			}
			ro.jobs = (int)n;
			break;
		}
		case 'O':
			poll_ms = optarg ? atoi(optarg) : WATCH_POLL_MS;
			if (poll_ms <= 0) {
				fprintf(stderr, "rankwatch: --poll takes milliseconds, e.g. --poll=500\n");
				free(rules);
				return 2;
			}
			break;
		case 'c':
			if (add_cmds(optarg) != 0) {
				free(rules);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			free(rules);
			return 0;
		case 'V':
			printf("rankwatch %s\n"
			    "Copyright (c) 2026 the rankwatch authors; ISC licence (see LICENSE).\n",
			    PACKAGE_VERSION);
			free(rules);
			return 0;
		default:
			/* getopt said what was wrong, in one line; as GNU tools do */
			fprintf(stderr, "Try 'rankwatch --help'.\n");
			free(rules);
			return 2;
		}
	}
	if ((wo.replay || wo.all_events) && mode != MODE_WATCH) {
		fprintf(stderr, "rankwatch: --%s goes with --watch\n", wo.replay ? "replay" :
		    "all-events");
		free(rules);
		return 2;
	}
	if ((misfit = format_misfit(mode, format)) != NULL) {
		fprintf(stderr, "rankwatch: --format %s goes with %s\n", format, misfit);
		free(rules);
		return 2;
	}
	/* a file rewritten whole: a report, or the exposition --watch keeps
	 * current; a stream of lines is for a pipe */
	if (output != NULL && mode != MODE_REPORT && !(mode == MODE_WATCH &&
	    strcmp(format, "prometheus") == 0)) {
		fprintf(stderr, "rankwatch: --output goes with --report, or with --watch --format "
		    "prometheus\n");
		free(rules);
		return 2;
	}
	if (output == NULL && mode == MODE_WATCH && strcmp(format, "prometheus") == 0) {
		fprintf(stderr, "rankwatch: --watch --format prometheus needs --output FILE (the "
		    "file it keeps rewriting, e.g. for node_exporter's textfile collector)\n");
		free(rules);
		return 2;
	}
	if (mode == MODE_CHECK) {
		for (; optind < argc; optind++)
			rules[nrules++] = argv[optind];
		status = do_check(rules, nrules);
		free(rules);
		return status;
	}
	if (mode == MODE_REPORT)
		catch_stop(on_stop_early);
	notes_init(&ns);
	{
		/* the settings file's own problems (an unknown key, bad YAML)
		 * are said, with its name and line, never ignored in silence */
		struct notes cn;

		notes_init(&cn);
		config_load(&cfg, &cn);
		print_notes(&cn, NOTE_WARN);
		notes_release(&cn);
	}
	if (theme == NULL)
		theme = cfg.theme;
	for (i = 0; i < cfg.rules.n; i++)
		rules[nrules++] = cfg.rules.v[i];
	rb = load_rules(rules, nrules, 1, &ns);
	free(rules);
	print_notes(&ns, NOTE_ERROR);
	if (mode == MODE_LIST || mode == MODE_SHOW || mode == MODE_PATTERNS ||
	    mode == MODE_ERRORS || mode == MODE_THEMES) {
		int json = strcmp(format, "json") == 0;

		status = 0;
		if (mode == MODE_LIST && json)
			encyclopedia_list_json(rb, &out);
		else if (mode == MODE_LIST)
			encyclopedia_list(rb, &out);
		else if (mode == MODE_ERRORS && json)
			encyclopedia_errors_json(rb, &out);
		else if (mode == MODE_ERRORS)
			encyclopedia_errors(rb, 78, &out);
		else if (mode == MODE_THEMES)
			list_themes(json, &out);
		else if (mode == MODE_PATTERNS) {
			/* the patterns searched for in the text (bench/lib.sh
			 * hands them to rg): not those run on the lines a
			 * logger marked with a level, which a text search
			 * cannot tell (unlisted-error's "[A-Za-z]{3}" would
			 * match every line) */
			for (i = 0; i < rb->nsigs; i++)
				if (rb->sigs[i]->level == 0)
					buf_printf(&out, "%s\n", rb->sigs[i]->pattern);
		} else {
			const struct entry *e = rulebook_entry(rb, show);

			if (e == NULL) {
				fprintf(stderr, "rankwatch: no entry '%s' (see --list-rules)\n", show);
				status = 2;
			} else if (json)
				encyclopedia_show_json(e, &out);
			else
				encyclopedia_show(e, 78, &out);
		}
		out_write(out.s ? out.s : "", out.len);
		status = out_status(status);
		buf_release(&out);
		config_release(&cfg);
		rulebook_free(rb);
		notes_release(&ns);
		return status;
	}
	if (mode == MODE_DEMO) {
		status = demo_run(rb, demo, theme);
		config_release(&cfg);
		rulebook_free(rb);
		notes_release(&ns);
		return status;
	}
	ro.cmds = cmds;
	ro.ncmds = ncmds;
	if (mode == MODE_CONSOLE)
		ro.spool_dir = getenv("TMPDIR") && *getenv("TMPDIR") == '/' ? getenv("TMPDIR") :
		    "/tmp";
	if (optind >= argc && ncmds == 0) {
		fprintf(stderr, "rankwatch: no log path given (a run's folder, log files, -, or "
		    "--cmd)\n"
		    "Try 'rankwatch --help'.\n");
		config_release(&cfg);
		rulebook_free(rb);
		notes_release(&ns);
		return 2;
	}
	if (rb->nentries == 0) {
		char *d = shipped_rules(), *u = user_rules();

		/* Without an encyclopedia every run would look healthy. */
		fprintf(stderr, "rankwatch: no encyclopedia entries loaded (looked in %s%s%s); "
		    "without them no failure can be recognised\n", d,
		    nrules ? " and the --rules / config folders" : "",
		    u != NULL ? " and the user's rules folder" : "");
		free(d);
		free(u);
		config_release(&cfg);
		rulebook_free(rb);
		notes_release(&ns);
		return 2;
	}
	ro.once = mode == MODE_REPORT;
	r = run_new(rb, (const char *const *)argv + optind, (size_t)(argc - optind), &ro, &why);
	if (r == NULL) {
		fprintf(stderr, "rankwatch: %s\n", why);
		free(why);
		config_release(&cfg);
		rulebook_free(rb);
		notes_release(&ns);
		return 2;
	}
	if (shipped_loaded < RW_SHIPPED_RULES) {	/* in the report's notes too */
		char *d = shipped_rules();

		notes_add(&r->notes, NOTE_WARN, d, 0, 0, "%zu of the %d encyclopedia entries "
		    "rankwatch ships were loaded from here: failures of the others go unrecognised",
		    shipped_loaded, RW_SHIPPED_RULES);
		free(d);
	}
	if (mode == MODE_WATCH) {
		wo.jsonl = strcmp(format, "jsonl") == 0;
		wo.output = output;
		status = watch_run(r, poll_ms, &wo);
		run_free(r);
		config_release(&cfg);
		rulebook_free(rb);
		notes_release(&ns);
		return status;
	}
	if (mode == MODE_CONSOLE) {
		char *dirs[2];
		size_t nd = 0;

		/* the logs may come on standard input: then the keys come
		 * from the terminal, /dev/tty, as less does it */
		int tty = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY);

		if (tty >= 0)
			close(tty);
		for (i = (size_t)optind; i < (size_t)argc; i++)
			if (strcmp(argv[i], "-") == 0 && isatty(STDIN_FILENO)) {
				fprintf(stderr, "rankwatch: - reads the logs from standard input, "
				    "which is the terminal here: pipe them in (kubectl logs -f POD | "
				    "rankwatch -)\n");
				run_free(r);
				config_release(&cfg);
				rulebook_free(rb);
				notes_release(&ns);
				return 2;
			}
		if (!isatty(STDOUT_FILENO) || (!isatty(STDIN_FILENO) && tty < 0)) {
			fprintf(stderr, "rankwatch: the console needs a terminal; use --report or "
			    "--watch\n");
			run_free(r);
			config_release(&cfg);
			rulebook_free(rb);
			notes_release(&ns);
			return 2;
		}
		nd = theme_dirs(dirs);
		status = tui_main(r, rb, (const char *const *)argv + optind,
		    (size_t)(argc - optind), theme, dirs, nd, poll_ms > 0 ? poll_ms : 1);
		theme_dirs_free(dirs, nd);
		run_free(r);
		config_release(&cfg);
		rulebook_free(rb);
		notes_release(&ns);
		return status;
	}
	/* --output: its folder must take the file before the logs are read */
	if (output != NULL && (of = outfile_open(output, &why)) == NULL) {
		fprintf(stderr, "rankwatch: --output %s\n", why);
		free(why);
		run_free(r);
		config_release(&cfg);
		rulebook_free(rb);
		notes_release(&ns);
		return 2;
	}
	/* SIGINT or SIGTERM while reading: say how far it got, and print no
	 * report (a half-read run is no diagnosis), exit 128 + signal. */
	catch_stop(on_stop);
	while (!stop && run_scan_step(r, 1 << 20, 1))
		;
	if (stop) {
		char done[32];
		size_t at = r->cursor < r->nsources ? r->cursor : r->nsources - 1;

		buf_format_bytes(r->bytes, done, sizeof done);
		fprintf(stderr, "rankwatch: interrupted (%s) while reading %s, file %zu of %zu, "
		    "after %s; no report\n", stop == SIGINT ? "SIGINT" : "SIGTERM",
		    r->sources[at]->where.name, at + 1, r->nsources, done);
		status = 128 + stop;
		outfile_abort(of);
		run_free(r);
		config_release(&cfg);
		rulebook_free(rb);
		notes_release(&ns);
		return status;
	}
	if (run_readable(r) == 0 || r->incident->lines == 0) {
		print_notes(&r->notes, NOTE_WARN);
		if (run_readable(r) == 0)
			fprintf(stderr, "rankwatch: nothing readable\n");
		else {
			char pbuf[PATH_MAX];
			const char *p;
			int attempts = 0;

			for (i = 0; i < r->nsources; i++)
				if ((p = source_path(r->sources[i], pbuf, sizeof pbuf)) != NULL &&
				    strstr(p, "/attempt_") != NULL)
					attempts = 1;
			fprintf(stderr, "rankwatch: nothing to analyse: %zu file%s read, all "
			    "empty%s\n", r->nsources, r->nsources == 1 ? "" : "s",
			    attempts && !ro.all_attempts ? " (the newest torchrun attempt has not "
			    "written yet? --all-attempts reads the earlier ones too)" : "");
		}
		/* the exposition still says so (rankwatch_up 0, no verdict): a
		 * collector must not keep showing an earlier state */
		status = 2;
		if (fmt->render == report_render_prometheus) {
			report_render(fmt, r, &out);
			if (of != NULL && outfile_commit(of, out.s, out.len, &why) != 0) {
				fprintf(stderr, "rankwatch: --output %s\n", why);
				free(why);
			} else if (of == NULL) {
				out_write(out.s, out.len);
				status = out_status(2);
			}
			of = NULL;
			buf_release(&out);
		}
		outfile_abort(of);
		run_free(r);
		config_release(&cfg);
		rulebook_free(rb);
		notes_release(&ns);
		return status;
	}
	print_notes(&r->notes, NOTE_ERROR);
	status = report_exit_status(incident_analyse(r->incident));
	if (of != NULL) {
		/* whole, then renamed into place */
		report_render(fmt, r, &out);
		if (outfile_commit(of, out.s ? out.s : "", out.len, &why) != 0) {
			fprintf(stderr, "rankwatch: --output %s\n", why);
			free(why);
			status = 2;
		}
	} else {
		out.drain = out_drain;
		report_render(fmt, r, &out);
		out_write(out.s, out.len);
		status = out_status(status);
	}
	buf_release(&out);
	run_free(r);
	config_release(&cfg);
	rulebook_free(rb);
	notes_release(&ns);
	return status;
}
