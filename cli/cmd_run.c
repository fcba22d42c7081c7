/*
 * cmd_run.c — `zonelab run SCENARIO.ini...`: every point of every scenario
 * (docs/SCENARIOS.md) as a `zonelab sim` child process (this program,
 * /proc/self/exe), N at a time, into DIR/points/<id>.json; points already
 * there with the same arguments are not run again.  Then the collect step
 * (run_collect.c).  Also writes a Slurm array script (--emit-slurm).  The
 * scenario keys are the simulator's options (cmd_sim_options()), so
 * nothing here lists them; each point is checked by the simulator itself
 * (`sim --check-config`, in process) before anything runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "run.h"
#include "zl_json.h"


static const char run_help[] =
"usage: zonelab run SCENARIO.ini... [options]     (docs/SCENARIOS.md)\n"
"  -o, --out DIR        result directory (default zonelab-results)\n"
"  -j, --jobs N         points run at once (default: the number of cores)\n"
"  --check              exit 1 when an expectation fails (CI)\n"
"  --junit FILE         write the expectations as JUnit XML\n"
"  --points I-J         run only points I to J (over all files, from 0) and do not\n"
"                       collect (a Slurm array task; then `zonelab collect DIR`)\n"
"  --emit-slurm DIR     write DIR/slurm.sbatch (an array job) instead of running\n"
"  --chunk N            points per Slurm array task (default 8)\n"
"  --list               print the points and their arguments, run nothing\n"
"  --no-plots           skip the plots\n"
"  -q, --quiet          no progress line, no summary\n";

/* One point, ready to run. */
struct job {
	const struct scn *s;
	struct scn_point p;
	char *args;             /* the simulator's arguments as one line (resume key) */
	GPtrArray *argv;        /* "zonelab" "sim" --key value ... --csv ID.csv */
	pid_t pid;
};

static void job_build(struct job *j, const struct scn *s, unsigned i)
{
	GString *a = g_string_new(NULL);

	j->s = s;
	scn_point_init(s, i, &j->p);
	j->argv = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(j->argv, g_strdup("zonelab"));
	g_ptr_array_add(j->argv, g_strdup("sim"));
	for (guint k = 0; k < j->p.keys->len; k++) {
		const char *key = j->p.keys->pdata[k], *v = j->p.values->pdata[k];
		bool flag = GPOINTER_TO_INT(j->p.flags->pdata[k]);

		if (flag && strcmp(v, "true"))
			continue;
		g_ptr_array_add(j->argv, g_strdup_printf("--%s", key));
		g_string_append_printf(a, "%s--%s", a->len ? " " : "", key);
		if (!flag) {
			char *q = g_shell_quote(v);

			g_ptr_array_add(j->argv, g_strdup(v));
			g_string_append_printf(a, " %s", strpbrk(v, " '\"\\$`;&|<>*?") ? q : v);
			g_free(q);
		}
	}
	j->args = g_string_free(a, FALSE);
}

static void job_fini(struct job *j)
{
	scn_point_fini(&j->p);
	g_free(j->args);
	if (j->argv)
		g_ptr_array_free(j->argv, TRUE);
}

/* Run the simulator's own check on a point, its messages captured. */
static int job_check(struct job *j, char **msg)
{
	GPtrArray *v = g_ptr_array_new();
	FILE *old = stderr, *mem;
	char *buf = NULL;
	size_t len = 0;
	int r;

	for (guint k = 0; k < j->argv->len; k++)
		g_ptr_array_add(v, j->argv->pdata[k]);
	g_ptr_array_add(v, (gpointer)"--check-config");
	g_ptr_array_add(v, NULL);
	/* cmd_sim() restarts getopt (cli_opt_start()), so the previous
	 * argument vector, freed by now, is forgotten */
	mem = open_memstream(&buf, &len);
	if (mem)
		stderr = mem;
	r = cmd_sim((int)v->len - 2, (char **)v->pdata + 1);       /* "sim" ... --check-config */
	if (mem) {
		fclose(mem);
		stderr = old;
	}
	*msg = NULL;
	if (r && buf) {
		char *nl = strchr(buf, '\n');

		if (nl)
			*nl = 0;
		*msg = g_strdup(g_str_has_prefix(buf, "zonelab: ") ? buf + 9 : buf);
	}
	free(buf);
	g_ptr_array_free(v, TRUE);
	return r;
}

