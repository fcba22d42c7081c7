/*
 * zl_timed.c — completion at the timing model's times (see zl_timed.h):
 * a heap of submitted commands ordered by completion time, an SPTF wait
 * queue, and the timer thread that sleeps until the earliest is due.
 */
#include "tcmu/zl_timed.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct zl_timed_item {
	uint64_t due, arrival, start, seq;
	bool in_model;                 /* given to ztime (else: overhead only) */
	bool ends_job;                 /* a flush given to the busy mechanism */
	struct ztime_req r;
	void *ctx;
};

struct zl_timed {
	struct zl_timed_cfg cfg;
	struct ztime *zt;
	pthread_mutex_t lock;
	pthread_cond_t cv;
	pthread_t thread;
	bool has_thread, stop;
	uint64_t seq;
	uint64_t last_zt_ns;           /* the model's clock never goes back */
	bool sptf;
	bool in_service;               /* SPTF: one command is with the mechanism */
	bool served;                   /* the model has served a data command */
	bool has_end;                  /* a data command was given to the model */
	uint64_t end_bytes;            /* where the last one ended */
	struct zl_timed_item **heap;   /* by (due, seq) */
	size_t nr_heap, cap_heap;
	struct zl_timed_item **wq;     /* SPTF: waiting, in arrival order */
	size_t nr_wq, cap_wq;
	struct zl_timed_stats st;
};

uint64_t zl_timed_clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static bool before(const struct zl_timed_item *a, const struct zl_timed_item *b)
{
	return a->due < b->due || (a->due == b->due && a->seq < b->seq);
}

static int grow(struct zl_timed_item ***v, size_t *cap, size_t need)
{
	struct zl_timed_item **n;
	size_t c = *cap ? *cap : 16;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	n = realloc(*v, c * sizeof(*n));
	if (!n)
		return -ENOMEM;
	*v = n;
	*cap = c;
	return 0;
}

static void heap_push(struct zl_timed *t, struct zl_timed_item *it)
{
	size_t i = t->nr_heap++;

	while (i) {
		size_t p = (i - 1) / 2;

		if (!before(it, t->heap[p]))
			break;
		t->heap[i] = t->heap[p];
		i = p;
	}
	t->heap[i] = it;
}

static struct zl_timed_item *heap_pop(struct zl_timed *t)
{
	struct zl_timed_item *top = t->heap[0], *last = t->heap[--t->nr_heap];
	size_t i = 0, n = t->nr_heap;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && before(t->heap[c + 1], t->heap[c]))
			c++;
		if (!before(t->heap[c], last))
			break;
		t->heap[i] = t->heap[c];
		i = c;
	}
	if (n)
		t->heap[i] = last;
	return top;
}

static bool positional(const struct zl_timed_item *it)
{
	return it->r.op == ZTIME_READ || it->r.op == ZTIME_WRITE;
}

/* The model serves @it from @at on; it goes on the heap at its completion time. */
static void serve(struct zl_timed *t, struct zl_timed_item *it, uint64_t at)
{
	uint64_t free_ns;
	bool served;

	if (at < it->arrival)   /* SPTF dispatches at the previous completion, which the
				 * timer may handle after later commands arrived */
		at = it->arrival;
	if (at < t->last_zt_ns)
		at = t->last_zt_ns;
	t->last_zt_ns = at;
	free_ns = ztime_media_free_ns(t->zt);
	served = t->served;
	/* a flush while the mechanism works (a cache's destages, a job's
	 * commands): the job lasts until it is done */
	it->ends_job = it->r.op == ZTIME_FLUSH && free_ns > at;
	t->served = true;
	it->due = ztime_submit(t->zt, at, &it->r);
	if (positional(it)) {
		/*
		 * where the mechanism's work for it can begin: its arrival, or,
		 * for a write the cache took (its destage still to come after
		 * its completion), when its data is in: a destage cannot start
		 * sooner, so a write arriving less than a cache accept (command
		 * + link) before the mechanism frees leaves it idle too (run X:
		 * hc620's OD write stream at 0.906 of the model with 6 idle
		 * starts counted from the arrivals)
		 */
		uint64_t begin = at;
		bool idle;

		if (it->r.op == ZTIME_WRITE && ztime_media_free_ns(t->zt) > it->due &&
		    it->due > begin)
			begin = it->due;
		idle = served && begin > free_ns;
		/* the mechanism idle when it could begin: the VM's feed ran dry */
		if (idle) {
			t->st.idle_starts++;
			t->st.idle_ns += begin - free_ns;
			if (begin - free_ns >= ZL_TIMED_IDLE_LONG_NS) {
				t->st.idle_long_starts++;
				t->st.idle_long_ns += begin - free_ns;
			}
		}
		/*
		 * the mechanism busy and this one not where the previous one
		 * ended (the order the model serves in): a stream out of LBA
		 * order; an idle start is counted as such, not again here, so
		 * that each start is counted once (each may lose up to a turn)
		 */
		if (!t->has_end || (idle && begin - free_ns >= ZL_TIMED_IDLE_LONG_NS))
			t->st.job_start_ns = it->arrival;
		if (!idle && t->has_end && it->r.off_bytes != t->end_bytes) {
			t->st.jump_starts++;
			if (it->r.off_bytes < t->end_bytes)
				t->st.back_starts++;
		}
		t->end_bytes = it->r.off_bytes + it->r.len_bytes;
		t->has_end = true;
	}
	it->in_model = true;
	it->start = free_ns > at ? free_ns : at;
	if (it->start > it->due)
		it->start = it->due;
	if (it->start < it->arrival)
		it->start = it->arrival;
	heap_push(t, it);
}

