/* tui.c: the console's loop, theme handling and drawing helpers.
 * Signal handlers only set flags; ncurses delivers KEY_RESIZE. Reading the
 * logs happens in slices between key presses, so keys never wait on files.
 * The terminal is restored on every way out. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "buf.h"
#include "encyclopedia.h"
#include "imap.h"
#include "report.h"
#include "search.h"
#include "tui.h"
#include "watch.h"
#include "wrap.h"
#include "xmalloc.h"

#define SLICE_BYTES	(2u << 20)	/* read per loop turn while loading */
#define ANALYSE_EVERY	250		/* ms between analyses while loading */

const struct keybinding keytable[] = {
#define X(a, k, h, ...) { ACT_##a, k, h, { __VA_ARGS__ } },
	KEY_TABLE(X)
#undef X
};
const size_t nkeytable = sizeof keytable / sizeof *keytable;

enum action
keys_action(int code)
{
	size_t i, j;

	for (i = 0; i < nkeytable; i++)
		for (j = 0; j < 4 && keytable[i].codes[j] != 0; j++)
			if (keytable[i].codes[j] == code)
				return keytable[i].action;
	return ACT_NONE;
}

static volatile sig_atomic_t got_signal;

static void
on_signal(int sig)
{
	got_signal = sig;
}

/* --- themes ----------------------------------------------------------- */

static short
down_to_8(short c)
{
	/* 256-colour cube and grey ramp to the nearest of the basic eight */
	int r, g, b;

	if (c < 0 || c < 8)
		return c;
	if (c < 16)
		return (short)(c - 8);
	if (c >= 232)
		return c >= 244 ? 7 : 0;
	c -= 16;
	r = c / 36 >= 3;
	g = c / 6 % 6 >= 3;
	b = c % 6 >= 3;
	return (short)(r | g << 1 | b << 2);
}

static void
theme_apply(struct tui *t)
{
	const struct theme *th = t->themes.v[t->theme];
	int r;

	if (!t->colors)
		return;
	for (r = 0; r < TR__COUNT; r++) {
		short fg = th->style[r].fg, bg = th->style[r].bg;

		if (COLORS < 256) {
			fg = COLORS >= 16 ? (fg >= 16 ? down_to_8(fg) : fg) : down_to_8(fg);
			bg = COLORS >= 16 ? (bg >= 16 ? down_to_8(bg) : bg) : down_to_8(bg);
		}
		init_pair((short)(r + 1), fg, bg);
	}
}

chtype
tui_attr(struct tui *t, enum theme_role r)
{
	const struct theme_style *st = &t->themes.v[t->colors ? t->theme : 0]->style[r];
	chtype a = 0;
	unsigned at = st->attrs;

	if (!t->colors) {
		/* monochrome: theme[0] is the mono theme */
		st = &t->themes.v[0]->style[r];
		at = st->attrs;
	} else {
		a |= COLOR_PAIR(r + 1);
		/* bright colours on an 8-colour terminal: bold */
		if (COLORS < 16 && st->fg >= 8 && st->fg < 16)
			at |= THEME_BOLD;
	}
	if (at & THEME_BOLD)
		a |= A_BOLD;
	if (at & THEME_UNDERLINE)
		a |= A_UNDERLINE;
	if (at & THEME_REVERSE)
		a |= A_REVERSE;
	if (at & THEME_DIM)
		a |= A_DIM;
#ifdef A_ITALIC
	if (at & THEME_ITALIC)
		a |= A_ITALIC;
#endif
	return a;
}

void
tui_role(struct tui *t, enum theme_role r)
{
	attrset(tui_attr(t, r));
}

/* --- drawing helpers ---------------------------------------------------- */

/* Walk s[0..n) as the console shows it, up to width cells; draw it at the
 * cursor in role's attributes when draw. Returns the bytes taken; *cells
 * the cells they take. */