/* The line of the key the simulator's message names, else of the first swept key. */
static int blame_line(const struct scn *s, const char *msg)
{
	int line = 0;

	for (guint k = 0; k < s->axes->len; k++) {
		const struct scn_axis *a = s->axes->pdata[k];
		char *opt = g_strdup_printf("--%s", a->key), *bare = g_strdup_printf("%s:", a->key);
		bool named = strstr(msg, opt) || g_str_has_prefix(msg, bare);

		g_free(opt);
		g_free(bare);
		if (named)
			return a->line;
		if (!line && a->swept)
			line = a->line;
	}
	return line;
}

static int check_points(GPtrArray *scns)
{
	for (guint i = 0; i < scns->len; i++) {
		const struct scn *s = scns->pdata[i];

		for (unsigned k = 0; k < s->nr_points; k++) {
			struct job j = { 0 };
			char *msg = NULL, *label;
			int r;

			job_build(&j, s, k);
			r = job_check(&j, &msg);
			if (r) {
				label = scn_point_label(&j.p);
				fprintf(stderr, "zonelab: %s:%d: point %u (%s seed=%llu): %s\n", s->path,
					blame_line(s, msg ? msg : ""), k, label,
					(unsigned long long)j.p.seed, msg ? msg : "refused by the simulator");
				g_free(label);
			}
			g_free(msg);
			job_fini(&j);
			if (r)
				return 2;
		}
	}
	return 0;
}

static char *path_in(const char *dir, const char *name, const char *ext)
{
	char *b = g_strconcat(name, ext, NULL), *p = g_build_filename(dir, b, NULL);

	g_free(b);
	return p;
}

/* Does DIR/points/<id>.json hold this point with these arguments? */
static bool job_done(const char *pdir, const struct job *j)
{
	char *path = path_in(pdir, j->p.id, ".json"), *text = NULL;
	gsize len;
	bool done = false;

	if (g_file_get_contents(path, &text, &len, NULL)) {
		struct zl_json_doc *js = zl_json_parse(text, len, NULL);
		const struct zl_json_leaf *a = js ? zl_json_get(js, "point.args") : NULL;

		done = a && !strcmp(a->text, j->args);
		zl_json_destroy(js);
	}
	g_free(text);
	g_free(path);
	return done;
}

static pid_t job_start(const char *pdir, struct job *j)
{
	GPtrArray *v = g_ptr_array_new();
	char *out = g_strconcat(j->p.id, ".out", NULL), *err = g_strconcat(j->p.id, ".err", NULL);
	char *csv = g_strconcat(j->p.id, ".csv", NULL);
	char *zcsv = g_strconcat(j->p.id, ".zones.csv", NULL);
	pid_t pid;

	for (guint k = 0; k < j->argv->len; k++)
		g_ptr_array_add(v, j->argv->pdata[k]);
	g_ptr_array_add(v, (gpointer)"--csv");
	g_ptr_array_add(v, csv);
	g_ptr_array_add(v, (gpointer)"--zone-csv");
	g_ptr_array_add(v, zcsv);
	g_ptr_array_add(v, NULL);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int fo, fe;

		if (chdir(pdir))
			_exit(126);
		fo = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		fe = open(err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fo < 0 || fe < 0 || dup2(fo, STDOUT_FILENO) < 0 || dup2(fe, STDERR_FILENO) < 0)
			_exit(126);
		execv("/proc/self/exe", (char **)v->pdata);
		_exit(127);
	}
	g_ptr_array_free(v, TRUE);
	g_free(out);
	g_free(err);
	g_free(csv);
	g_free(zcsv);
	return pid;
}

