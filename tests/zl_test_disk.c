/*
 * zl_test_disk.c — the test helpers that drive a zdisk (zl_test.h): a
 * command on a thread of its own, a wait for fault verdicts.  Apart from
 * zl_test.c so that programs which only dlopen() the tcmu handler (the
 * stand-in tests, the conformance runner, the bench) need no copy of the
 * library.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>

#include "zdisk.h"
#include "zl_test.h"

void *zl_test_io_thread(void *arg)
{
	struct zl_test_io *io = arg;
	void *buf = calloc(io->nr_lba ? io->nr_lba : 1, zdisk_geo(io->z)->lba_size);

	if (!buf) {
		io->ret = -ENOMEM;
		return NULL;
	}
	if (io->write)
		io->ret = zdisk_write(io->z, io->lba, io->nr_lba, buf, false, NULL);
	else
		io->ret = zdisk_read(io->z, io->lba, io->nr_lba, buf, NULL);
	free(buf);
	return NULL;
}

void zl_test_wait_faults_fired(struct zdisk *z, uint64_t n)
{
	for (;;) {
		struct zl_stats s;

		zdisk_stats(z, &s);
		if (s.faults_fired >= n)
			return;
		sched_yield();
	}
}
