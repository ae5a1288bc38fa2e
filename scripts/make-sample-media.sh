#!/usr/bin/env bash
# make-sample-media.sh — generate small but real sample media for the Livery sample tenants.
#
# Creates (relative to the repository root):
#   Tenants/sonic-walkscape/tours/{florence-renaissance,rome-trastevere}/
#       route.gpx, cover.jpg, map.png, tiles.mbtiles,
#       audio/<it|en|fr>/<NN>-<stop>.mp3, subtitles/<it|en|fr>/<NN>-<stop>.srt
#   Tenants/sonic-walkscape/assets/logo.{svg,png}
#   Tenants/companero/assets/logo.{svg,png}
#   Tenants/companero-lucia/assets/{avatar.jpg,hero.webp,logo.png}
#   Tenants/companero-lucia/library/{articles,video,audio,worksheets,subtitles}/...
#   Tenants/{physio-clinic,urbannest,travel-experiences}/assets/logo.{svg,png}
#
# Idempotent: only ever overwrites the files listed above, never deletes anything else.
# Deterministic as far as practical: no timestamps or metadata are written
# (ffmpeg -fflags +bitexact -map_metadata -1, ImageMagick -strip without date/time chunks,
# cwebp -metadata none, hand-written PDF without dates, SQLite built from scratch).
#
# Needs (Debian 12): espeak-ng lame ffmpeg sqlite3 imagemagick webp librsvg2-bin python3
#   apt-get install -y espeak-ng lame ffmpeg imagemagick webp librsvg2-bin
# Optional for checking: poppler-utils libxml2-utils file
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

export LC_ALL=C.UTF-8 TZ=UTC SOURCE_DATE_EPOCH=0

for tool in espeak-ng lame ffmpeg ffprobe convert python3; do
  command -v "$tool" >/dev/null 2>&1 || { echo "missing tool: $tool (see header for apt packages)" >&2; exit 1; }
done

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# ---------------------------------------------------------------- helpers
FONT=()
FONT_B=()
IM_FONTS="$(convert -list font 2>/dev/null || true)"
if grep -q 'Font: DejaVu-Sans$' <<<"$IM_FONTS"; then FONT=(-font DejaVu-Sans); fi
if grep -q 'Font: DejaVu-Sans-Bold$' <<<"$IM_FONTS"; then FONT_B=(-font DejaVu-Sans-Bold); fi

# PNG/JPEG output flags: no metadata, no timestamps.
PNG_OPTS=(-strip -define png:exclude-chunks=date,time,tEXt,zTXt,iTXt)
JPG_OPTS=(-strip -quality 82 -sampling-factor 2x2 -interlace none)

svg_to_png() { # in.svg out.png size
  if command -v rsvg-convert >/dev/null 2>&1; then
    rsvg-convert -w "$3" -h "$3" -f png -o "$TMP/svg.png" "$1"
    convert "$TMP/svg.png" "${PNG_OPTS[@]}" "PNG32:$2"
  else
    convert -background none -density 384 "$1" -resize "${3}x${3}" "${PNG_OPTS[@]}" "PNG32:$2"
  fi
}

duration_ms() { # media file -> integer milliseconds (floor)
  ffprobe -v error -show_entries format=duration -of default=noprint_wrappers=1:nokey=1 "$1" \
    | awk '{ printf "%d\n", $1 * 1000 }'
}

# speak VOICE TEXT OUT.mp3 [min_ms max_ms] — espeak-ng -> wav -> lame mp3 (mono, 22.05 kHz, 32 kbps CBR).
# The speaking rate is adjusted deterministically so the clip lands inside [min_ms, max_ms].
speak() {
  local voice="$1" text="$2" out="$3" min="${4:-3200}" max="${5:-7800}" speed=160 d tries=0
  while :; do
    espeak-ng -v "$voice" -s "$speed" -w "$TMP/clip.wav" "$text"
    d="$(duration_ms "$TMP/clip.wav")"
    tries=$((tries + 1))
    if (( d > max && tries < 12 )); then speed=$((speed + 12))
    elif (( d < min && tries < 12 )); then speed=$((speed - 12))
    else break; fi
  done
  if (( d > max || d < min )); then echo "clip $out: ${d} ms outside ${min}-${max} ms" >&2; exit 1; fi
  mkdir -p "$(dirname "$out")"
  lame --quiet --noreplaygain -m m -b 32 --cbr --resample 22.05 "$TMP/clip.wav" "$out"
  WAV_MS="$d"
}