static size_t
walk(struct tui *t, const char *s, size_t n, int width, int draw, enum theme_role role,
    int *cells)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i;
	int used = 0, w;
	chtype a = draw ? tui_attr(t, role) : 0, esc = draw ? tui_attr(t, TR_ESCAPED) : 0;
	struct vis v;

	/* control characters, escapes and invalid UTF-8 made visible */
	for (i = 0; i < n && used < width; i += v.len) {
		vis_next(u + i, n - i, t->utf8, &v);
		if (v.kind == VIS_TAB || (v.kind == VIS_TEXT && v.len == 1)) {
			if (draw) {
				attrset(a);
				addch(v.kind == VIS_TAB ? ' ' : u[i]);
			}
			used++;
		} else if (v.kind == VIS_TEXT) {
			wchar_t wc;
			mbstate_t st;

			memset(&st, 0, sizeof st);
			if (mbrtowc(&wc, s + i, v.len, &st) != v.len || (w = wcwidth(wc)) < 0) {
				w = 1;
				wc = L'?';
			}
			if (used + w > width)
				break;
			if (draw) {
				attrset(a);
				addnwstr(&wc, 1);
			}
			used += w;
		} else {
			w = (int)strlen(v.show);
			if (used + w > width)
				break;
			if (draw) {
				attrset(esc);
				addstr(v.show);
			}
			used += w;
		}
	}
	if (draw)
		attrset(A_NORMAL);
	if (cells != NULL)
		*cells = used;
	return i < n ? i : n;
}

int
tui_put(struct tui *t, int y, int x, int width, const char *s, size_t n,
    enum theme_role role)
{
	int used;

	if (width <= 0)
		return 0;
	move(y, x);
	walk(t, s, n, width, 1, role, &used);
	return used;
}

size_t
tui_fit(struct tui *t, const char *s, size_t n, int width, int *cells)
{
	return walk(t, s, n, width, 0, TR_NORMAL, cells);
}

int
tui_put_marked(struct tui *t, int y, int x, int width, const char *s, size_t n, size_t skip,
    enum theme_role role, struct pattern *pat)
{
	size_t at = skip, so, eo, from = 0;
	int used = 0;

	while (used < width && at < n) {
		/* the next match that ends after where drawing is */
		while (pat != NULL && pattern_find(pat, s, n, from, &so, &eo) && eo <= at)
			from = eo;
		if (pat == NULL || !pattern_find(pat, s, n, from, &so, &eo))
			so = eo = n;
		if (so > at) {
			used += tui_put(t, y, x + used, width - used, s + at, so - at, role);
			at = so;
		}
		if (at < eo && used < width) {
			used += tui_put(t, y, x + used, width - used, s + at, eo - at, TR_SEARCH);
			at = eo;
			from = eo;
		}
	}
	return used;
}

int
tui_puts(struct tui *t, int y, int x, int width, const char *s, enum theme_role role)
{
	return tui_put(t, y, x, width, s, strlen(s), role);
}

void
tui_fill(struct tui *t, int y, int x, int width, enum theme_role role)
{
	attrset(tui_attr(t, role));
	if (width > 0)
		mvhline(y, x, ' ', width);
	attrset(A_NORMAL);
}

void
tui_rule(struct tui *t, int y, const char *title)
{
	attrset(tui_attr(t, TR_DIM));
	mvhline(y, 0, t->utf8 ? 0 : '-', COLS);
	if (t->utf8)
		mvhline_set(y, 0, WACS_HLINE, COLS);
	attrset(A_NORMAL);
	if (title != NULL && *title) {
		char buf[256];

		snprintf(buf, sizeof buf, " %s ", title);
		tui_puts(t, y, 2, COLS - 4, buf, TR_TITLE);
	}
}

enum theme_role
tui_rank_role(enum rank_role r)
{
	switch (r) {
	case RR_INITIATING:
		return TR_INITIATING;
	case RR_COLLATERAL:
		return TR_COLLATERAL;
	case RR_SUSPECT:
		return TR_SUSPECT;
	case RR_SILENT:
		return TR_SILENT;
	default:
		return TR_HEALTHY;
	}
}

enum theme_role
tui_severity_role(const char *sev)
{
	if (strcmp(sev, "critical") == 0)
		return TR_CRITICAL;
	if (strcmp(sev, "high") == 0)
		return TR_HIGH;
	if (strcmp(sev, "medium") == 0)
		return TR_MEDIUM;
	return TR_LOW;
}

