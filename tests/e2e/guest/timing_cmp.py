#!/usr/bin/python3
"""timing_cmp.py PREFIX - the e2e timing check's verdict (checks/27-timing.sh).

Reads PREFIX-model.json (`zonelab timing table --json` for the disk),
PREFIX-{qd1,od,id,fifo,sptf,u_qd1,u_od}.json (fio --output-format=json) and
PREFIX-{zop,u_zop}.json (guest/zoneop_lat.py), prints one line per figure
(data sheet, model, measured on the timed disk, the untimed disk's figure,
measured / model, PASS or FAIL with the bound) and a SUMMARY line; exits 1
when a figure is out of its bound.  The bounds (docs/TIMING.md,
"Validation"); the untimed disk measures what the VM itself costs:
  QD1 mean latency in [model - 3 se, model + 3 se + untimed mean latency]
      (se: fio's latency stddev / sqrt(ios)); IOPS with the VM's own
      per-command time taken out (1 / (latency - untimed latency)) within
      15% of the model
  sequential MB/s in [0.85, 1.02] x model, when the untimed disk streams at
      least 1.3 x the model's rate; else the VM cannot feed the model
      ("VM-bound"): only <= 1.02 x model
  QD32 IOPS: FIFO within 15% of the model; SPTF the same and SPTF / FIFO > 2
      when the untimed disk does at least 1.3 x the model's SPTF IOPS at
      QD32; else VM-bound: SPTF <= 1.15 x model and SPTF / FIFO > 1.2 (the
      reordering still shows)
  zone finish / reset: every one >= the model's time (the handler cannot
      complete earlier), median <= model + the untimed disk's 90th
      percentile + the 90th percentile of the VM's timed-wait overshoot
"""
import json
import math
import statistics
import sys

pre = sys.argv[1]
fails = []
lines = []


def load(tag):
    with open("%s-%s.json" % (pre, tag)) as f:
        return json.load(f)


def fio(tag):
    r = load(tag)["jobs"][0]["read"]
    if r.get("total_ios", 0) <= 0:
        fails.append("fio %s: no I/O" % tag)
    return r


def quantile(v, q):
    v = sorted(v)
    return v[min(len(v) - 1, int(q * len(v)))]


model = {r["name"]: r["value"] for r in load("model")["rows"]}


def check(name, unit, sheet, mod, meas, untimed, lo, hi, bound):
    ok = lo <= meas <= hi
    lines.append("%-4s %-30s %10s %10.3f %10.3f %10s %6.3f %-5s  %s [%.3f, %.3f]" % (
        "ok" if ok else "FAIL", name, "-" if sheet is None else "%.3f" % sheet, mod, meas,
        "-" if untimed is None else "%.3f" % untimed, meas / mod if mod else 0, unit, bound,
        lo, hi))
    if not ok:
        fails.append("%s %.3f %s not in [%.3f, %.3f] (model %.3f)" % (name, meas, unit, lo, hi,
                                                                    mod))
    return meas


# QD1 random reads: latency and IOPS
q, uq = fio("qd1"), fio("u_qd1")
m_iops = model["QD1 4 KiB random read"]
m_lat = 1e3 / m_iops
lat, ulat = q["lat_ns"]["mean"] / 1e6, uq["lat_ns"]["mean"] / 1e6
se = q["lat_ns"]["stddev"] / 1e6 / math.sqrt(q["total_ios"])
check("QD1 4K rand read latency", "ms", 1e3 / 86.505, m_lat, lat, ulat, m_lat - 3 * se,
      m_lat + 3 * se + ulat, "model -3se, +3se+untimed")
check("QD1 4K rand read", "IOPS", 86.505, m_iops, q["iops"], uq["iops"], 0, 1e9, "reported")
check("QD1 IOPS, VM time out", "IOPS", 86.505, m_iops, 1e3 / max(lat - ulat, 1e-3), None,
      0.85 * m_iops, 1.15 * m_iops, "model +-15%")
# sequential
uod = fio("u_od")["bw_bytes"] / 1e6
for tag, name, sheet in (("od", "sequential 1 MiB read, OD", 255.0),
                         ("id", "sequential 1 MiB read, ID", None)):
    m = model[name]
    fed = uod >= 1.3 * m
    check("seq 1M read QD4 " + tag.upper(), "MB/s", sheet, m, fio(tag)["bw_bytes"] / 1e6,
          uod, 0.85 * m if fed else 0, 1.02 * m,
          "model -15%, +2%" if fed else "VM-bound (untimed < 1.3 x model): <= model +2%")
# QD32
u32 = fio("u_qd32")["iops"]
for tag, name in (("fifo", "QD32 4 KiB random read, FIFO"),
                  ("sptf", "QD32 4 KiB random read, SPTF")):
    m = model[name]
    fed = u32 >= 1.3 * m
    check("QD32 4K rand read " + tag.upper(), "IOPS", None, m, fio(tag)["iops"], u32,
          0.85 * m if fed else 0, 1.15 * m,
          "model +-15%" if fed else "VM-bound (untimed < 1.3 x model): <= model +15%")
fifo, sptf = fio("fifo")["iops"], fio("sptf")["iops"]
m_ratio = model["QD32 4 KiB random read, SPTF"] / model["QD32 4 KiB random read, FIFO"]
fed = u32 >= 1.3 * model["QD32 4 KiB random read, SPTF"]
check("QD32 SPTF / FIFO", "x", None, m_ratio, sptf / fifo, None, 2.0 if fed else 1.2, 1e9,
      "> 2" if fed else "VM-bound: > 1.2")
# zone operations
z, uz = load("zop"), load("u_zop")
lag = quantile(z["sleep_over"] + uz["sleep_over"], 0.9)
for op, name in (("finish", "zone finish (half-full zone)"), ("reset", "zone reset (full zone)")):
    m = model[name]
    v, u = z[op], uz[op]
    check("zone %s min" % op, "ms", None, m, min(v), min(u), m, 1e9, ">= model")
    check("zone %s median" % op, "ms", None, m, statistics.median(v), statistics.median(u),
          m, m + quantile(u, 0.9) + lag, "model .. model+untimed p90+timer lag p90")

print("%-4s %-30s %10s %10s %10s %10s %6s %-5s  %s" % ("", "figure", "datasheet", "model",
                                                      "measured", "untimed", "ratio", "unit",
                                                      "bound"))
for l in lines:
    print(l)
for f in fails:
    print("FAIL " + f)
print("SUMMARY QD1 %.1f IOPS (model %.1f), OD %.1f ID %.1f MB/s (model %.1f %.1f), "
      "QD32 FIFO %.1f SPTF %.1f IOPS (x%.2f; model %.1f %.1f), reset median %.2f ms, "
      "finish %.2f ms (model %.2f); VM overhead QD1 %.2f ms, zone op %.2f ms, "
      "timer lag p90 %.2f ms, untimed QD32 %.0f IOPS, untimed seq %.0f MB/s" % (
          q["iops"], m_iops, fio("od")["bw_bytes"] / 1e6, fio("id")["bw_bytes"] / 1e6,
          model["sequential 1 MiB read, OD"], model["sequential 1 MiB read, ID"], fifo, sptf,
          sptf / fifo, model["QD32 4 KiB random read, FIFO"],
          model["QD32 4 KiB random read, SPTF"], statistics.median(z["reset"]),
          statistics.median(z["finish"]), model["zone reset (full zone)"], ulat,
          statistics.median(uz["reset"]), lag, u32, uod))
sys.exit(1 if fails else 0)
