/*
 * trc.c — names of the trace record's operations (used by every reader,
 * writer and the command line).  Not a reader: each format has its own file.
 */
#include "trc.h"

static const char *const op_names[TRC_NR_OPS] = {
	[TRC_OP_READ] = "read",
	[TRC_OP_WRITE] = "write",
	[TRC_OP_FLUSH] = "flush",
	[TRC_OP_DISCARD] = "discard",
	[TRC_OP_ZONE_RESET] = "zone-reset",
	[TRC_OP_ZONE_FINISH] = "zone-finish",
	[TRC_OP_ZONE_OPEN] = "zone-open",
	[TRC_OP_ZONE_CLOSE] = "zone-close",
	[TRC_OP_ZONE_APPEND] = "zone-append",
	[TRC_OP_OTHER] = "other",
};

const char *trc_op_name(enum trc_op op)
{
	return (unsigned)op < TRC_NR_OPS ? op_names[op] : "?";
}