/* The point file: {"point": {...}, then the simulator's members}. */
static int job_finish(const char *pdir, struct job *j, int status)
{
	char *out = path_in(pdir, j->p.id, ".out"), *errp = path_in(pdir, j->p.id, ".err");
	char *final = path_in(pdir, j->p.id, ".json"), *tmp = g_strconcat(final, ".tmp", NULL);
	char *text = NULL, *etext = NULL, *label = scn_point_label(&j->p);
	gsize len = 0;
	struct zl_json_doc *js = NULL;
	const char *body = NULL;
	FILE *f;
	int r = -1;

	g_file_get_contents(out, &text, &len, NULL);
	g_file_get_contents(errp, &etext, NULL, NULL);
	if (text && len)
		js = zl_json_parse(text, len, NULL);
	if (js) {
		body = strchr(text, '{') + 1;
		while (*body == ' ' || *body == '\n')
			body++;
		if (*body == '}')
			body = NULL;    /* {} */
	}
	f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "zonelab: %s: %s\n", tmp, strerror(errno));
		goto out;
	}
	fprintf(f, "{\n  \"point\": { \"scenario\": ");
	zl_json_fprint_str(f, j->s->name);
	fprintf(f, ", \"id\": ");
	zl_json_fprint_str(f, j->p.id);
	fprintf(f, ", \"index\": %u, \"label\": ", j->p.index);
	zl_json_fprint_str(f, label);
	fprintf(f, ", \"seed\": %llu, \"exit_status\": %d,\n    \"args\": ",
		(unsigned long long)j->p.seed, status);
	zl_json_fprint_str(f, j->args);
	fprintf(f, ",\n    \"stderr\": ");
	zl_json_fprint_str(f, etext ? etext : "");
	fprintf(f, ", \"sim_output\": \"%s\",\n    \"params\": {", js ? "ok" : text && len ?
		"not JSON" : "none");
	for (guint k = 0; k < j->p.keys->len; k++) {
		fprintf(f, "%s ", k ? "," : "");
		zl_json_fprint_str(f, j->p.keys->pdata[k]);
		fprintf(f, ": ");
		zl_json_fprint_str(f, j->p.values->pdata[k]);
	}
	fprintf(f, " } }%s\n", body ? "," : "");
	if (body)
		fprintf(f, "  %s", body);
	else
		fprintf(f, "}\n");
	if (fclose(f)) {
		fprintf(stderr, "zonelab: %s: write error\n", tmp);
		goto out;
	}
	if (rename(tmp, final)) {
		fprintf(stderr, "zonelab: %s: %s\n", final, strerror(errno));
		goto out;
	}
	unlink(out);
	unlink(errp);
	r = 0;
out:
	zl_json_destroy(js);
	g_free(text);
	g_free(etext);
	g_free(label);
	g_free(out);
	g_free(errp);
	g_free(final);
	g_free(tmp);
	return r;
}

static void progress(unsigned done, unsigned total, gint64 t0)
{
	gint64 el = g_get_monotonic_time() - t0;
	double left = done ? (double)el / done * (total - done) / 1e6 : 0;

	fprintf(stderr, "\r  run: %u/%u points (%u%%)", done, total, total ? done * 100 / total : 100);
	if (done && done < total)
		fprintf(stderr, ", about %d:%02d left ", (int)left / 60, (int)left % 60);
	else
		fprintf(stderr, "                  ");
	fflush(stderr);
}

/* Run @jobs, @nj at a time; 0, or 2 when a point could not be written. */
static int run_jobs(const char *pdir, GPtrArray *jobs, unsigned nj, bool show)
{
	unsigned next = 0, running = 0, done = 0, failed = 0;
	gint64 t0 = g_get_monotonic_time();

	if (show)
		progress(0, jobs->len, t0);
	while (done < jobs->len) {
		int status;
		pid_t pid;

		while (running < nj && next < jobs->len) {
			struct job *j = jobs->pdata[next++];

			j->pid = job_start(pdir, j);
			if (j->pid < 0) {
				fprintf(stderr, "zonelab: run: fork: %s\n", strerror(errno));
				return 2;
			}
			running++;
		}
		pid = waitpid(-1, &status, 0);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "zonelab: run: waitpid: %s\n", strerror(errno));
			return 2;
		}
		for (guint k = 0; k < next; k++) {
			struct job *j = jobs->pdata[k];

			if (j->pid != pid)
				continue;
			j->pid = 0;
			running--;
			done++;
			if (job_finish(pdir, j, WIFEXITED(status) ? WEXITSTATUS(status) :
				       128 + WTERMSIG(status)))
				failed++;
			break;
		}
		if (show)
			progress(done, jobs->len, t0);
	}
	if (show)
		fputc('\n', stderr);
	return failed ? 2 : 0;
}

static int write_file(const char *path, const char *text, size_t len)
{
	GError *e = NULL;

	if (!g_file_set_contents(path, text, (gssize)len, &e)) {
		fprintf(stderr, "zonelab: %s\n", e->message);
		g_error_free(e);
		return -1;
	}
	return 0;
}

