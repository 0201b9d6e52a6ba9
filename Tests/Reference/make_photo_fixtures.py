#!/usr/bin/env python3
"""Photos in the shapes phones and editors write, made with Pillow (an independent encoder and
decoder), for PhotoCodec's tests (issue 40): the files, and what Pillow decodes from each
(sizes and a grid of pixels), in Tests/HeartworkFormatsTests/Resources/photos/. The Swift tests
read only the committed files; this script made them (pip install pillow==13.0.0):

    python3 Tests/Reference/make_photo_fixtures.py
"""
import json
import os

from PIL import Image

OUT = os.path.join(os.path.dirname(__file__), "..", "HeartworkFormatsTests", "Resources", "photos")


def picture(width, height):
    """Gradients, a dark disc and a bright bar: edges and smooth areas both."""
    image = Image.new("RGB", (width, height))
    for y in range(height):
        for x in range(width):
            r, g, b = x * 255 // max(1, width - 1), y * 255 // max(1, height - 1), 128
            if (x - width // 3) ** 2 + (y - height // 2) ** 2 < (min(width, height) // 4) ** 2:
                r, g, b = 20, 40, 200
            if width * 2 // 3 < x < width * 2 // 3 + 6:
                r, g, b = 250, 250, 30
            image.putpixel((x, y), (r, g, b))
    return image


def transparent(image):
    """RGBA, its left quarter see-through and a band half so."""
    rgba = image.convert("RGBA")
    for y in range(rgba.height):
        for x in range(rgba.width):
            r, g, b, _ = rgba.getpixel((x, y))
            rgba.putpixel((x, y), (r, g, b, 0 if x < rgba.width // 4 else (128 if y < 8 else 255)))
    return rgba


def grid(image, step=7):
    rgba = image.convert("RGBA")
    return [[x, y, list(rgba.getpixel((x, y)))] for y in range(0, image.height, step) for x in range(0, image.width, step)]


def main():
    os.makedirs(OUT, exist_ok=True)
    expected = {}
    base = picture(96, 64)
    exif = Image.Exif()
    exif[0x0112] = 6  # the camera was turned: the picture is upright after 90° clockwise
    exif[0x010F] = "Probe Camera"
    files = {
        "baseline-exif6.jpg": lambda path: base.save(path, quality=90, subsampling=2, exif=exif.tobytes()),
        "baseline-444.jpg": lambda path: base.save(path, quality=95, subsampling=0),
        "gray.jpg": lambda path: base.convert("L").save(path, quality=90),
        "progressive.jpg": lambda path: base.save(path, quality=90, progressive=True),
        "rgba.png": lambda path: transparent(base).save(path),
        "interlaced.png": lambda path: picture(33, 21).save(path, interlace=1),
        "palette.png": lambda path: base.quantize(16).save(path, transparency=3),
        # 16-bit gray, each 8-bit value v stored as v × 257 (what an 8-bit reader takes as v).
        "gray16.png": lambda path: base.convert("L").convert("I").point(lambda v: v * 257).convert("I;16").save(path),
    }
    for name, save in files.items():
        path = os.path.join(OUT, name)
        save(path)
        with Image.open(path) as image:
            image.load()
            # 16-bit samples as an 8-bit reader takes them (Pillow's RGBA conversion clips them).
            shown = base.convert("L") if name == "gray16.png" else image
            expected[name] = {"width": image.width, "height": image.height, "mode": image.mode, "pixels": grid(shown)}
    with open(os.path.join(OUT, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write("\n")
    print(", ".join(f"{name} {entry['width']}×{entry['height']} {entry['mode']}" for name, entry in expected.items()))


if __name__ == "__main__":
    main()