/*
 * SPTF: the mechanism is idle at @at (the completion of the command it
 * served, or a command's arrival): give it the waiting command, among the
 * first qd, whose first byte the head would reach soonest
 * (ztime_reach_ns()), never passing a non-data command (flush, zone
 * operation: served in arrival order, like a barrier).
 *
 * The drive chooses a command overhead (cmd_ns) before the mechanism is
 * free, among the commands that had arrived by then, so the chosen one's
 * overhead overlaps the work in progress, as a queued command's does under
 * FIFO (ztime serves a read from max(arrival + cmd, media free)) and an NCQ
 * drive's does.  Until issue 32 the choice came at the free time and the
 * overhead after it: a stream in LBA order lost a turn on every command
 * (186 of 242 MB/s at QD32; tests/unit/test_zl_timed.c).  The timer thread
 * runs this at the completion (or later): the choice is made in the
 * model's time, among what had arrived by then; commands that arrived
 * after wait for the next choice.  `zonelab timing table` chooses the same
 * way (sim/sim_tbench.c sptf_read()).
 */
static void dispatch(struct zl_timed *t, uint64_t at)
{
	uint32_t qd = ztime_params(t->zt)->qd;
	uint64_t cmd = ztime_params(t->zt)->cmd_ns, free_ns = ztime_media_free_ns(t->zt);
	size_t best = 0, n = t->nr_wq < qd ? t->nr_wq : qd;
	uint64_t best_ns = UINT64_MAX, ch = at;
	struct zl_timed_item *it;

	if (!t->nr_wq || t->in_service)
		return;
	if (free_ns > cmd && free_ns - cmd < ch)
		ch = free_ns - cmd;
	if (ch < t->last_zt_ns)
		ch = t->last_zt_ns;
	/* none had arrived by then: an idle drive takes the oldest at its arrival */
	if (t->wq[0]->arrival > ch)
		ch = t->wq[0]->arrival;
	if (positional(t->wq[0])) {
		t->st.choices++;
		for (size_t i = 0; i < n && positional(t->wq[i]); i++) {
			uint64_t ns;

			if (t->wq[i]->arrival > ch)
				continue;
			t->st.candidates++;
			ns = ztime_reach_ns(t->zt, ch, &t->wq[i]->r);
			if (ns < best_ns) {
				best_ns = ns;
				best = i;
			}
		}
	}
	it = t->wq[best];
	memmove(t->wq + best, t->wq + best + 1, (t->nr_wq - best - 1) * sizeof(*t->wq));
	t->nr_wq--;
	t->in_service = true;
	serve(t, it, ch);
}

int zl_timed_submit(struct zl_timed *t, uint64_t now_ns, const struct ztime_req *r, void *ctx)
{
	struct zl_timed_item *it = calloc(1, sizeof(*it));
	int ret = -ENOMEM;

	if (!it)
		return ret;
	if (r)
		it->r = *r;
	it->ctx = ctx;
	pthread_mutex_lock(&t->lock);
	it->arrival = now_ns;
	it->seq = t->seq++;
	if (grow(&t->heap, &t->cap_heap, t->nr_heap + t->nr_wq + 1))
		goto out_unlock;
	if (!r) {
		/* no media access: the command overhead, beside the model */
		it->start = now_ns;
		it->due = now_ns + ztime_params(t->zt)->cmd_ns;
		heap_push(t, it);
	} else if (t->sptf) {
		if (grow(&t->wq, &t->cap_wq, t->nr_wq + 1))
			goto out_unlock;
		t->wq[t->nr_wq++] = it;
		dispatch(t, now_ns);
	} else {
		serve(t, it, now_ns);
	}
	t->st.pending++;
	it = NULL;
	ret = 0;
	pthread_cond_signal(&t->cv);
out_unlock:
	pthread_mutex_unlock(&t->lock);
	free(it);
	return ret;
}