void
tui_message(struct tui *t, int error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->message, sizeof t->message, fmt, ap);
	va_end(ap);
	t->message_error = error;
}

char *
tui_prompt(struct tui *t, const char *prompt, const char *initial)
{
	struct buf b = BUF_INIT;
	wint_t ch;
	int rc, y = LINES - 1;

	if (initial != NULL)
		buf_adds(&b, initial);
	curs_set(1);
	timeout(-1);
	for (;;) {
		tui_fill(t, y, 0, COLS, TR_STATUS);
		tui_puts(t, y, 0, COLS, prompt, TR_STATUS);
		tui_put(t, y, (int)strlen(prompt), COLS - (int)strlen(prompt) - 1,
		    b.s ? b.s : "", b.len, TR_STATUS);
		refresh();
		rc = get_wch(&ch);
		if (rc == ERR)
			continue;
		if (rc == KEY_CODE_YES) {
			if (ch == KEY_BACKSPACE && b.len > 0) {
				while (b.len > 0 && ((unsigned char)b.s[--b.len] & 0xc0) == 0x80)
					;
				b.s[b.len] = '\0';
			} else if (ch == KEY_ENTER)
				break;
			continue;
		}
		if (ch == 27) {
			buf_release(&b);
			curs_set(0);
			return NULL;
		}
		if (ch == '\n' || ch == '\r')
			break;
		if (ch == 127 || ch == 8) {
			while (b.len > 0 && ((unsigned char)b.s[--b.len] & 0xc0) == 0x80)
				;
			if (b.s)
				b.s[b.len] = '\0';
			continue;
		}
		if (ch == 21) {	/* ^U */
			buf_clear(&b);
			continue;
		}
		if (ch >= 0x20) {
			char mb[8];
			mbstate_t st;
			size_t l;

			memset(&st, 0, sizeof st);
			if ((l = wcrtomb(mb, (wchar_t)ch, &st)) != (size_t)-1)
				buf_add(&b, mb, l);
		}
	}
	curs_set(0);
	return buf_detach(&b);
}

int
tui_ask_pattern(struct tui *t, const char *prompt, const char *initial, struct pattern **out)
{
	char *q = tui_prompt(t, prompt, initial), *why = NULL;
	int rc = -1;

	*out = NULL;
	if (q == NULL)
		return -1;
	if (*q == '\0')
		rc = 0;
	else if ((*out = pattern_new(q, &why)) == NULL) {
		tui_message(t, 1, "%s", why);
		free(why);
	} else
		rc = 1;
	free(q);
	return rc;
}

void
tui_push(struct tui *t, const struct view_ops *ops, void *data)
{
	if (t->depth >= (int)(sizeof t->stack / sizeof *t->stack)) {
		if (ops->release)
			ops->release(&(struct view){ ops, data });
		return;
	}
	t->stack[t->depth].ops = ops;
	t->stack[t->depth].data = data;
	t->depth++;
}

static void
pop(struct tui *t)
{
	struct view *v = &t->stack[--t->depth];

	if (v->ops->release)
		v->ops->release(v);
}

void
tui_analyse(struct tui *t)
{
	size_t i;

	t->an = incident_analyse(t->run->incident);
	t->dirty = 0;
	/* while loading: the ranks whose own files are read to the end (a
	 * file of many ranks not read yet leaves every rank reading) */
	imap_clear(&t->read_ranks);
	t->unread_multi = 0;
	if (!t->loading)
		return;
	for (i = 0; i < t->run->nsources; i++) {
		const struct source *s = t->run->sources[i];

		if (i < t->run->cursor && s->rank >= 0)
			imap_set(&t->read_ranks, s->rank, i);
		else if (i >= t->run->cursor && s->rank < 0)
			t->unread_multi = 1;
	}
}

int
tui_rank_reading(const struct tui *t, int rank)
{
	size_t at;

	if (!t->loading)
		return 0;
	return t->unread_multi || !imap_get(&t->read_ranks, rank, &at);
}

/* --- the loop -------------------------------------------------------- */

