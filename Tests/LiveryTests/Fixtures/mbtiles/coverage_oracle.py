"""Independent oracle for MBTilesCoverageTests: writes tours with MBTiles packs (Python's sqlite3) and says, from
the standard Web Mercator tile maths written here, what Livery's tile reader and content.tile-coverage must find.

    python3 coverage_oracle.py tours OUT      # tours under OUT/<case>/, expected findings as JSON on stdout
    python3 coverage_oracle.py hostile OUT    # hostile packs OUT/<name>.mbtiles, their names as JSON

Nothing here is shared with the Swift code: the maths uses asinh(tan φ) where Swift uses log(tan φ + sec φ), and the
expected first missing tile, per-zoom counts and GPX lines are worked out from what this script wrote.
"""
import json
import math
import os
import random
import sqlite3
import sys

PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63f8cfc0f01f000500"
                    "01ff89993d1d0000000049454e44ae426082")
MAX_LAT = 85.05112878


def tile(lat, lon, z):
    """XYZ tile (x, y) holding a point at zoom z."""
    n = 2 ** z
    lat = max(-MAX_LAT, min(MAX_LAT, lat))
    x = math.floor((lon + 180.0) / 360.0 * n)
    y = math.floor((1.0 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2.0 * n)
    return min(max(x, 0), n - 1), min(max(y, 0), n - 1)


def clamp(lat):
    return max(-85.0511, min(85.0511, lat))


def write_pack(path, meta, tiles, xyz_rows=False):
    """tiles: set of (z, x, y) in XYZ. MBTiles rows are TMS unless xyz_rows (the export mistake)."""
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE metadata (name text, value text)")
    db.execute("CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob)")
    db.execute("CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row)")
    db.executemany("INSERT INTO metadata VALUES (?, ?)", sorted(meta.items()))
    rows = sorted((z, x, y if xyz_rows else 2 ** z - 1 - y) for z, x, y in tiles)
    db.executemany("INSERT INTO tiles VALUES (?, ?, ?, ?)", [(z, x, r, PNG) for z, x, r in rows])
    db.commit()
    db.close()


def tours(out):
    rng = random.Random(14)
    # (name, centre latitude, centre longitude, spread in degrees): cities, both hemispheres, the prime meridian and
    # equator, the antimeridian, and beyond Mercator's ±85.0511° (clamped to the edge rows).
    centres = [("florence", 43.77, 11.25, 0.01), ("rome", 41.89, 12.47, 0.01), ("sydney", -33.86, 151.21, 0.02),
               ("null-island", 0.0005, -0.0005, 0.01), ("fiji", -17.7, 179.995, 0.004), ("reykjavik", 64.14, -21.94, 0.03),
               ("ushuaia", -54.8, -68.3, 0.02), ("north", 85.2, 20.0, 0.3), ("quito", -0.18, -78.47, 0.05),
               ("vancouver", 49.28, -123.12, 0.02), ("tms-confusion", 48.85, 2.35, 0.01), ("dense", 35.68, 139.76, 0.004)]
    cases = []
    for index, (name, lat0, lon0, spread) in enumerate(centres * 2):
        case = "case-%d" % index
        folder = os.path.join(out, case)
        os.makedirs(folder, exist_ok=True)
        stops = [(round(lat0 + rng.uniform(-spread, spread), 6), round(lon0 + rng.uniform(-spread, spread), 6)) for _ in range(rng.randint(2, 5))]
        if name == "fiji":
            stops.append((lat0, 180.0))  # longitude 180 is the last column
        if name == "north":
            stops.append((90.0, 20.0))
        stops = [(min(90.0, max(-90.0, a)), b if b <= 180 else b - 360) for a, b in stops]
        count = 200 if name == "dense" else rng.randint(3, 30)
        route = []
        lat, lon = stops[0]
        for _ in range(count):
            lat = min(89.9, max(-89.9, lat + rng.uniform(-spread, spread) / 4))
            lon = lon + rng.uniform(-spread, spread) / 4
            lon = (lon + 180.0) % 360.0 - 180.0  # GPX longitudes are −180…<180
            route.append((round(lat, 6), round(lon, 6)))
        # GPX: points one to a line; some cases give a route (rtept) as well as a track.
        lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<gpx version="1.1" creator="oracle" xmlns="http://www.topografix.com/GPX/1/1">', "<trk><trkseg>"]
        places = [("stop 's%d'" % (i + 1), a, b) for i, (a, b) in enumerate(stops)]
        split = len(route) if index % 3 else len(route) // 2
        for a, b in route[:split]:
            lines.append('<trkpt lat="%s" lon="%s"/>' % (a, b))
            places.append(("route.gpx:%d" % len(lines), a, b))
        lines.append("</trkseg></trk>")
        if split < len(route):
            lines.append("<rte>")
            for a, b in route[split:]:
                lines.append('<rtept lat="%s" lon="%s"/>' % (a, b))
                places.append(("route.gpx:%d" % len(lines), a, b))
            lines.append("</rte>")
        lines.append("</gpx>")
        with open(os.path.join(folder, "route.gpx"), "w") as fh:
            fh.write("\n".join(lines) + "\n")

        zmin = rng.randint(3, 16)
        zmax = zmin + rng.randint(0, 3)
        pack_min, pack_max = zmin - rng.randint(0, 1), zmax + rng.randint(0, 1)
        declared = index % 4 != 1  # otherwise the pack's own range applies
        zooms = range(zmin, zmax + 1) if declared else range(pack_min, pack_max + 1)
        keep = [1.0, 0.9, 0.5, 0.0][index % 4] if name != "tms-confusion" else 1.0
        tiles = set()
        for z in range(pack_min, pack_max + 1):
            for _, a, b in places:
                if rng.random() < keep:
                    tiles.add((z,) + tile(a, b, z))
            x, y = tile(lat0, lon0, z)
            tiles.add((z, min(x + 2, 2 ** z - 1), y))  # a neighbour nobody needs
        lats = [a for _, a, _ in places]
        lons = [b for _, _, b in places]
        meta = {"name": name, "format": "png", "minzoom": str(pack_min), "maxzoom": str(pack_max),
                "bounds": "%.6f,%.6f,%.6f,%.6f" % (min(lons), clamp(min(lats)), max(lons), clamp(max(lats))),
                "center": "%.6f,%.6f,%d" % (lon0, lat0, zmin)}
        xyz_rows = name == "tms-confusion"
        write_pack(os.path.join(folder, "tiles.mbtiles"), meta, tiles, xyz_rows)
        stored = {(z, x, (y if xyz_rows else 2 ** z - 1 - y)) for z, x, y in tiles}  # as rows in the file

        yaml = ["id: %s" % case, "slug: %s" % case, "title: {en: %s}" % name, "city: %s" % name, "durationMinutes: 60", "distanceKm: 1",
                "languages: [en]", "cover: cover.png", "route: route.gpx", "tiles: tiles.mbtiles"]
        tiles_line = len(yaml)
        if declared:
            yaml.append("offlineZoom: {min: %d, max: %d}" % (zmin, zmax))
        yaml.append("stops:")
        for i, (a, b) in enumerate(stops):
            yaml += ["  - id: s%d" % (i + 1), "    order: %d" % (i + 1), "    title: {en: Stop %d}" % (i + 1), "    latitude: %r" % a,
                     "    longitude: %r" % b, "    triggerRadius: 150", "    audio: {en: en.mp3}"]
        with open(os.path.join(folder, "tour.yaml"), "w") as fh:
            fh.write("\n".join(yaml) + "\n")

        findings = []
        for z in zooms:
            needed, missing, first = set(), set(), None
            for place, a, b in places:
                x, y = tile(a, b, z)
                needed.add((x, y))
                if (z, x, 2 ** z - 1 - y) not in stored:
                    missing.add((x, y))
                    if first is None:
                        first = {"zoom": z, "x": x, "y": y, "place": place}
            if first:
                first.update(missing=len(missing), needed=len(needed))
                findings.append(first)
        # Reader probes: every stored tile, every needed tile, and each one's row flipped; present means a row with
        # this z, x and TMS row exists.
        probes = set()
        for z, x, y in tiles:
            probes.add((z, x, y))
            probes.add((z, x, 2 ** z - 1 - y))
        for z in zooms:
            for _, a, b in places:
                probes.add((z,) + tile(a, b, z))
        cases.append({"case": case, "tilesLine": tiles_line, "findings": findings, "xyzRows": xyz_rows,
                      "metadata": {"name": name, "format": "png", "minzoom": pack_min, "maxzoom": pack_max,
                                   "bounds": [float(v) for v in meta["bounds"].split(",")], "center": [lon0, lat0, zmin]},
                      "probes": [[z, x, y, (z, x, 2 ** z - 1 - y) in stored] for z, x, y in sorted(probes)]})
    print(json.dumps(cases))


def hostile(out):
    os.makedirs(out, exist_ok=True)
    made = []

    def pack(name, meta, tiles=(), schema=None):
        path = os.path.join(out, name + ".mbtiles")
        if schema:
            db = sqlite3.connect(path)
            db.executescript(schema)
            db.commit()
            db.close()
        else:
            write_pack(path, meta, set(tiles))
        made.append(name)

    with open(os.path.join(out, "zip.mbtiles"), "wb") as fh:
        fh.write(b"PK\x03\x04" + bytes(60))
    made.append("zip")
    with open(os.path.join(out, "garbage.mbtiles"), "wb") as fh:
        fh.write(b"SQLite format 3\x00" + bytes([0xFF]) * 4080)
    made.append("garbage")
    pack("no-tiles-table", None, schema="CREATE TABLE metadata (name text, value text); INSERT INTO metadata VALUES ('format', 'png');")
    pack("no-metadata-table", None, schema="CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);")
    pack("tiles-without-row", None, schema="CREATE TABLE metadata (name text, value text); CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_data blob);")
    pack("minzoom-abc", {"format": "png", "minzoom": "abc", "maxzoom": "15"}, [(14, 8704, 5971)])
    pack("bounds-three", {"format": "png", "minzoom": "14", "maxzoom": "15", "bounds": "11.2,43.7,11.3"})
    pack("endless-view", None, schema="CREATE TABLE metadata (name text, value text); CREATE VIEW tiles AS WITH RECURSIVE r(n) AS "
                                     "(SELECT 0 UNION ALL SELECT n + 1 FROM r) SELECT 0 AS zoom_level, 0 AS tile_column, n AS tile_row, x'89' AS tile_data FROM r WHERE n < 0;")
    # The whole world at zooms 0-22 by its metadata (4^15, about 10^9, tiles at zoom 15 alone), yet only the tiles
    # of one point at zooms 0-21: nothing may count or walk what the bounds claim.
    point = (43.7731, 11.256)
    pack("world-claim", {"format": "png", "minzoom": "0", "maxzoom": "22", "bounds": "-180,-85.0511,180,85.0511", "center": "11.256,43.7731,14"},
         [(z,) + tile(point[0], point[1], z) for z in range(0, 22)])
    print(json.dumps({"made": made, "worldClaimZoom22": "22/%d/%d" % tile(point[0], point[1], 22)}))


if __name__ == "__main__":
    {"tours": tours, "hostile": hostile}[sys.argv[1]](sys.argv[2])
