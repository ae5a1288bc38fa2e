#!/usr/bin/env python3
"""The synthetic benchmark workspace (scripts/bench-build.sh, scripts/bench-publish.sh), written into
the current folder's Tenants/: 200 small tenants x 3 locales x 1,000 plural messages, and one media
tenant with ~525 MB of incompressible media (50 audio files of 10 MB in one tour language, 5,000
small images)."""
import os, random
random.seed(7)
def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f: f.write(text)
for t in range(200):
    d = f"Tenants/t{t:03d}"
    write(f"{d}/tenant.yaml", f"id: t{t:03d}\nkind: brand\nname: Tenant {t}\nlocales:\n  default: en\n  supported: [en, fr, de]\n"
          "navigation:\n  tabs:\n    - {id: home, icon: house, label: k0}\n    - {id: me, icon: person, label: k1}\n")
    for locale in ("en", "fr", "de"):
        many = " many {# items}" if locale == "fr" else ""  # French plurals also have `many` (CLDR)
        write(f"{d}/locales/{locale}.yaml", "".join(f'k{k}: "{locale} message {k}: {{count, plural, one {{# item}}{many} other {{# items}}}}"\n' for k in range(1000)))
# The media tenant: one tour whose 50 stops each have 10 MB of audio, and 5,000 small hero images.
d = "Tenants/media"
import struct, zlib
# A PNG signature and a real IHDR chunk (64 x 64, RGBA): the asset check reads image sizes from it. The
# random bytes after it stand in for the image data (no check decodes pixels).
ihdr = struct.pack(">IIBBBBB", 64, 64, 8, 6, 0, 0, 0)
png_header = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + struct.pack(">I", 13) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
os.makedirs(f"{d}/assets/images")
heroes = []
for i in range(5000):
    name = f"assets/images/img{i:04d}.png"
    with open(f"{d}/{name}", "wb") as f: f.write(png_header + os.urandom(2000 + i % 1000))
    heroes.append(name)
# Each stop's audio: 10 MB of MPEG-1 layer III frames (128 kbit/s, 44.1 kHz, joint stereo, 417 bytes each, about
# 26 ms), with real frame headers, so the media probe walks every frame, and random bytes as their audio data.
frame_length, frames = 417, (10 << 20) // 417
def mp3():
    data = bytearray(os.urandom(frame_length * frames))
    for i in range(0, len(data), frame_length): data[i:i + 4] = b"\xff\xfb\x90\x44"
    return b"ID3\x04\x00\x00\x00\x00\x00\x00" + bytes(data)
audio_minutes = 50 * frames * 1152 / 44100 / 60
stops, points = [], []
for s in range(50):
    lat, lon = 45.0 + s * 0.001, 9.0
    points.append((lat, lon))
    os.makedirs(f"{d}/tours/walk/audio", exist_ok=True)
    with open(f"{d}/tours/walk/audio/{s:02d}.mp3", "wb") as f: f.write(mp3())
    stops.append(f"  - {{id: s{s:02d}, order: {s + 1}, title: {{en: Stop {s}}}, latitude: {lat}, longitude: {lon}, triggerRadius: 100, audio: {{en: audio/{s:02d}.mp3}}}}\n")
cover_ihdr = struct.pack(">IIBBBBB", 1600, 900, 8, 2, 0, 0, 0)  # 16:9, as covers are
cover_header = png_header[:16] + cover_ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + cover_ihdr))
with open(f"{d}/tours/walk/cover.png", "wb") as f: f.write(cover_header + os.urandom(5000))
gpx = "".join(f'<trkpt lat="{la}" lon="{lo}"/>' for la, lo in points)
write(f"{d}/tours/walk/route.gpx", f'<?xml version="1.0"?>\n<gpx version="1.1" creator="bench" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>{gpx}</trkseg></trk></gpx>\n')
# The declared duration is what validation measures: 5.45 km at 4 km/h plus the audio.
write(f"{d}/tours/walk/tour.yaml", f"id: walk\nslug: walk\ntitle: {{en: Walk}}\ncity: Milan\ndurationMinutes: {round(5.45 / 4 * 60 + audio_minutes)}\ndistanceKm: 5.45\nlanguages: [en]\n"
      "cover: cover.png\nroute: route.gpx\nstops:\n" + "".join(stops))
# Half a gigabyte of audio in one tour language is the point of this tenant: its budget is raised to match.
write(f"{d}/tenant.yaml", "id: media\nkind: brand\nname: Media\nlocales: {default: en, supported: [en]}\nmedia:\n  bundleMegabytes: {tour-language: 1024}\n"
      "assets:\n  hero:\n" + "".join(f"    - {h}\n" for h in heroes))
write(f"{d}/locales/en.yaml", "title: Media\n")
