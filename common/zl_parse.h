/*
 * zl_parse.h — the one parser of numbers and byte sizes that users type:
 * `zonelab` options (cli/) and the handler's cfgstring
 * (emulator/tcmu/zl_cfgstr.c) both read them here, so both accept the same
 * spellings and give the same reason for a refusal (like btrfs-progs'
 * parse-utils.c).  It parses only: it prints nothing and knows no option
 * or key names; the caller puts its own "what and which value" before the
 * reason.  Ranges that depend on the quantity (a block size, a count of
 * zones) are the caller's too.
 *
 * Accepted spellings:
 *   number  decimal digits, or 0x and hex digits; no sign, no blanks, never
 *           octal ("010" is ten)
 *   size    a number, then optionally one binary suffix K, M, G or T (either
 *           case; K = 2^10 ...), which may be followed by "iB" ("64MiB");
 *           "64MB" is refused: MB is ambiguous (10^6 or 2^20)
 */
#ifndef ZL_PARSE_H
#define ZL_PARSE_H

#include <stddef.h>
#include <stdint.h>

/**
 * zl_parse_u64() - a whole string as an unsigned 64-bit number.
 * @s:       the text (borrowed); NULL is treated as ""
 * @out:     the value, written only on success
 * @why:     where the reason of a refusal goes (may be NULL)
 * @why_len: size of @why
 *
 * The reasons, a phrase without the value (the caller names it):
 * "not a non-negative integer" (empty, or a leading '-'), "too large"
 * (above 2^64 - 1), "not an integer (stray 'REST')".
 * Return: 0, -EINVAL (not a number) or -ERANGE (too large).
 */
int zl_parse_u64(const char *s, uint64_t *out, char *why, size_t why_len);

/**
 * zl_parse_size() - a byte size: "4096", "0x1000", "64K", "256M", "2G",
 * "1T", "64KiB".
 * @s:       the text (borrowed); NULL is treated as ""
 * @bytes:   the value in bytes, written only on success (0 is a size)
 * @why:     where the reason of a refusal goes (may be NULL)
 * @why_len: size of @why
 *
 * The reasons, a phrase without the value (the caller names it):
 * "empty, expected a size (e.g. 4096, 64K, 256M, 2G)",
 * "negative, a size is 0 or more",
 * "not a size (e.g. 4096, 64K, 256M, 2G)",
 * "overflows 64 bits",
 * "unknown size suffix (K, M, G or T)",
 * "stray characters after the size suffix (K, M, G or T, optionally followed by iB)".
 * Return: 0, -EINVAL (not a size) or -ERANGE (does not fit in 64 bits).
 */
int zl_parse_size(const char *s, uint64_t *bytes, char *why, size_t why_len);

#endif /* ZL_PARSE_H */
