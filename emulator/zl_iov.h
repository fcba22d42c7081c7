/*
 * zl_iov.h — small helpers for scatter-gather buffers (struct iovec), used
 * where tcmu-runner's data buffers travel down to the store without a
 * bounce copy.  Header-only; no allocation.
 */
#ifndef ZL_IOV_H
#define ZL_IOV_H

#include <stddef.h>
#include <string.h>
#include <sys/uio.h>

static inline size_t zl_iov_len(const struct iovec *iov, int cnt)
{
	size_t n = 0;

	for (int i = 0; i < cnt; i++)
		n += iov[i].iov_len;
	return n;
}

/*
 * Describe bytes [@off, @off + @len) of @iov in @out (at most @max entries).
 * Returns the number of entries used, or -1 if @max is too small or the
 * range runs past the end of @iov.
 */
static inline int zl_iov_slice(const struct iovec *iov, int cnt, size_t off, size_t len,
			       struct iovec *out, int max)
{
	int n = 0;

	for (int i = 0; i < cnt && len; i++) {
		size_t l = iov[i].iov_len;

		if (off >= l) {
			off -= l;
			continue;
		}
		if (n >= max)
			return -1;
		out[n].iov_base = (char *)iov[i].iov_base + off;
		out[n].iov_len = l - off < len ? l - off : len;
		len -= out[n].iov_len;
		off = 0;
		n++;
	}
	return len ? -1 : n;
}

/* Zero bytes of a vector. */
static inline void zl_iov_zero(const struct iovec *iov, int cnt)
{
	for (int i = 0; i < cnt; i++)
		memset(iov[i].iov_base, 0, iov[i].iov_len);
}

#endif /* ZL_IOV_H */