/* DIR/scenarios/<name>.ini for each scenario and the list in order. */
static int keep_scenarios(const char *dir, GPtrArray *scns)
{
	char *sdir = g_build_filename(dir, "scenarios", NULL), *lp;
	GString *list = g_string_new(NULL);
	int r = -1;

	if (g_mkdir_with_parents(sdir, 0755)) {
		fprintf(stderr, "zonelab: %s: %s\n", sdir, strerror(errno));
		goto out;
	}
	for (guint i = 0; i < scns->len; i++) {
		const struct scn *s = scns->pdata[i];
		char *p = path_in(sdir, s->name, ".ini");
		char *cur = NULL;
		gsize len;
		bool same = g_file_get_contents(p, &cur, &len, NULL) && len == s->text_len &&
			    !memcmp(cur, s->text, len);

		g_free(cur);
		if (!same && write_file(p, s->text, s->text_len)) {
			g_free(p);
			goto out;
		}
		g_free(p);
		g_string_append_printf(list, "%s.ini\n", s->name);
	}
	lp = g_build_filename(sdir, "list", NULL);
	r = write_file(lp, list->str, list->len);
	g_free(lp);
out:
	g_string_free(list, TRUE);
	g_free(sdir);
	return r;
}

static int emit_slurm(const char *dir, GPtrArray *scns, unsigned total, unsigned chunk)
{
	char *script, *self = g_file_read_link("/proc/self/exe", NULL), *adir;
	unsigned tasks = (total + chunk - 1) / chunk;
	int r;

	if (!self || keep_scenarios(dir, scns)) {
		g_free(self);
		return 2;
	}
	adir = g_canonicalize_filename(dir, NULL);
	script = g_strdup_printf(
		"#!/bin/bash\n"
		"# Written by `zonelab run --emit-slurm`: %u points in %u array tasks of %u.\n"
		"# Submit: sbatch %s/slurm.sbatch   then, when the job is done: zonelab collect %s\n"
		"#SBATCH --job-name=zonelab\n"
		"#SBATCH --array=0-%u\n"
		"#SBATCH --ntasks=1\n"
		"#SBATCH --cpus-per-task=1\n"
		"#SBATCH --output=%s/slurm/%%A_%%a.out\n"
		"set -eu\n"
		"ZONELAB=${ZONELAB:-%s}\n"
		"DIR=%s\n"
		"first=$((SLURM_ARRAY_TASK_ID * %u))\n"
		"last=$((first + %u - 1))\n"
		"[ $last -lt %u ] || last=%u\n"
		"mapfile -t files < <(sed \"s|^|$DIR/scenarios/|\" \"$DIR/scenarios/list\")\n"
		"exec \"$ZONELAB\" run \"${files[@]}\" -o \"$DIR\" -j \"${SLURM_CPUS_PER_TASK:-1}\" "
		"-q --points \"$first-$last\"\n",
		total, tasks, chunk, adir, adir, tasks - 1, adir, self, adir, chunk, chunk, total,
		total - 1);
	{
		char *sd = g_build_filename(dir, "slurm", NULL), *sp = g_build_filename(dir,
								"slurm.sbatch", NULL);

		r = g_mkdir_with_parents(sd, 0755) || write_file(sp, script, strlen(script)) ? 2 : 0;
		if (!r)
			printf("zonelab: %s: %u points in %u array tasks; submit with: sbatch %s; "
			       "then: zonelab collect %s\n", sp, total, tasks, sp, dir);
		g_free(sd);
		g_free(sp);
	}
	g_free(script);
	g_free(adir);
	g_free(self);
	return r;
}

enum { R_CHECK = 256, R_JUNIT, R_POINTS, R_SLURM, R_CHUNK, R_LIST, R_NOPLOTS, R_HELP };

static const struct option run_opts[] = {
	{ "out", 1, 0, 'o' }, { "jobs", 1, 0, 'j' }, { "quiet", 0, 0, 'q' },
	{ "check", 0, 0, R_CHECK }, { "junit", 1, 0, R_JUNIT }, { "points", 1, 0, R_POINTS },
	{ "emit-slurm", 1, 0, R_SLURM }, { "chunk", 1, 0, R_CHUNK }, { "list", 0, 0, R_LIST },
	{ "no-plots", 0, 0, R_NOPLOTS }, { "help", 0, 0, R_HELP }, { 0, 0, 0, 0 },
};

/**
 * cmd_run() - `zonelab run`.  Returns 0 when every point ran (and, with
 * --check, every expectation held), 1 when an expectation failed or a
 * point is missing under --check, 2 on a usage or scenario error (message
 * with FILE:LINE) or when a point could not be run or written.
 */
