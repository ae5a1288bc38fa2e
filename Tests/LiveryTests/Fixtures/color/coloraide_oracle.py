"""Independent oracle for ColorMathTests: converts DTCG colours with coloraide.

Reads JSON on stdin: {"colors": [{"space", "components": [number|null], "alpha"}],
"pairs": [[i, j]], "layers": [[fg, bg, base]]}; writes, for each colour, its unmapped sRGB, its
sRGB fitted with CSS Color 4 gamut mapping (coloraide's "oklch-chroma"), the WCAG 2.1 contrast of
each pair of fitted colours, and source-over compositing of each layer triple.
Exit status 3 means coloraide is not installed.
"""
import json
import math
import sys

try:
    from coloraide import Color
except ImportError:
    sys.stderr.write("coloraide is not installed in .venv-test: run `make test-deps`\n")
    sys.exit(3)

# DTCG writes hsl/hwb saturation, lightness, whiteness and blackness as 0-100; coloraide as 0-1.
PERCENT_SPACES = {"hsl", "hwb"}


def make(entry):
    values = [math.nan if v is None else float(v) for v in entry["components"]]
    if entry["space"] in PERCENT_SPACES:
        values = [values[0], values[1] / 100, values[2] / 100]
    return Color(entry["space"], values, entry.get("alpha", 1))


def fitted(color):
    # Fit from the colour's own space, so that coloraide sees its exact Oklab lightness.
    return color.clone().fit("srgb", method="oklch-chroma").convert("srgb")


request = json.load(sys.stdin)
colors = [make(entry) for entry in request["colors"]]
fits = [fitted(c) for c in colors]
result = {
    "colors": [
        {"srgb": c.convert("srgb").coords(nans=False), "fit": f.coords(nans=False)}
        for c, f in zip(colors, fits)
    ],
    "contrast": [fits[i].contrast(fits[j], method="wcag21") for i, j in request["pairs"]],
    "layers": [],
}
for fg, bg, base in request["layers"]:
    backdrop = Color.layer([fits[bg], fits[base].clone().set("alpha", 1)], space="srgb")
    front = Color.layer([fits[fg], backdrop], space="srgb")
    result["layers"].append({
        "foreground": front.coords(nans=False),
        "background": backdrop.coords(nans=False),
        "ratio": front.contrast(backdrop, method="wcag21"),
    })
json.dump(result, sys.stdout)