/* Pop the earliest (due by @now_ns): NULL if none.  Under the lock. */
static struct zl_timed_item *take_due(struct zl_timed *t, uint64_t now_ns)
{
	struct zl_timed_item *it;

	if (!t->nr_heap || t->heap[0]->due > now_ns)
		return NULL;
	it = heap_pop(t);
	t->st.timed++;
	t->st.pending--;
	t->st.service_ns += it->due > it->start ? it->due - it->start : 0;
	t->st.wait_ns += it->start > it->arrival ? it->start - it->arrival : 0;
	if (now_ns > it->arrival && now_ns - it->arrival > t->st.max_ns)
		t->st.max_ns = now_ns - it->arrival;
	if (it->due > it->arrival && it->due - it->arrival > t->st.max_model_ns)
		t->st.max_model_ns = it->due - it->arrival;
	if (it->in_model && (positional(it) || it->ends_job))
		t->st.last_done_ns = now_ns;
	if (t->sptf && it->in_model) {
		t->in_service = false;
		dispatch(t, it->due);
	}
	return it;
}

static void complete(struct zl_timed *t, struct zl_timed_item *it)
{
	t->cfg.complete(t->cfg.arg, it->ctx, it->due);
	free(it);
}

unsigned zl_timed_run_until(struct zl_timed *t, uint64_t now_ns)
{
	struct zl_timed_item *it;
	unsigned n = 0;

	pthread_mutex_lock(&t->lock);
	while ((it = take_due(t, now_ns))) {
		pthread_mutex_unlock(&t->lock);
		complete(t, it);
		n++;
		pthread_mutex_lock(&t->lock);
	}
	pthread_mutex_unlock(&t->lock);
	return n;
}

static void *timer_main(void *arg)
{
	struct zl_timed *t = arg;
	struct zl_timed_item *it;
	struct timespec ts;
	uint64_t now;

	pthread_mutex_lock(&t->lock);
	while (!t->stop) {
		if (!t->nr_heap) {
			pthread_cond_wait(&t->cv, &t->lock);
			continue;
		}
		now = zl_timed_clock_ns();
		it = take_due(t, now);
		if (!it) {
			ts.tv_sec = (time_t)(t->heap[0]->due / 1000000000u);
			ts.tv_nsec = (long)(t->heap[0]->due % 1000000000u);
			pthread_cond_timedwait(&t->cv, &t->lock, &ts);
			continue;
		}
		pthread_mutex_unlock(&t->lock);
		complete(t, it);
		pthread_mutex_lock(&t->lock);
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

int zl_timed_create(const struct zl_timed_cfg *cfg, struct zl_timed **out, char *msg,
		    size_t msg_len)
{
	struct zl_timed *t = calloc(1, sizeof(*t));
	pthread_condattr_t ca;
	int ret;

	if (!t)
		return -ENOMEM;
	t->cfg = *cfg;
	ret = ztime_create(cfg->params, &cfg->geo, &t->zt, msg, msg_len);
	if (ret) {
		free(t);
		return ret;
	}
	t->sptf = cfg->params->sched == ZTIME_SCHED_SPTF;
	pthread_mutex_init(&t->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&t->cv, &ca);
	pthread_condattr_destroy(&ca);
	if (cfg->thread) {
		ret = -pthread_create(&t->thread, NULL, timer_main, t);
		if (ret) {
			snprintf(msg, msg_len, "timing: cannot start the timer thread");
			zl_timed_destroy(t);
			return ret;
		}
		t->has_thread = true;
	}
	*out = t;
	return 0;
}

void zl_timed_destroy(struct zl_timed *t)
{
	if (!t)
		return;
	if (t->has_thread) {
		pthread_mutex_lock(&t->lock);
		t->stop = true;
		pthread_cond_signal(&t->cv);
		pthread_mutex_unlock(&t->lock);
		pthread_join(t->thread, NULL);
	}
	zl_timed_run_until(t, UINT64_MAX);
	pthread_cond_destroy(&t->cv);
	pthread_mutex_destroy(&t->lock);
	ztime_destroy(t->zt);
	free(t->heap);
	free(t->wq);
	free(t);
}

void zl_timed_stats(struct zl_timed *t, struct zl_timed_stats *out)
{
	pthread_mutex_lock(&t->lock);
	*out = t->st;
	pthread_mutex_unlock(&t->lock);
}

const struct ztime_params *zl_timed_params(const struct zl_timed *t)
{
	return ztime_params(t->zt);
}