int cmd_run(int argc, char **argv)
{
	static const struct cli_opts cli = { .cmd = "run", .help = "run", .shortopts = "o:j:qh",
					     .longopts = run_opts };
	struct run_collect_opts co = { 0 };
	const char *dir = "zonelab-results", *slurm = NULL;
	uint64_t jobs_n = (uint64_t)sysconf(_SC_NPROCESSORS_ONLN), first = 0, count = 0, chunk = 8;
	bool points_given = false, list = false;
	GPtrArray *scns = g_ptr_array_new_with_free_func((GDestroyNotify)scn_destroy);
	GPtrArray *jobs = g_ptr_array_new();
	unsigned total = 0, base = 0, skipped = 0;
	char *pdir = NULL;
	int o, r = 2;

	cli_opt_start();
	while ((o = cli_getopt(argc, argv, &cli)) != -1) {
		switch (o) {
		case 'o': dir = optarg; break;
		case 'j':
			if (cli_parse_u64_max("-j", optarg, 1024, &jobs_n) || !jobs_n) {
				if (!jobs_n)
					fprintf(stderr, "zonelab: -j: at least 1\n");
				goto out;
			}
			break;
		case 'q': co.quiet = true; break;
		case R_CHECK: co.check = true; break;
		case R_JUNIT: co.junit = optarg; break;
		case R_POINTS:
			if (cli_parse_range("--points", optarg, &first, &count))
				goto out;
			points_given = true;
			break;
		case R_SLURM: slurm = optarg; break;
		case R_CHUNK:
			if (cli_parse_u64_max("--chunk", optarg, 1000000, &chunk) || !chunk) {
				if (!chunk)
					fprintf(stderr, "zonelab: --chunk: at least 1\n");
				goto out;
			}
			break;
		case R_LIST: list = true; break;
		case R_NOPLOTS: co.no_plots = true; break;
		case 'h': case R_HELP:
			fputs(run_help, stdout);
			r = 0;
			goto out;
		default:
			goto out;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "zonelab: run: no scenario file\n%s", run_help);
		goto out;
	}
	if (run_load_scenarios(argv + optind, argc - optind, scns) || check_points(scns))
		goto out;
	for (guint i = 0; i < scns->len; i++)
		total += ((struct scn *)scns->pdata[i])->nr_points;
	if (points_given && (first >= total || first + count > total)) {
		fprintf(stderr, "zonelab: run: --points %llu-%llu: the scenarios have points 0-%u\n",
			(unsigned long long)first, (unsigned long long)(first + count - 1), total - 1);
		goto out;
	}
	if (!points_given)
		count = total;
	if (slurm) {
		r = emit_slurm(slurm, scns, total, (unsigned)chunk);
		goto out;
	}
	for (guint i = 0; i < scns->len; i++) {
		const struct scn *s = scns->pdata[i];

		for (unsigned k = 0; k < s->nr_points; k++) {
			struct job *j;

			if (base + k < first || base + k >= first + count)
				continue;
			j = g_new0(struct job, 1);
			job_build(j, s, k);
			g_ptr_array_add(jobs, j);
		}
		base += s->nr_points;
	}
	if (list) {
		for (guint i = 0; i < jobs->len; i++) {
			struct job *j = jobs->pdata[i];
			char *label = scn_point_label(&j->p);

			printf("%s\t%s seed=%llu\tzonelab sim %s\n", j->p.id, label,
			       (unsigned long long)j->p.seed, j->args);
			g_free(label);
		}
		r = 0;
		goto out;
	}
	pdir = g_build_filename(dir, "points", NULL);
	if (g_mkdir_with_parents(pdir, 0755)) {
		fprintf(stderr, "zonelab: %s: %s\n", pdir, strerror(errno));
		goto out;
	}
	if (keep_scenarios(dir, scns))
		goto out;
	for (guint i = 0; i < jobs->len;) {
		struct job *j = jobs->pdata[i];

		if (job_done(pdir, j)) {
			job_fini(j);
			g_free(j);
			g_ptr_array_remove_index(jobs, i);
			skipped++;
		} else {
			i++;
		}
	}
	if (!co.quiet)
		fprintf(stderr, "zonelab: run: %llu points into %s: %u already there, %u to run, "
			"%llu at a time\n", (unsigned long long)count, dir, skipped, jobs->len,
			(unsigned long long)jobs_n);
	if (run_jobs(pdir, jobs, (unsigned)jobs_n, !co.quiet && isatty(STDERR_FILENO)))
		goto out;
	r = points_given ? 0 : run_collect(dir, scns, &co);
out:
	for (guint i = 0; i < jobs->len; i++) {
		job_fini(jobs->pdata[i]);
		g_free(jobs->pdata[i]);
	}
	g_ptr_array_free(jobs, TRUE);
	g_ptr_array_free(scns, TRUE);
	g_free(pdir);
	return r;
}