# ---------------------------------------------------------------- python helper (GPX, MBTiles, SRT, JSON, PDF, map drawing)
HELPER="$TMP/helper.py"
cat > "$HELPER" <<'PY'
import json, math, os, re, sqlite3, sys
from xml.sax.saxutils import escape

R_EARTH = 6371008.8

def read_stops(path):
    stops = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            line = line.rstrip("\n")
            if not line:
                continue
            nn, slug, name, lat, lon = line.split("|")
            stops.append(dict(nn=nn, slug=slug, name=name, lat=float(lat), lon=float(lon)))
    return stops

def read_track(path):
    with open(path) as fh:
        return [tuple(map(float, l.split())) for l in fh if l.strip()]

def haversine(a, b):
    la1, lo1, la2, lo2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * R_EARTH * math.asin(math.sqrt(h))

def track_length(pts):
    return sum(haversine(pts[i], pts[i + 1]) for i in range(len(pts) - 1))

def build_track(stops):
    """Stops in order with 3-6 deterministic, gently curving intermediate points between each pair."""
    pts = []
    for i in range(len(stops) - 1):
        a, b = stops[i], stops[i + 1]
        pts.append((a["lat"], a["lon"]))
        n = 3 + (i % 4)
        coslat = math.cos(math.radians((a["lat"] + b["lat"]) / 2))
        # work in a local metric plane (metres)
        dx = (b["lon"] - a["lon"]) * coslat * 111320.0
        dy = (b["lat"] - a["lat"]) * 110540.0
        seg = math.hypot(dx, dy)
        px, py = -dy / seg, dx / seg  # unit perpendicular
        amp = min(40.0, 0.18 * seg) * (1 if i % 2 == 0 else -1)
        for k in range(1, n + 1):
            t = k / (n + 1)
            off = amp * math.sin(math.pi * t) + 6.0 * math.sin(2.3 * k + 1.7 * i)
            mx, my = dx * t + px * off, dy * t + py * off
            pts.append((round(a["lat"] + my / 110540.0, 6), round(a["lon"] + mx / (111320.0 * coslat), 6)))
    pts.append((stops[-1]["lat"], stops[-1]["lon"]))
    return pts

def cmd_gpx(stops_path, title, out_gpx, out_track):
    stops = read_stops(stops_path)
    pts = build_track(stops)
    L = []
    L.append('<?xml version="1.0" encoding="UTF-8"?>')
    L.append('<gpx version="1.1" creator="Livery sample media" xmlns="http://www.topografix.com/GPX/1/1"'
             ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'
             ' xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">')
    L.append('  <metadata>')
    L.append('    <name>%s</name>' % escape(title))
    L.append('    <desc>Sample walking route generated by scripts/make-sample-media.sh</desc>')
    L.append('  </metadata>')
    for s in stops:
        L.append('  <wpt lat="%.5f" lon="%.5f">' % (s["lat"], s["lon"]))
        L.append('    <name>%s</name>' % escape(s["name"]))
        L.append('    <cmt>%s</cmt>' % escape(s["slug"]))
        L.append('    <desc>Stop %s</desc>' % s["nn"])
        L.append('  </wpt>')
    L.append('  <trk>')
    L.append('    <name>%s</name>' % escape(title))
    L.append('    <trkseg>')
    for lat, lon in pts:
        L.append('      <trkpt lat="%.6f" lon="%.6f"/>' % (lat, lon))
    L.append('    </trkseg>')
    L.append('  </trk>')
    L.append('</gpx>')
    with open(out_gpx, "w", encoding="utf-8") as fh:
        fh.write("\n".join(L) + "\n")
    with open(out_track, "w") as fh:
        for lat, lon in pts:
            fh.write("%.6f %.6f\n" % (lat, lon))

