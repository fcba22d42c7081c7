#!/usr/bin/env python3
"""plotcheck.py — check what a zonelab plot promises, from its files.

usage: plotcheck.py DIR/plots/NAME [--panels N] [--max-series N] [--series N]
                    [--shared-key | --key-per-panel]

From NAME.gp (written by `zonelab plot`): the number of panels, the data
series (entries with a title, the 'analytic model' legend entry apart) of
each panel, that every legend sits outside the panel's data area (its
'at screen' x right of the panel's right margin), that every line colour
is an Okabe-Ito colour (or black / grey).  From NAME.svg (drawn by
gnuplot): that every text lies inside the canvas (its extent estimated
from the font size: 0.68 em a character, a little wider than Sans).
Prints one line per failure and exits 1 if any; prints a summary and
exits 0 otherwise.
"""
import argparse
import html
import re
import sys

OKABE_ITO = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"}
NEUTRAL = {"#000000", "#333333", "#999999", "#dddddd", "#bbbbbb", "#ffffff"}


def panels_of(gp):
    """[(rmargin, key_x or None, [titles])] per panel of the script."""
    out = []
    cur = None
    for line in gp.splitlines():
        s = line.strip()
        if s.startswith("# panel "):
            cur = {"rmargin": None, "key": None, "titles": [], "nokey": False}
            out.append(cur)
        elif cur is None:
            continue
        elif s.startswith("set rmargin at screen"):
            cur["rmargin"] = float(s.split()[-1])
        elif s.startswith("set key"):
            m = re.search(r"at screen ([0-9.]+),", s)
            if not m or "inside" in s:
                cur["key"] = "inside"
            else:
                cur["key"] = float(m.group(1))
        elif s == "unset key":
            cur["nokey"] = True
        elif not s.startswith("set "):
            for t in re.findall(r'\btitle ("(?:[^"\\]|\\.)*")', s):
                cur["titles"].append(t[1:-1])
    return out


def text_boxes(svg):
    """(x0, y0, x1, y1, text) of every text gnuplot placed."""
    pat = re.compile(r'<g transform="translate\(([-0-9.]+),([-0-9.]+)\)( rotate\(([-0-9.]+)\))?"'
                     r'[^>]*font-size="([0-9.]+)"[^>]*text-anchor="(start|middle|end)"\s*>\s*'
                     r'<text>(.*?)</text>', re.S)
    for m in pat.finditer(svg):
        x, y = float(m.group(1)), float(m.group(2))
        rot = float(m.group(4) or 0) % 360
        fs = float(m.group(5))
        anchor = m.group(6)
        text = html.unescape(re.sub(r"<[^>]*>", "", m.group(7))).strip()
        if not text:
            continue
        w = len(text) * fs * 0.68
        a0 = {"start": 0, "middle": -w / 2, "end": -w}[anchor]
        if rot in (90, 270):
            sign = -1 if rot == 270 else 1
            ys = sorted([y + sign * a0, y + sign * (a0 + w)])
            yield (x - fs, ys[0], x, ys[1], text)
        else:
            yield (x + a0, y - fs, x + a0 + w, y + fs * 0.3, text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("stem")
    ap.add_argument("--panels", type=int)
    ap.add_argument("--max-series", type=int, default=6)
    ap.add_argument("--series", type=int, help="data series in every panel")
    ap.add_argument("--shared-key", action="store_true")
    ap.add_argument("--key-per-panel", action="store_true")
    a = ap.parse_args()
    bad = []
    gp = open(a.stem + ".gp").read()
    svg = open(a.stem + ".svg").read()
    ps = panels_of(gp)
    if a.panels is not None and len(ps) != a.panels:
        bad.append("%d panels, want %d" % (len(ps), a.panels))
    keys = 0
    for i, p in enumerate(ps):
        data = [t for t in p["titles"] if not t.startswith("analytic model")]
        if len(data) > a.max_series:
            bad.append("panel %d: %d series, at most %d" % (i, len(data), a.max_series))
        if a.series is not None and len(data) != a.series:
            bad.append("panel %d: %d series, want %d" % (i, len(data), a.series))
        if p["key"] == "inside":
            bad.append("panel %d: legend inside the data area" % i)
        elif p["key"] is not None and not p["nokey"]:
            keys += 1
            if p["rmargin"] is None or p["key"] < p["rmargin"]:
                bad.append("panel %d: legend at x=%.3f, left of the data area's right edge %s"
                           % (i, p["key"], p["rmargin"]))
    if a.shared_key and keys != 1:
        bad.append("%d legends, want one shared" % keys)
    if a.key_per_panel and keys != len(ps):
        bad.append("%d legends for %d panels" % (keys, len(ps)))
    for c in re.findall(r'lc rgb "(#[0-9A-Fa-f]{6})"', gp):
        if c not in OKABE_ITO and c.lower() not in NEUTRAL:
            bad.append("colour %s is not in the Okabe-Ito palette" % c)
    m = re.search(r'<svg\s+width="([0-9.]+)" height="([0-9.]+)"', svg)
    if not m:
        bad.append("svg: no width/height")
    else:
        W, H = float(m.group(1)), float(m.group(2))
        n = 0
        for x0, y0, x1, y1, t in text_boxes(svg):
            n += 1
            if x0 < -1 or y0 < -1 or x1 > W + 1 or y1 > H + 1:
                bad.append("svg: text %r at [%.0f,%.0f]-[%.0f,%.0f] leaves the %gx%g canvas"
                           % (t, x0, y0, x1, y1, W, H))
        if not n:
            bad.append("svg: no text found")
    for b in bad:
        print("%s: %s" % (a.stem, b))
    if not bad:
        print("%s: %d panels, series %s, legends outside, palette ok, no text clipped"
              % (a.stem, len(ps), [len([t for t in p["titles"] if not t.startswith("analytic")])
                                   for p in ps]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
