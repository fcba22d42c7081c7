# Adapter for our handler_zonelab.so (subtype "zonelab").
# ASSUMED cfgstring until docs/CFGSTRING.md lands - the only file to change
# when it does:  zonelab/<key>=<value>[,...]  with
#   path=<file>  zone_mib=<n>  conv=<n>  conv_at=<first>+<count>  max_open=<n>
#   lba=<512|4096>  urswrz=<0|1>; the image is created when missing, reopened
#   (zone state kept) when present
H_LABEL=zonelab
H_SUBTYPE=zonelab
H_SO=handler_zonelab.so

h_cfg() { echo "zonelab/path=$1,zone_mib=$2,conv=$3,max_open=$4,lba=${E2E_LBA:-512}"; }
h_cfg_conv_at() { echo "zonelab/path=$1,zone_mib=$2,conv=$3,conv_at=$4+$5,max_open=$6,lba=${E2E_LBA:-512}"; }
h_cfg_nonpow2() { echo "zonelab/path=$1,zone_mib=3,conv=1,max_open=8,lba=${E2E_LBA:-512}"; }
h_cfg_urswrz0() { echo "zonelab/path=$1,zone_mib=16,conv=1,max_open=8,urswrz=0,lba=${E2E_LBA:-512}"; }
h_fresh() { rm -f "$1"; }