def cmd_mapdraw(track_path, stops_path, out_draw, out_labels, size="300"):
    size = int(size)
    pts = read_track(track_path)
    stops = read_stops(stops_path)
    lats = [p[0] for p in pts]; lons = [p[1] for p in pts]
    coslat = math.cos(math.radians(sum(lats) / len(lats)))
    minx, maxx = min(lons) * coslat, max(lons) * coslat
    miny, maxy = min(lats), max(lats)
    pad = 40
    scale = (size - 2 * pad) / max(maxx - minx, maxy - miny)
    cx, cy = (minx + maxx) / 2, (miny + maxy) / 2
    def xy(lat, lon):
        return (size / 2 + (lon * coslat - cx) * scale, size / 2 - (lat - cy) * scale)
    D = []
    D.append("stroke '#e2dccd' stroke-width 1 fill none")
    for g in range(0, size + 1, 25):
        D.append("line %d,0 %d,%d" % (g, g, size))
        D.append("line 0,%d %d,%d" % (g, size, g))
    D.append("stroke '#ffffff' stroke-width 9 stroke-linejoin round stroke-linecap round fill none")
    D.append("polyline " + " ".join("%.1f,%.1f" % xy(*p) for p in pts))
    D.append("stroke '#2a6f97' stroke-width 4 stroke-linejoin round stroke-linecap round fill none")
    D.append("polyline " + " ".join("%.1f,%.1f" % xy(*p) for p in pts))
    D.append("stroke '#ffffff' stroke-width 2 fill '#d1495b'")
    labels = []
    for s in stops:
        x, y = xy(s["lat"], s["lon"])
        D.append("circle %.1f,%.1f %.1f,%.1f" % (x, y, x + 9, y))
        labels.append("%d %d %d" % (int(s["nn"]), round(x), round(y)))
    with open(out_draw, "w") as fh:
        fh.write("\n".join(D) + "\n")
    with open(out_labels, "w") as fh:
        fh.write("\n".join(labels) + "\n")

def tile_xy(lat, lon, z):
    n = 2 ** z
    x = int((lon + 180.0) / 360.0 * n)
    r = math.radians(lat)
    y = int((1.0 - math.log(math.tan(r) + 1.0 / math.cos(r)) / math.pi) / 2.0 * n)
    return min(max(x, 0), n - 1), min(max(y, 0), n - 1)

def cmd_mbtiles(track_path, name, desc, tile14, tile15, out):
    pts = read_track(track_path)
    pad = 0.002
    minlat = min(p[0] for p in pts) - pad; maxlat = max(p[0] for p in pts) + pad
    minlon = min(p[1] for p in pts) - pad; maxlon = max(p[1] for p in pts) + pad
    if os.path.exists(out):
        os.remove(out)
    db = sqlite3.connect(out)
    db.execute("PRAGMA page_size = 1024")
    db.execute("PRAGMA journal_mode = DELETE")
    db.execute("CREATE TABLE metadata (name text, value text)")
    db.execute("CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob)")
    db.execute("CREATE UNIQUE INDEX name ON metadata (name)")
    db.execute("CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row)")
    meta = [
        ("name", name),
        ("format", "png"),
        ("bounds", "%.5f,%.5f,%.5f,%.5f" % (minlon, minlat, maxlon, maxlat)),
        ("center", "%.5f,%.5f,14" % ((minlon + maxlon) / 2, (minlat + maxlat) / 2)),
        ("minzoom", "14"),
        ("maxzoom", "15"),
        ("type", "baselayer"),
        ("version", "1.0"),
        ("description", desc),
        ("attribution", "Livery sample media (synthetic tiles)"),
    ]
    db.executemany("INSERT INTO metadata (name, value) VALUES (?, ?)", meta)
    blobs = {14: open(tile14, "rb").read(), 15: open(tile15, "rb").read()}
    count = 0
    for z in (14, 15):
        x0, y0 = tile_xy(maxlat, minlon, z)  # top-left (XYZ)
        x1, y1 = tile_xy(minlat, maxlon, z)  # bottom-right (XYZ)
        for x in range(x0, x1 + 1):
            for y in range(y0, y1 + 1):
                tms_row = (2 ** z) - 1 - y
                db.execute("INSERT INTO tiles VALUES (?, ?, ?, ?)", (z, x, tms_row, sqlite3.Binary(blobs[z])))
                count += 1
    db.commit()
    db.execute("VACUUM")
    db.close()
    print(count)

def fmt_srt(ms):
    h, ms = divmod(ms, 3600000); m, ms = divmod(ms, 60000); s, ms = divmod(ms, 1000)
    return "%02d:%02d:%02d,%03d" % (h, m, s, ms)

def wrap2(text, width=42):
    if len(text) <= width:
        return text
    mid = len(text) // 2
    spaces = [i for i, c in enumerate(text) if c == " "]
    if not spaces:
        return text
    cut = min(spaces, key=lambda i: abs(i - mid))
    return text[:cut] + "\n" + text[cut + 1:]

