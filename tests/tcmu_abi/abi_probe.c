/*
 * abi_probe.c — prints the layout of every tcmu-runner ABI type zonelab
 * declares (sizeof, offsetof of each member, status code values), one line
 * each.  Built twice by tests/scripts/030-tcmu-abi.sh: once against
 * emulator/tcmu/tcmu_abi.h and once (-DZL_UPSTREAM) against tcmu-runner
 * 1.5.4's own headers; the two outputs must be identical.  In the upstream
 * build our prototypes are also redeclared after the upstream ones
 * (TCMU_ABI_PROTOS_ONLY), so a differing prototype fails to compile.
 * Not a unit test of anything else.
 */
#include <stddef.h>
#include <stdio.h>

#ifdef ZL_UPSTREAM
#include "tcmu-runner.h"
#include "tcmur_device.h"
#include "libtcmu.h"
#define TCMU_ABI_PROTOS_ONLY
#include "tcmu/tcmu_abi.h"
#else
#include "tcmu/tcmu_abi.h"
#endif

#define SZ(t) printf("sizeof %s %zu\n", #t, sizeof(t))
#define OFF(t, m) printf("offsetof %s.%s %zu size %zu\n", #t, #m, offsetof(t, m), \
			 sizeof(((t *)0)->m))
#define VAL(v) printf("value %s %d\n", #v, (int)(v))

int main(void)
{
	SZ(struct list_node);
	OFF(struct list_node, next);
	OFF(struct list_node, prev);

	SZ(struct tcmulib_cmd);
	OFF(struct tcmulib_cmd, cmd_id);
	OFF(struct tcmulib_cmd, cdb);
	OFF(struct tcmulib_cmd, iovec);
	OFF(struct tcmulib_cmd, iov_cnt);
	OFF(struct tcmulib_cmd, sense_buf);
	OFF(struct tcmulib_cmd, hm_private);

	SZ(struct tcmur_cmd);
	OFF(struct tcmur_cmd, lib_cmd);
	OFF(struct tcmur_cmd, iovec);
	OFF(struct tcmur_cmd, iov_cnt);
	OFF(struct tcmur_cmd, iov_base_copy);
	OFF(struct tcmur_cmd, cmd_state);
	OFF(struct tcmur_cmd, requested);
	OFF(struct tcmur_cmd, cmds_list_entry);
	OFF(struct tcmur_cmd, start_time);
	OFF(struct tcmur_cmd, timed_out);
	OFF(struct tcmur_cmd, done);

	SZ(struct tcmulib_cfg_info);
	OFF(struct tcmulib_cfg_info, type);
	OFF(struct tcmulib_cfg_info, data);
	OFF(struct tcmulib_cfg_info, data.dev_size);
	OFF(struct tcmulib_cfg_info, data.dev_cfgstring);
	OFF(struct tcmulib_cfg_info, data.write_cache);
	VAL(TCMULIB_CFG_DEV_CFGSTR);
	VAL(TCMULIB_CFG_DEV_SIZE);
	VAL(TCMULIB_CFG_WRITE_CACHE);

	SZ(struct tcmur_handler);
	OFF(struct tcmur_handler, name);
	OFF(struct tcmur_handler, subtype);
	OFF(struct tcmur_handler, cfg_desc);
	OFF(struct tcmur_handler, opaque);
	OFF(struct tcmur_handler, check_config);
	OFF(struct tcmur_handler, reconfig);
	OFF(struct tcmur_handler, open);
	OFF(struct tcmur_handler, close);
	OFF(struct tcmur_handler, nr_threads);
	OFF(struct tcmur_handler, handle_cmd);
	OFF(struct tcmur_handler, read);
	OFF(struct tcmur_handler, write);
	OFF(struct tcmur_handler, flush);
	OFF(struct tcmur_handler, unmap);
	OFF(struct tcmur_handler, writesame);
	OFF(struct tcmur_handler, caw);
	OFF(struct tcmur_handler, report_event);
	OFF(struct tcmur_handler, lock);
	OFF(struct tcmur_handler, unlock);
	OFF(struct tcmur_handler, get_lock_tag);
	OFF(struct tcmur_handler, get_lock_state);
	OFF(struct tcmur_handler, _is_dbus_handler);
	OFF(struct tcmur_handler, update_logdir);
	OFF(struct tcmur_handler, init);
	OFF(struct tcmur_handler, destroy);

	VAL(SENSE_BUFFERSIZE);
	VAL(TCMU_STS_ASYNC_HANDLED);
	VAL(TCMU_STS_NOT_HANDLED);
	VAL(TCMU_STS_OK);
	VAL(TCMU_STS_NO_RESOURCE);
	VAL(TCMU_STS_PASSTHROUGH_ERR);
	VAL(TCMU_STS_BUSY);
	VAL(TCMU_STS_WR_ERR);
	VAL(TCMU_STS_RD_ERR);
	VAL(TCMU_STS_MISCOMPARE);
	VAL(TCMU_STS_INVALID_CMD);
	VAL(TCMU_STS_INVALID_CDB);
	VAL(TCMU_STS_INVALID_PARAM_LIST);
	VAL(TCMU_STS_INVALID_PARAM_LIST_LEN);
	VAL(TCMU_STS_TIMEOUT);
	VAL(TCMU_STS_FENCED);
	VAL(TCMU_STS_HW_ERR);
	VAL(TCMU_STS_RANGE);
	VAL(TCMU_STS_FRMT_IN_PROGRESS);
	VAL(TCMU_STS_CAPACITY_CHANGED);
	VAL(TCMU_STS_NOTSUPP_SAVE_PARAMS);
	VAL(TCMU_STS_WR_ERR_INCOMPAT_FRMT);
	VAL(TCMU_STS_TRANSITION);
	VAL(TCMU_STS_IMPL_TRANSITION_ERR);
	VAL(TCMU_STS_EXPL_TRANSITION_ERR);
	VAL(TCMU_STS_NO_LOCK_HOLDERS);
	VAL(TCMU_STS_NOTSUPP_SEG_DESC_TYPE);
	VAL(TCMU_STS_NOTSUPP_TGT_DESC_TYPE);
	VAL(TCMU_STS_CP_TGT_DEV_NOTCONN);
	VAL(TCMU_STS_INVALID_CP_TGT_DEV_TYPE);
	VAL(TCMU_STS_TOO_MANY_SEG_DESC);
	VAL(TCMU_STS_TOO_MANY_TGT_DESC);
	return 0;
}
