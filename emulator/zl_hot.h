/*
 * zl_hot.h — ZL_HOT_INLINE, for the few functions on the 4 KiB READ path
 * (handler -> zscsi -> zdisk -> zdev -> pread()).  They are inlined into
 * every caller; with link-time optimization (the LTO build of
 * handler_zonelab.so) that holds across files too, so the command runs to
 * pread() in one frame.  On this path every frame that returns after the
 * system call shows in the read rate (docs/TCMU.md, "Benchmark").
 *
 * Such a function stays an external definition, callable from code built
 * without LTO, only as long as (C99 6.7.4) its header declares it without
 * `inline` and its defining file includes that header: a `static`
 * function needs no header.
 */
#ifndef ZL_HOT_H
#define ZL_HOT_H

#define ZL_HOT_INLINE inline __attribute__((always_inline))

#endif /* ZL_HOT_H */