def cmd_srt(text_path, dur_ms, out):
    text = open(text_path, encoding="utf-8").read().strip()
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", text) if s]
    end = int(dur_ms) - 300  # last cue ends >= 300 ms before the audio ends
    gap = 80
    usable = end - gap * (len(sentences) - 1)
    total = sum(len(s) for s in sentences)
    cues, t = [], 0
    for i, s in enumerate(sentences):
        stop = end if i == len(sentences) - 1 else t + int(usable * len(s) / total)
        cues.append((t, stop, s))
        t = stop + gap
    with open(out, "w", encoding="utf-8") as fh:
        for i, (a, b, s) in enumerate(cues, 1):
            assert 0 <= a < b <= end
            fh.write("%d\n%s --> %s\n%s\n\n" % (i, fmt_srt(a), fmt_srt(b), wrap2(s)))

def cmd_routelength(track_path):
    print("route length: %d m" % round(track_length(read_track(track_path))), file=sys.stderr)

def pdf_str(s):
    b = s.encode("cp1252")
    return b"(" + b.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"

def cmd_pdf(out):
    W, H = 595, 842
    habits = ["Spinal roll", "10 slow squats", "1-minute march", "Shoulder circles",
              "5 slow breaths", "Glass of water", "Note how I feel"]
    days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    c = []
    def text(font, size, x, y, s, rgb=(0.1, 0.1, 0.12)):
        c.append(b"%.3f %.3f %.3f rg BT /%s %d Tf %.1f %.1f Td " % (rgb + (font.encode(), size, x, y)) + pdf_str(s) + b" Tj ET")
    # header band
    c.append(b"0.906 0.435 0.318 rg 0 772 595 70 re f")
    text("F2", 26, 48, 798, "Habit Tracker", (1, 1, 1))
    text("F1", 12, 48, 780, "Morning movement \u2014 Compa\u00f1ero \u00b7 Luc\u00eda", (1, 1, 1))
    text("F1", 11, 48, 740, "Week of: ____________________      Goal: move for ten minutes before breakfast.")
    # grid
    left, top, first_w, col_w, row_h = 48, 710, 170, 47, 40
    n_rows = len(habits) + 1
    right = left + first_w + col_w * len(days)
    bottom = top - row_h * n_rows
    c.append(b"0.992 0.969 0.933 rg %d %d %d %d re f" % (left, top - row_h, right - left, row_h))
    c.append(b"0.35 0.35 0.38 RG 0.8 w")
    for r in range(n_rows + 1):
        y = top - r * row_h
        c.append(b"%d %d m %d %d l S" % (left, y, right, y))
    xs = [left, left + first_w] + [left + first_w + col_w * (i + 1) for i in range(len(days))]
    for x in xs:
        c.append(b"%d %d m %d %d l S" % (x, top, x, bottom))
    text("F2", 12, left + 8, top - 25, "Habit")
    for i, d in enumerate(days):
        text("F2", 12, left + first_w + col_w * i + 12, top - 25, d)
    for r, h in enumerate(habits, 1):
        text("F1", 12, left + 8, top - r * row_h - 25, h)
        for i in range(len(days)):  # empty tick boxes
            x = left + first_w + col_w * i + 16
            y = top - r * row_h - 28
            c.append(b"0.6 0.6 0.62 RG 0.6 w %d %d 15 15 re S" % (x, y))
    text("F1", 10, 48, bottom - 30, "Tick a box each morning. Missed a day? Start again tomorrow, without guilt.", (0.35, 0.35, 0.38))
    text("F1", 9, 48, 40, "Sample worksheet generated for the Livery companero-lucia tenant.", (0.55, 0.55, 0.58))
    content = b"\n".join(c) + b"\n"
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> /Contents 4 0 R >>" % (W, H),
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"endstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
        b"<< /Title (Habit Tracker) /Author (Compa\\361ero - Luc\\355a) /Producer (Livery sample media) >>",
    ]
    data = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, o in enumerate(objs, 1):
        offsets.append(len(data))
        data += b"%d 0 obj\n" % i + o + b"\nendobj\n"
    xref = len(data)
    data += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    for off in offsets:
        data += b"%010d 00000 n \n" % off
    data += b"trailer\n<< /Size %d /Root 1 0 R /Info 7 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    with open(out, "wb") as fh:
        fh.write(data)

if __name__ == "__main__":
    globals()["cmd_" + sys.argv[1]](*sys.argv[2:])
PY
py() { python3 "$HELPER" "$@"; }

# ---------------------------------------------------------------- logos (SVG + PNG)
write_logo() { # tenant_dir svg_text
  local dir="$1/assets"
  mkdir -p "$dir"
  printf '%s\n' "$2" > "$dir/logo.svg"
  # 1024 px: launchers and stores scale the raster logo up (assets.image-budget asks for 512 at least).
  svg_to_png "$dir/logo.svg" "$dir/logo.png" 1024
}

