# Adapter for tcmu-runner's own handler_file_zbc.so (subtype "zbc").
# cfgstring: zbc/[opt[/opt...]@]<file>, options model-HM|HA, lba-<bytes>,
# zsize-<MiB>, conv-<n> (conventional zones, always from LBA 0), open-<n>.
H_LABEL=file_zbc
H_SUBTYPE=zbc
H_SO=handler_file_zbc.so

# h_cfg FILE ZONE_MIB NCONV MAXOPEN - conventional zones at LBA 0.
h_cfg() { echo "zbc/model-HM/lba-${E2E_LBA:-512}/zsize-$2/conv-$3/open-$4@$1"; }
# h_cfg_conv_at FILE ZONE_MIB NCONV_AT0 FIRST COUNT MAXOPEN - not supported.
h_cfg_conv_at() { echo "handler_file_zbc places conventional zones only at LBA 0" >&2; return 1; }
# h_cfg_nonpow2 FILE - 3 MiB zones.
h_cfg_nonpow2() { echo "zbc/model-HM/lba-${E2E_LBA:-512}/zsize-3/conv-1/open-8@$1"; }
h_cfg_urswrz0() { echo "handler_file_zbc has no option to clear URSWRZ" >&2; return 1; }
# h_fresh FILE - forget a previous image.
h_fresh() { rm -f "$1"; }
