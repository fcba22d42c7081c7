/*
 * zl_hot.h — ZL_HOT_INLINE, for the few functions on the 4 KiB READ path
 * (handler -> zscsi -> zdisk -> zdev -> pread()).  They are inlined into
 * every caller; with link-time optimization (the LTO build of
 * handler_zonelab.so) that holds across files too, so the command runs to
 * pread() in one frame.  On this path every frame that returns after the
 * system call shows in the read rate (docs/TCMU.md, "Speed work").  Such a
 * function is still an external definition (C99 inline with a plain
 * declaration in its header), callable from code built without LTO.
 */
#ifndef ZL_HOT_H
#define ZL_HOT_H

#define ZL_HOT_INLINE inline __attribute__((always_inline))

#endif /* ZL_HOT_H */