write_logo Tenants/sonic-walkscape '<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">
  <title>Sonic Walkscape</title>
  <rect width="256" height="256" rx="48" fill="#1F2A44"/>
  <path d="M128 58c-26 0-46 20-46 46 0 34 46 86 46 86s46-52 46-86c0-26-20-46-46-46z" fill="#F4A259"/>
  <circle cx="128" cy="104" r="16" fill="#1F2A44"/>
  <path d="M190 80a60 60 0 0 1 0 48M206 66a82 82 0 0 1 0 76" fill="none" stroke="#F4A259" stroke-width="8" stroke-linecap="round"/>
  <path d="M66 80a60 60 0 0 0 0 48M50 66a82 82 0 0 0 0 76" fill="none" stroke="#F4A259" stroke-width="8" stroke-linecap="round"/>
  <text x="128" y="228" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-size="24" font-weight="bold" fill="#FFFFFF">walkscape</text>
</svg>'

write_logo Tenants/companero '<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">
  <title>Compañero</title>
  <circle cx="128" cy="128" r="124" fill="#E4572E"/>
  <circle cx="100" cy="112" r="44" fill="none" stroke="#FFFFFF" stroke-width="12"/>
  <circle cx="156" cy="112" r="44" fill="none" stroke="#FFE8D6" stroke-width="12"/>
  <text x="128" y="204" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-size="28" font-weight="bold" fill="#FFFFFF">compañero</text>
</svg>'

write_logo Tenants/physio-clinic '<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">
  <title>Physio Clinic</title>
  <rect width="256" height="256" rx="36" fill="#0066CC"/>
  <path d="M106 40h44v50h50v44h-50v50h-44v-50H56V90h50z" fill="#FFFFFF"/>
  <path d="M84 198c30 22 58 22 88 0" fill="none" stroke="#9FD3FF" stroke-width="10" stroke-linecap="round"/>
</svg>'

write_logo Tenants/urbannest '<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">
  <title>UrbanNest</title>
  <rect width="256" height="256" fill="#0D7377"/>
  <path d="M48 132L128 60l80 72" fill="none" stroke="#FFFFFF" stroke-width="14" stroke-linejoin="round" stroke-linecap="round"/>
  <path d="M76 124v60h104v-60" fill="none" stroke="#FFFFFF" stroke-width="14" stroke-linejoin="round"/>
  <path d="M100 164q28 22 56 0" fill="none" stroke="#32E0C4" stroke-width="10" stroke-linecap="round"/>
  <text x="128" y="232" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-size="26" font-weight="bold" fill="#FFFFFF">urbannest</text>
</svg>'

write_logo Tenants/travel-experiences '<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">
  <title>Travel Experiences</title>
  <circle cx="128" cy="128" r="124" fill="#F28C28"/>
  <circle cx="128" cy="118" r="70" fill="none" stroke="#FFFFFF" stroke-width="8"/>
  <path d="M128 56l16 62-16 62-16-62z" fill="#FFFFFF"/>
  <path d="M66 118l62-14 62 14-62 14z" fill="#FFE5C2"/>
  <text x="128" y="226" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-size="26" font-weight="bold" fill="#FFFFFF">travel</text>
</svg>'

