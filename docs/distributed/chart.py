#!/usr/bin/env python3
"""Draws NAME.svg from NAME.txt: medians as bars, min-max as whiskers, log scale. NAME is
`pingpong` unless given. pingpong*.txt: the output of PingPongThroughput (round trips/s per
one-second window). bigbang*.txt: the output of BigBang (pongs/s per one-second window, one group
per benchmark and number of JVMs). chat*.txt: the output of ChatBench (rounds/s from the median,
min and max round time). Standard library only."""
import math, re, sys, os

here = os.path.dirname(os.path.abspath(__file__))
name = sys.argv[1] if len(sys.argv) > 1 else "pingpong"
rows = []
unit, title, lo, hi = "round trips/s", "PingPong: round trips per second", 2, 7
for line in open(os.path.join(here, name + ".txt")):
    if name.startswith("bigbang"):
        # "big   cogs      4  median 462 min 270 max 625": setup "cogs big", group size 4 (JVMs)
        m = re.match(r"(big|bang)\s+(cogs|pekko)\s+(\d+)\s+median\s+(\d+)\s+min\s+(\d+)\s+max\s+(\d+)", line)
        if m:
            rows.append((m.group(2) + " " + m.group(1), int(m.group(3)), int(m.group(4)), int(m.group(5)), int(m.group(6))))
        unit, title, lo, hi = "pongs/s", "Big and Bang: pongs per second, all nodes", 1, 6
    elif name.startswith("chat"):
        # "chat cogs  local    rounds 20 in 3.1 s: ... median round 150.2 ms  min 120.0  max 200.1 ms"
        m = re.match(r"chat (cogs|pekko)\s+(local|\d+ nodes)\s+rounds \d+ in [\d.]+ s: [\d.]+ rounds/s\s+median round ([\d.]+) ms\s+min ([\d.]+)\s+max ([\d.]+) ms", line)
        if m:
            n = 1 if m.group(2) == "local" else int(m.group(2).split()[0])
            med, mn, mx = (1000.0 / float(m.group(k)) for k in (3, 5, 4))  # rounds/s: the slowest round is the minimum
            rows.append((m.group(1) + " chat", n, med, mn, mx))
        unit, title, lo, hi = "rounds/s", "Chat: rounds per second (from median, min, max round time)", -1, 3
    else:
        m = re.match(r"(\w+ [\w ]+?)\s+(\d+)\s+median\s+(\d+)\s+min\s+(\d+)\s+max\s+(\d+)", line)
        if m:
            rows.append((m.group(1).strip(), int(m.group(2)), int(m.group(3)), int(m.group(4)), int(m.group(5))))

groups = []
setups = []
for r in rows:
    su = r[0].split(" ", 1)[1]
    if su not in setups: setups.append(su)
for setup in setups:
    for balls in sorted({r[1] for r in rows}):
        groups.append((setup, balls, [r for r in rows if r[0].endswith(setup) and r[1] == balls]))

W, H, left, bottom, top = 760, 380, 70, 60, 40
def y(v): return top + (H - top - bottom) * (1 - (math.log10(max(v, 10 ** lo)) - lo) / (hi - lo))
out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
       f'<text x="{W/2}" y="20" text-anchor="middle" font-size="14">{title} ({"median" if name.startswith("chat") else "median of 1 s windows"}, whiskers min..max; log scale)</text>']
for e in range(lo, hi + 1):
    out.append(f'<line x1="{left}" x2="{W-10}" y1="{y(10**e):.1f}" y2="{y(10**e):.1f}" stroke="#ddd"/>')
    out.append(f'<text x="{left-6}" y="{y(10**e)+4:.1f}" text-anchor="end">1e{e}</text>')
gw = (W - left - 10) / len(groups)
colours = {"cogs": "#2b6cb0", "pekko": "#c05621"}
for i, (setup, balls, rs) in enumerate(groups):
    x0 = left + i * gw + gw * 0.15
    bw = gw * 0.7 / max(len(rs), 1)
    for j, (label, _, med, mn, mx) in enumerate(rs):
        kind = label.split()[0]
        x = x0 + j * bw
        out.append(f'<rect x="{x:.1f}" y="{y(med):.1f}" width="{bw*0.9:.1f}" height="{H-bottom-y(med):.1f}" fill="{colours[kind]}"/>')
        cx = x + bw * 0.45
        out.append(f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{y(mn):.1f}" y2="{y(mx):.1f}" stroke="black"/>')
    if name.startswith("pingpong"):
        label = f'{setup}, {balls} ball{"s" if balls > 1 else ""}'
    else:
        label = f'{setup}, {"local" if name.startswith("chat") and balls == 1 else str(balls) + " JVMs"}'
    out.append(f'<text x="{left + i*gw + gw/2:.1f}" y="{H-bottom+18}" text-anchor="middle">{label}</text>')
out.append(f'<rect x="{left+10}" y="{H-22}" width="12" height="12" fill="{colours["cogs"]}"/><text x="{left+26}" y="{H-12}">Cogs (over Pekko when distributed)</text>')
out.append(f'<rect x="{left+280}" y="{H-22}" width="12" height="12" fill="{colours["pekko"]}"/><text x="{left+296}" y="{H-12}">plain Pekko actors</text>')
out.append('</svg>')
open(os.path.join(here, name + ".svg"), "w").write("\n".join(out) + "\n")
