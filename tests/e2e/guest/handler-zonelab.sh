# Adapter for our handler_zonelab.so (subtype "zonelab"), cfgstring as in
# docs/CFGSTRING.md:  zonelab/<path>?key=value&key=value...
# The image is formatted when missing and reopened (zones kept) when present.
H_LABEL=zonelab
H_SUBTYPE=zonelab
H_SO=handler_zonelab.so

# h_cfg FILE ZONE_MIB NCONV MAXOPEN - conventional zones at LBA 0.
h_cfg() { echo "zonelab/$1?zsize=$2M&conv=$3&max_open=$4&lba=${E2E_LBA:-512}"; }
# h_cfg_conv_at FILE ZONE_MIB NCONV_AT0 FIRST COUNT MAXOPEN
h_cfg_conv_at() { echo "zonelab/$1?zsize=$2M&conv=$3&conv_at=$4+$5&max_open=$6&lba=${E2E_LBA:-512}"; }
h_cfg_nonpow2() { echo "zonelab/$1?zsize=3M&conv=1&max_open=8&lba=${E2E_LBA:-512}"; }
h_cfg_urswrz0() { echo "zonelab/$1?zsize=16M&conv=1&max_open=8&urswrz=0&lba=${E2E_LBA:-512}"; }
# h_cfg_faults FILE ZONE_MIB NCONV MAXOPEN RULES - with fault rules (docs/FAULTS.md).
h_cfg_faults() { echo "zonelab/$1?zsize=$2M&conv=$3&max_open=$4&lba=${E2E_LBA:-512}&faults=$5"; }
h_fresh() { rm -f "$1"; }
# h_cfg_ctl FILE ZONE_MIB NCONV MAXOPEN - with the control socket FILE.ctl
# (docs/CTL.md), for `zonelab ctl`.
h_cfg_ctl() { echo "zonelab/$1?zsize=$2M&conv=$3&max_open=$4&lba=${E2E_LBA:-512}&ctl=1"; }
# h_cfg_bad FILE - a cfgstring check_config refuses (zone size not a number).
h_cfg_bad() { echo "zonelab/$1?zsize=banana&conv=1"; }