# ---------------------------------------------------------------- sonic-walkscape tours
declare -A TEXT=(
  # Florence — Renaissance
  [duomo.en]="Welcome to Piazza del Duomo. Brunelleschi's red dome has crowned Florence for almost six centuries."
  [duomo.it]="Benvenuti in Piazza del Duomo. La cupola rossa del Brunelleschi domina Firenze da quasi sei secoli."
  [duomo.fr]="Bienvenue sur la Piazza del Duomo. La coupole rouge de Brunelleschi domine Florence depuis près de six siècles."
  [orsanmichele.en]="This is Orsanmichele, a grain market turned into a church. Look for the guild statues in its outer niches."
  [orsanmichele.it]="Questa è Orsanmichele, un mercato del grano diventato chiesa. Cercate le statue delle arti nelle nicchie esterne."
  [orsanmichele.fr]="Voici Orsanmichele, un marché aux grains devenu église. Cherchez les statues des corporations dans ses niches."
  [signoria.en]="Piazza della Signoria is the political heart of Florence. A copy of Michelangelo's David guards the Palazzo Vecchio."
  [signoria.it]="Piazza della Signoria è il cuore politico di Firenze. Una copia del David di Michelangelo sorveglia Palazzo Vecchio."
  [signoria.fr]="La Piazza della Signoria est le cœur politique de Florence. Une copie du David de Michel-Ange garde le Palazzo Vecchio."
  [ponte-vecchio.en]="The Ponte Vecchio is the oldest bridge in Florence. Its little shops have belonged to goldsmiths for centuries."
  [ponte-vecchio.it]="Il Ponte Vecchio è il ponte più antico di Firenze. Le sue botteghe appartengono agli orafi da secoli."
  [ponte-vecchio.fr]="Le Ponte Vecchio est le plus ancien pont de Florence. Ses petites boutiques appartiennent aux orfèvres depuis des siècles."
  [pitti.en]="Palazzo Pitti was the home of the Medici grand dukes. Behind it, the Boboli Gardens climb the hill."
  [pitti.it]="Palazzo Pitti fu la residenza dei granduchi Medici. Alle sue spalle, il Giardino di Boboli sale sulla collina."
  [pitti.fr]="Le palais Pitti fut la résidence des grands-ducs Médicis. Derrière lui, le jardin de Boboli grimpe sur la colline."
  # Rome — Trastevere
  [ponte-sisto.en]="Ponte Sisto links the historic centre to Trastevere. Pope Sixtus the Fourth had it built in the fifteenth century."
  [ponte-sisto.it]="Ponte Sisto collega il centro storico a Trastevere. Lo fece costruire papa Sisto Quarto nel Quattrocento."
  [ponte-sisto.fr]="Le Ponte Sisto relie le centre historique au Trastevere. Le pape Sixte Quatre le fit construire au quinzième siècle."
  [santa-maria.en]="Santa Maria in Trastevere is one of the oldest churches in Rome. Its golden mosaics glow at sunset."
  [santa-maria.it]="Santa Maria in Trastevere è una delle chiese più antiche di Roma. I suoi mosaici dorati brillano al tramonto."
  [santa-maria.fr]="Sainte-Marie-du-Trastevere est l'une des plus anciennes églises de Rome. Ses mosaïques dorées brillent au couchant."
  [san-francesco.en]="San Francesco a Ripa stands where Saint Francis stayed in Rome. Inside, look for a marble statue by Bernini."
  [san-francesco.it]="San Francesco a Ripa sorge dove san Francesco soggiornò a Roma. All'interno cercate una statua del Bernini."
  [san-francesco.fr]="Saint-François-à-Ripa s'élève là où saint François séjourna à Rome. À l'intérieur, cherchez une statue du Bernin."
  [santa-cecilia.en]="Our walk ends at Santa Cecilia, the patron saint of music. Step into the quiet courtyard before you leave."
  [santa-cecilia.it]="La nostra passeggiata termina a Santa Cecilia, patrona della musica. Entrate nel cortile silenzioso prima di andare."
  [santa-cecilia.fr]="Notre promenade se termine à Sainte-Cécile, patronne de la musique. Entrez dans la cour paisible avant de partir."
)

FLORENCE_STOPS='01|duomo|Piazza del Duomo|43.77310|11.25600
02|orsanmichele|Orsanmichele|43.77087|11.25490
03|signoria|Piazza della Signoria|43.76960|11.25580
04|ponte-vecchio|Ponte Vecchio|43.76800|11.25310
05|pitti|Palazzo Pitti|43.76520|11.25000'

ROME_STOPS='01|ponte-sisto|Ponte Sisto|41.89230|12.47090
02|santa-maria|Santa Maria in Trastevere|41.88950|12.47010
03|san-francesco|San Francesco a Ripa|41.88570|12.47390
04|santa-cecilia|Santa Cecilia|41.88760|12.47610'

# tiny real PNG tiles for the MBTiles (one per zoom level)
convert -size 32x32 gradient:'#EEE9DF'-'#D7E4D2' "${PNG_OPTS[@]}" "PNG8:$TMP/tile14.png"
convert -size 32x32 gradient:'#F2EEE6'-'#CFE0EA' "${PNG_OPTS[@]}" "PNG8:$TMP/tile15.png"

