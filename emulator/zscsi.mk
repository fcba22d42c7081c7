# emulator/zscsi.mk — SCSI/ZBC translation (zscsi).  Fragment of ./Makefile.
LIB_SRCS += emulator/zscsi.c emulator/zscsi_sense.c emulator/zscsi_inquiry.c \
	emulator/zscsi_mode.c emulator/zscsi_rw.c emulator/zscsi_zbc.c
