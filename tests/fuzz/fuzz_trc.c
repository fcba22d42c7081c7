/*
 * fuzz_trc.c — libFuzzer target for every trace reader.  Byte 0 picks the
 * reader (trc_formats[] by index; one past the end = auto-detection), byte
 * 1 the event (Q/D/C) and --lenient (bit 4 picked the native version 2
 * decoder's path while it had two; now unused); the rest is the file,
 * handed to the reader through a memfd (readers open paths).  Each reader must refuse or
 * read it without a crash, a hang or a leak; every record it returns must
 * be well formed (op in range, offset + length without overflow), and the
 * records go through trace stat's descriptors.  Seeds: every committed
 * sample, prefixed with its reader's byte.  Built with clang only.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "trc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trc_reader_cfg cfg;
	struct trc_reader *r;
	struct trc_stat *st = NULL;
	struct trc_rec rec;
	char path[64], msg[1024];
	uint64_t n = 0, nr_stat = 0;
	int fd, ret;
	size_t fi;

	if (size < 2)
		return 0;
	trc_reader_cfg_init(&cfg);
	fi = data[0] % (trc_nr_formats + 1);
	cfg.format = fi < trc_nr_formats ? trc_formats[fi].name : "auto";
	cfg.event = (enum trc_event)(data[1] % 3);
	cfg.lenient = data[1] & 0x80;
	fd = memfd_create("fuzz_trc", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (write(fd, data + 2, size - 2) != (ssize_t)(size - 2)) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (trc_reader_open(path, &cfg, &r, msg, sizeof(msg)) == 0) {
		if (trc_stat_create(&st))
			abort();
		while ((ret = trc_reader_next(r, &rec)) == 1) {
			if (rec.op >= TRC_NR_OPS || rec.len_bytes > UINT64_MAX - rec.offset_bytes)
				abort();
			/* the descriptors of the first records (a leaf per scattered block is slow) */
			if (nr_stat < 64 && rec.len_bytes <= (1u << 20)) {
				if (trc_stat_add(st, &rec))
					abort();
				nr_stat++;
			}
			n++;
		}
		if (ret < 0 && !trc_reader_msg(r)[0])
			abort();                /* every error says what */
		if (ret == 0 && trc_reader_next(r, &rec) != 0)
			abort();                /* the end stays the end */
		if (nr_stat) {
			struct trc_stat_result res;

			trc_stat_result(st, &res);
			if (res.nr_recs != nr_stat)
				abort();
		}
		trc_stat_destroy(st);
		trc_reader_close(r);
	} else if (!msg[0]) {
		abort();
	}
	close(fd);
	return 0;
}