make_tour() { # slug title subtitle stops cover_draw_fn colours...
  local tour="$1" title="$2" subtitle="$3" stops="$4" c1="$5" c2="$6" accent="$7"
  local dir="Tenants/sonic-walkscape/tours/$tour"
  mkdir -p "$dir"
  printf '%s\n' "$stops" > "$TMP/stops.txt"

  # route.gpx + track points
  py gpx "$TMP/stops.txt" "$title" "$dir/route.gpx" "$TMP/track.txt"

  # map.png: route polyline with numbered stop dots
  py mapdraw "$TMP/track.txt" "$TMP/stops.txt" "$TMP/map.draw" "$TMP/labels.txt" 300
  local ann=() n x y
  while read -r n x y; do
    ann+=(-annotate "+$((x - 150))+$((y - 150))" "$n")
  done < "$TMP/labels.txt"
  convert -size 300x300 xc:'#F6F2E9' -draw "$(cat "$TMP/map.draw")" \
    "${FONT_B[@]}" -pointsize 11 -fill white -gravity center "${ann[@]}" \
    -gravity southwest -fill '#3a3a3a' -pointsize 12 -annotate +8+6 "$title" \
    "${PNG_OPTS[@]}" "PNG24:$dir/map.png"

  # cover.jpg
  convert -size 400x225 gradient:"$c1"-"$c2" \
    -fill "$accent" -draw "path 'M 262,190 Q 262,92 312,80 Q 362,92 362,190 Z'" \
    -draw "rectangle 304,62 320,82" -draw "rectangle 236,188 388,200" \
    -fill '#00000033' -draw "rectangle 0,150 400,225" \
    "${FONT_B[@]}" -fill white -pointsize 26 -gravity southwest -annotate +16+36 "$title" \
    "${FONT[@]}" -pointsize 13 -annotate +16+14 "$subtitle" \
    "${JPG_OPTS[@]}" "JPEG:$dir/cover.jpg"

  # tiles.mbtiles
  py mbtiles "$TMP/track.txt" "$title" "Synthetic offline base layer for $title" \
    "$TMP/tile14.png" "$TMP/tile15.png" "$dir/tiles.mbtiles" >/dev/null

  # audio + subtitles
  : > "$TMP/durs.txt"
  local nn slug name lat lon lang voice text mp3 srt ms
  while IFS='|' read -r nn slug name lat lon; do
    for lang in it en fr; do
      text="${TEXT[$slug.$lang]}"
      mp3="$dir/audio/$lang/$nn-$slug.mp3"
      srt="$dir/subtitles/$lang/$nn-$slug.srt"
      speak "$lang" "$text" "$mp3" < /dev/null
      ms="$(duration_ms "$mp3")"
      (( WAV_MS < ms )) && ms_srt="$WAV_MS" || ms_srt="$ms"
      mkdir -p "$(dirname "$srt")"
      printf '%s\n' "$text" > "$TMP/text.txt"
      py srt "$TMP/text.txt" "$ms_srt" "$srt"
      printf '%s %s %s\n' "$slug" "$lang" "$ms" >> "$TMP/durs.txt"
    done
  done < "$TMP/stops.txt"

  # Durations and the route length are measured by `livery validate` and shown by `livery inspect`;
  # they are not written to a side file.
  py routelength "$TMP/track.txt"
}

make_tour florence-renaissance "Florence Renaissance" "5 stops · Italiano · English · Français" \
  "$FLORENCE_STOPS" '#F6D7A7' '#C8553D' '#8C2F1B'
make_tour rome-trastevere "Rome Trastevere" "4 stops · Italiano · English · Français" \
  "$ROME_STOPS" '#F7C59F' '#6A4C93' '#3D2C5C'

# ---------------------------------------------------------------- companero-lucia
LUCIA=Tenants/companero-lucia
mkdir -p "$LUCIA/assets" "$LUCIA/library/articles" "$LUCIA/library/video" "$LUCIA/library/audio" \
         "$LUCIA/library/worksheets" "$LUCIA/library/subtitles"

convert -size 128x128 radial-gradient:'#FFD6A5'-'#E76F51' \
  -fill '#FFFFFF' -draw 'circle 64,52 64,30' -draw 'ellipse 64,122 40,34 180,360' \
  "${JPG_OPTS[@]}" "JPEG:$LUCIA/assets/avatar.jpg"

convert -size 400x200 gradient:'#FEFAE0'-'#F4A261' \
  -fill '#E76F51' -draw 'circle 345,100 345,52' -fill '#FEFAE0' -draw 'circle 345,100 345,76' \
  "${FONT_B[@]}" -fill '#264653' -pointsize 24 -gravity west -annotate +24-14 'Move every morning' \
  "${FONT[@]}" -pointsize 15 -annotate +26+22 'Ten minutes with Lucía' \
  "${PNG_OPTS[@]}" "PNG24:$TMP/hero.png"