/* The key hints ("k what  k what ...", two spaces apart) that fit in
 * width cells: hints before the last two go, from the end, so that help
 * and back (or quit) stay and no hint is ever shown cut. */
static char *
fit_hints(const char *hints, int width)
{
	const char *p, *seps[64];
	size_t nsep = 0, keep;
	char *s = xstrdup(hints), *cut;

	for (p = hints; (p = strstr(p, "  ")) != NULL && nsep < 64; p += 2)
		seps[nsep++] = p;
	if (nsep < 2)
		return s;
	keep = nsep - 2;	/* the items after seps[nsep - 2] stay */
	while ((int)wrap_cells(s, strlen(s)) > width && keep > 0) {
		keep--;
		cut = xasprintf("%.*s%s", (int)(seps[keep] - hints), hints, seps[nsep - 2]);
		free(s);
		s = cut;
	}
	return s;
}

static void
draw_status(struct tui *t)
{
	struct view *v = &t->stack[t->depth - 1];
	int y = LINES - 1;

	tui_fill(t, y, 0, COLS, TR_STATUS);
	if (t->message[0]) {
		tui_puts(t, y, 1, COLS - 2, t->message, t->message_error ? TR_FAILURE : TR_STATUS);
		t->message[0] = '\0';
	} else {
		char *h = fit_hints(v->ops->hints, COLS - 2);

		tui_puts(t, y, 1, COLS - 2, h, TR_STATUS);
		free(h);
	}
}

/* ^Z: the terminal as it was, the process stopped as the shell's job
 * control expects; on fg, the screen drawn again. */
static void
suspend(struct tui *t)
{
	struct sigaction sa, old;

	(void)t;
	def_prog_mode();
	endwin();
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGTSTP, &sa, &old);
	kill(getpid(), SIGTSTP);
	/* here again after SIGCONT */
	sigaction(SIGTSTP, &old, NULL);
	reset_prog_mode();
	clear();
	refresh();
}

static int
global_key(struct tui *t, enum action a, int code)
{
	char *path = NULL, *why = NULL;

	switch (a) {
	case ACT_QUIT:
		return HR_QUIT;
	case ACT_INTR:
		t->exit_status = 130;	/* as a shell reports an interrupt */
		return HR_QUIT;
	case ACT_SUSPEND:
		suspend(t);
		return HR_REDRAW;
	case ACT_BACK:
		if (t->depth > 1)
			return HR_POP;
		if (code == 27) {	/* a stray Esc on the home screen quits nothing */
			tui_message(t, 0, "q quits (Esc goes back from the other screens)");
			return HR_REDRAW;
		}
		return HR_QUIT;
	case ACT_HELP:
		if (t->stack[t->depth - 1].ops != &help_ops)
			tui_push(t, &help_ops, help_new(t));
		return HR_REDRAW;
	case ACT_BROWSE:
		tui_push(t, &browser_ops, browser_new(t));
		return HR_REDRAW;
	case ACT_ERRORS: {
		struct buf b = BUF_INIT;

		encyclopedia_errors(t->rb, COLS > 40 ? COLS - 2 : 78, &b);
		tui_push(t, &text_ops, text_new(t, "errors the encyclopedia knows", buf_detach(&b)));
		return HR_REDRAW;
	}
	case ACT_THEME:
		if (!t->colors) {
			tui_message(t, 0, "%s: the mono theme only", getenv("NO_COLOR") ?
			    "NO_COLOR is set" : "this terminal shows no colours");
			return HR_REDRAW;
		}
		/* every theme in turn, mono among them */
		if (t->themes.n > 1) {
			t->theme = t->theme + 1 < t->themes.n ? t->theme + 1 : 1;
			theme_apply(t);
			tui_message(t, 0, "theme: %s (%zu of %zu)", t->themes.v[t->theme]->name,
			    t->theme, t->themes.n - 1);
		}
		return HR_REDRAW;
	case ACT_EXPORT:
		if (tui_export(t, &path, &why) == 0)
			tui_message(t, 0, "incident report written to %s", path);
		else
			tui_message(t, 1, "%s", why);
		free(path);
		free(why);
		return HR_REDRAW;
	case ACT_REDRAW:
		clear();
		return HR_REDRAW;
	default:
		return HR_NONE;
	}
}