if command -v cwebp >/dev/null 2>&1; then
  cwebp -quiet -q 75 -m 6 -metadata none "$TMP/hero.png" -o "$LUCIA/assets/hero.webp"
else
  convert "$TMP/hero.png" -strip -quality 75 "WEBP:$LUCIA/assets/hero.webp"
fi

convert -size 1024x1024 xc:none -fill '#2A9D8F' -draw 'roundrectangle 0,0 1023,1023 160,160' \
  "${FONT_B[@]}" -fill white -pointsize 600 -gravity center -annotate +0-24 'L' \
  -fill '#E9C46A' -draw 'rectangle 280,824 744,872' \
  "${PNG_OPTS[@]}" "PNG32:$LUCIA/assets/logo.png"

cat > "$LUCIA/library/articles/morning-routine.en.md" <<'MD'
# Build a Morning Movement Routine

You don't need an hour or a gym to start the day moving. A short, repeatable
routine is easier to keep than an ambitious plan you abandon by Thursday.

## Start small

Pick three movements you enjoy: a gentle spinal roll, ten slow squats and a
one-minute march on the spot work well. Do them right after a habit you already
have, such as filling the kettle.

## Keep it visible

Leave your mat or your shoes where you will see them. Tick a box on your habit
tracker every morning; the growing chain of ticks becomes its own motivation.

## Grow gradually

After two weeks, add one minute or one movement. If you miss a day, simply start
again the next morning, without guilt.

## Breathe

Finish with five slow breaths. Notice how your body feels, and carry that calm
into the rest of your day.

— Lucía
MD

cat > "$LUCIA/library/articles/morning-routine.es.md" <<'MD'
# Crea tu rutina de movimiento matutina

No necesitas una hora ni un gimnasio para empezar el día en movimiento. Una
rutina corta y repetible es más fácil de mantener que un plan ambicioso que
abandonas el jueves.

## Empieza poco a poco

Elige tres movimientos que te gusten: un suave enrollamiento de columna, diez
sentadillas lentas y un minuto de marcha en el sitio funcionan muy bien. Hazlos
justo después de un hábito que ya tengas, como poner la tetera.

## Mantenlo a la vista

Deja la esterilla o las zapatillas donde puedas verlas. Marca una casilla en tu
registro de hábitos cada mañana; la cadena de marcas se convierte en tu propia
motivación.

## Avanza gradualmente

Después de dos semanas, añade un minuto o un movimiento. Si un día fallas,
vuelve a empezar a la mañana siguiente, sin culpa.

## Respira

Termina con cinco respiraciones lentas. Observa cómo se siente tu cuerpo y lleva
esa calma al resto del día.

— Lucía
MD

# video/warm-up.mp4: 3 s, 160x90, H.264 (or MPEG-4 Part 2) + quiet 440 Hz AAC tone
FFMPEG_ENCODERS="$(ffmpeg -hide_banner -encoders 2>/dev/null || true)"
if grep -q ' libx264 ' <<<"$FFMPEG_ENCODERS"; then
  VCODEC=(-c:v libx264 -preset medium -crf 32 -pix_fmt yuv420p -profile:v baseline -x264-params threads=1)
else
  VCODEC=(-c:v mpeg4 -q:v 8 -pix_fmt yuv420p)
fi
ffmpeg -nostdin -y -loglevel error -threads 1 \
  -f lavfi -i 'testsrc=size=160x90:rate=15:duration=3' \
  -f lavfi -i 'sine=frequency=440:sample_rate=22050:duration=3' \
  -map 0:v -map 1:a "${VCODEC[@]}" -af 'volume=0.15' -c:a aac -b:a 32k -ac 1 -shortest \
  -fflags +bitexact -flags:v +bitexact -flags:a +bitexact -map_metadata -1 -map_chapters -1 \
  -movflags +faststart "$LUCIA/library/video/warm-up.mp4"

cat > "$LUCIA/library/subtitles/warm-up.en.vtt" <<'VTT'
WEBVTT

1
00:00:00.000 --> 00:00:01.400
Stand tall and roll your shoulders.

2
00:00:01.500 --> 00:00:02.800
Now march gently on the spot.
VTT

speak en "Breathe in slowly through your nose. Hold it for a moment. Now breathe out gently through your mouth." \
  "$LUCIA/library/audio/breathing.mp3" 5500 7000 < /dev/null

py pdf "$LUCIA/library/worksheets/habit-tracker.pdf"

echo "sample media written under $ROOT/Tenants"