/* A stream (standard input, --cmd) has something to read, or has ended. */
static int
streams_readable(const struct run *r)
{
	int fds[64];
	struct pollfd pf[64];
	size_t n = run_stream_fds(r, fds, 64), i;

	for (i = 0; i < n; i++)
		pf[i] = (struct pollfd){ fds[i], POLLIN, 0 };
	/* past 64 streams, each key-press tick reads them all */
	return n == 64 || (n > 0 && poll(pf, (nfds_t)n, 0) > 0);
}

int
tui_main(struct run *r, const struct rulebook *rb, const char *const *paths,
    size_t npaths, const char *theme_name, char **theme_dirs, size_t nthemedirs,
    int watching)
{
	struct tui t;
	struct sigaction sa;
	struct notes ns;
	char *key, *dir;
	int res, quit = 0, redraw = 1, more = 1, working;
	long every = ANALYSE_EVERY;
	struct watch *w = NULL;
	struct timespec last, now;
	size_t i;
	FILE *ttyin = NULL;
	SCREEN *screen;

	memset(&t, 0, sizeof t);
	t.run = r;
	t.rb = rb;
	t.paths = paths;
	t.npaths = npaths;
	t.loading = 1;
	t.dirty = 1;
	t.watching = watching;
	notes_init(&ns);
	theme_set_load(&t.themes, theme_dirs, nthemedirs, &ns);
	dir = ticks_dir();
	/* a run of --cmd streams only is known by its commands */
	key = npaths > 0 ? ticks_key(paths, npaths) :
	    ticks_key((const char *const *)&r->title, 1);
	t.ticks = ticks_open(dir, key, r->title);
	free(dir);
	free(key);

	setlocale(LC_ALL, "");
	t.utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* keys from the terminal: standard input, or /dev/tty when the
	 * logs come on standard input (as less does) */
	if (!isatty(STDIN_FILENO) && (ttyin = fopen("/dev/tty", "re")) == NULL) {
		fprintf(stderr, "rankwatch: cannot open the terminal (/dev/tty): %s\n",
		    strerror(errno));
		return 2;
	}
	if ((screen = newterm(NULL, stdout, ttyin != NULL ? ttyin : stdin)) == NULL) {
		fprintf(stderr, "rankwatch: cannot open the terminal\n");
		if (ttyin != NULL)
			fclose(ttyin);
		return 2;
	}
	set_term(screen);
	run_follow(r);
	raw();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
	mouseinterval(300);
	t.colors = has_colors() && getenv("NO_COLOR") == NULL;
	if (t.colors) {
		start_color();
		use_default_colors();
		if (COLORS < 8)
			t.colors = 0;
	}
	t.theme = t.themes.n > 1 ? 1 : 0;
	for (i = 1; theme_name != NULL && i < t.themes.n; i++)
		if (strcmp(t.themes.v[i]->name, theme_name) == 0)
			t.theme = i;
	if (theme_name != NULL && strcmp(t.themes.v[t.theme]->name, theme_name) != 0)
		tui_message(&t, 1, "no theme '%s'; using %s (--list-themes lists them)", theme_name,
		    t.themes.v[t.theme]->name);
	if (ns.errors > 0) {
		char *s = note_format(&ns.v[0]);

		tui_message(&t, 1, "%s", s);
		free(s);
	}
	theme_apply(&t);
	if (t.watching) {
		struct notes wn;

		notes_init(&wn);
		w = watch_new(paths, npaths, t.watching > 1 ? t.watching : 0, &wn);
		notes_release(&wn);
	}
	tui_analyse(&t);
	tui_push(&t, &overview_ops, overview_new(&t));
	clock_gettime(CLOCK_MONOTONIC, &last);

	while (!quit) {
		struct view *v = &t.stack[t.depth - 1];
		wint_t ch;
		int rc;

		if (got_signal)
			break;
		if (more) {
			more = run_scan_step(r, SLICE_BYTES, !t.watching);	/* following: a partial line waits for its newline */
			t.dirty = 1;
			clock_gettime(CLOCK_MONOTONIC, &now);
			if (!more || (now.tv_sec - last.tv_sec) * 1000 +
			    (now.tv_nsec - last.tv_nsec) / 1000000 >= every) {
				struct timespec a0, a1;

				t.loading = more;
				clock_gettime(CLOCK_MONOTONIC, &a0);
				tui_analyse(&t);
				clock_gettime(CLOCK_MONOTONIC, &a1);
				/* analysis may cost more with thousands of ranks: keep
				 * it under a tenth of the loading time */
				every = ((a1.tv_sec - a0.tv_sec) * 1000 +
				    (a1.tv_nsec - a0.tv_nsec) / 1000000) * 10;
				if (every < ANALYSE_EVERY)
					every = ANALYSE_EVERY;
				for (i = 0; i < (size_t)t.depth; i++)
					if (t.stack[i].ops->update)
						t.stack[i].ops->update(&t, &t.stack[i]);
				last = now;
				redraw = 1;
			}
		}
		if (redraw) {
			erase();
			v = &t.stack[t.depth - 1];
			v->ops->draw(&t, v);
			draw_status(&t);
			refresh();
			redraw = 0;
		}
		/* a view with work under way (a search) gets a slice per turn */
		v = &t.stack[t.depth - 1];
		working = v->ops->work != NULL ? v->ops->work(&t, v) : -1;
		if (working >= 0)
			redraw = 1;	/* its progress, or where it ended: drawn at once */
		timeout(more || working >= 0 ? 0 : w != NULL ? 100 : 1000);
		rc = get_wch(&ch);
		if (!more && streams_readable(r))
			more = 1;
		if (!more && w != NULL) {
			int rescan = 0;

			/* live: read what was appended since */
			if (watch_check(w, &rescan)) {
				if (rescan) {
					run_rediscover(r);
					watch_refresh(w, paths, npaths, &r->notes);
				}
				more = 1;
			}
		}
		if (rc == ERR)
			continue;
		if (rc == KEY_CODE_YES && ch == KEY_RESIZE) {
			clear();
			redraw = 1;
			continue;
		}
		if (rc == KEY_CODE_YES && ch == KEY_MOUSE) {
			if (getmouse(&t.mouse) != OK)
				continue;
			/* the wheel scrolls every view */
			if (t.mouse.bstate & BUTTON4_PRESSED)
				ch = KEY_UP;
			else if (t.mouse.bstate & BUTTON5_PRESSED)
				ch = KEY_DOWN;
		}
		{
			int code = (int)ch;
			enum action a = keys_action(code);

			if (rc == OK && ch == 27) {
				wint_t ch2;

				/* Esc and a key at once is an Alt chord (M-j): no key of ours */
				timeout(0);
				if (get_wch(&ch2) != ERR) {
					tui_message(&t, 0, "Alt keys do nothing here (? lists the keys)");
					redraw = 1;
					continue;
				}
				a = ACT_BACK;
			}
			res = v->ops->key(&t, v, a, code);
			if (res & HR_UNHANDLED)
				res = global_key(&t, a, code) | (res & ~HR_UNHANDLED);
		}
		if (res & HR_QUIT)
			quit = 1;
		if (res & HR_POP) {
			pop(&t);
			if (t.depth == 0)
				quit = 1;
		}
		redraw = 1;
	}
	endwin();
	delscreen(screen);
	if (ttyin != NULL)
		fclose(ttyin);
	watch_free(w);
	while (t.depth > 0)
		pop(&t);
	{
		char *why = NULL;

		if (t.ticks->n > 0 && ticks_save(t.ticks, &why) != 0) {
			fprintf(stderr, "rankwatch: %s\n", why);
			free(why);
		}
	}
	ticks_free(t.ticks);
	theme_set_release(&t.themes);
	free(t.last_search);
	notes_release(&ns);
	if (got_signal)
		fprintf(stderr, "rankwatch: %s\n", got_signal == SIGINT ? "interrupted (SIGINT)" :
		    got_signal == SIGTERM ? "terminated (SIGTERM)" : "hung up (SIGHUP)");
	imap_release(&t.read_ranks);
	return got_signal ? 128 + got_signal : t.exit_status;	/* as a shell reports a signal */
}
